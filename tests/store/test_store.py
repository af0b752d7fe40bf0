"""Progress in the database: migrations, tables, the count-once rule, mastery, streaks."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
from sqlmodel import Session, SQLModel, select

from coach.store.db import make_engine, migrate
from coach.store.models import Attempt, Learner, SkillState
from coach.store.progress import mastery, record_answer, streak, summary
from drills import name_the_tile
from tests.support.cards import CARD

NOON = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


@pytest.fixture
def learner(engine):
    with Session(engine) as session:
        person = Learner(guest=True, time_zone="UTC")
        session.add(person)
        session.commit()
        session.refresh(person)
        return person


def answer(engine, learner, seed=1, level=1, right=True, when=NOON):
    question = name_the_tile.generate(seed, level, CARD)
    verdict = name_the_tile.grade(question, question.key["answer"] if right else None)
    with Session(engine) as session:
        person = session.get(Learner, learner.id)
        return record_answer(session, person, question, verdict, 4200, when)


def test_migration_from_an_empty_database_builds_the_models_schema(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'empty.sqlite3'}")
    migrate(engine)
    migrate(engine)  # a second start changes nothing
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), SQLModel.metadata) == []
        assert {"learner", "attempt", "skillstate", "alembic_version"} <= set(inspect(connection).get_table_names())
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1


def test_learner_round_trip(engine):
    with Session(engine) as session:
        session.add(Learner(email="ann@example.org", password_hash="x", name="Ann", guest=False, time_zone="Europe/Paris"))
        session.commit()
    with Session(engine) as session:
        ann = session.exec(select(Learner).where(Learner.email == "ann@example.org")).one()
        assert (ann.name, ann.guest, ann.time_zone, ann.daily_goal) == ("Ann", False, "Europe/Paris", 10)
        assert ann.created_at.tzinfo is not None


def test_attempt_and_skill_round_trip(engine, learner):
    assert answer(engine, learner, seed=3) is True
    with Session(engine) as session:
        attempt = session.exec(select(Attempt)).one()
        assert (attempt.drill, attempt.level, attempt.seed, attempt.card) == ("name-the-tile", 1, 3, CARD.name)
        assert attempt.correct and attempt.score == 1.0 and attempt.time_taken_ms == 4200
        assert json.loads(attempt.explanation) and json.loads(attempt.rules)
        assert attempt.answered_at == NOON
        skills = {s.skill: s for s in session.exec(select(SkillState)).all()}
        assert "name-the-tile:1" in skills and any(k.startswith("tile:") for k in skills)
        assert all(s.reviews == 1 and s.due > NOON for s in skills.values())


def test_a_first_answer_makes_its_skills_schedules_without_waiting(engine, learner, monkeypatch):
    """fsrs sleeps a millisecond after each card it names itself; the store names
    its cards (the answer's millisecond, then the next), so an answer holding the
    write lock never sleeps (issue 26)."""
    import fsrs.card

    def no_sleep(seconds: float) -> None:
        raise AssertionError("slept inside the write transaction")

    monkeypatch.setattr(fsrs.card.time, "sleep", no_sleep)
    assert answer(engine, learner, seed=3) is True
    with Session(engine) as session:
        cards = [json.loads(s.card) for s in session.exec(select(SkillState)).all()]
    ms = int(NOON.timestamp() * 1000)
    assert len(cards) >= 2 and sorted(c["card_id"] for c in cards) == list(range(ms, ms + len(cards)))


def test_a_question_counts_once_show_me_then_right_is_a_miss(engine, learner):
    assert answer(engine, learner, seed=5, right=False) is True  # "show me"
    assert answer(engine, learner, seed=5, right=True) is False  # graded, not stored again
    with Session(engine) as session:
        attempts = session.exec(select(Attempt)).all()
        assert len(attempts) == 1 and attempts[0].correct is False
        assert summary(session, session.get(Learner, learner.id), NOON)["correct"] == 0


def test_deleting_a_learner_deletes_their_data(engine, learner):
    answer(engine, learner)
    with Session(engine) as session:
        session.delete(session.get(Learner, learner.id))
        session.commit()
        assert session.exec(select(Attempt)).all() == []
        assert session.exec(select(SkillState)).all() == []


def test_fsrs_schedules_a_miss_sooner_than_a_hit(engine, learner):
    answer(engine, learner, seed=1, level=2, right=True)
    with Session(engine) as session:
        hit = session.exec(select(SkillState).where(SkillState.skill == "name-the-tile:2")).one().due
    other = Learner()
    with Session(engine) as session:
        session.add(other)
        session.commit()
        session.refresh(other)
    answer(engine, other, seed=1, level=2, right=False)
    with Session(engine) as session:
        miss = session.exec(
            select(SkillState).where(SkillState.skill == "name-the-tile:2", SkillState.learner_id == other.id)
        ).one().due
    assert miss < hit


def test_mastery_rises_with_right_answers_and_drops_on_mistakes():
    assert mastery([]) == "new"
    assert mastery([True]) == "attempted"
    assert mastery([True] * 3) == "familiar"
    assert mastery([True] * 6) == "proficient"
    assert mastery([True] * 10) == "mastered"
    assert mastery([True] * 10 + [False]) == "proficient"
    assert mastery([True] * 10 + [False] * 3) == "attempted"


def test_streak_counts_days_in_a_row():
    today = datetime(2026, 11, 29).date()
    days = {today - timedelta(days=n) for n in (0, 1, 2, 4)}
    assert streak(days, today) == 3
    assert streak(days - {today}, today) == 2  # today not practised yet: yesterday's streak stands
    assert streak(set(), today) == 0


def test_streak_follows_the_learners_time_zone_across_midnight(engine):
    with Session(engine) as session:
        ny = Learner(time_zone="America/New_York")
        session.add(ny)
        session.commit()
        session.refresh(ny)
    # 04:30 UTC is 23:30 the evening before in New York; 05:30 UTC is 00:30 there.
    answer(engine, ny, seed=1, when=datetime(2026, 11, 29, 4, 30, tzinfo=UTC))
    answer(engine, ny, seed=2, when=datetime(2026, 11, 29, 5, 30, tzinfo=UTC))
    with Session(engine) as session:
        person = session.get(Learner, ny.id)
        later = datetime(2026, 11, 29, 15, 0, tzinfo=UTC)
        assert summary(session, person, later)["streak"] == 2
        assert summary(session, person, later)["today"] == 1
        person.time_zone = "UTC"  # the same two answers fall on one UTC day
        assert summary(session, person, later)["streak"] == 1


def test_summary_lists_skills_with_accuracy_and_due(engine, learner):
    answer(engine, learner, seed=1, right=True)
    answer(engine, learner, seed=2, right=False)
    with Session(engine) as session:
        data = summary(session, session.get(Learner, learner.id), NOON)
    assert (data["attempts"], data["correct"], data["streak"]) == (2, 1, 1)
    drill = next(s for s in data["skills"] if s["skill"] == "name-the-tile")
    assert drill["level"] == 1 and drill["attempts"] == 2 and drill["accuracy"] == 0.5
    assert drill["due"].startswith("2026-11-29")


def test_an_answer_time_in_any_zone_is_stored_in_utc(engine, learner):
    from zoneinfo import ZoneInfo

    when = datetime(2026, 11, 29, 4, 0, tzinfo=ZoneInfo("America/Los_Angeles"))
    assert answer(engine, learner, seed=8, when=when) is True
    with Session(engine) as session:
        assert session.exec(select(Attempt)).one().answered_at == datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
