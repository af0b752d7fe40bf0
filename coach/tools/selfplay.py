"""`python -m coach selfplay`: the computer players against themselves and each other (issue 16).

A measurement, not a test. Two kinds of table:

- "same": N hands at each strength with all four seats that strength. Every
  hand must end, in Mah Jongg or a wall game (E2), without an exception;
  with `--check`, the 152 tiles are counted after every action (T1) and the
  record must replay to the very same final state.
- "mixed": each pair of strengths head to head, two seats each, alternating
  (A B A B from East), and every deal played twice with the seats swapped
  (B A B A), so each strength sits East (S4: East starts with 14 tiles)
  as often as the other and both meet the same walls: duplicate style. N
  hands a pair (N/2 deals). A strength's share of hands won comes with a
  95% Wilson interval; a pair's margin (one side's share of wins minus the
  other's) with a 95% bootstrap interval over the deals, the deal being
  the unit of the paired design.

`--rules CODE` plays every hand under a table's rules (`TableRules.code`,
e.g. "b4.cold.3p", docs/table-rules.md); `--check` then counts the full set
with the table's blanks.

Bot decision times (process CPU) are kept per strength in a histogram of
fixed bins, so memory stays bounded whatever N; the review of a whole hand
(`hand_review.review`, East's decisions) is timed on every `--review-every`th
hand of the same tables.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TextIO

import numpy as np

from coach.common.errors import CoachError
from coach.notation import tiles
from coach.notation.card import Card
from coach.play.bots import STRENGTHS, play
from coach.play.hand import SEATS, Action, Hand, replay
from coach.play.review import review
from coach.rules.table_rules import LEAGUE, TableRules, names
from coach.tools.simulate_charleston import wilson

FULL_SET = Counter(tiles.WALL)  # the League's set: a hand's own is `Hand.full_set()` (blanks too, TR1)
PAIRS = tuple((a, b) for i, a in enumerate(STRENGTHS) for b in STRENGTHS[i + 1 :])
BIN_MS = 0.05  # decision-time histogram: bins of 0.05 ms up to TOP_MS, the rest counted at the top
TOP_MS = 1000.0
RESAMPLES = 2000


class SelfPlayError(CoachError, AssertionError):
    """A hand broke a rule of the engine: lost a tile, or did not replay."""


@dataclass
class Clock:
    """Times in a fixed histogram: percentiles to one bin, and the exact maximum."""

    step: float = BIN_MS  # bin width, ms
    bins: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    top: float = 0.0  # ms

    def __post_init__(self) -> None:
        self.bins = np.zeros(int(TOP_MS / BIN_MS) + 1, dtype=np.int64)

    def add(self, seconds: float) -> None:
        ms = seconds * 1000
        self.bins[min(int(ms / self.step), len(self.bins) - 1)] += 1
        self.top = max(self.top, ms)

    @property
    def count(self) -> int:
        return int(self.bins.sum())

    def percentile(self, share: float) -> float:
        """The upper edge of the bin holding that share of the times (ms)."""
        if not self.count:
            return 0.0
        index = int(np.searchsorted(np.cumsum(self.bins), share * self.count))
        return min((index + 1) * self.step, self.top)

    def text(self) -> str:
        return f"p50 {self.percentile(0.5):.1f} ms, p95 {self.percentile(0.95):.1f} ms, max {self.top:.1f} ms ({self.count} decisions)"


@dataclass
class Table:
    """Hands played at one kind of table: wins by strength, wall games, errors."""

    hands: int = 0
    walls: int = 0
    wins: Counter[str] = field(default_factory=Counter)  # strength -> hands won
    seats: Counter[str] = field(default_factory=Counter)  # strength -> hands it sat in
    errors: list[str] = field(default_factory=list)

    def count(self, winner: str | None, bots: dict[str, str]) -> None:
        self.hands += 1
        self.seats.update(set(bots.values()))
        if winner is None:
            self.walls += 1
        else:
            self.wins[bots[winner]] += 1


def state(hand: Hand) -> tuple:
    """Everything a replay must rebuild exactly."""
    return (
        hand.record(), {s: list(hand.racks[s]) for s in SEATS}, {s: list(hand.exposed[s]) for s in SEATS},
        list(hand.discards), list(hand.wall), hand.phase,
    )


def play_one(
    card: Card, seed: int, bots: dict[str, str], check: bool, clocks: dict[str, Clock], rules: TableRules = LEAGUE,
) -> Hand:
    """One hand of bots under the table's `rules`; with `check`, the tiles counted after
    each action (the 152 and the table's blanks) and the replay compared."""

    def watch(hand: Hand, action: Action, spent: float) -> None:
        clocks[bots[action.seat]].add(spent)
        if check and hand.census() != hand.full_set():
            whole = sum(hand.full_set().values())
            raise SelfPlayError(f"after action {len(hand.actions)} ({action.kind} by {action.seat}) the tiles do not add up to {whole}")

    hand = play(card, seed, bots, watch=watch, rules=rules)
    if hand.phase != "over" or hand.result is None:
        raise SelfPlayError("the hand did not end")
    if check and state(replay(card, seed, hand.actions, rules)) != state(hand):
        raise SelfPlayError("the record does not replay to the same final state")
    return hand


# Both kinds go deal by deal across the tables, so a run stopped early still covers them all alike.


def same_tables(hands: int, seed: int) -> Iterator[tuple[str, int, dict[str, str]]]:
    for i in range(hands):
        for strength in STRENGTHS:
            yield "same", seed * 1_000_003 + i, {s: strength for s in SEATS}


def mixed_tables(hands: int, seed: int) -> Iterator[tuple[str, int, dict[str, str]]]:
    """Per pair, each deal twice: A B A B from East, then B A B A (the same walls for every pair)."""
    for i in range(max(1, hands // 2)):
        for a, b in PAIRS:
            deal_seed = seed * 1_000_003 + 500_000 + i
            yield f"{a}-{b}", deal_seed, dict(zip(SEATS, (a, b, a, b)))
            yield f"{a}-{b}", deal_seed, dict(zip(SEATS, (b, a, b, a)))


@contextmanager
def _stop_on_sigterm() -> Iterator[threading.Event]:
    """SIGTERM ends a long run after the hand in play, with the report of the hands done."""
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    previous = signal.signal(signal.SIGTERM, lambda number, frame: stop.set())
    try:
        yield stop
    finally:
        signal.signal(signal.SIGTERM, previous)


def _key(kind: str, seed: int, bots: dict[str, str]) -> str:
    """A table's name in the report: the strength of a same table, the pair of a mixed one."""
    return bots["East"] if kind == "same" else kind


def bootstrap(values: np.ndarray, rng: np.random.Generator) -> tuple[float, float, float]:
    """Mean and its 95% percentile-bootstrap interval."""
    if not len(values):
        return 0.0, 0.0, 0.0
    means = values[rng.integers(0, len(values), size=(RESAMPLES, len(values)))].mean(axis=1)
    return float(values.mean()), float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))


def share(k: int, n: int) -> str:
    p, low, high = wilson(k, n)
    return f"{p:6.1%} [{low:.1%}, {high:.1%}]"


def run(args: argparse.Namespace, out: TextIO, progress: TextIO | None = sys.stderr) -> int:
    from coach.reading.disk_cache import house_card_cached, load_card_cached

    card = load_card_cached(args.card) if args.card else house_card_cached()
    hands, seed = max(1, int(args.hands)), int(args.seed)
    rules = TableRules.from_code(getattr(args, "rules", None) or "")
    plan: list[Iterator[tuple[str, int, dict[str, str]]]] = []
    if args.tables in ("same", "all"):
        plan.append(same_tables(hands, seed))
    if args.tables in ("mixed", "all"):
        plan.append(mixed_tables(hands, seed))
    only = {k.strip() for k in (getattr(args, "only", None) or "").split(",") if k.strip()}
    known = set(STRENGTHS) | {f"{a}-{b}" for a, b in PAIRS}
    if only - known:
        raise ValueError(f"--only names tables among {', '.join(sorted(known))}")
    work = [item for part in plan for item in part if not only or _key(*item) in only]
    total = len(work)
    clocks = {s: Clock() for s in STRENGTHS}
    reviews = Clock(step=10.0)  # up to 200 s
    tables: dict[str, Table] = {}
    paired: dict[str, dict[int, list[int]]] = {}  # pair -> deal -> [wins of the first, of the second]
    paid: dict[str, dict[int, list[float]]] = {}  # pair -> deal -> [points won (+) or paid (-) by the first, the second]
    play(card, seed, {s: "club" for s in SEATS}, rules=rules)  # compile the card's tables before anything is timed
    started, done = time.perf_counter(), 0
    with _stop_on_sigterm() as stop:
        for kind, hand_seed, bots in work:
            if stop.is_set():
                break
            table = tables.setdefault(_key(kind, hand_seed, bots), Table())
            try:
                hand = play_one(card, hand_seed, bots, args.check, clocks, rules)
            except Exception as error:  # a measurement: count it, name the hand, go on
                table.errors.append(f"seed {hand_seed}, bots {','.join(bots.values())}: {type(error).__name__}: {error}")
                hand = None
            if hand is not None and hand.result is not None:
                table.count(hand.result.winner, bots)
                if kind != "same":
                    pair = paired.setdefault(kind, {}).setdefault(hand_seed, [0, 0])
                    if hand.result.winner is not None:
                        pair[0 if bots[hand.result.winner] == kind.split("-")[0] else 1] += 1
                    points = paid.setdefault(kind, {}).setdefault(hand_seed, [0.0, 0.0])
                    for seat, amount in hand.result.pays.items():
                        points[0 if bots[seat] == kind.split("-")[0] else 1] += amount
                elif args.review_every and table.hands % args.review_every == 1 % args.review_every:
                    begun = time.process_time()
                    review(card, hand_seed, hand.actions, "East", rules=rules)
                    reviews.add(time.process_time() - begun)
            done += 1
            if progress is not None and (done % max(1, min(25, total // 40)) == 0 or done == total):
                print(f"selfplay: {done}/{total} hands, {time.perf_counter() - started:.0f} s", file=progress, flush=True)
    if done < total:
        out.write(f"Stopped early (SIGTERM) after {done} of {total} hands: the figures below are for those.\n")
    report(out, card, args, tables, paired, clocks, reviews, time.perf_counter() - started, paid)
    return 1 if any(t.errors for t in tables.values()) else 0


def report(
    out: TextIO, card: Card, args: argparse.Namespace, tables: dict[str, Table], paired: dict[str, dict[int, list[int]]],
    clocks: dict[str, Clock], reviews: Clock, elapsed: float, paid: dict[str, dict[int, list[float]]] | None = None,
) -> None:
    w = out.write
    rules = TableRules.from_code(getattr(args, "rules", None) or "")
    whole = sum(tiles.COPIES) + rules.blanks
    checked = f"; every action checked: {whole} tiles, and each record replays to the same state" if args.check else ""
    w(f"Self-play on {card.name}, seed {args.seed}, {args.hands} hands a table kind{checked}.\n")
    if rules != LEAGUE:
        w(f"Table rules \"{rules.code()}\": {'; '.join(names(rules))}.\n")
    errors = [e for t in tables.values() for e in t.errors]
    same = [s for s in STRENGTHS if s in tables]
    if same:
        w("\nSame tables (four seats of one strength): hands won (95% Wilson), wall games (E2)\n")
        for s in same:
            t = tables[s]
            w(f"  {s:<9} {t.hands:>5} hands  won {share(t.hands - t.walls, t.hands)}  wall {share(t.walls, t.hands)}"
              f"  errors {len(t.errors)}\n")
    pairs = [f"{a}-{b}" for a, b in PAIRS if f"{a}-{b}" in tables]
    if pairs:
        w("\nMixed tables (two seats each, seats swapped on the same deal): share of hands won\n")
        rng = np.random.default_rng(int(args.seed))
        for kind in pairs:
            a, b = kind.split("-")
            t = tables[kind]
            per_deal = np.array(list(paired.get(kind, {}).values()), dtype=float).reshape(-1, 2)
            margin, low, high = bootstrap((per_deal[:, 1] - per_deal[:, 0]) / 2, rng)
            verdict = "interval excludes 0" if low > 0 or high < 0 else "interval includes 0"
            w(f"  {a} vs {b}: {t.hands} hands; {a} {share(t.wins[a], t.hands)}, {b} {share(t.wins[b], t.hands)}, "
              f"wall {share(t.walls, t.hands)}\n")
            w(f"    {b} ahead of {a} by {margin:+.1%} of hands [{low:+.1%}, {high:+.1%}] (95% bootstrap over "
              f"{len(per_deal)} deals; {verdict})\n")
            if paid and paid.get(kind):
                # Each deal seats each strength in four seat-hands (two seats, two hands): points a seat a hand.
                points = np.array(list(paid[kind].values()), dtype=float).reshape(-1, 2) / 4
                mine = [bootstrap(points[:, i], rng) for i in (0, 1)]
                gap, gap_low, gap_high = bootstrap(points[:, 1] - points[:, 0], rng)
                w(f"    expected payment a seat a hand: {a} {mine[0][0]:+.1f} [{mine[0][1]:+.1f}, {mine[0][2]:+.1f}], "
                  f"{b} {mine[1][0]:+.1f} [{mine[1][1]:+.1f}, {mine[1][2]:+.1f}]; {b} ahead by {gap:+.1f} points "
                  f"[{gap_low:+.1f}, {gap_high:+.1f}] (95% bootstrap over deals)\n")
        w("  Each strength against the others (pooled over its pairs):\n")
        for s in STRENGTHS:
            won = sum(tables[k].wins[s] for k in pairs if s in k.split("-"))
            played = sum(tables[k].hands for k in pairs if s in k.split("-"))
            if played:
                w(f"    {s:<9} won {share(won, played)} of {played} hands\n")
    w("\nBot decision time (process CPU):\n")
    for s in STRENGTHS:
        if clocks[s].count:
            w(f"  {s:<9} {clocks[s].text()}\n")
    if reviews.count:
        w(f"\nReview of a whole hand (East's decisions, one same-table hand in {args.review_every}): "
          f"p50 {reviews.percentile(0.5):.0f} ms, max {reviews.top:.0f} ms ({reviews.count} reviews)\n")
    w(f"\n{elapsed:.0f} s in all; {len(errors)} hands with errors.\n")
    for e in errors[:20]:
        w(f"  {e}\n")
