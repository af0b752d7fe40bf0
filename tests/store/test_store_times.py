"""Times in the database (SQLite here; tests/test_store_postgres.py does
PostgreSQL): a naive datetime is never written, every time read back is
aware UTC, and rows stored before the time columns became aware read back
the same."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import update
from sqlalchemy.exc import StatementError
from sqlmodel import Session, select

from coach.common import clock
from coach.store.db import alembic_config, make_engine, migrate
from coach.store.models import Assignment, Attempt, Classroom, Learner, LoginSession
from coach.store.utc_datetime import NaiveDatetimeError

BEFORE_AWARE_TIMES = "0011_positions"


@pytest.fixture
def engine(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'coach.sqlite3'}")
    migrate(engine)
    yield engine
    engine.dispose()


def test_the_clock_is_aware_utc():
    assert clock.now().utcoffset() == timedelta(0)
    la = datetime(2026, 11, 29, 4, 0, tzinfo=ZoneInfo("America/Los_Angeles"))
    assert clock.as_utc(la) == la and clock.as_utc(la).tzinfo is clock.UTC
    assert clock.as_utc(datetime(2026, 11, 29, 12, 0)) == datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def test_a_naive_datetime_is_refused_on_write(engine):
    with Session(engine) as session:
        session.add(Learner(created_at=datetime(2026, 11, 29, 12, 0)))
        with pytest.raises(StatementError) as refused:
            session.commit()
        assert isinstance(refused.value.orig, NaiveDatetimeError)
        session.rollback()
        assert session.exec(select(Learner)).all() == []
        person = Learner()
        session.add(person)
        session.commit()
        with pytest.raises(StatementError):  # an UPDATE's values and a WHERE's comparison alike
            session.exec(update(Learner).values(created_at=datetime(2026, 1, 1)))  # type: ignore[call-overload]
        session.rollback()
        with pytest.raises(StatementError):
            session.exec(select(Learner).where(Learner.created_at < datetime(2030, 1, 1))).all()


def test_times_read_back_aware_in_utc(engine):
    la = datetime(2026, 11, 29, 4, 0, 0, 123456, tzinfo=ZoneInfo("America/Los_Angeles"))
    with Session(engine) as session:
        person = Learner(created_at=la)
        session.add(person)
        session.commit()
        person_id = person.id
    with Session(engine) as session:
        again = session.get(Learner, person_id)
        assert again is not None
        assert again.created_at.tzinfo is clock.UTC and again.created_at == la
        assert again.created_at.hour == 12 and again.created_at.microsecond == 123456
        stored = session.connection().exec_driver_sql("SELECT created_at FROM learner").scalar()
        assert stored == "2026-11-29 12:00:00.123456"  # the UTC wall time, as rows always were


def test_rows_stored_before_the_aware_columns_read_back_the_same(tmp_path):
    """A database at the revision before (times written as the older code
    wrote them: UTC text, no offset) upgraded in place."""
    from alembic import command

    engine = make_engine(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    command.upgrade(alembic_config(engine), BEFORE_AWARE_TIMES)
    with engine.begin() as connection:
        connection.exec_driver_sql(
            "INSERT INTO learner (id, name, guest, role, time_zone, daily_goal, created_at) "
            "VALUES (1, '', 1, 'teacher', 'UTC', 10, '2026-11-30 23:59:58.500000')"
        )
        connection.exec_driver_sql(
            "INSERT INTO classroom (id, teacher_id, name, join_code, created_at) VALUES (1, 1, 'Tue', 'ABCDEF', '2026-11-30 08:00:00.000000')"
        )
        connection.exec_driver_sql(
            "INSERT INTO assignment (id, classroom_id, title, source, due_at, created_at) "
            "VALUES (1, 1, 'Week 1', 'x', '2026-12-07 04:59:59.000000', '2026-11-30 08:00:01.000000')"
        )
        connection.exec_driver_sql(
            "INSERT INTO login_session (id, learner_id, token_hash, created_at, last_seen_at, ended_at) "
            "VALUES (1, 1, 'h', '2026-11-30 09:00:00.000000', '2026-11-30 09:30:00.000000', NULL)"
        )
    migrate(engine)
    with Session(engine) as session:
        person = session.get(Learner, 1)
        assert person is not None and person.created_at == datetime(2026, 11, 30, 23, 59, 58, 500000, tzinfo=UTC)
        assert person.created_at.tzinfo is clock.UTC
        given = session.get(Assignment, 1)
        assert given is not None and given.due_at == datetime(2026, 12, 7, 4, 59, 59, tzinfo=UTC)
        room = session.get(Classroom, 1)
        assert room is not None and room.created_at.tzinfo is clock.UTC
        login = session.get(LoginSession, 1)
        assert login is not None and login.ended_at is None and login.last_seen_at.tzinfo is clock.UTC
        # comparisons in SQL still work against the old text
        cutoff = datetime(2026, 12, 1, tzinfo=UTC)
        assert session.exec(select(Learner.id).where(Learner.created_at < cutoff)).all() == [1]
        assert session.exec(select(Learner.id).where(Learner.created_at < cutoff - timedelta(seconds=2))).all() == []
    engine.dispose()


def test_an_answer_time_round_trips_through_the_attempt_table(engine):
    with Session(engine) as session:
        person = Learner()
        session.add(person)
        session.commit()
        tokyo = datetime(2026, 11, 29, 21, 0, tzinfo=ZoneInfo("Asia/Tokyo"))
        session.add(Attempt(learner_id=person.id, drill="d", level=1, seed=1, card="c", question="q", answer="null",
                            correct=True, score=1.0, answered_at=tokyo))
        session.commit()
        row = session.exec(select(Attempt)).one()
        session.refresh(row)
        assert row.answered_at == tokyo and row.answered_at.tzinfo is clock.UTC
