"""`python -m coach bench`: how fast the analysis is, against a plain baseline.

Every figure comes with the same work done by a plain pure-Python
implementation in the same run, so a noisy shared machine moves both.
Racks are dealt from a shuffled 152-tile wall with a fixed seed.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import TextIO

import numpy as np

from coach import tiles
from coach.analysis import analyze
from coach.card import Card, house_card, load_card
from coach.charleston import candidate_passes, evaluate_pass, scores_by_matrix, unseen_pool
from coach.tiles_away import HAND_SIZE, Holding, tables_for


def deal_racks(count: int, seed: int = 2026) -> list[list[int]]:
    """Racks of 13 tiles (14 for every fourth, as East) from shuffled walls."""
    rng = random.Random(seed)
    wall = list(tiles.WALL)
    racks = []
    for n in range(count):
        rng.shuffle(wall)
        racks.append(wall[: 14 if n % 4 == 0 else 13])
    return racks


class PlainBaseline:
    """Tiles away the straightforward way: every reading, tile by tile, in Python."""

    def __init__(self, card: Card):
        self.lines = []
        for line in card.lines:
            readings = []
            for reading in line.readings:
                need: dict[int, int] = {}
                small: dict[int, int] = {}
                for g in reading.groups:
                    need[g.tile] = need.get(g.tile, 0) + g.size
                    if not g.takes_jokers:
                        small[g.tile] = small.get(g.tile, 0) + g.size
                readings.append([(t, n, small.get(t, 0)) for t, n in need.items()])
            self.lines.append(readings)

    def line_distances(self, rack: list[int]) -> list[int]:
        counts = [0] * tiles.KINDS
        for t in rack:
            counts[t] += 1
        jokers = counts[tiles.JOKER]
        out = []
        for readings in self.lines:
            best = HAND_SIZE
            for reading in readings:
                placed = 0
                room = 0
                for tile, need, small in reading:
                    naturals = min(counts[tile], need)
                    placed += naturals
                    room += need - small - max(0, naturals - small)
                placed += min(jokers, room)
                best = min(best, HAND_SIZE - placed)
            out.append(best)
        return out


def _rate(work: Callable[[], int], seconds: float) -> float:
    """Items per second: repeat `work` (which returns items done) for `seconds`."""
    done = 0
    start = time.perf_counter()
    while True:
        done += work()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def first_pass_figures(card: Card, racks: list[list[int]]) -> tuple[list[float], list[float], list[int]]:
    """Per deal: seconds for a full `pass` evaluation, seconds to score the
    same number of (pass, draw) racks by a full matrix product each (the
    old scoring), and that number. The two run interleaved, deal by deal."""
    new_times, old_times, pairs = [], [], []
    for n, rack in enumerate(racks):
        begin = time.perf_counter()
        advice = evaluate_pass(card, rack, "first-right", seed=n)
        new_times.append(time.perf_counter() - begin)
        count = sum(o.samples for o in advice.options) + sum(o.samples for o in advice.options if o.flexibility is not None)
        candidates = candidate_passes(rack, "first-right")
        counts = np.array(tiles.counts(rack), dtype=np.int16)
        after = np.array([counts - np.array(tiles.counts(own), dtype=np.int16) for own, _ in candidates])
        takes = np.full(len(candidates), 3)
        rng = np.random.default_rng(n)
        pool = np.array(unseen_pool(rack))
        draws = pool[np.argpartition(rng.random((count, len(pool))), 3, axis=1)[:, :3]]
        cands = np.arange(count) % len(candidates)
        begin = time.perf_counter()
        scores_by_matrix(card, after, takes, cands, draws)
        old_times.append(time.perf_counter() - begin)
        pairs.append(count)
    return new_times, old_times, pairs


def run(args: argparse.Namespace, out: TextIO) -> int:
    card = load_card(args.card) if getattr(args, "card", None) else house_card()
    seconds = max(0.05, float(getattr(args, "seconds", 2.0)))
    tables = tables_for(card)
    racks = deal_racks(8192)
    counts = np.array([tiles.counts(r) for r in racks], dtype=np.int16)
    holdings = [Holding.of(r) for r in racks]
    baseline = PlainBaseline(card)

    sample = range(0, len(racks), 97)
    agree = all(list(tables.line_distances(holdings[i])) == baseline.line_distances(racks[i]) for i in sample)
    fast_batch = tables.batch_line_distances(counts[:512])
    agree = agree and all(list(fast_batch[i]) == baseline.line_distances(racks[i]) for i in range(0, 512, 31))

    chunk = 2048
    position = [0]

    def batch() -> int:
        start = position[0] % len(racks)
        tables.batch_line_distances(counts[start : start + chunk])
        position[0] += chunk
        return min(chunk, len(racks) - start)

    def one_at_a_time(fn: Callable[[int], object]) -> Callable[[], int]:
        index = [0]

        def work() -> int:
            for _ in range(64):
                fn(index[0] % len(racks))
                index[0] += 1
            return 64

        return work

    def explained(i: int) -> None:
        result = analyze(card, holdings[i])
        for r in result.lines[:5]:
            r.to_json()  # the nearest five lines with reading, used, missing, unused

    batch_rate = _rate(batch, seconds)
    single_rate = _rate(one_at_a_time(lambda i: tables.line_distances(holdings[i])), seconds)
    explained_rate = _rate(one_at_a_time(explained), seconds)
    plain_rate = _rate(one_at_a_time(lambda i: baseline.line_distances(racks[i])), seconds)

    lines_in = "".join(json.dumps({"rack": tiles.format_tiles(r)}) + "\n" for r in racks[:400])

    def cli_batch() -> int:
        from coach.cli import main

        main(["analyze"], stdin=io.StringIO(lines_in), stdout=io.StringIO())
        return 400

    cli_rate = _rate(cli_batch, seconds)

    # The first-pass evaluation: every legal pass, Monte Carlo.
    pass_times, old_times, pairs_scored = first_pass_figures(card, racks[:12])
    pass_mean = statistics.median(pass_times)
    old_mean = statistics.median(old_times)
    pass_baseline = statistics.median(pairs_scored) / plain_rate

    readings = len(tables.readings)
    rows = [
        ("batch, distances to every line", batch_rate),
        ("one rack at a time, distances to every line", single_rate),
        ("one rack, full analysis + nearest 5 explained", explained_rate),
        ("CLI batch, JSON in and out, every line explained", cli_rate),
        ("plain pure-Python baseline, one rack at a time", plain_rate),
    ]
    out.write(f"Card: {card.name}: {len(card.lines)} lines, {readings} readings\n")
    out.write(f"Fast tables agree with the baseline on the sampled racks: {'yes' if agree else 'NO'}\n\n")
    width = max(len(label) for label, _ in rows)
    out.write(f"{'measure'.ljust(width)}  {'racks/s':>10}  {'us/rack':>9}  {'x baseline':>10}\n")
    for label, rate in rows:
        out.write(f"{label.ljust(width)}  {rate:>10,.0f}  {1e6 / rate:>9.1f}  {rate / plain_rate:>10.1f}\n")
    out.write(
        f"\nFirst-pass evaluation (`pass`: every legal pass, {statistics.median(pairs_scored):,.0f} racks scored "
        f"a deal at the median): median {pass_mean * 1000:.0f} ms, slowest {max(pass_times) * 1000:.0f} ms "
        f"over {len(pass_times)} deals; scoring the same racks by a full matrix product each (the old way, "
        f"same process, interleaved): median {old_mean * 1000:.0f} ms, {old_mean / pass_mean:.1f}x slower; "
        f"the plain baseline would take {pass_baseline:.1f} s a deal ({pass_baseline / pass_mean:.0f}x slower).\n"
    )
    out.write(
        f"\nGoals: batch >= 50,000 racks/s ({'met' if batch_rate >= 50_000 else 'not met'}); "
        f"full single-rack analysis with explanation < 300 us "
        f"({'met' if 1e6 / explained_rate < 300 else 'not met'}); "
        f"first-pass evaluation < 30 ms ({'met' if pass_mean < 0.030 else 'not met'}).\n"
    )
    return 0 if agree else 1
