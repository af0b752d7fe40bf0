"""Tables with friends and classes in the database (issue 28, coach/store/tables.py):
opening one with a unique code, taking a seat (one person, one seat; a seat holds
one person, S1), leaving and coming back, the host moving someone out, starting a
hand, saving moves with compare and set, and the owner- and seat-checked getters.
Two sessions racing for one seat, or to save one move: exactly one wins."""

from __future__ import annotations

import json
import threading

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
from sqlmodel import Session, SQLModel, select

from coach.play.hand import Action, replay
from coach.play.legal import legal_actions
from coach.play.people import TableSettings, advance
from coach.rules.table_rules import TableRules
from coach.store import accounts
from coach.store import tables as store
from coach.store.db import alembic_config
from coach.store.hands import HandMoved
from coach.store.models import GameTable, Learner, TableHand, TableSeat
from coach.store.teaching import classrooms
from tests.support.cards import CARD
from tests.support.people import person


@pytest.fixture
def host(engine) -> int:
    return person(engine, "Hana")


def test_S1_a_table_opens_with_a_unique_code_and_a_computer_player_in_every_seat(engine, host):
    with Session(engine) as session:
        first = store.open_table(session, host, CARD.name, seat="East")
        second = store.open_table(session, host, CARD.name, rules=TableRules(players=3))
        assert first.code != second.code and len(first.code) == store.CODE_LENGTH
        assert store.table_by_code(session, first.code.lower()).id == first.id  # typed in lower case
        assert [(s.seat, s.learner_id, s.present) for s in store.seats_of(session, first.id)] == [
            ("East", host, True), ("South", None, False), ("West", None, False), ("North", None, False),
        ]
        assert [s.seat for s in store.seats_of(session, second.id)] == ["East", "South", "West"]  # TR4
        assert store.table_settings(first) == TableSettings()  # a friends' table: it does not wait
        assert store.table_rules(second) == TableRules(players=3)


def test_S1_a_clash_of_codes_is_tried_again(engine, host, monkeypatch):
    with Session(engine) as session:
        first = store.open_table(session, host, CARD.name)
        codes = iter([first.code, first.code, "ZZZZ22"])
        monkeypatch.setattr(store, "_new_code", lambda: next(codes))
        assert store.open_table(session, host, CARD.name).code == "ZZZZ22"


def test_S1_a_seat_is_never_taken_twice_and_a_person_holds_one_seat(engine, host):
    ann, bob = person(engine, "Ann"), person(engine, "Bob")
    with Session(engine) as session:
        table = store.open_table(session, host, CARD.name, seat="East")
        assert store.take_seat(session, table.id, ann, "South").learner_id == ann
        with pytest.raises(store.SeatTaken):
            store.take_seat(session, table.id, bob, "South")
        with pytest.raises(store.AlreadySeated):
            store.take_seat(session, table.id, ann, "West")
        assert store.take_seat(session, table.id, ann, "South").learner_id == ann  # again: a double click
        with pytest.raises(store.TableError):
            store.take_seat(session, table.id, bob, "Centre")
        assert store.seat_of(session, table.id, ann).seat == "South"
        assert store.seat_of(session, table.id, bob) is None
        people, away = store.people_at(store.seats_of(session, table.id))
        assert people == {"East", "South"} and away == frozenset()


def test_S1_two_people_racing_for_one_seat_one_gets_it(engine, host):
    racers = [person(engine, f"Racer{n}") for n in range(2)]
    with Session(engine) as session:
        table_id = store.open_table(session, host, CARD.name).id
    start, outcomes = threading.Barrier(2), []

    def sit(learner_id: int) -> None:
        with Session(engine) as session:
            start.wait()
            try:
                store.take_seat(session, table_id, learner_id, "West")
                outcomes.append("seated")
            except store.SeatTaken:
                outcomes.append("taken")

    threads = [threading.Thread(target=sit, args=(r,)) for r in racers]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(outcomes) == ["seated", "taken"]
    with Session(engine) as session:
        (west,) = [s for s in store.seats_of(session, table_id) if s.seat == "West"]
        assert west.learner_id in racers


def test_a_person_away_keeps_the_seat_and_the_host_alone_moves_someone_out(engine, host):
    ann = person(engine, "Ann")
    with Session(engine) as session:
        table = store.open_table(session, host, CARD.name, seat="East")
        store.take_seat(session, table.id, ann, "North")
        assert store.leave(session, table.id, ann) is True
        assert store.people_at(store.seats_of(session, table.id)) == ({"East", "North"}, {"North"})
        assert store.come_back(session, table.id, ann) is True
        assert store.people_at(store.seats_of(session, table.id))[1] == frozenset()
        assert store.leave(session, table.id, person(engine, "Stranger")) is False
        assert store.move_out(session, ann, table.id, "East") is False  # not her table
        assert store.table_for_host(session, ann, table.id) is None
        assert store.table_for_host(session, host, table.id).id == table.id
        assert store.move_out(session, host, table.id, "North") is True
        north = session.exec(select(TableSeat).where(TableSeat.table_id == table.id, TableSeat.seat == "North")).one()
        session.refresh(north)
        assert (north.learner_id, north.present) == (None, False)  # a computer player's seat again
        assert store.move_out(session, host, table.id, "North") is False  # nobody left to move
        assert store.take_seat(session, table.id, ann, "North").present  # and she may sit again


def test_a_class_table_is_opened_by_its_teacher_and_sat_at_by_its_members(engine):
    teacher, other = person(engine, "Tess", teacher=True), person(engine, "Otto", teacher=True)
    member, stranger = person(engine, "Mia"), person(engine, "Sam")
    with Session(engine) as session:
        room = classrooms.create_class(session, teacher, "Tuesday")
        classrooms.join_class(session, session.get(Learner, member), room.join_code)
        with pytest.raises(store.TableError):
            store.open_table(session, other, CARD.name, kind="class", class_id=room.id)
        with pytest.raises(store.TableError):
            store.open_table(session, teacher, CARD.name, kind="class")
        table = store.open_table(session, teacher, CARD.name, kind="class", class_id=room.id)
        assert store.table_settings(table).waits_for_everyone is True
        assert store.take_seat(session, table.id, member, "South").seat == "South"
        with pytest.raises(store.TableError):
            store.take_seat(session, table.id, stranger, "West")


def _played(engine, host: int) -> tuple[int, list[dict], list[dict]]:
    """A table with its host in East and a hand started; East's first moves played."""
    with Session(engine) as session:
        table = store.open_table(session, host, CARD.name, seat="East")
        row = store.start_hand(session, table.id, seed=5)
        hand = replay(CARD, row.seed, [], store.hand_rules(row))
        progress = advance(hand, {"East"})
        return row.id, [a.to_json() for a in hand.actions], [a.to_json() for a in progress.held]


def test_S4_a_hand_is_started_once_at_a_time_and_its_moves_saved_with_compare_and_set(engine, host):
    with Session(engine) as session:
        table = store.open_table(session, host, CARD.name, seat="East")
        row = store.start_hand(session, table.id, seed=5)
        assert (row.number, row.version, row.rules) == (1, 0, "{}")
        with pytest.raises(store.TableError):
            store.start_hand(session, table.id)  # one is going
        hand = replay(CARD, row.seed, [], store.hand_rules(row))
        advance(hand, {"East"})
        first = [a.to_json() for a in hand.actions]
        store.save_moves(session, row, first, [], None)
        assert row.version == 1
        stale = store.current_hand(session, table.id)
        session.expunge(stale)
        stale.version = 0  # as a request that loaded it before that save
        with pytest.raises(HandMoved):
            store.save_moves(session, stale, first + [{"seat": "East", "kind": "pass", "tiles": ["1D", "2D", "3D"]}], [], None)
        again = store.current_hand(session, table.id)
        assert store.actions_of(again) == first and again.version == 1  # nothing of the stale save
        store.save_moves(session, again, first, [], {"winner": None, "how": "wall"})
        assert again.finished_at is not None
        assert store.start_hand(session, table.id, seed=6).number == 2


def test_S4_two_sessions_racing_to_save_one_move_one_wins(engine, host):
    hand_id, actions, held = _played(engine, host)
    start, outcomes = threading.Barrier(2), []

    def save(kind: str) -> None:
        with Session(engine) as session:
            row = session.get(TableHand, hand_id)
            start.wait()
            try:
                store.save_moves(session, row, actions + [{"seat": "East", "kind": kind}], held, None)
                outcomes.append(kind)
            except store.TableHandMoved:
                outcomes.append("moved")

    threads = [threading.Thread(target=save, args=(k,)) for k in ("one", "two")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(outcomes) == 2 and outcomes.count("moved") == 1  # exactly one save landed
    with Session(engine) as session:
        row = session.get(TableHand, hand_id)
        assert row.version == 1 and store.actions_of(row)[-1]["kind"] in outcomes


def test_S4_a_saved_hand_replays_with_its_held_answers(engine, host):
    hand_id, actions, held = _played(engine, host)
    with Session(engine) as session:
        row = session.get(TableHand, hand_id)
        store.save_moves(session, row, actions, held, None)
        back = session.get(TableHand, hand_id)
        hand = replay(CARD, back.seed, [Action.from_json(a) for a in store.actions_of(back)], store.hand_rules(back))
        assert [a.to_json() for a in hand.actions] == actions and store.held_of(back) == held
        store.seen(session, back.table_id, host, 7)
        store.seen(session, back.table_id, host, 3)  # never goes back
        assert store.seat_of(session, back.table_id, host).last_seen == 7


def test_a_guest_signing_in_keeps_their_tables_and_seats_one_seat_a_table(engine):
    guest, account, other_host = person(engine, guest=True), person(engine, "Acc"), person(engine, "Olga")
    with Session(engine) as session:
        hosted = store.open_table(session, guest, CARD.name, seat="East")
        shared = store.open_table(session, other_host, CARD.name)
        store.take_seat(session, shared.id, guest, "South")
        store.take_seat(session, shared.id, account, "West")  # the account sits here already
        hosted_id, shared_id = hosted.id, shared.id
        played = store.start_hand(session, hosted_id, seed=1)
        store.save_moves(session, played, [], [], {"winner": None, "people": {"East": guest}})  # over: the guest's review
        accounts.merge_guest(session, guest, account)
    with Session(engine) as session:
        assert store.table_for_host(session, account, hosted_id) is not None
        assert store.seat_of(session, hosted_id, account).seat == "East"
        assert store.seat_of(session, shared_id, account).seat == "West"  # one seat: South is a computer player's again
        south = [s for s in store.seats_of(session, shared_id) if s.seat == "South"][0]
        assert south.learner_id is None and len(store.seats_of(session, shared_id)) == 4
        assert json.loads(store.current_hand(session, hosted_id).result)["people"] == {"East": account}  # theirs to read


def test_a_learner_who_goes_leaves_a_computer_player_in_their_seat_and_their_own_tables_go(engine, host):
    ann = person(engine, "Ann")
    with Session(engine) as session:
        theirs = store.open_table(session, host, CARD.name)
        store.take_seat(session, theirs.id, ann, "North")
        hers = store.open_table(session, ann, CARD.name, seat="East")
        store.start_hand(session, hers.id, seed=1)
        theirs_id, hers_id = theirs.id, hers.id
        accounts.delete_learner(session, ann)
    with Session(engine) as session:
        seats = store.seats_of(session, theirs_id)
        assert [(s.seat, s.learner_id) for s in seats] == [("East", None), ("South", None), ("West", None), ("North", None)]
        assert session.get(GameTable, hers_id) is None and store.seats_of(session, hers_id) == []
        assert store.current_hand(session, hers_id) is None


def test_C1_download_everything_holds_a_learners_tables_and_only_their_own_moves(engine, host):
    ann = person(engine, "Ann")
    with Session(engine) as session:
        table = store.open_table(session, host, CARD.name, seat="East")
        store.take_seat(session, table.id, ann, "South")
        row = store.start_hand(session, table.id, seed=5)
        hand = replay(CARD, row.seed, [], store.hand_rules(row))
        advance(hand, {"East", "South"})  # the computer players pass; East and South owe theirs
        east_pass = legal_actions(hand, "East")[0]
        moves = [a.to_json() for a in hand.actions] + [east_pass.to_json()]
        store.save_moves(session, row, moves, [], None)
        (exported,) = store.export_tables(session, ann)
        assert (exported["seat"], exported["host"], exported["kind"]) == ("South", False, "friends")
        assert exported["hands"][0]["my_moves"] == [] and exported["hands"][0]["seed"] == 5  # East's pass is not hers
        (hosts,) = store.export_tables(session, host)
        assert hosts["host"] and hosts["hands"][0]["my_moves"] == [east_pass.to_json()]
        assert store.export_tables(session, person(engine, "Nobody")) == []


def test_migration_0016_adds_the_tables_and_goes_back_down(engine, host):
    with Session(engine) as session:
        store.open_table(session, host, CARD.name, seat="East")
    config = alembic_config(engine)
    command.downgrade(config, "0015_table_rules")
    assert not {"game_table", "table_seat", "table_hand"} & set(inspect(engine).get_table_names())
    command.upgrade(config, "head")
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), SQLModel.metadata) == []
    with Session(engine) as session:
        assert store.seat_of(session, store.open_table(session, host, CARD.name, seat="North").id, host).seat == "North"
