"""A learner's move on a practice hand: the one way the /play page and the JSON API play it.

A move is checked against every legal action first (coach/play/legal.py):
one off the list is refused with the engine's own message and rule id, and
the hand stays as it was. A legal move is applied, the computer players
reply up to the learner's next decision, and the hand is saved with the
store's compare-and-set: when another request (a second tab, a double
click) saved a move first, store.HandMoved says so and nothing is written.
"""

from __future__ import annotations

from sqlmodel import Session

from coach.play.hand import Action, Hand, HandError
from coach.play.legal import canonical, is_legal, refusal
from coach.store import hands as store
from coach.store.models import PracticeHand
from coach.web.shared.practice.hands import bots_play, keep, result_json
from coach.web.shared.practice.reviews import start_review


def why_refused(hand: Hand, action: Action) -> HandError | None:
    """Why `action` may not be played now (its rule id with it), or None when it may."""
    if hand.phase == "over":
        return HandError("this hand is over: see its review", "E1")
    if not is_legal(hand, action):
        return refusal(hand, action)
    return None


def advance(session: Session, row: PracticeHand, hand: Hand) -> None:
    """The computer players move up to the learner's next decision; the hand is
    saved (store.HandMoved if another request saved first) and kept. Once it is
    over, its review starts at once, in the background (practice/reviews.py)."""
    bots_play(hand, row.bots)
    store.save(session, row, [a.to_json() for a in hand.actions], result_json(hand))
    keep(row, hand)
    if hand.phase == "over" and row.id is not None:
        start_review(row.id)


def play(session: Session, row: PracticeHand, hand: Hand, action: Action) -> None:
    """The learner's move: refused (HandError, the hand kept unchanged) unless
    legal; else applied, answered by the computer players, and saved."""
    refused = why_refused(hand, action)
    if refused is not None:
        keep(row, hand)
        raise refused
    hand.apply(canonical(action))
    advance(session, row, hand)
