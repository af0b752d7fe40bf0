"""Jokers as a real table sees them (issue 25, item 7): a set has 8 jokers in
152 tiles (T1), so a 14-tile hand holds none, one or two as a rule and three
or four rarely. Every drill and level is dealt over 300 seeds and the jokers
of the hand it shows (rack and exposures) are counted."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import drills
from drills.kit import deal
from tests.support.cards import CARD

SEEDS = range(300)
# Drills whose question shows one player's hand. Not hot-or-safe, whose exposures
# are three other players'; not nearest-hand, whose racks come off a shuffled
# wall and are played on, keeping every joker drawn (its own tests deal it).
ONE_HAND = [name for name in drills.DRILLS if name not in ("hot-or-safe", "nearest-hand")]


def jokers_shown(question) -> int:
    return [*question.rack, *(t for group in question.exposed for t in group)].count("J")


@pytest.mark.parametrize("name", ONE_HAND)
def test_T1_a_dealt_hand_holds_as_many_jokers_as_a_real_table_sees(name):
    module = drills.get(name)
    for level in module.LEVELS:
        seen = Counter(jokers_shown(module.generate(seed, level.number, CARD)) for seed in SEEDS)
        many = sum(n for jokers, n in seen.items() if jokers >= 3)
        # A fault shown on purpose (a joker put in a pair) may add one joker to a full hand.
        assert max(seen) <= deal.MOST_JOKERS + 1, (level.number, sorted(seen.items()))
        assert sum(n for jokers, n in seen.items() if jokers > deal.MOST_JOKERS) <= len(SEEDS) // 100, (level.number, sorted(seen.items()))
        assert many <= len(SEEDS) // 4, (level.number, sorted(seen.items()))


def test_T1_the_joker_budget_is_mostly_none_to_two_and_never_past_four():
    rng = random.Random(25)
    drawn = Counter(deal.joker_budget(rng) for _ in range(3000))
    assert set(drawn) <= set(range(deal.MOST_JOKERS + 1)) and deal.MOST_JOKERS == 4
    assert drawn[0] + drawn[1] + drawn[2] > 0.85 * 3000
    assert all(deal.joker_budget(rng, at_least=2) >= 2 for _ in range(200))


def test_T1_ready_made_hands_are_weighed_by_their_jokers():
    rng = random.Random(25)
    hands = [1] * 10 + [4] * 10 + [7] * 10
    picked = Counter(deal.by_jokers(rng, hands, lambda jokers: jokers) for _ in range(2000))
    assert picked[7] == 0 and picked[1] > 10 * picked[4]
    assert deal.by_jokers(rng, [6, 7, 6], lambda jokers: jokers) == 6  # none a table sees: the fewest
