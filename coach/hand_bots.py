"""Computer players for a practice hand, built from the coach's own advice.

Three strengths (issue 16):
- "beginner": aims at the nearest line and discards sensibly, but misses
  some calls and never stops or offers in the Charleston;
- "club": the coach's advice: passes what its nearest lines do not use,
  calls when a call brings it nearer, exchanges for jokers, discards what
  leaves its nearest line nearest;
- "shark": the club player plus defence (D1): late in the hand it keeps a
  tile that other players' exposures plainly want, when another discard
  costs it nothing.

Each decision is a pure function of the hand's state and a seeded
generator, so a hand of bots replays exactly.
"""

from __future__ import annotations

import random
import time

import numpy as np

from coach import tiles
from coach.card import Card
from coach.discard import wanted_share
from coach.hand import EXPOSE, MAH_JONGG, SEATS, Action, Hand, deal
from coach.mahjong import winning_lines
from coach.simulate import nearest_three_policy
from coach.tiles_away import Exposure, Holding, tables_for

STRENGTHS = ("beginner", "club", "shark")
MISSED_CALLS = 0.4  # the share of good exposure calls a beginner does not see
LATE = 40  # tiles left in the wall when a shark starts to defend (D1)
HOT = 0.5  # a tile at least this share of an exposure's possible hands need is hot (D1)


def nearest(card: Card, holding: Holding) -> int:
    return int(tables_for(card).line_distances(holding).min())


def _pass_tiles(card: Card, rack: list[int], count: int, rng: random.Random) -> tuple[str, ...]:
    chosen = nearest_three_policy(card, rack, [], rng)[:count]  # never a joker (C4)
    return tuple(tiles.CODES[t] for t in chosen)


def best_discard(hand: Hand, seat: str, strength: str) -> int:
    """The tile whose loss leaves the nearest line nearest, then the most lines close;
    a shark late in the hand keeps a hot tile when another is as good (D1)."""
    card, rack = hand.card, hand.racks[seat]
    exposures = [e.as_exposure() for e in hand.exposed[seat]]
    kinds = sorted(set(rack))
    base = np.array(tiles.counts(rack), dtype=np.int16)
    rows = np.repeat(base[None, :], len(kinds), axis=0)
    rows[np.arange(len(kinds)), kinds] -= 1
    tables = tables_for(card)
    if exposures:
        lines = np.array([tables.line_distances(Holding(tuple(int(x) for x in row), tuple(exposures))) for row in rows])
    else:
        lines = tables.batch_line_distances(rows)
    low = lines.min(axis=1)
    close = (lines <= low[:, None] + 1).sum(axis=1)
    keep_joker = np.array([k == tiles.JOKER for k in kinds])
    hot = np.zeros(len(kinds), dtype=bool)
    if strength == "shark" and len(hand.wall) <= LATE:
        for other in SEATS:
            if other != seat and hand.exposed[other]:
                share = wanted_share(card, [e.as_exposure() for e in hand.exposed[other]])
                hot |= np.array([k < tiles.NATURALS and share[k] >= HOT for k in kinds])
    order = np.lexsort((keep_joker, -close, hot, low))
    return kinds[int(order[0])]


def decide(hand: Hand, seat: str, strength: str, rng: random.Random) -> Action:
    """The bot's action for the move `seat` owes now (see Hand.waiting)."""
    if strength not in STRENGTHS:
        raise ValueError(f"a bot is one of {', '.join(STRENGTHS)}, not {strength!r}")
    owed = hand.waiting()[seat]
    card, rack = hand.card, hand.racks[seat]
    if owed == "pass":
        return Action(seat, "pass", _pass_tiles(card, rack, 3, rng))
    if owed == "vote":
        # Far from every line: another three passes are worth more than they risk.
        return Action(seat, "vote", go=strength == "beginner" or nearest(card, hand.holding(seat)) > 4)
    if owed == "offer":
        return Action(seat, "offer", count=0 if strength == "beginner" else 3 if nearest(card, hand.holding(seat)) > 5 else 1)
    if owed == "courtesy":
        return Action(seat, "courtesy", _pass_tiles(card, rack, hand.courtesy[seat], rng))
    if owed == "call":
        purposes = hand.may_call[seat]
        if (MAH_JONGG, 0) in purposes:
            return Action(seat, "call")  # K3: always take the winning tile
        assert hand.latest is not None
        tile = hand.latest[1]
        before = nearest(card, hand.holding(seat))
        for purpose, size in sorted(purposes, key=lambda p: -p[1]):
            if purpose != EXPOSE:
                continue
            holding = hand.holding(seat)
            counts = list(holding.rack)
            used = min(counts[tile], size - 1)
            counts[tile] -= used
            counts[tiles.JOKER] -= size - 1 - used
            after = Holding(tuple(counts), holding.exposures + (Exposure(tile, size, size - 1 - used),))
            if nearest(card, after) < before and not (strength == "beginner" and rng.random() < MISSED_CALLS):
                return Action(seat, "call", size=size)
        return Action(seat, "no-call")
    # Our turn: Mah Jongg, then a joker exchange that costs nothing, then the discard.
    holding = hand.holding(seat)
    if winning_lines(card, holding):
        return Action(seat, "mahjong")
    if strength != "beginner":
        before = nearest(card, holding)
        for owner, group, tile in hand.exchanges(seat):
            counts = list(holding.rack)
            counts[tile] -= 1
            counts[tiles.JOKER] += 1
            if nearest(card, Holding(tuple(counts), holding.exposures)) <= before:
                return Action(seat, "exchange", (tiles.CODES[tile],), owner=owner, group=group)
    return Action(seat, "discard", (tiles.CODES[best_discard(hand, seat, strength)],))


def play(card: Card, seed: int, bots: dict[str, str], limit: int = 2000, timings: list[float] | None = None) -> Hand:
    """Four bots play a hand to its end; `bots` maps each seat to a strength.
    With `timings`, each decision's time (seconds, process CPU) is appended."""
    hand = deal(card, seed)
    rngs = {seat: random.Random(f"{seed}:{seat}") for seat in SEATS}
    for _ in range(limit):
        waiting = hand.waiting()
        if not waiting:
            return hand
        for seat in SEATS:  # a fixed order, so a replay makes the same choices
            if seat in waiting:
                started = time.process_time()
                action = decide(hand, seat, bots[seat], rngs[seat])
                if timings is not None:
                    timings.append(time.process_time() - started)
                hand.apply(action)
                break
    raise RuntimeError(f"the hand of seed {seed} did not end in {limit} actions")
