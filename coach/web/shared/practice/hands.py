"""A practice hand (issue 16) as both the /play pages and the JSON API hold it.

The hand is its seed, its card, its table rules and its actions
(coach/play/hand.py; the rules as stored with it, coach/store/table_rules.py):
each request rebuilds it, from the cache of the last state by hand and move
count when it can, and the computer players move until the learner (East)
is owed a decision.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from flask import abort, current_app
from sqlmodel import Session

from coach.notation import tiles
from coach.notation.card import Card
from coach.play.bots import answer
from coach.play.hand import Action, Hand, replay
from coach.play.telling import tell
from coach.store import hands as store
from coach.store.models import PracticeHand
from coach.store.table_rules import hand_rules
from coach.web.shared import learners
from coach.web.shared.cards import teachers as teacher_cards

SEAT = "East"  # the learner deals and throws first (S4)
CACHE_SIZE = 64
STEP_WORDS = {
    "first-right": "First Charleston: pass three tiles to the right (C1)",
    "first-across": "First Charleston: pass three tiles across (C1)",
    "first-left": "First Charleston: pass three tiles to the left; some may be tiles coming to you in this pass, sent straight on unseen (C1, C5)",
    "vote": "Play the second Charleston? Any one player may stop it (C2)",
    "second-left": "Second Charleston: pass three tiles to the left (C2)",
    "second-across": "Second Charleston: pass three tiles across (C2)",
    "second-right": "Second Charleston: pass three tiles to the right; some may be tiles coming to you in this pass, sent straight on unseen (C2, C5)",
    "offer": "Courtesy pass: offer 0 to 3 tiles to the player across (C3)",
    "courtesy": "Courtesy pass: choose the tiles to pass across (C3)",
}

_cache: OrderedDict[tuple[int, int, str], Hand] = OrderedDict()
_lock = threading.Lock()


def house_card() -> Card:
    """The app's own card: new hands are dealt on it unless a class hand names another."""
    return current_app.extensions["coach"].card


def own_hand(session: Session, hand_id: int) -> PracticeHand:
    """This request's learner's hand; a 404 for anyone else's, as for a missing one."""
    learner = learners.current_learner(session)
    row = store.hand_of(session, learner.id, hand_id) if learner is not None and learner.id is not None else None
    if row is None:
        abort(404)
    return row


def card_for(row: PracticeHand) -> Card:
    """The card the hand was dealt on: the house card, or a teacher's card
    for a class hand (when this person may use it), else the house card."""
    card = house_card()
    return card if row.card == card.name else teacher_cards.find_card(row.card) or card


def load(row: PracticeHand) -> Hand:
    """The hand as it stands: from the cache, else replayed from its actions."""
    card = card_for(row)
    if row.card != card.name:
        abort(409, description=f'This hand was dealt on "{row.card}", which the coach no longer uses: start a new one.')
    actions = store.actions_of(row)
    key = (row.id or 0, len(actions), card.name)
    with _lock:
        hand = _cache.pop(key, None)
    if hand is None:
        hand = replay(card, row.seed, [Action.from_json(a) for a in actions], hand_rules(row))
    return hand


def keep(row: PracticeHand, hand: Hand) -> None:
    with _lock:
        _cache[(row.id or 0, len(hand.actions), hand.card.name)] = hand
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)


def bots_play(hand: Hand, strength: str) -> None:
    """The computer players move until it is the learner's turn to act (or the end);
    on the stop vote and the courtesy offer the learner answers first (bots.answer, C2, C3)."""
    answer(hand, SEAT, strength)


def result_json(hand: Hand) -> dict[str, Any] | None:
    """How the hand ended. The review's accuracy, decision count, mistakes and
    positions to replay join it when the review is done (practice/reviews.py)."""
    if hand.phase != "over":
        return None
    return dict(hand.record()["result"])


def codes(values: list[int]) -> list[str]:
    """Tiles as codes in table order, a blank too (TR1)."""
    return sorted((tiles.TABLE_CODES[t] for t in values), key=tiles.sort_key)


def describe_move(hand: Hand, number: int) -> str:
    """One past action in words, as East's seat heard it ("South threw the 5 Dot."):
    coach/play/telling.py, empty for what East did not see."""
    return tell(hand.actions, number, SEAT)
