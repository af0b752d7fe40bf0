"""A class seated at tables by its teacher (issue 28, item 5; coach/store/class_tables.py):
tables of four (three under TR4) as even as they go, computer players in the
seats left over, one deal for every table of a round, and the round started
once however many requests race to start it."""

from __future__ import annotations

import threading
import time

import pytest
from alembic import command
from sqlalchemy import inspect
from sqlmodel import Session, col, select

from coach.rules.table_rules import TableRules
from coach.store import class_tables as rounds
from coach.store import tables as store
from coach.store.db import alembic_config
from coach.store.models import ClassRound, GameTable, Learner, TableHand, TableSeat
from coach.store.teaching import classrooms
from tests.support.cards import CARD
from tests.support.people import person


def _class(engine, students: int, rules: TableRules | None = None) -> tuple[int, int, list[int]]:
    teacher = person(engine, "Tess", teacher=True)
    members = [person(engine, f"Student{n}") for n in range(students)]
    with Session(engine) as session:
        room = classrooms.create_class(session, teacher, "Tuesday")
        for member in members:
            classrooms.join_class(session, session.get(Learner, member), room.join_code)
        if rules is not None:
            classrooms.set_table_rules(session, teacher, room.id, rules)
        return teacher, room.id, members


def test_seven_students_sit_at_two_tables_of_four_and_three_with_a_computer_player_in_the_gap():
    assert rounds.groups([1, 2, 3, 4, 5, 6, 7], 4) == [[1, 3, 5, 7], [2, 4, 6]]
    assert rounds.groups([1, 2, 3, 4, 5], 4) == [[1, 3, 5], [2, 4]]  # never four and one
    assert rounds.groups([1, 2, 3], 3) == [[1, 2, 3]]


def test_S1_the_teacher_seats_every_member_at_class_tables_of_one_deal(engine):
    teacher, class_id, members = _class(engine, 5)
    with Session(engine) as session:
        row = rounds.seat_class(session, teacher, class_id, CARD.name, strength="shark", seed=4242)
        found = rounds.round_tables(session, row.id)
        assert len(found) == 2
        seated = [(s.seat, s.learner_id) for t in found for s in t.seats if s.learner_id is not None]
        assert sorted(learner for _, learner in seated) == sorted(members)
        assert [[s.seat for s in t.seats if s.learner_id is not None] for t in found] == [["East", "South", "West"], ["East", "South"]]
        for t in found:
            assert (t.table.kind, t.table.class_id, t.table.host_id, t.table.round_id) == ("class", class_id, teacher, row.id)
            assert store.table_settings(t.table).waits_for_everyone and store.table_settings(t.table).strength == "shark"
            assert t.hand is None
            assert not any(s.present for s in t.seats)  # seated by the teacher: away until they open the table
        assert rounds.seat_in_latest_round(session, class_id, members[1])[1].seat == "East"


def test_one_student_a_table_makes_a_table_each_and_a_table_seats_one_to_four(engine):
    teacher, class_id, members = _class(engine, 2)
    with Session(engine) as session:
        for wrong in (0, 5):
            with pytest.raises(store.TableError):
                rounds.seat_class(session, teacher, class_id, CARD.name, per_table=wrong)
        row = rounds.seat_class(session, teacher, class_id, CARD.name, per_table=1)
        found = rounds.round_tables(session, row.id)
        assert [[s.learner_id for s in t.seats] for t in found] == [[members[0], None, None, None], [members[1], None, None, None]]


def test_TR4_a_three_player_class_sits_in_threes(engine):
    teacher, class_id, _ = _class(engine, 4, TableRules(players=3))
    with Session(engine) as session:
        row = rounds.seat_class(session, teacher, class_id, CARD.name)
        found = rounds.round_tables(session, row.id)
        assert [[s.seat for s in t.seats] for t in found] == [["East", "South", "West"]] * 2
        assert rounds.round_rules(row) == TableRules(players=3)


def test_only_chosen_members_are_seated_and_only_by_the_class_teacher(engine):
    teacher, class_id, members = _class(engine, 3)
    other = person(engine, "Otto", teacher=True)
    stranger = person(engine, "Sam")
    with Session(engine) as session:
        with pytest.raises(store.TableError):
            rounds.seat_class(session, other, class_id, CARD.name)
        with pytest.raises(store.TableError):
            rounds.seat_class(session, teacher, class_id, CARD.name, [members[0], stranger])
        with pytest.raises(store.TableError):
            rounds.seat_class(session, teacher, class_id, CARD.name, [])
        assert session.exec(select(ClassRound)).all() == []
        row = rounds.seat_class(session, teacher, class_id, CARD.name, [members[2]])
        (only,) = rounds.round_tables(session, row.id)
        assert [s.learner_id for s in only.seats] == [members[2], None, None, None]
        assert rounds.round_taught(session, other, row.id) is None
        assert rounds.round_taught(session, members[2], row.id) is None
        assert rounds.table_taught(session, other, class_id, only.table.code) is None
        assert rounds.table_taught(session, teacher, class_id, only.table.code.lower()).id == only.table.id


def test_S4_starting_a_round_deals_every_table_the_same_seed_once(engine):
    teacher, class_id, _ = _class(engine, 6)
    with Session(engine) as session:
        row = rounds.seat_class(session, teacher, class_id, CARD.name, seed=777)
        with pytest.raises(store.TableError):
            rounds.start_round(session, person(engine, "Otto", teacher=True), row.id)
        hands = rounds.start_round(session, teacher, row.id)
        assert [(h.number, h.seed) for h in hands] == [(1, 777), (1, 777)]
        with pytest.raises(rounds.RoundStarted):
            rounds.start_round(session, teacher, row.id)
        assert len(session.exec(select(TableHand)).all()) == 2


def test_S4_two_requests_racing_to_start_one_round_start_it_once(engine):
    teacher, class_id, _ = _class(engine, 8)
    with Session(engine) as session:
        round_id = rounds.seat_class(session, teacher, class_id, CARD.name).id
    start, outcomes = threading.Barrier(2), []

    def go() -> None:
        with Session(engine) as session:
            start.wait()
            try:
                rounds.start_round(session, teacher, round_id)
                outcomes.append("started")
            except rounds.RoundStarted:
                outcomes.append("already")

    threads = [threading.Thread(target=go) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(outcomes) == ["already", "started"]
    with Session(engine) as session:
        assert sorted(h.table_id for h in session.exec(select(TableHand)).all()) == sorted(
            t.id for t in session.exec(select(GameTable)).all()
        )


def test_S4_a_round_is_started_or_taken_back_never_both(engine):
    """Taking a seating back is the start's own compare and set on `started_at`: once
    started it stays (its tables play on); once taken back there is nothing to start;
    only the class's teacher takes it back."""
    teacher, class_id, _ = _class(engine, 5)
    other = person(engine, "Otto", teacher=True)
    with Session(engine) as session:
        started = rounds.seat_class(session, teacher, class_id, CARD.name).id
        rounds.start_round(session, teacher, started)
        with pytest.raises(rounds.RoundStarted):
            rounds.cancel_round(session, teacher, started)
        assert len(rounds.round_tables(session, started)) == 2
        waiting = rounds.seat_class(session, teacher, class_id, CARD.name).id
        with pytest.raises(store.TableError):
            rounds.cancel_round(session, other, waiting)
        rounds.cancel_round(session, teacher, waiting)
        assert session.get(ClassRound, waiting) is None and rounds.round_tables(session, waiting) == []
        assert session.exec(select(TableSeat).where(col(TableSeat.table_id).not_in(
            [t.table.id for t in rounds.round_tables(session, started)]))).all() == []  # the seats went with their tables
        with pytest.raises(store.TableError):
            rounds.start_round(session, teacher, waiting)
        assert rounds.open_round(session, class_id) is None  # the class may be seated again


def test_seating_the_class_twice_before_the_start_gives_the_first_round_and_seats_nobody_again(engine):
    teacher, class_id, members = _class(engine, 5)
    with Session(engine) as session:
        first = rounds.seat_class(session, teacher, class_id, CARD.name, seed=11)
        tables = len(session.exec(select(GameTable)).all())
        with pytest.raises(rounds.SeatedAlready) as again:
            rounds.seat_class(session, teacher, class_id, CARD.name, members[:1], seed=12)  # another tab, other choices
        assert again.value.round.id == first.id and isinstance(again.value, store.TableError)
        assert [r.id for r in session.exec(select(ClassRound)).all()] == [first.id]
        assert len(session.exec(select(GameTable)).all()) == tables
        rounds.start_round(session, teacher, first.id)
        assert rounds.open_round(session, class_id) is None
        second = rounds.seat_class(session, teacher, class_id, CARD.name, seed=13)  # the next deal, once the first started
        assert second.id != first.id and rounds.open_round(session, class_id).id == second.id


def race(go, names: list[str], patched: str, stand_in) -> None:
    """`go` on a thread of each name at once, with `rounds.<patched>` replaced by `stand_in` meanwhile."""
    threads = [threading.Thread(target=go, name=name) for name in names]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rounds, patched, stand_in)
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)


def test_two_sessions_racing_to_seat_the_class_make_one_round(engine):
    """Both looked before either wrote: the unique index on the class's open round decides, and the loser gets the winner's round."""
    teacher, class_id, _ = _class(engine, 6)
    start, outcomes, lock = threading.Barrier(2), [], threading.Lock()
    original, looked, mine = rounds.open_round, threading.Barrier(2), threading.local()

    def look_together(session_, class_id_):  # each session's first look waits for the other's: both see no round yet
        found = original(session_, class_id_)
        if not getattr(mine, "looked", False):
            mine.looked = True
            looked.wait(30)
        return found

    def go() -> None:
        with Session(engine) as session:
            start.wait(30)
            try:
                row = rounds.seat_class(session, teacher, class_id, CARD.name)
                result = ("seated", row.id)
            except rounds.SeatedAlready as already:
                result = ("already", already.round.id)
            with lock:
                outcomes.append(result)

    race(go, [f"seat-{n}" for n in range(2)], "open_round", look_together)
    assert sorted(kind for kind, _ in outcomes) == ["already", "seated"]
    assert len({round_id for _, round_id in outcomes}) == 1
    with Session(engine) as session:
        (only,) = session.exec(select(ClassRound)).all()
        assert len(rounds.round_tables(session, only.id)) == 2
        assert {t.round_id for t in session.exec(select(GameTable)).all()} == {only.id}


@pytest.fixture(scope="module")
def postgres_engine():
    """The store on a PostgreSQL server of this module's own (tests/support/postgres.py)."""
    from coach.store.db import make_engine, migrate
    from tests.support.postgres import postgres_server

    with postgres_server() as url:
        made = make_engine(url)
        migrate(made)
        yield made
        made.dispose()


@pytest.mark.server
def test_S1_on_postgresql_the_request_that_loses_the_race_to_seat_a_class_sees_the_whole_round(postgres_engine):
    """PostgreSQL takes both requests at once (no write lock across them). The winner
    is slowed after writing its round, before its tables: the loser, starting then,
    must never be handed the round with fewer tables than it will have (a start
    pressed on that page would deal only those): it waits on the unique index until
    the winner's one transaction commits, and then sees all its tables."""
    engine = postgres_engine
    teacher, class_id, _ = _class(engine, 6)
    written, outcomes, lock = threading.Event(), [], threading.Lock()
    real_groups = rounds.groups

    def slow_groups(learner_ids, players):  # called once the round is written, before the tables are
        if threading.current_thread().name == "winner":
            written.set()
            time.sleep(1.0)
        return real_groups(learner_ids, players)

    def go() -> None:
        if threading.current_thread().name == "loser":
            assert written.wait(30)
        with Session(engine) as session:
            try:
                row = rounds.seat_class(session, teacher, class_id, CARD.name)
                result = ("seated", row.id, None)
            except rounds.SeatedAlready as already:
                with Session(engine) as look:  # what the loser's next page (the round's) shows at once
                    result = ("already", already.round.id, len(rounds.round_tables(look, already.round.id)))
            with lock:
                outcomes.append(result)

    race(go, ["winner", "loser"], "groups", slow_groups)
    assert sorted(outcomes) == sorted([("seated", outcomes[0][1], None), ("already", outcomes[0][1], 2)])
    with Session(engine) as session:
        (only,) = session.exec(select(ClassRound).where(ClassRound.classroom_id == class_id)).all()
        assert len(rounds.round_tables(session, only.id)) == 2


def test_a_round_whose_table_was_dealt_meanwhile_deals_no_table(engine, monkeypatch):
    """The table's own start (its host's) got there first: the round writes nothing and may be started again."""
    teacher, class_id, _ = _class(engine, 5)
    with Session(engine) as session:
        row = rounds.seat_class(session, teacher, class_id, CARD.name)
        first, second = rounds.round_tables(session, row.id)
        original = store.current_hand

        def stale(session_, table_id):  # the round reads no hand at the second table; one was dealt meanwhile
            return None if table_id == second.table.id else original(session_, table_id)

        store.start_hand(session, second.table.id, seed=1)
        monkeypatch.setattr(rounds, "current_hand", stale)
        with pytest.raises(rounds.RoundStarted):
            rounds.start_round(session, teacher, row.id)
        assert store.current_hand(session, first.table.id) is None
        session.refresh(row)
        assert row.started_at is None


def test_deleting_the_class_takes_its_rounds_and_tables(engine):
    teacher, class_id, _ = _class(engine, 2)
    with Session(engine) as session:
        rounds.start_round(session, teacher, rounds.seat_class(session, teacher, class_id, CARD.name).id)
        assert classrooms.delete_class(session, teacher, class_id)
        assert session.exec(select(ClassRound)).all() == [] and session.exec(select(GameTable)).all() == []


def test_migration_0018_adds_the_rounds_and_goes_back_down(engine):
    teacher, class_id, _ = _class(engine, 1)
    with Session(engine) as session:
        rounds.seat_class(session, teacher, class_id, CARD.name)
    config = alembic_config(engine)
    command.downgrade(config, "0017_table_play")
    assert "class_round" not in inspect(engine).get_table_names()
    assert "round_id" not in {c["name"] for c in inspect(engine).get_columns("game_table")}
    command.upgrade(config, "head")
    with Session(engine) as session:
        assert len(rounds.round_tables(session, rounds.seat_class(session, teacher, class_id, CARD.name).id)) == 1


def test_migration_0019_keeps_one_open_round_a_class_and_goes_back_down(engine):
    teacher, class_id, _ = _class(engine, 1)
    config = alembic_config(engine)
    command.downgrade(config, "0018_class_rounds")
    assert "uq_class_round_open" not in {i["name"] for i in inspect(engine).get_indexes("class_round")}
    with Session(engine) as session:  # seated twice before the index: both rounds open
        older = rounds.seat_class(session, teacher, class_id, CARD.name).id
        row = ClassRound(classroom_id=class_id, seed=2, card=CARD.name)
        session.add(row)
        session.commit()
        newer = row.id
    command.upgrade(config, "head")
    assert "uq_class_round_open" in {i["name"] for i in inspect(engine).get_indexes("class_round")}
    with Session(engine) as session:
        assert rounds.open_round(session, class_id).id == newer
        assert session.get(ClassRound, older).started_at is not None  # out of the index; its tables keep no hand
        with pytest.raises(rounds.SeatedAlready):
            rounds.seat_class(session, teacher, class_id, CARD.name)
