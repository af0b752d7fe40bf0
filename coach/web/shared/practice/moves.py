"""A learner's move on a practice hand: the one way the /play page and the JSON API play it.

A move is checked against every legal action first (coach/play/legal.py):
one off the list is refused with the engine's own message and rule id, and
the hand stays as it was. A legal move is applied, the computer players
reply up to the learner's next decision, and the hand is saved with the
store's compare-and-set: when another request (a second tab, a double
click) saved a move first, store.HandMoved says so and nothing is written.

Every move carries back the move number of the state it was chosen on
(coach/play/seen.py): a repeated or stale move (a double tap, a retried
request, a form from an old tab) is refused with StaleMove before anything
else is looked at, so it can never be played on the state that followed.
The compare-and-set stays the guard against two requests racing on the
same number.
"""

from __future__ import annotations

from sqlmodel import Session

from coach.common.errors import CoachError
from coach.play.hand import Action, Hand, HandError
from coach.play.legal import canonical, is_legal, refusal
from coach.play.seen import move_number
from coach.store import hands as store
from coach.store.models import PracticeHand
from coach.web.shared.practice.hands import SEAT, bots_play, keep, result_json
from coach.web.shared.practice.reviews import start_review

ALREADY_PLAYED = "That move was already played; here is the table now."


class StaleMove(CoachError):
    """A move chosen on a state the hand has moved on from: nothing was played."""

    def __init__(self, sent: int, now: int):
        super().__init__(f"the move number sent is {sent}, the hand is at move {now}: {ALREADY_PLAYED}")
        self.sent, self.now = sent, now


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


def play(session: Session, row: PracticeHand, hand: Hand, action: Action, move: int) -> None:
    """The learner's move, chosen on the state numbered `move`: refused (StaleMove)
    when the hand is no longer at that number, refused (HandError) unless legal,
    the hand kept unchanged either way; else applied, answered by the computer
    players, and saved."""
    now = move_number(hand, SEAT)
    if move != now:
        keep(row, hand)
        raise StaleMove(move, now)
    refused = why_refused(hand, action)
    if refused is not None:
        keep(row, hand)
        raise refused
    hand.apply(canonical(action))
    advance(session, row, hand)
