"""The practice table's batched analyses against the one-at-a-time path they replaced (issue 26).

    python -m coach.tools.benchmarks.practice_table [--hands 8] [--rounds 3]

Two measures, each timed both ways in one process, interleaved round by
round and in alternating order, with every result compared:

- a whole-hand review (`review.review`, East's decisions) of self-play
  hands, one table of each strength in turn, its evaluations worked out
  afresh (`evaluation.forget`): the coach values every discard a turn or a
  call could make, and since issue 26 analyses them all in one call
  (`outlook.prospects_many`) instead of one `analyze` each
  (`outlook.prospects_each`); the share of the review spent on the call
  checks after other players' discards (call and no-call decisions) is
  printed too;
- a shark's decisions (its turns and its calls) at every position of shark
  tables: its candidate discards' live lines in one call (`bots.live_lines`)
  instead of one `analyze` each (`bots.live_lines_each`).

"Old" swaps the one-at-a-time functions back in (and `win_chance` and
the deal-in model without their memos); what else changed (the shark's
live line before a call worked out once, no copy of the hand a call
option) is in both. Prints CPU time (`process_time`), per hand and
per decision, both paths' totals over the rounds' fastest, and their ratio
(old / new: above 1 is faster), with the load average; it asserts that
both paths give the same reviews and the same decisions. A measurement,
never a timed test.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import TextIO

from coach.notation.card import Card, house_card
from coach.play import bots, evaluation, outlook
from coach.play import review as reviews
from coach.play.hand import SEATS, Action, Hand, deal
from coach.play.legal import trial_copy

CALL_KINDS = ("call", "no-call")


@contextmanager
def old_path() -> Iterator[None]:
    """The one-at-a-time analyses of before issue 26, swapped in for the batched ones."""
    swaps = [
        (outlook, "prospects_many", outlook.prospects_each),
        (bots, "live_lines", bots.live_lines_each),
        (evaluation, "win_chance", outlook.win_chance.__wrapped__),
        (outlook, "_deal_in", outlook._deal_in.__wrapped__),
    ]
    saved = [(module, name, getattr(module, name)) for module, name, _ in swaps]
    for module, name, old in swaps:
        setattr(module, name, old)
    try:
        yield
    finally:
        for module, name, new in saved:
            setattr(module, name, new)


@contextmanager
def new_path() -> Iterator[None]:
    yield


@dataclass
class Figures:
    hands: int
    review_old: float  # CPU seconds of every review, the fastest round of each hand, summed
    review_new: float
    call_share_old: float  # share of the reviews' CPU in call and no-call decisions, old path
    call_share_new: float
    decisions: int  # shark decisions timed
    shark_old: float  # CPU seconds of them all, fastest round of each, summed
    shark_new: float
    shark_p95_old: float  # ms a decision, p95
    shark_p95_new: float
    identical: bool
    load: tuple[float, float]  # load average (1 min) before and after

    @property
    def review_ratio(self) -> float:
        return self.review_old / self.review_new

    @property
    def call_ratio(self) -> float:
        """The review's call checks alone (call and no-call decisions), old / new."""
        return (self.call_share_old * self.review_old) / (self.call_share_new * self.review_new)

    @property
    def shark_ratio(self) -> float:
        return self.shark_old / self.shark_new


def self_play_hands(card: Card, count: int) -> list[tuple[int, list[Action]]]:
    """`count` hands, one table of each strength in turn (`selfplay --tables same`)."""
    return [
        (seed, bots.play(card, seed, {s: bots.STRENGTHS[seed % len(bots.STRENGTHS)] for s in SEATS}).actions)
        for seed in range(count)
    ]


def shark_positions(card: Card, count: int) -> list[tuple[Hand, str]]:
    """Every position of `count` shark tables where a seat owes a turn or a call."""
    found = []
    for seed in range(100, 100 + count):
        actions = bots.play(card, seed, {s: "shark" for s in SEATS}).actions
        hand = deal(card, seed)
        for action in actions:
            for seat, owed in hand.waiting().items():
                if owed in ("turn", "call"):
                    found.append((trial_copy(hand), seat))
            hand.apply(action)
    return found


def _timed_review(card: Card, seed: int, actions: list[Action], by_kind: dict[str, float]) -> tuple[float, dict]:
    """One review from scratch: its CPU, its result, and each decision's CPU added by kind."""
    grade = reviews.grade_decision

    def timed(hand: Hand, played: Action) -> reviews.Judged:
        begun = time.process_time()
        try:
            return grade(hand, played)
        finally:
            by_kind[played.kind] = by_kind.get(played.kind, 0.0) + time.process_time() - begun

    evaluation.forget()
    setattr(reviews, "grade_decision", timed)  # noqa: B010 (a module's function swapped for a timed one)
    try:
        begun = time.process_time()
        found = reviews.review(card, seed, actions, "East")
        return time.process_time() - begun, found.to_json()
    finally:
        setattr(reviews, "grade_decision", grade)  # noqa: B010


def _load() -> float:
    try:
        return os.getloadavg()[0]
    except OSError:
        return float("nan")


def measure(card: Card, hands: int = 8, rounds: int = 3, shark_hands: int = 3) -> Figures:
    """Both paths, interleaved: see the module doc."""
    load_before = _load()
    played = self_play_hands(card, hands)
    positions = shark_positions(card, shark_hands)
    paths: dict[str, Callable[[], AbstractContextManager[None]]] = {"old": old_path, "new": new_path}
    review_cpu = {p: [float("inf")] * len(played) for p in paths}
    kinds: dict[str, dict[int, dict[str, float]]] = {p: {} for p in paths}
    shark_cpu = {p: [float("inf")] * len(positions) for p in paths}
    results: dict[str, list] = {p: [] for p in paths}
    decisions: dict[str, list] = {p: [] for p in paths}
    for round_ in range(rounds):
        order = list(paths) if round_ % 2 == 0 else list(reversed(paths))
        for n, (seed, actions) in enumerate(played):
            for p in order:
                with paths[p]():
                    by_kind: dict[str, float] = {}
                    spent, found = _timed_review(card, seed, actions, by_kind)
                if spent < review_cpu[p][n]:  # each hand's fastest round, its decisions by kind with it
                    review_cpu[p][n], kinds[p][n] = spent, by_kind
                if round_ == 0:
                    results[p].append(found)
        for n, (hand, seat) in enumerate(positions):
            for p in order:
                with paths[p]():
                    rng = random.Random(n)
                    begun = time.process_time()
                    action = bots.decide(hand, seat, "shark", rng)
                    spent = time.process_time() - begun
                shark_cpu[p][n] = min(shark_cpu[p][n], spent)
                if round_ == 0:
                    decisions[p].append(action)
    identical = results["old"] == results["new"] and decisions["old"] == decisions["new"]

    def call_share(p: str) -> float:
        calls = sum(cpu for hand in kinds[p].values() for kind, cpu in hand.items() if kind in CALL_KINDS)
        total = sum(cpu for hand in kinds[p].values() for cpu in hand.values())
        return calls / total if total else 0.0

    def p95(p: str) -> float:
        ordered = sorted(shark_cpu[p])
        return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] * 1000

    return Figures(
        len(played), sum(review_cpu["old"]), sum(review_cpu["new"]), call_share("old"), call_share("new"),
        len(positions), sum(shark_cpu["old"]), sum(shark_cpu["new"]), p95("old"), p95("new"), identical,
        (load_before, _load()),
    )


def report(out: TextIO, figures: Figures) -> None:
    f = figures
    out.write(
        f"Load average (1 min) {f.load[0]:.2f} before, {f.load[1]:.2f} after; CPU time, each item's fastest round.\n"
        f"Review of a whole hand (East, {f.hands} self-play hands, a table of each strength in turn):\n"
        f"  one analysis a candidate (old): {f.review_old / f.hands * 1000:.0f} ms a hand, "
        f"call checks {f.call_share_old:.0%} of it\n"
        f"  batched (new):                  {f.review_new / f.hands * 1000:.0f} ms a hand, "
        f"call checks {f.call_share_new:.0%} of it\n"
        f"  ratio old / new: {f.review_ratio:.2f}x (the call checks alone: {f.call_ratio:.2f}x)\n"
        f"A shark's decisions ({f.decisions} turns and calls of shark tables):\n"
        f"  one analysis a candidate (old): {f.shark_old / f.decisions * 1000:.2f} ms a decision, p95 {f.shark_p95_old:.2f} ms\n"
        f"  batched (new):                  {f.shark_new / f.decisions * 1000:.2f} ms a decision, p95 {f.shark_p95_new:.2f} ms\n"
        f"  ratio old / new: {f.shark_ratio:.2f}x\n"
        f"Same reviews and same decisions both ways: {'yes' if f.identical else 'NO'}\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m coach.tools.benchmarks.practice_table", description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=8, help="self-play hands reviewed (default 8)")
    parser.add_argument("--shark-hands", type=int, default=3, help="shark tables whose decisions are timed (default 3)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, interleaved (default 3)")
    args = parser.parse_args(argv)
    figures = measure(house_card(), args.hands, args.rounds, args.shark_hands)
    report(sys.stdout, figures)
    return 0 if figures.identical else 1


if __name__ == "__main__":  # importing the module measures nothing
    raise SystemExit(main())
