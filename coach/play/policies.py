"""Simple ways to choose a Charleston pass (C1, C4), for the computer players
and for the simulation that compares them with the coach's own advice.

A policy takes the card, the rack, the tiles it passed before and a seeded
generator, and returns the three tiles it passes (never a joker, C4).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from coach.notation import tiles
from coach.notation.card import Card
from coach.reading.analysis import analyze
from coach.reading.tiles_away import Holding

Policy = Callable[[Card, list[int], list[int], random.Random], list[int]]


def random_policy(card: Card, rack: list[int], passed_before: list[int], rng: random.Random) -> list[int]:
    """Any three tiles but jokers (C4)."""
    return rng.sample([t for t in rack if t != tiles.JOKER], 3)


def nearest_three_policy(card: Card, rack: list[int], passed_before: list[int], rng: random.Random) -> list[int]:
    """Pass the tiles the three nearest lines don't use (fewest uses first)."""
    result = analyze(card, Holding.of(rack))
    uses = [0] * tiles.KINDS
    for line in result.lines[:3]:
        if line.fill is None:
            continue
        counted = [0] * tiles.KINDS
        for t in line.fill.used:
            counted[t] += 1
        uses = [u + c for u, c in zip(uses, counted)]
    # Each copy of a tile is "used" by as many nearest lines as place that many copies.
    copies: list[tuple[int, float, int]] = []
    seen = [0] * tiles.KINDS
    for t in sorted(rack):
        if t == tiles.JOKER:
            continue
        seen[t] += 1
        used_by = sum(1 for line in result.lines[:3] if line.fill and line.fill.used.count(t) >= seen[t])
        copies.append((used_by, rng.random(), t))
    copies.sort()
    return [t for _, _, t in copies[:3]]


def least_suit_policy(card: Card, rack: list[int], passed_before: list[int], rng: random.Random) -> list[int]:
    """Pass the suit you hold least of (number tiles), then the next, keeping honours."""
    by_suit: dict[str, list[int]] = {s: [] for s in tiles.SUITS}
    for t in rack:
        suit = tiles.suit_of(t)
        if suit:
            by_suit[suit].append(t)
    order = sorted((len(v), rng.random(), s) for s, v in by_suit.items() if v)
    chosen: list[int] = []
    for _, _, suit in order:
        for t in sorted(by_suit[suit], key=lambda _: rng.random()):
            if len(chosen) < 3:
                chosen.append(t)
    if len(chosen) < 3:
        rest = [t for t in rack if t != tiles.JOKER]
        for t in chosen:
            rest.remove(t)
        chosen += rng.sample(rest, 3 - len(chosen))
    return chosen
