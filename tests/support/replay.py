"""A careless hand worth replaying (the first seed whose East made a discard the
review can replay), dealt once for the replay tests."""

from __future__ import annotations

from coach.play.positions import to_replay
from coach.play.review import review
from coach.tools.benchmarks.careless_hands import careless
from tests.support.cards import CARD as HOUSE


def careless_seed() -> tuple[int, object]:
    for seed in range(40):
        hand = careless(HOUSE, seed)
        numbers = [n for n in to_replay(review(HOUSE, seed, hand.actions, "East")) if hand.actions[n].kind == "discard"]
        if numbers:
            return seed, hand
    raise AssertionError("no careless hand to replay")


SEED, HAND = careless_seed()
