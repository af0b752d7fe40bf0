"""Practice hands kept for their learner: made, listed, loaded, saved.

Every getter takes the learner's id and returns None for anyone else's
hand (as coach/store/teaching does for a teacher's things). A hand is
saved whole (its actions) in one short transaction per move.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import func, update
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, col, select

from coach.common import clock
from coach.common.errors import CoachError
from coach.rules.table_rules import LEAGUE, TableRules
from coach.store.models import PracticeHand
from coach.store.replays import add_for_hand
from coach.store.table_rules import hand_rules, stored

MAX_OPEN = 20  # hands going at once per learner: older finished ones stay listed
SEED_RANGE = 2**31 - 1


def new_hand(
    session: Session, learner_id: int, card: str, bots: str, seed: int | None = None, rules: TableRules = LEAGUE
) -> PracticeHand:
    """A new hand, dealt under `rules` (kept with it, so it replays exactly)."""
    row = PracticeHand(
        learner_id=learner_id, seed=secrets.randbelow(SEED_RANGE) if seed is None else seed, card=card[:120], bots=bots,
        rules=stored(rules),
    )
    session.add(row)
    session.commit()
    session.refresh(row)
    return row


def hands_of(session: Session, learner_id: int, limit: int = 50) -> list[PracticeHand]:
    """The learner's hands, the latest first."""
    query = (
        select(PracticeHand)
        .where(PracticeHand.learner_id == learner_id)
        .order_by(col(PracticeHand.updated_at).desc(), col(PracticeHand.id).desc())
        .limit(limit)
    )
    return list(session.exec(query).all())


def open_hands(session: Session, learner_id: int) -> int:
    """Hands the learner has going (not finished), counted by the database."""
    query = select(func.count()).select_from(PracticeHand).where(
        PracticeHand.learner_id == learner_id, col(PracticeHand.finished_at).is_(None)
    )
    return int(session.exec(query).one())


def hand_of(session: Session, learner_id: int, hand_id: int) -> PracticeHand | None:
    row = session.get(PracticeHand, hand_id)
    return row if row is not None and row.learner_id == learner_id else None


def actions_of(row: PracticeHand) -> list[dict[str, Any]]:
    return list(json.loads(row.actions or "[]"))


class HandMoved(CoachError):
    """Another request (a second tab, a double click) moved the hand on after
    this one loaded it: nothing was written, the hand stands as the other left it."""


def save(
    session: Session, row: PracticeHand, actions: list[dict[str, Any]], result: dict[str, Any] | None, hints: int | None = None
) -> None:
    """Keep the hand as it now stands, in one transaction.

    The write only lands on the actions this request loaded (a compare and
    set on the stored text), so two moves posted at once can never both
    be told they were played while one of them is lost: the later gets
    HandMoved and the player sees the hand as it really stands."""
    loaded = row.actions
    now = clock.now()
    values: dict[str, Any] = {"actions": json.dumps(actions, separators=(",", ":")), "updated_at": now}
    if hints is not None:
        values["hints"] = hints
    finishing = result is not None and row.finished_at is None
    if finishing:
        values["result"] = json.dumps(result)
        values["finished_at"] = now
    written = session.exec(
        update(PracticeHand)
        .where(col(PracticeHand.id) == row.id, col(PracticeHand.actions) == loaded)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    if written.rowcount != 1:
        session.rollback()
        raise HandMoved(row.id)
    for name, value in values.items():  # the row object says what was stored, without a second write
        set_committed_value(row, name, value)
    if finishing:
        assert result is not None  # finishing means a result came
        add_for_hand(session, row, result.get("replay", ()))  # its positions to replay, in this transaction
    session.commit()


def add_hint(session: Session, row: PracticeHand) -> None:
    """One more press of "What would the coach do?", counted by the database (two presses at once count two)."""
    session.exec(
        update(PracticeHand)
        .where(col(PracticeHand.id) == row.id)
        .values(hints=PracticeHand.hints + 1)
        .execution_options(synchronize_session=False)
    )
    session.expire(row, ["hints"])  # read again when next asked for: the count as stored, whoever pressed too
    session.commit()


def export_hands(session: Session, learner_id: int) -> list[dict[str, Any]]:
    """Every hand for "Download everything": enough to replay and review it."""
    rows = session.exec(
        select(PracticeHand).where(PracticeHand.learner_id == learner_id).order_by(col(PracticeHand.id))
    ).all()
    return [
        {
            "seed": row.seed, "card": row.card, "seat": row.seat, "bots": row.bots, "hints": row.hints,
            "rules": hand_rules(row).to_json(), "actions": json.loads(row.actions), "result": json.loads(row.result),
            "started": row.created_at.isoformat(), "finished": row.finished_at.isoformat() if row.finished_at else None,
        }
        for row in rows
    ]


@dataclass(frozen=True)
class PlayedHand:
    id: int
    finished_at: datetime
    winner: str | None
    line: str | None
    accuracy: float | None


@dataclass(frozen=True)
class HandStats:
    """Practice hands for the progress page: how many, won, and accuracy over time."""

    played: int
    going: int
    wins: int
    accuracy: float | None  # the mean over finished hands
    recent: tuple[PlayedHand, ...]  # finished, the latest first


def hand_stats(session: Session, learner_id: int, seat: str = "East", shown: int = 10) -> HandStats:
    rows = hands_of(session, learner_id, limit=500)
    done = [r for r in rows if r.finished_at is not None]
    results = {r.id: json.loads(r.result or "null") or {} for r in done}
    played = [
        PlayedHand(r.id or 0, cast(datetime, r.finished_at), results[r.id].get("winner"), results[r.id].get("line"), results[r.id].get("accuracy"))
        for r in sorted(done, key=lambda r: cast(datetime, r.finished_at), reverse=True)  # done: finished hands only
    ]
    scored = [p.accuracy for p in played if isinstance(p.accuracy, (int, float))]
    return HandStats(
        played=len(done),
        going=len(rows) - len(done),
        wins=sum(1 for p in played if p.winner == seat),
        accuracy=sum(scored) / len(scored) if scored else None,
        recent=tuple(played[:shown]),
    )
