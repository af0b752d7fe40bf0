"""Today's practice: a short mixed session, planned once a day.

The plan puts first at most two positions of the learner's own practice
hands to replay (their mistakes, coach/store/replays.py), then the skills whose review is due (fsrs, most overdue
first), then new skills in teaching order (the tiles before reading the
card before the Charleston: the order of `drills.DRILLS` and their
levels), then the weakest skills already practised. Each skill gets a
couple of questions, until the session is full. Seeds are drawn fresh
for the day, so the questions are new ones.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import date, datetime

from sqlmodel import Session, col, select

import drills
from coach.common import clock
from coach.store.models import DailySession, Learner, SkillState
from coach.store.progress import drill_skill, local_day, skill_progress, zone
from coach.store.replays import due_ids as due_positions
from drills.replay_position import NAME as REPLAY

SESSION_SIZE = 10
PER_SKILL = {"due": 2, "new": 3, "weak": 2}
NEW_PER_SESSION = 2  # new skills a day: enough to move on, not so many that none sticks
MAX_SEED = 2**31


@dataclass(frozen=True)
class Slot:
    drill: str
    level: int
    seed: int
    why: str  # "replay" (seed: a position's id, coach/store/replays.py), "due", "new" or "weak": shown to the learner


def catalog() -> list[tuple[str, int]]:
    """Every drill and level, in teaching order."""
    return [(module.NAME, level.number) for module in drills.DRILLS.values() for level in module.LEVELS]


def _seed(learner_id: int, day: date, n: int) -> int:
    digest = hashlib.sha256(f"{learner_id}:{day.isoformat()}:{n}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % MAX_SEED


def plan(
    due: list[tuple[str, int]],
    practised: dict[tuple[str, int], float],
    learner_id: int,
    day: date,
    size: int = SESSION_SIZE,
) -> list[Slot]:
    """The day's questions from the due skills (most overdue first) and the
    accuracy of every skill practised so far."""
    order: list[tuple[tuple[str, int], str]] = [(skill, "due") for skill in due]
    new = [skill for skill in catalog() if skill not in practised][:NEW_PER_SESSION]
    order += [(skill, "new") for skill in new]
    weakest = sorted((accuracy, n, skill) for n, (skill, accuracy) in enumerate(practised.items()) if skill not in due)
    order += [(skill, "weak") for _, _, skill in weakest]
    if not order:  # nothing due, nothing new, nothing practised: not reached with a catalog
        return []
    slots: list[Slot] = []
    while len(slots) < size:
        for (name, level), why in order:
            for _ in range(PER_SKILL[why]):
                if len(slots) < size:
                    slots.append(Slot(name, level, _seed(learner_id, day, len(slots)), why))
    return slots


def _state(session: Session, learner: Learner, now: datetime) -> tuple[list[tuple[str, int]], dict[tuple[str, int], float]]:
    known = {drill_skill(name, level): (name, level) for name, level in catalog()}
    states = session.exec(
        select(SkillState).where(SkillState.learner_id == learner.id).order_by(col(SkillState.due))
    ).all()
    due = [known[s.skill] for s in states if s.skill in known and s.due <= now]
    practised = {known[p.skill]: p.accuracy for p in skill_progress(session, learner) if p.skill in known}
    return due, practised


@dataclass(frozen=True)
class Today:
    day: date
    slots: tuple[Slot, ...]
    position: int

    @property
    def done(self) -> bool:
        return self.position >= len(self.slots)

    @property
    def current(self) -> Slot | None:
        return None if self.done else self.slots[self.position]


def today(session: Session, learner: Learner, now: datetime | None = None) -> Today:
    """Today's session for this learner, planned on first use."""
    now = now or clock.now()
    day = local_day(now, zone(learner))
    row = session.exec(
        select(DailySession).where(DailySession.learner_id == learner.id, DailySession.day == day.isoformat())
    ).first()
    if row is None:
        due, practised = _state(session, learner, now)
        assert learner.id is not None
        replays = [Slot(REPLAY, 1, position_id, "replay") for position_id in due_positions(session, learner.id, now)]
        slots = replays + plan(due, practised, learner.id, day, SESSION_SIZE - len(replays))
        row = DailySession(
            learner_id=learner.id,
            day=day.isoformat(),
            plan=json.dumps([[s.drill, s.level, s.seed, s.why] for s in slots]),
        )
        session.add(row)
        session.commit()
        session.refresh(row)
    planned = tuple(Slot(d, lv, sd, why) for d, lv, sd, why in json.loads(row.plan))
    return Today(day, planned, row.position)


def advance(session: Session, learner: Learner, after: int, now: datetime | None = None) -> Today:
    """Move past question `after` (counted from 0); a repeated request moves nothing."""
    current = today(session, learner, now)
    row = session.exec(
        select(DailySession).where(
            DailySession.learner_id == learner.id, DailySession.day == current.day.isoformat()
        )
    ).one()
    if after == row.position and row.position < len(current.slots):
        row.position += 1
        session.add(row)
        session.commit()
    return Today(current.day, current.slots, row.position)
