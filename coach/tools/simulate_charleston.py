"""`python -m coach simulate-charleston`: does the coach's pass advice beat simple play?

Real deals from a shuffled 152-tile wall (S3: East 14 tiles, the others
13). Each policy plays the first Charleston (C1: right, across, left) for
all four seats, tiles arriving from the neighbours who passed them; then
the table plays on without calls, every seat drawing and throwing with
the same greedy discard, until someone draws Mah Jongg or the draw limit
passes. Every policy sees the same deals and the same wall, so the
comparison is paired deal by deal.

The simulation plays no blind passes (C5): a blind pass forwards tiles
a neighbour chose in that same pass, which would tie the seats' choices
together.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from dataclasses import dataclass
from typing import TextIO

import numpy as np

from coach.advice.passes import EvaluationOptions, evaluate_pass
from coach.notation import tiles
from coach.notation.card import Card, house_card, load_card
from coach.play.policies import Policy, least_suit_policy, nearest_three_policy, random_policy
from coach.reading.tiles_away import Holding, tables_for
from coach.rules.charleston import FIRST_CHARLESTON, SEATS_MOVED

SEATS = 4

def coach_policy_with(samples: int, refine: int, refine_samples: int) -> Policy:
    def coach_policy(card: Card, rack: list[int], passed_before: list[int], rng: random.Random) -> list[int]:
        """The coach's best pass: lowest expected tiles-away after the exchange."""
        seen = tiles.counts(passed_before)
        advice = evaluate_pass(
            card, rack, "first-right", seed=rng.randrange(2**31), seen=seen,
            options=EvaluationOptions(samples=samples, refine=refine, refine_samples=refine_samples),
        )
        return list(advice.best.tiles)

    return coach_policy


POLICY_NAMES = ("coach", "random", "nearest-3-lines", "least-suit")
POLICY_TEXT = {
    "coach": "the coach's pass advice",
    "random": "random legal passes",
    "nearest-3-lines": "pass what the three nearest lines don't use",
    "least-suit": "pass the suit you hold least of",
}


def deal(seed: int) -> tuple[list[list[int]], list[int]]:
    """Four racks (East first, 14 tiles) and the wall left to draw from."""
    wall = list(tiles.WALL)
    random.Random(seed).shuffle(wall)
    racks = [wall[0:14], wall[14:27], wall[27:40], wall[40:53]]
    return racks, wall[53:]


def play_charleston(card: Card, racks: list[list[int]], policy: Policy, rng: random.Random) -> list[list[int]]:
    racks = [list(r) for r in racks]
    passed: list[list[int]] = [[] for _ in range(SEATS)]
    for direction in FIRST_CHARLESTON:
        choices = [policy(card, racks[s], passed[s], rng) for s in range(SEATS)]
        for s, chosen in enumerate(choices):
            assert len(chosen) == 3 and tiles.JOKER not in chosen  # C1, C4
            for t in chosen:
                racks[s].remove(t)
            passed[s] += chosen
        for s, chosen in enumerate(choices):
            racks[(s + SEATS_MOVED[direction]) % SEATS] += chosen
    return racks


def best_distance(card: Card, rack: list[int]) -> int:
    return int(tables_for(card).line_distances(Holding.of(rack)).min())


def greedy_discard(card: Card, rack: list[int]) -> int:
    """The tile whose loss leaves the nearest line nearest, then the most lines close."""
    tables = tables_for(card)
    kinds = sorted(set(rack))
    base = np.array(tiles.counts(rack), dtype=np.int16)
    rows = np.repeat(base[None, :], len(kinds), axis=0)
    rows[np.arange(len(kinds)), kinds] -= 1
    lines = tables.batch_line_distances(rows)
    low = lines.min(axis=1)
    close = (lines <= low[:, None] + 1).sum(axis=1)
    keep_joker = np.array([k == tiles.JOKER for k in kinds])
    order = np.lexsort((keep_joker, -close, low))
    return kinds[int(order[0])]


def play_out(card: Card, racks: list[list[int]], wall: list[int], draws: int) -> int | None:
    """Draws taken until someone self-picks Mah Jongg (None within `draws`)."""
    racks = [list(r) for r in racks]
    if best_distance(card, racks[0]) == 0:
        return 0
    racks[0].remove(greedy_discard(card, racks[0]))  # S4: East throws first without drawing
    for n in range(draws):
        seat = (n + 1) % SEATS
        racks[seat].append(wall[n])
        if best_distance(card, racks[seat]) == 0:
            return n + 1
        racks[seat].remove(greedy_discard(card, racks[seat]))
    return None


@dataclass
class Outcome:
    distances: list[float]  # per deal: mean best tiles-away of the four seats after the Charleston
    wins: list[bool]  # per deal: Mah Jongg within the draw limit


def mean_ci(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, float("nan")
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def wilson(k: int, n: int) -> tuple[float, float, float]:
    """Share and its 95% Wilson interval."""
    if n == 0:
        return 0.0, 0.0, 0.0
    z = 1.96
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, centre - half, centre + half


def run(args: argparse.Namespace, out: TextIO) -> int:
    card = load_card(args.card) if getattr(args, "card", None) else house_card()
    deals = max(1, int(args.deals))
    draws = int(args.draws)
    seed = int(args.seed)
    policies: dict[str, Policy] = {
        "coach": coach_policy_with(args.samples, 8, args.samples * 3),
        "random": random_policy,
        "nearest-3-lines": nearest_three_policy,
        "least-suit": least_suit_policy,
    }
    outcomes = {name: Outcome([], []) for name in policies}
    before: list[float] = []
    start = time.perf_counter()
    for d in range(deals):
        racks, wall = deal(seed * 1_000_003 + d)
        before.append(sum(best_distance(card, r) for r in racks) / SEATS)
        for name, policy in policies.items():
            rng = random.Random(f"{seed}:{d}:{name}")
            after = play_charleston(card, racks, policy, rng)
            outcomes[name].distances.append(sum(best_distance(card, r) for r in after) / SEATS)
            outcomes[name].wins.append(play_out(card, after, wall, draws) is not None)
        if args.progress and (d + 1) % max(1, deals // 10) == 0:
            print(f"  {d + 1}/{deals} deals, {time.perf_counter() - start:.0f} s", file=args.progress)
    out.write(
        f"First Charleston on {deals} deals ({card.name}), then play without calls for up to "
        f"{draws} draws; 95% confidence intervals.\n"
    )
    mean_before, ci_before = mean_ci(before)
    out.write(f"Best tiles-away before the Charleston: {mean_before:.2f} ± {ci_before:.2f}\n\n")
    header = (
        f"{'policy':<46} {'tiles away after':>17} {'coach better by':>16} "
        f"{'Mah Jongg share':>22} {'coach ahead by':>16}"
    )
    out.write(header + "\n")
    coach = outcomes["coach"]
    for name in POLICY_NAMES:
        o = outcomes[name]
        mean, ci = mean_ci(o.distances)
        share, low, high = wilson(sum(o.wins), len(o.wins))
        if name == "coach":
            margin = ahead = "-"
        else:
            diff, diff_ci = mean_ci([b - a for a, b in zip(coach.distances, o.distances)])
            margin = f"{diff:.2f} ± {diff_ci:.2f}"
            won, won_ci = mean_ci([float(a) - float(b) for a, b in zip(coach.wins, o.wins)])
            ahead = f"{won:.1%} ± {won_ci:.1%}"
        out.write(
            f"{POLICY_TEXT[name]:<46} {mean:>10.2f} ± {ci:.2f} {margin:>16} "
            f"{share:>8.1%} [{low:.1%}, {high:.1%}] {ahead:>16}\n"
        )
    elapsed = time.perf_counter() - start
    out.write(
        "\n'coach better by': paired difference in mean tiles-away after the Charleston "
        "(positive: the coach is nearer). 'coach ahead by': paired difference in the share "
        "of deals won.\n"
    )
    out.write(f"{elapsed:.0f} s in all; seed {seed}.\n")
    return 0
