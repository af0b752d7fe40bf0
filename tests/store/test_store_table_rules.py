"""Table rules in the database (issue 27): a learner's own, a class's (owner
checked), the rules each practice hand and class hand is dealt under, and
migration 0015_table_rules, after which every hand stored before reads back
as played: with C6 on (`BEFORE_SWITCHES`)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from alembic import command
from sqlmodel import Session, select

from coach.rules.table_rules import BEFORE_SWITCHES, LEAGUE, TableRules
from coach.store import accounts, hands
from coach.store import table_rules as store
from coach.store.db import alembic_config, make_engine, migrate
from coach.store.models import ClassHand, ClassRules, Learner, LearnerRules, PracticeHand
from coach.store.teaching import classrooms
from coach.store.teaching import hands as class_hands
from tests.support.people import person

CARD = "Mahjong Coach House Card 2026"
FOUR_BLANKS_COLD = TableRules(blanks=4, wall_end="cold")
THREE_PLAYERS = TableRules(players=3, joker_in_courtesy=True)


def test_TR1_a_learners_own_rules_are_kept_and_read_back(engine):
    ann, bob = person(engine, "Ann"), person(engine, "Bob")
    with Session(engine) as session:
        assert store.learner_rules(session, ann) == LEAGUE  # no row: the League's
        assert store.set_learner_rules(session, ann, FOUR_BLANKS_COLD) is True
        assert store.learner_rules(session, ann) == FOUR_BLANKS_COLD
        assert store.learner_rules(session, bob) == LEAGUE
        assert store.set_learner_rules(session, ann, THREE_PLAYERS) is True  # a second choice replaces the first
        assert store.learner_rules(session, ann) == THREE_PLAYERS
        assert len(session.exec(select(LearnerRules).where(LearnerRules.learner_id == ann)).all()) == 1
        assert store.set_learner_rules(session, ann, LEAGUE) is True  # "Back to League rules"
        assert store.learner_rules(session, ann) == LEAGUE
        (row,) = session.exec(select(LearnerRules).where(LearnerRules.learner_id == ann)).all()
        assert row.rules == "{}"
        assert store.set_learner_rules(session, 999_999, THREE_PLAYERS) is False  # nobody: nothing kept
        assert session.exec(select(LearnerRules).where(LearnerRules.learner_id == 999_999)).first() is None


def test_TR2_a_class_s_rules_are_set_and_read_by_its_teacher_only(engine):
    teacher, other, ann = person(engine, "Tess", teacher=True), person(engine, "Otto", teacher=True), person(engine, "Ann")
    with Session(engine) as session:
        room = classrooms.create_class(session, teacher, "Tuesday")
        assert classrooms.class_rules(session, room.id) == LEAGUE  # no row: the League's
        assert classrooms.table_rules_taught(session, teacher, room.id) == LEAGUE
        assert classrooms.set_table_rules(session, other, room.id, FOUR_BLANKS_COLD) is None  # not theirs
        assert classrooms.set_table_rules(session, ann, room.id, FOUR_BLANKS_COLD) is None
        assert classrooms.table_rules_taught(session, other, room.id) is None
        assert classrooms.table_rules_taught(session, teacher, room.id) == LEAGUE  # unchanged by the others
        assert classrooms.set_table_rules(session, teacher, room.id, FOUR_BLANKS_COLD) == FOUR_BLANKS_COLD
        assert classrooms.set_table_rules(session, teacher, room.id, THREE_PLAYERS) == THREE_PLAYERS  # replaces it
        assert classrooms.table_rules_taught(session, teacher, 999_999) is None
        assert len(session.exec(select(ClassRules).where(ClassRules.classroom_id == room.id)).all()) == 1
    with Session(engine) as session:
        assert classrooms.class_rules(session, room.id) == THREE_PLAYERS
        assert classrooms.delete_class(session, teacher, room.id)
        assert session.exec(select(ClassRules)).all() == []  # the class's rules go with it


def test_TR4_a_new_hand_keeps_its_rules_and_the_league_is_stored_as_empty(engine):
    ann = person(engine, "Ann")
    with Session(engine) as session:
        league = hands.new_hand(session, ann, CARD, "club", seed=7)
        three = hands.new_hand(session, ann, CARD, "club", seed=7, rules=THREE_PLAYERS)
        assert league.rules == "{}" and store.hand_rules(league) == LEAGUE
        assert json.loads(three.rules) == {"joker_in_courtesy": True, "players": 3}
        assert store.hand_rules(three) == THREE_PLAYERS
        assert [h["rules"] for h in hands.export_hands(session, ann)] == [{}, {"players": 3, "joker_in_courtesy": True}]


def test_TR1_a_class_hand_keeps_the_class_s_rules_of_the_day_it_was_given(engine):
    teacher, ann, bob = person(engine, "Tess", teacher=True), person(engine, "Ann"), person(engine, "Bob")
    with Session(engine) as session:
        room = classrooms.create_class(session, teacher, "Tuesday")
        for student in (ann, bob):
            classrooms.join_class(session, session.get(Learner, student), room.join_code)
        classrooms.set_table_rules(session, teacher, room.id, FOUR_BLANKS_COLD)
        given = class_hands.assign_hand(session, teacher, room.id, "Week 3", "club", seed=4242)
        assert store.hand_rules(given) == FOUR_BLANKS_COLD
        first, _ = class_hands.start_hand(session, ann, given, CARD)
        assert store.hand_rules(first) == FOUR_BLANKS_COLD
        # The teacher changes the class's rules: the hand already given keeps its own,
        # so Bob, starting later, plays what Ann played; a hand given now takes the new ones.
        classrooms.set_table_rules(session, teacher, room.id, THREE_PLAYERS)
        second, _ = class_hands.start_hand(session, bob, session.get(ClassHand, given.id), CARD)
        assert store.hand_rules(second) == FOUR_BLANKS_COLD
        later = class_hands.assign_hand(session, teacher, room.id, "Week 4", "club", seed=5)
        assert store.hand_rules(later) == THREE_PLAYERS


def test_a_learner_s_rules_go_out_with_their_data_and_away_with_them(engine):
    ann, teacher = person(engine, "Ann"), person(engine, "Tess", teacher=True)
    with Session(engine) as session:
        store.set_learner_rules(session, ann, FOUR_BLANKS_COLD)
        room = classrooms.create_class(session, teacher, "Tuesday")
        classrooms.set_table_rules(session, teacher, room.id, THREE_PLAYERS)
        now = datetime(2026, 12, 2, tzinfo=UTC)
        assert accounts.export_data(session, session.get(Learner, ann), now)["learner"]["table_rules"] == FOUR_BLANKS_COLD.to_json()
        (taught,) = accounts.export_data(session, session.get(Learner, teacher), now)["teaching"]["classes_taught"]
        assert taught["table_rules"] == THREE_PLAYERS.to_json()
        accounts.delete_learner(session, ann)
        accounts.delete_learner(session, teacher)
    with Session(engine) as session:
        assert session.exec(select(LearnerRules)).all() == [] and session.exec(select(ClassRules)).all() == []


# -- migration 0015_table_rules ----------------------------------------------------------

BEFORE_TABLE_RULES = "0014_blind_pass"
STAMP = "2026-12-01 10:00:00.000000"


@pytest.fixture
def old_database(tmp_path):
    """A database as it stood before table rules, with a class, a class hand,
    a student's hand of it and a practice hand of their own."""
    engine = make_engine(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    command.upgrade(alembic_config(engine), BEFORE_TABLE_RULES)
    with engine.begin() as connection:
        for learner_id, role in ((1, "teacher"), (2, "learner")):
            connection.exec_driver_sql(
                "INSERT INTO learner (id, name, guest, role, time_zone, daily_goal, created_at) "
                f"VALUES (?, '', 0, ?, 'UTC', 10, '{STAMP}')",
                (learner_id, role),
            )
        connection.exec_driver_sql(f"INSERT INTO classroom (id, teacher_id, name, join_code, created_at) VALUES (1, 1, 'Old', 'ABCDEF', '{STAMP}')")
        connection.exec_driver_sql(f"INSERT INTO membership (classroom_id, learner_id, joined_at) VALUES (1, 2, '{STAMP}')")
        connection.exec_driver_sql(
            f"INSERT INTO class_hand (id, classroom_id, title, seed, bots, created_at) VALUES (1, 1, 'Week 1', 4242, 'club', '{STAMP}')"
        )
        for hand_id in (1, 2):
            connection.exec_driver_sql(
                "INSERT INTO practice_hand (id, learner_id, seed, card, seat, bots, actions, hints, result, created_at, updated_at)"
                f" VALUES (?, 2, 4242, ?, 'East', 'club', '[]', 0, 'null', '{STAMP}', '{STAMP}')",
                (hand_id, CARD),
            )
        connection.exec_driver_sql("INSERT INTO class_hand_play (class_hand_id, learner_id, hand_id) VALUES (1, 2, 2)")
    yield engine
    engine.dispose()


def test_C6_hands_stored_before_the_switches_read_back_as_played_with_C6_on(old_database):
    migrate(old_database)
    with Session(old_database) as session:
        for hand_id in (1, 2):
            row = session.get(PracticeHand, hand_id)
            assert row.rules is None and store.hand_rules(row) == BEFORE_SWITCHES  # NULL: played before the switches
        given = session.get(ClassHand, 1)
        assert given.rules is None and store.hand_rules(given) == BEFORE_SWITCHES
        assert classrooms.class_rules(session, 1) == LEAGUE  # a class starts on the League's rules
        assert store.learner_rules(session, 2) == LEAGUE
        # A classmate who joins now and starts the old class hand plays what the others played,
        # and the new hand stores its rules outright.
        newcomer = Learner(name="Neo", guest=False, email="neo@example.com")
        session.add(newcomer)
        session.commit()
        classrooms.join_class(session, newcomer, "ABCDEF")
        row, new = class_hands.start_hand(session, newcomer.id, given, CARD)
        assert new and json.loads(row.rules) == {"air_mahjong": True} and store.hand_rules(row) == BEFORE_SWITCHES
        # New rows always store their rules.
        fresh = hands.new_hand(session, 2, CARD, "club", seed=1)
        assert fresh.rules == "{}"


def test_the_table_rules_migration_goes_down_and_up_again(old_database):
    migrate(old_database)
    config = alembic_config(old_database)
    command.downgrade(config, BEFORE_TABLE_RULES)
    with old_database.connect() as connection:
        columns = {row[1] for row in connection.exec_driver_sql("PRAGMA table_info(practice_hand)")}
        tables = {row[0] for row in connection.exec_driver_sql("SELECT name FROM sqlite_master WHERE type='table'")}
        kept = connection.exec_driver_sql("SELECT count(*) FROM practice_hand").scalar()
    assert "rules" not in columns and not {"learner_rules", "class_rules"} & tables and kept == 2
    migrate(old_database)
    with Session(old_database) as session:
        assert store.hand_rules(session.get(PracticeHand, 1)) == BEFORE_SWITCHES
