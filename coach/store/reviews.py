"""Practice hands' reviews, computed once and kept (issue 24, item 8).

A review is one row per hand and seat (`HandReview`), which says what it was
made from (the hand's number of moves, the REVIEW_VERSION of the grading)
and how far it is: running (done of total decisions graded), done (the
review's JSON) or failed.

Whoever wants a review `claim`s it: one statement, a compare-and-set on the
row's status, so of two requests (or two server processes) asking at once
exactly one gets the work. A claim succeeds when there is no row yet (the
unique key decides, `insert_once`), or when the row is out of date (fewer
moves, an older version), failed a while ago, or running with a heartbeat
older than `STALE_AFTER` (its worker died: a killed process leaves its row
"running" forever otherwise). Each claim counts up `attempt`, and every
later write of the worker names its attempt: a worker whose claim was taken
over writes nothing (`progress` says False, and it stops).

The worker's `finish` writes the review and, for a finished hand, what the
hand's result keeps of it (accuracy, decisions, mistakes) and its positions
to replay, in one transaction. The caller commits each function's work:
run them in `transaction.write`.

A table hand's reviews (issue 28: each person's own seat) are kept alike in
`TableHandReview`, the same columns keyed by the table hand: pass
`model=TableHandReview`; its claim remembers the model for the later writes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, or_, update
from sqlmodel import Session, col, select

from coach.common import clock
from coach.store.models import HandReview, PracticeHand, TableHandReview
from coach.store.replays import add_for_hand
from coach.store.transaction import insert_once

RUNNING, DONE, FAILED = "running", "done", "failed"
# A running review whose worker has not written for this long is taken to be
# abandoned (its process was killed) and may be claimed again; a worker
# writes at least every decision, and a decision takes well under a second.
STALE_AFTER = timedelta(seconds=60)
# A failed review is tried again no sooner than this (a failure is most
# likely the same again: not on every poll of the page).
RETRY_FAILED_AFTER = timedelta(minutes=10)


@dataclass(frozen=True)
class Claim:
    """The right to compute one review: its row and the attempt that owns it."""

    review_id: int
    hand_id: int
    seat: str
    attempt: int
    moves: int
    version: int
    model: Any = HandReview  # HandReview (a practice hand) or TableHandReview (a table hand's seat)


Reviews = type[HandReview] | type[TableHandReview]


def review_of(session: Session, hand_id: int, seat: str, model: Reviews = HandReview) -> Any:
    """The stored review of this hand and seat, in whatever state (the caller owns the hand)."""
    return session.exec(select(model).where(model.hand_id == hand_id, model.seat == seat)).first()


def reviews_of(session: Session, hand_ids: list[int], seat: str) -> dict[int, HandReview]:
    """The stored reviews of these hands, by hand id."""
    if not hand_ids:
        return {}
    rows = session.exec(select(HandReview).where(col(HandReview.hand_id).in_(hand_ids), HandReview.seat == seat)).all()
    return {row.hand_id: row for row in rows}


def is_current(row: HandReview | None, moves: int, version: int) -> bool:
    """Whether `row` is a finished review of the hand as it stands, by this grading."""
    return row is not None and row.status == DONE and row.moves == moves and row.version == version


def needs_claim(row: HandReview | None, moves: int, version: int, now: datetime | None = None) -> bool:
    """Whether a claim now would succeed (the same test `claim` makes in the database)."""
    if row is None:
        return True
    now = now or clock.now()
    if row.moves != moves or row.version != version:
        return True
    if row.status == RUNNING:
        return row.heartbeat_at < now - STALE_AFTER
    return row.status == FAILED and row.heartbeat_at < now - RETRY_FAILED_AFTER


def claim(
    session: Session, hand_id: int, seat: str, moves: int, version: int, now: datetime | None = None,
    model: Reviews = HandReview,
) -> Claim | None:
    """Take the work of reviewing this hand as it stands (`moves` actions, grading
    `version`); None when it is already done, or running in a live worker.

    Adds to the caller's transaction (commit it before the work starts)."""
    now = clock.as_utc(now or clock.now())
    fresh = {
        "hand_id": hand_id, "seat": seat, "status": RUNNING, "attempt": 1, "moves": moves, "version": version,
        "done": 0, "total": 0, "review": "null", "error": "", "started_at": now, "heartbeat_at": now, "finished_at": None,
    }
    if insert_once(session, model, fresh, ("hand_id", "seat")):
        row = review_of(session, hand_id, seat, model)
        assert row is not None and row.id is not None
        return Claim(row.id, hand_id, seat, 1, moves, version, model)
    # The compare-and-set: the row changes only if it still needs the work when
    # the database runs this statement (PostgreSQL evaluates the WHERE again on
    # the row a concurrent claim just wrote; SQLite has one writer at a time).
    stale = or_(
        col(model.moves) != moves,
        col(model.version) != version,
        and_(col(model.status) == RUNNING, col(model.heartbeat_at) < now - STALE_AFTER),
        and_(col(model.status) == FAILED, col(model.heartbeat_at) < now - RETRY_FAILED_AFTER),
    )
    claimed = session.exec(  # an UPDATE ... RETURNING: the new attempt
        update(model)
        .where(col(model.hand_id) == hand_id, col(model.seat) == seat, stale)
        .values(
            status=RUNNING, attempt=model.attempt + 1, moves=moves, version=version, done=0, total=0,
            review="null", error="", started_at=now, heartbeat_at=now, finished_at=None,
        )
        .returning(col(model.id), col(model.attempt))
        .execution_options(synchronize_session=False)
    ).first()
    if claimed is None:
        return None
    session.expire_all()  # a row loaded before says what was stored before the claim
    return Claim(int(claimed[0]), hand_id, seat, int(claimed[1]), moves, version, model)


def _mine(work: Claim) -> Any:
    model = work.model
    return and_(col(model.id) == work.review_id, col(model.attempt) == work.attempt, col(model.status) == RUNNING)


def progress(session: Session, work: Claim, done: int, total: int, now: datetime | None = None) -> bool:
    """How far the worker has got (and that it lives); False when its claim was
    taken over, and it should stop. Adds to the caller's transaction."""
    written = session.exec(
        update(work.model)
        .where(_mine(work))
        .values(done=done, total=total, heartbeat_at=clock.as_utc(now or clock.now()))
        .execution_options(synchronize_session=False)
    )
    return bool(written.rowcount == 1)


def finish(
    session: Session, work: Claim, review: dict[str, Any], summary: dict[str, Any] | None = None,
    replay: list[int] | None = None, now: datetime | None = None,
) -> bool:
    """The finished review; False (nothing written) when the claim was taken over.

    For a finished hand, `summary` is merged into the hand's stored result
    (what the progress page and the class dashboard read) and `replay`'s
    decisions become positions to replay, in the same transaction."""
    now = clock.as_utc(now or clock.now())
    decisions = review.get("decisions", [])
    written = session.exec(
        update(work.model)
        .where(_mine(work))
        .values(status=DONE, done=len(decisions), total=len(decisions), review=json.dumps(review, separators=(",", ":")),
                heartbeat_at=now, finished_at=now)
        .execution_options(synchronize_session=False)
    )
    if written.rowcount != 1:
        return False
    hand = session.get(PracticeHand, work.hand_id) if work.model is HandReview else None
    if hand is not None and hand.finished_at is not None and summary is not None:
        result = json.loads(hand.result or "null") or {}
        result.update(summary)
        hand.result = json.dumps(result)
        session.add(hand)
        add_for_hand(session, hand, replay or ())
    return True


def fail(session: Session, work: Claim, error: str, now: datetime | None = None) -> bool:
    """The review could not be made (a bug, a card gone): said in one line, tried again later."""
    written = session.exec(
        update(work.model)
        .where(_mine(work))
        .values(status=FAILED, error=error[:200], heartbeat_at=clock.as_utc(now or clock.now()))
        .execution_options(synchronize_session=False)
    )
    return bool(written.rowcount == 1)
