"""Guests nobody comes back to: `python -m coach purge-guests --older-than 30d`.

A guest is made by a first answer (never by a visit) and kept by a cookie.
A guest is stale when everything they did is older than the cutoff: made
before it, no answer, lesson check or class joined since. Stale guests go with
every row that names them, as when a learner deletes their own data.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import exists
from sqlmodel import Session, col, select

from coach.common import clock
from coach.store.accounts import delete_learner
from coach.store.models import Attempt, Learner, LessonProgress, Membership


def _stale(cutoff: datetime):
    """The condition on Learner rows: a guest with nothing at or after the cutoff."""
    recent_answer = exists().where(col(Attempt.learner_id) == Learner.id, col(Attempt.answered_at) >= cutoff)
    recent_join = exists().where(col(Membership.learner_id) == Learner.id, col(Membership.joined_at) >= cutoff)
    recent_lesson = exists().where(col(LessonProgress.learner_id) == Learner.id, col(LessonProgress.updated_at) >= cutoff)
    return (col(Learner.guest).is_(True), col(Learner.created_at) < cutoff,
            ~recent_answer, ~recent_join, ~recent_lesson)


def stale_guests(session: Session, older_than: datetime) -> list[int]:
    """Ids of the guests with nothing done since `older_than`."""
    cutoff = clock.as_utc(older_than)
    return [i for i in session.exec(select(Learner.id).where(*_stale(cutoff)).order_by(col(Learner.id))).all() if i is not None]


def purge_guests(session: Session, older_than: datetime, dry_run: bool = False) -> int:
    """Delete the stale guests (one transaction each); how many went, or would go with `dry_run`.

    Each guest is checked again under a row lock just before it goes, so an
    answer arriving meanwhile keeps its guest (PostgreSQL takes the lock;
    SQLite has one writer at a time anyway)."""
    ids = stale_guests(session, older_than)
    if dry_run:
        return len(ids)
    cutoff = clock.as_utc(older_than)
    removed = 0
    for learner_id in ids:
        still = session.exec(
            select(Learner.id).where(Learner.id == learner_id, *_stale(cutoff)).with_for_update()
        ).first()
        if still is None:
            session.rollback()
            continue
        delete_learner(session, learner_id)  # commits, which ends the lock
        removed += 1
    return removed
