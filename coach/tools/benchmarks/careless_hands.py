"""Finished practice hands with decisions worth replaying, for the replay benchmark and tests:
East plays as the coach would, but passes and throws carelessly at random."""

from __future__ import annotations

import random

from coach.notation import tiles
from coach.notation.card import Card
from coach.play.bots import decide
from coach.play.hand import SEATS, Action, Hand, deal


def careless(card: Card, seed: int, care: float = 0.5) -> Hand:
    """A whole hand: three club bots, and East, who half the time picks a random pass or discard."""
    hand = deal(card, seed)
    rng = random.Random(f"careless:{seed}")
    while hand.waiting():
        waiting = hand.waiting()
        seat = next(s for s in SEATS if s in waiting)
        action = decide(hand, seat, "club", rng)
        if seat == "East" and action.kind in ("pass", "discard") and rng.random() > care:
            rack = [t for t in hand.racks["East"] if t != tiles.JOKER]
            size = 3 if action.kind == "pass" else 1
            if len(rack) >= size:
                action = Action("East", action.kind, tuple(tiles.CODES[t] for t in rng.sample(rack, size)))
        hand.apply(action)
    return hand
