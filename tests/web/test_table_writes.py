"""A live table's writes go through the write turn, and its reads stay reads (issue 28).

Under load (40 live tables, two workers) presence stamps and ticks written in
`database.reading()` sessions waited in SQLite's busy handler behind every writer
queued for the turn. Now the tables read in strict sessions, which the database
itself keeps from writing (coach/web/infra/database.py), and every write is
coach/web/shared/tables/moves.py's, in a `writing()` session of its own."""

from __future__ import annotations

import contextlib
import json
import os
import threading
from datetime import timedelta

import pytest
from sqlalchemy import update
from sqlalchemy.exc import OperationalError
from sqlmodel import Session

from coach.common import clock
from coach.store import reviews as review_store
from coach.store import tables as store
from coach.store.models import GameTable, TableHandReview, TableSeat
from coach.web.infra import database
from coach.web.shared.tables import moves
from tests.support.people import person

SEED = 11


def _open(ctx, engine, host: int) -> int:
    with Session(engine) as session:
        row = store.open_table(session, host, ctx.extensions["coach"].card.name, seat="East")
        assert row.id is not None
        return row.id


def test_a_strict_reading_session_refuses_a_write_and_its_connection_writes_again_after(ctx, engine):
    host = person(engine, "Hana")
    table_id = _open(ctx, engine, host)
    with database.reading(strict=True) as session:
        assert session.get(GameTable, table_id) is not None  # reads as any session
        with pytest.raises(OperationalError, match="readonly"):
            session.exec(update(TableSeat).where(TableSeat.table_id == table_id).values(present=False))
    with database.reading() as session:  # the same pooled connection, writable again for a plain session
        written = session.exec(update(TableSeat).where(TableSeat.table_id == table_id).values(present=True))
        session.commit()
        assert written.rowcount == 4


def test_the_write_turn_is_reentrant_within_a_thread(ctx):
    """A write inside a write (a move that ends a hand starts its reviews) goes on at
    once; it waited for itself before, forever."""
    done = threading.Event()
    app = ctx

    def nested() -> None:
        with app.app_context(), database.writing(), database.writing():
            done.set()

    worker = threading.Thread(target=nested, daemon=True)
    worker.start()
    worker.join(5)
    assert done.is_set()


def test_every_change_of_a_table_is_made_from_a_strict_reading_session(ctx, engine):
    """Sit, deal, a move, presence and the away noticed, the coach playing for the
    away to the end of the hand and each person's review: all from a session the
    database refuses to write in (each write was the session's own before: readonly)."""
    host, friend = person(engine, "Hana"), person(engine, "Fay")
    table_id = _open(ctx, engine, host)
    with database.reading(strict=True) as session:
        table = session.get(GameTable, table_id)
        assert table is not None
        moves.sit(session, table, friend, "South")
        outcome = moves.start_hand(session, table, host, seed=SEED)
        owing = outcome.state.owing()
        assert set(owing) == {"East", "South"}
        choice = outcome.state.view("South")["choices"][0]
        from coach.play.hand import Action

        moves.play_move(session, table, "South", Action.from_json(choice), outcome.state.number("South"))
        later = clock.now() + moves.GRACE + timedelta(seconds=1)
        state = moves.tick(session, table, friend, now=later)  # the friend is heard from, the host is away
        assert state.away == {"East"}
        state = moves.move_out(session, table, host, "South")  # the coach takes South: nobody is left present
        for _ in range(3):
            state = moves.tick(session, table, None, now=later)
        assert state.hand is not None and state.hand.phase == "over"
        result = json.loads(state.row.result)
    with Session(engine) as other:
        assert result["people"] == {"East": host}
        found = review_store.review_of(other, state.row.id, "East", TableHandReview)
        assert found is not None and found.status == review_store.DONE  # started after the write turn was let go


def test_a_tick_with_nothing_to_write_takes_no_write_turn(ctx, engine, monkeypatch):
    """Every page fetch and stream wake ticks: one that finds nobody to stamp or mark
    away reads only, and so never queues for the turn."""
    host = person(engine, "Hana")
    table_id = _open(ctx, engine, host)
    turns: list[int] = []
    real = database.writing

    @contextlib.contextmanager
    def counted():
        turns.append(1)
        with real() as session:
            yield session

    monkeypatch.setattr(database, "writing", counted)
    with database.reading(strict=True) as session:
        table = session.get(GameTable, table_id)
        assert table is not None
        moves.tick(session, table, None)  # someone not seated looks: everyone heard from lately
        assert turns == []
        moves.tick(session, table, host)  # the host's own look stamps their presence
        assert turns == [1]


def test_a_write_never_holds_a_second_pooled_connection_beside_the_reading_one(ctx, engine, monkeypatch):
    """Under load a pool of 15 was emptied by threads each holding a reading connection
    while waiting for a writing one (30 s pool timeouts): the reading session lets its
    connection go before the writer takes one."""
    host = person(engine, "Hana")
    table_id = _open(ctx, engine, host)
    held: list[int] = []
    real = database.writing

    @contextlib.contextmanager
    def watched():
        with real() as session:
            session.connection()
            held.append(engine.pool.checkedout())
            yield session

    monkeypatch.setattr(database, "writing", watched)
    with database.reading(strict=True) as session:
        table = session.get(GameTable, table_id)
        assert table is not None
        outcome = moves.start_hand(session, table, host, seed=SEED)
        assert outcome.state.hand is not None
        moves.tick(session, table, host)
    assert held and set(held) == {1}


def test_signs_of_life_noted_together_are_written_in_one_turn_before_any_tick(ctx, engine, monkeypatch):
    """Under load one thread a worker wrote each person's sign of life and each tick in
    turn, and people whose stream was open were found away: what was noted since the
    thread's last round is written at once, every sign of life in one write turn first,
    then one tick a table (which then finds nobody unheard from)."""
    from coach.web.api import tables as tables_api

    hosts = [person(engine, name) for name in ("Hana", "Ida", "Jo")]
    tables = [_open(ctx, engine, host) for host in hosts]
    long_ago = clock.as_utc(clock.now()) - moves.GRACE - timedelta(seconds=5)
    with Session(engine) as session:  # nobody heard from for longer than the grace
        session.exec(update(TableSeat).values(seen_at=long_ago))
        session.commit()
    turns: list[int] = []
    ticked: list[int] = []
    real_writing, real_tick = database.writing, moves.tick

    @contextlib.contextmanager
    def counted():
        turns.append(1)
        with real_writing() as session:
            yield session

    def tick(session, table, learner_id=None, now=None):
        ticked.append(table.id)
        return real_tick(session, table, learner_id, now)

    monkeypatch.setattr(database, "writing", counted)
    monkeypatch.setattr(moves, "tick", tick)

    class Later:  # the thread's pool, run by hand: what is noted meanwhile waits for one round
        def __init__(self) -> None:
            self.submitted: list = []

        def submit(self, job):
            self.submitted.append(job)

    presence = tables_api._Presence(ctx)
    monkeypatch.setattr(ctx, "testing", False)
    later = Later()
    presence.pool, presence.pid = later, os.getpid()
    for table_id, host in zip(tables, hosts, strict=True):
        presence.note(table_id, host, whole=True)
        presence.note(table_id, host)
    assert len(later.submitted) == 1  # one round for all of them
    later.submitted[0]()
    assert turns == [1]  # the six notes' signs of life: one write turn
    assert sorted(ticked) == sorted(tables)  # one tick a table
    with Session(engine) as session:
        for table_id, host in zip(tables, hosts, strict=True):
            seat = store.seat_of(session, table_id, host)
            assert seat is not None and seat.present and clock.as_utc(seat.seen_at) > long_ago
    presence.note(tables[0], hosts[0])
    assert len(later.submitted) == 2  # the round ended: the next note starts another
