"""Positions to replay, kept for their learner (coach/play/positions.py says which).

A finished practice hand adds one row per decision to replay, in the
transaction that saves the hand (`add_for_hand`); the unique constraint on
(hand, decision) means a hand saved twice never adds a position twice.
Each position has its own fsrs card: new ones are due at once, and an
answer reschedules it as a skill's is. Every getter takes the learner's id
and returns nothing of anyone else's.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from fsrs import Card as FsrsCard
from sqlalchemy import func
from sqlmodel import Session, col, select

from coach.common import clock
from coach.store.models import PracticeHand, ReplayPosition
from coach.store.progress import SCHEDULER, rating
from coach.store.transaction import insert_once

PER_DAY = 2  # positions in one day's practice, before new skills


def add_for_hand(session: Session, hand: PracticeHand, numbers: Iterable[int]) -> int:
    """Add the hand's positions to the caller's transaction (not committed); how many were new."""
    assert hand.id is not None
    when = clock.now()
    added = 0
    for number in sorted(set(int(n) for n in numbers)):
        values = {"learner_id": hand.learner_id, "hand_id": hand.id, "number": number, "schedule": "", "due": when,
                  "reviews": 0, "last_answer": "null", "created_at": when}
        added += insert_once(session, ReplayPosition, values, ("hand_id", "number"))
    return added


def position_of(session: Session, learner_id: int, position_id: int) -> tuple[ReplayPosition, PracticeHand] | None:
    """The position and its hand, if both are this learner's."""
    row = session.get(ReplayPosition, position_id)
    if row is None or row.learner_id != learner_id:
        return None
    hand = session.get(PracticeHand, row.hand_id)
    return (row, hand) if hand is not None and hand.learner_id == learner_id else None


def of_hand(session: Session, learner_id: int, hand_id: int) -> dict[int, int]:
    """The hand's positions: decision number -> position id."""
    rows = session.exec(
        select(ReplayPosition).where(ReplayPosition.learner_id == learner_id, ReplayPosition.hand_id == hand_id)
    ).all()
    return {r.number: r.id for r in rows if r.id is not None}


def due(session: Session, learner_id: int, now: datetime | None = None, limit: int = PER_DAY) -> list[ReplayPosition]:
    """The learner's positions due now, the most overdue first."""
    query = (
        select(ReplayPosition)
        .where(ReplayPosition.learner_id == learner_id, ReplayPosition.due <= clock.as_utc(now or clock.now()))
        .order_by(col(ReplayPosition.due), col(ReplayPosition.id))
        .limit(limit)
    )
    return list(session.exec(query).all())


def due_ids(session: Session, learner_id: int, now: datetime | None = None, limit: int = PER_DAY) -> list[int]:
    return [r.id for r in due(session, learner_id, now, limit) if r.id is not None]


def waiting(session: Session, learner_id: int, now: datetime | None = None) -> tuple[int, int]:
    """(positions due now, positions kept in all), counted by the database."""
    every = select(func.count()).select_from(ReplayPosition).where(ReplayPosition.learner_id == learner_id)
    now_due = every.where(ReplayPosition.due <= clock.as_utc(now or clock.now()))
    return int(session.exec(now_due).one()), int(session.exec(every).one())


def record_answer(session: Session, row: ReplayPosition, correct: bool, answer: Any, when: datetime | None = None) -> None:
    """Reschedule the position after one answer, and keep the answer (committed here)."""
    when = clock.as_utc(when or clock.now())
    # A new card is given its id (its millisecond): left to itself fsrs sleeps 1 ms to make one (issue 26).
    card = FsrsCard.from_dict(json.loads(row.schedule)) if row.schedule else FsrsCard(card_id=int(when.timestamp() * 1000), due=when)
    card, _ = SCHEDULER.review_card(card, rating(correct), when)
    row.schedule = json.dumps(card.to_dict())
    row.due = card.due
    row.reviews += 1
    row.last_answer = json.dumps(answer)
    row.last_correct = correct
    row.answered_at = when
    session.add(row)
    session.commit()


def export_positions(session: Session, learner_id: int) -> list[dict[str, Any]]:
    """Every position for "Download everything": its hand's number in the export, and its schedule."""
    hands = session.exec(
        select(PracticeHand.id).where(PracticeHand.learner_id == learner_id).order_by(col(PracticeHand.id))
    ).all()
    index = {hand_id: n for n, hand_id in enumerate(hands)}
    rows = session.exec(
        select(ReplayPosition).where(ReplayPosition.learner_id == learner_id).order_by(col(ReplayPosition.id))
    ).all()
    return [
        {
            "hand": index.get(r.hand_id), "decision": r.number, "due": r.due.isoformat(), "reviews": r.reviews,
            "last_answer": json.loads(r.last_answer), "last_correct": r.last_correct,
            "answered_at": r.answered_at.isoformat() if r.answered_at else None,
            "schedule": json.loads(r.schedule) if r.schedule else None,
        }
        for r in rows
    ]
