"""How many jokers a dealt hand holds: near what a real table sees.

A set has 8 jokers among its 152 tiles (T1), so a 14-tile hand holds none,
one or two as a rule and three or four rarely; a rack of six jokers is a
scene no table shows and teaches little. Drills that add jokers at random
draw how many from here (`joker_budget`), and drills that pick among
ready-made hands weigh them the same way (`by_jokers`).

Blanks (TR1, a table rule) are dealt the same way a real table deals them:
a rack for a table that plays blanks comes from its whole set, blanks
shuffled in (`table_wall`), so a rack holds as many as a real deal does
(with eight blanks in 160 tiles, about half the racks hold none)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

from coach.rules.blanks import wall
from coach.rules.table_rules import LEAGUE, TableRules

# Relative chance of a dealt hand holding 0, 1, 2, 3 or 4 jokers; never more.
# A winning hand gathers a little more than the 0.44/0.39/0.14/0.03 of a deal.
JOKER_WEIGHTS = (1.0, 1.0, 0.6, 0.15, 0.04)
MOST_JOKERS = len(JOKER_WEIGHTS) - 1

T = TypeVar("T")


def joker_budget(rng: random.Random, at_least: int = 0) -> int:
    """How many jokers a hand dealt now holds, at least `at_least` (when the
    hand needs that many: a set runs short of a tile, or the question is about jokers)."""
    if at_least > MOST_JOKERS:
        return at_least
    counts = range(at_least, MOST_JOKERS + 1)
    return rng.choices(counts, weights=JOKER_WEIGHTS[at_least:])[0]


def by_jokers(rng: random.Random, hands: Sequence[T], jokers: Callable[[T], int]) -> T:
    """One of `hands`, weighed by how often a table sees its number of jokers;
    when every hand holds more than MOST_JOKERS, one of those with fewest."""
    weights = [JOKER_WEIGHTS[n] if (n := jokers(hand)) <= MOST_JOKERS else 0.0 for hand in hands]
    if not any(weights):
        fewest = min(jokers(hand) for hand in hands)
        return rng.choice([hand for hand in hands if jokers(hand) == fewest])
    return rng.choices(list(hands), weights=weights)[0]


def table_wall(rules: TableRules = LEAGUE) -> list[int]:
    """The set a rack is dealt from at this table, one entry a tile, unshuffled:
    the League's 152 tiles (T1) and the table's blanks (TR1)."""
    return list(wall(rules))
