"""The practice review of each student's seat at a class table, for the class-table dashboard (issue 28, item 5).

A finished table hand's seat is reviewed as a practice hand is
(`coach.play.review.review` for that seat, under the hand's table rules),
in the background: grading a hand takes seconds, and no request waits for
it. The result is kept in this process, keyed by the hand, its version and
the seat: a finished hand never changes, so a kept review never goes stale,
and another process computes its own once. The dashboard shows
"Reviewing…" until it is there. Under test (`reviews.inline`) it is
computed in the request, so that tests read it at once.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from flask import current_app

from coach.notation.card import Card
from coach.play.hand import Action
from coach.play.review import Review, review
from coach.rules.table_rules import TableRules
from coach.web.shared.practice.reviews import inline

log = logging.getLogger(__name__)

KEPT = 512  # seat reviews kept in this process: a class of 200 is 200 of them
WORKERS = 1  # one thread: the dashboard's reviews queue behind each other, never crowding out the pages

Key = tuple[int, int, str]  # (table hand id, its version, seat)


@dataclass(frozen=True)
class SeatReview:
    status: str  # "running", "done" or "failed"
    review: Review | None = None


_kept: OrderedDict[Key, SeatReview] = OrderedDict()
_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None


def _keep(key: Key, value: SeatReview) -> None:
    with _lock:
        _kept[key] = value
        _kept.move_to_end(key)
        while len(_kept) > KEPT:
            _kept.popitem(last=False)


def _compute(key: Key, card: Card, seed: int, actions: list[Action], rules: TableRules) -> None:
    try:
        _keep(key, SeatReview("done", review(card, seed, actions, key[2], rules=rules)))
    except Exception:  # a stored hand the engine refuses: said on the page, never a 500
        log.exception("the review of table hand %s, seat %s failed", key[0], key[2])
        _keep(key, SeatReview("failed"))


def seat_review(hand_id: int, version: int, seat: str, card: Card, seed: int, actions: list[Action], rules: TableRules) -> SeatReview:
    """The seat's review of a finished hand: kept, or started now (in the background,
    in the request under test) and "running" until it is done."""
    global _pool
    key = (hand_id, version, seat)
    with _lock:
        found = _kept.get(key)
        if found is not None:
            return found
        _kept[key] = SeatReview("running")
        if not inline(current_app):
            if _pool is None:
                _pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="coach-table-review")
            _pool.submit(_compute, key, card, seed, actions, rules)
            return _kept[key]
    _compute(key, card, seed, actions, rules)
    with _lock:
        return _kept[key]
