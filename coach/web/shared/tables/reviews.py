"""Each person's review of their own seat in a table hand (issue 28), computed once
in the background exactly as a practice hand's (coach/web/shared/practice/reviews.py).

    start_reviews(hand_id)          when a hand ends: every person's seat claimed and computed
    start_review(hand_id, seat)     one seat's review as stored now, claimed if missing or stale

The rows are `TableHandReview`, keyed by the table hand and seat; the claim,
the heartbeat and the takeover are coach/store/reviews.py's, the workers the
practice reviews' pool. Who may read a seat's review is the caller's to check:
the person who sat there when the hand ended (`result["people"]`, state.py).
"""

from __future__ import annotations

import logging

from flask import Flask, current_app

from coach.play.hand import Action
from coach.play.review import REVIEW_VERSION, review
from coach.store import reviews as store
from coach.store import tables as table_store
from coach.store.models import GameTable, TableHand, TableHandReview
from coach.store.transaction import write
from coach.web.infra import database
from coach.web.shared.practice import reviews as practice
from coach.web.shared.practice.reviews import ReviewState, state_of
from coach.web.shared.tables.state import card_of, stored_result

log = logging.getLogger(__name__)


def start_reviews(hand_id: int) -> None:
    """Every person's review of a finished table hand, started in the background
    (inline under test); the seats are those people held when it ended."""
    with database.reading() as session:
        row = session.get(TableHand, hand_id)
        result = stored_result(row) if row is not None else None
        seats = sorted((result or {}).get("people", {}))
    for seat in seats:
        start_review(hand_id, seat)


def start_review(hand_id: int, seat: str) -> ReviewState:
    """This seat's review as stored now, claimed and computed in the background
    (inline under test) when missing, out of date or abandoned."""
    with database.reading() as session:
        row = session.get(TableHand, hand_id)
        if row is None or row.finished_at is None:
            return ReviewState(practice.WAITING)
        moves = len(table_store.actions_of(row))
        stored = store.review_of(session, hand_id, seat, TableHandReview)
        if not store.needs_claim(stored, moves, REVIEW_VERSION):
            return state_of(stored, moves)
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]  # the worker needs the app itself
    with database.writing() as session:
        work = write(session, lambda: store.claim(session, hand_id, seat, moves, REVIEW_VERSION, model=TableHandReview))
    if work is not None:
        if practice.inline(app):
            _compute(app, work)
        else:
            practice._pool(app).submit(_compute, app, work)  # the practice reviews' workers
    with database.reading() as session:
        return state_of(store.review_of(session, hand_id, seat, TableHandReview), moves)


def _compute(app: Flask, work: store.Claim) -> None:
    """Grade the seat's decisions and keep the review; a failure is kept as one line."""
    with app.app_context():
        try:
            with database.reading() as session:
                row = session.get(TableHand, work.hand_id)
                table = session.get(GameTable, row.table_id) if row is not None else None
                if row is None or table is None:
                    return  # deleted meanwhile: its reviews went with it
                card = card_of(table)
                actions = [Action.from_json(a) for a in table_store.actions_of(row)][: work.moves]
                seed, rules = row.seed, table_store.hand_rules(row)
            found = review(card, seed, actions, work.seat, progress=practice._Reporter(work), rules=rules)
            with database.writing() as session:
                write(session, lambda: store.finish(session, work, found.to_json()))
        except practice._TakenOver:
            return
        except Exception as error:  # kept as the review's failure, and logged: not lost in a thread
            log.exception("the review of table hand %s, %s, failed", work.hand_id, work.seat)
            why = f"{type(error).__name__}: {error}"
            with database.writing() as session:
                write(session, lambda: store.fail(session, work, why))
