"""A practice hand's review, computed once in the background and kept (issue 24, item 8).

    start_review(hand_id)    claim the review if it is missing or out of date, and compute it in a worker
    review_state(hand_id)    how it stands: running (done of total), done (the Review), failed

No request grades a hand: the grading may take seconds (every decision of
the hand, each against the coach's choice). The review starts when the
hand's last move is saved (`moves.advance`) and, for a hand without one,
when it is first looked at; the pages and the API show its progress and
poll until it is done.

The work runs in a small pool of threads per server process
(settings.REVIEW_WORKERS); the store's claim (coach/store/reviews.py) makes
sure two requests, or two processes, never compute the same review twice,
and the worker's heartbeat (its progress, written every decision at most
every half second) lets a review whose process was killed be claimed again.

Under test (an app made with TESTING, unless its config says
REVIEWS_INLINE=False) the review is computed in the request that starts
it, so that tests read a finished hand's review at once and alike.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from flask import Flask, current_app

from coach.common import settings
from coach.play.hand import Action
from coach.play.positions import to_replay
from coach.play.review import MISTAKE, REVIEW_VERSION, Review, review
from coach.store import hands as hand_store
from coach.store import reviews as store
from coach.store.models import HandReview, PracticeHand
from coach.store.table_rules import hand_rules
from coach.store.transaction import write
from coach.web.infra import database
from coach.web.shared.practice.hands import SEAT, card_for

log = logging.getLogger(__name__)

RUNNING, DONE, FAILED = store.RUNNING, store.DONE, store.FAILED
WAITING = "waiting"  # no review of the hand as it stands is stored: none was started, or its claim is being made
WRITE_EVERY = 0.5  # seconds between progress writes (the first and the last always written)


@dataclass(frozen=True)
class ReviewState:
    """A hand's review as the pages and the API show it."""

    status: str  # running, done, failed, or waiting
    done: int = 0
    total: int = 0
    review: Review | None = None

    @property
    def ready(self) -> bool:
        return self.review is not None

    @property
    def percent(self) -> int:
        return round(100 * self.done / self.total) if self.total else 0

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "done": self.done, "total": self.total}


def state_of(row: HandReview | None, moves: int) -> ReviewState:
    """The state a stored row says for a hand of `moves` actions (a row of fewer moves, or an older grading, is waiting)."""
    if row is None or row.moves != moves or row.version != REVIEW_VERSION:
        return ReviewState(WAITING)
    if row.status == store.DONE:
        return ReviewState(store.DONE, row.done, row.total, Review.from_json(json.loads(row.review)))
    return ReviewState(row.status, row.done, row.total)


def _moves(hand: PracticeHand) -> int:
    return len(hand_store.actions_of(hand))


def start_review(hand_id: int, seat: str = SEAT) -> ReviewState:
    """The hand's review as stored now, claimed and computed in the background
    (inline under test) when it is missing, out of date or abandoned. The
    caller has checked that the hand is the asker's."""
    with database.reading() as session:
        hand = session.get(PracticeHand, hand_id)
        if hand is None:
            return ReviewState(WAITING)
        moves = _moves(hand)
        row = store.review_of(session, hand_id, seat)
        if not store.needs_claim(row, moves, REVIEW_VERSION):
            return state_of(row, moves)  # the usual poll: one read, no write
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]  # the worker needs the app itself
    with database.writing() as session:
        work = write(session, lambda: store.claim(session, hand_id, seat, moves, REVIEW_VERSION))
    if work is not None:
        if inline(app):
            _compute(app, work)
        else:
            _submit(app, work)
    with database.reading() as session:
        return state_of(store.review_of(session, hand_id, seat), moves)


def stored_states(hands: list[PracticeHand], seat: str = SEAT) -> dict[int, ReviewState]:
    """The stored reviews of several hands at once, by hand id (nothing started: see `start_review`)."""
    with database.reading() as session:
        rows = store.reviews_of(session, [h.id for h in hands if h.id is not None], seat)
    return {h.id: state_of(rows.get(h.id), _moves(h)) for h in hands if h.id is not None}


def inline(app: Flask) -> bool:
    """Whether reviews are computed in the request that starts them: under test only."""
    return bool(app.config.get("REVIEWS_INLINE", app.testing))


# -- the workers ---------------------------------------------------------------------------------

_pools: dict[tuple[int, int], ThreadPoolExecutor] = {}  # (process id, app id): gunicorn forks after the app is made
_pools_lock = threading.Lock()


def _pool(app: Flask) -> ThreadPoolExecutor:
    key = (os.getpid(), id(app))
    with _pools_lock:
        pool = _pools.get(key)
        if pool is None:
            workers = app.extensions["settings"][settings.REVIEW_WORKERS]
            pool = _pools[key] = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="coach-review")
        return pool


def _submit(app: Flask, work: store.Claim) -> Future[None]:
    return _pool(app).submit(_compute, app, work)


class _TakenOver(Exception):
    """The claim was taken over (a newer grading, more moves, or this worker was thought dead): stop."""


class _Reporter:
    """progress(done, total) for `review`: written to the store every decision,
    at most every WRITE_EVERY seconds (the first and the last always)."""

    def __init__(self, work: store.Claim) -> None:
        self.work = work
        self.written_at = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done not in (1, total) and now - self.written_at < WRITE_EVERY:
            return
        self.written_at = now
        with database.writing() as session:
            if not write(session, lambda: store.progress(session, self.work, done, total)):
                raise _TakenOver()


def _compute(app: Flask, work: store.Claim) -> None:
    """Grade the hand as claimed and keep the review; a failure is kept as one line."""
    with app.app_context():
        try:
            with database.reading() as session:
                hand = session.get(PracticeHand, work.hand_id)
                if hand is None:
                    return  # deleted meanwhile: its review went with it
                card = card_for(hand)
                if hand.card != card.name:
                    raise LookupError(f'the card "{hand.card}" is no longer used')
                actions = [Action.from_json(a) for a in hand_store.actions_of(hand)][: work.moves]
                over = hand.finished_at is not None and work.moves == _moves(hand)
                seed, rules = hand.seed, hand_rules(hand)  # graded under the rules it was played by
            found = review(card, seed, actions, work.seat, progress=_Reporter(work), rules=rules)
            summary: dict[str, Any] | None = None
            replay = to_replay(found) if over else None  # the decisions to ask again (coach/play/positions.py)
            if over:
                summary = {  # what the hand's result keeps of its review (the progress page, the class dashboard)
                    "accuracy": round(found.accuracy, 3),
                    "decisions": len(found.decisions),
                    "mistakes": sum(1 for d in found.decisions if d.grade == MISTAKE),
                    "replay": replay,
                }
            with database.writing() as session:
                write(session, lambda: store.finish(session, work, found.to_json(), summary, replay))
        except _TakenOver:
            return
        except Exception as error:  # kept as the review's failure, and logged: not lost in a thread
            log.exception("the review of hand %s failed", work.hand_id)
            why = f"{type(error).__name__}: {error}"
            with database.writing() as session:
                write(session, lambda: store.fail(session, work, why))
