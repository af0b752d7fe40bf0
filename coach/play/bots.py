"""Computer players for a practice hand, built from the coach's own advice.

Three strengths (issue 16):
- "beginner": plays the nearest line and discards sensibly, but in a
  beginner's way: passes its shortest suit in the Charleston, looks only at
  the nearest line (any tile that keeps it nearest will do), misses some
  calls, never exchanges for a joker, never stops or offers;
- "club": a club player: passes what its
  nearest lines do not use, calls when a call brings it nearer, exchanges
  for jokers, discards what leaves its nearest line nearest, then the most
  lines close;
- "coach": the coach's own move, from its one evaluation
  (`coach.play.evaluation`): what the hint says and the review grades by;
- "shark": the club player with the pass drill's evaluation for its passes
  (`coach.advice.passes.evaluate_pass`, on fewer samples), the tiles it has seen
  counted (a dead line, E3, does not count; live outs break ties; a call
  only when it brings a live line nearer), and defence (D1): late in the
  hand it keeps a tile that other players' exposures plainly want, when
  another discard costs it nothing.

`python -m coach selfplay` measures them against each other (README).

Each decision is a pure function of the hand's state and a seeded
generator, so a hand of bots replays exactly.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import numpy as np

from coach.advice.discard import wanted_share
from coach.advice.passes import EvaluationOptions, evaluate_pass
from coach.notation import tiles
from coach.notation.card import Card
from coach.play.evaluation import coach_move
from coach.play.hand import EXPOSE, MAH_JONGG, SEATS, Action, Hand, deal
from coach.play.outlook import seen_tiles
from coach.play.policies import least_suit_policy, nearest_three_policy
from coach.reading.analysis import analyze
from coach.reading.many import analyze_many
from coach.reading.tiles_away import OUT_OF_REACH, Exposure, Holding, tables_for
from coach.rules.mahjong import winning_lines

STRENGTHS = ("beginner", "club", "shark", "coach")
MISSED_CALLS = 0.4  # the share of good exposure calls a beginner does not see
LATE = 40  # tiles left in the wall when a shark starts to defend (D1)
HOT = 0.5  # a tile at least this share of an exposure's possible hands need is hot (D1)
# The shark's pass: the pass drill's evaluation on fewer samples, a few ms a pass.
PASS_EFFORT = EvaluationOptions(samples=24, refine=4, refine_samples=32, screen=24, cap=96)


def nearest(card: Card, holding: Holding) -> int:
    return int(tables_for(card).line_distances(holding).min())


def _pass_tiles(card: Card, rack: list[int], count: int, rng: random.Random) -> tuple[str, ...]:
    chosen = nearest_three_policy(card, rack, [], rng)[:count]  # never a joker (C4)
    return tuple(tiles.CODES[t] for t in chosen)


def _shark_pass(hand: Hand, seat: str, rng: random.Random) -> Action:
    """The pass drill's own evaluation (expected tiles away after the exchange),
    on fewer samples to stay quick. On the last pass of a Charleston it may
    send some of the incoming tiles on unseen (C5): the evaluation values
    that as passing 3 - blind own tiles for as many unseen ones."""
    advice = evaluate_pass(hand.card, hand.racks[seat], hand.step, seed=rng.randrange(2**31), options=PASS_EFFORT)
    return Action(seat, "pass", tuple(tiles.CODES[t] for t in advice.best.tiles), blind=advice.best.blind)


def _beginner_pass(card: Card, rack: list[int], rng: random.Random) -> tuple[str, ...]:
    """A beginner's habit: pass the suit you hold least of, keeping the honours."""
    return tuple(tiles.CODES[t] for t in least_suit_policy(card, rack, [], rng))


def live_lines(card: Card, rows: np.ndarray, exposures: list[Exposure], seen: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each rack's tiles away per line with dead lines out of reach (E3), and each line's live outs:
    every rack in one analysis (`analyze_many`, issue 26), the same as `live_lines_each`."""
    found = analyze_many(card, rows, exposures, seen)
    live = (found.distance != OUT_OF_REACH) & ~found.dead
    distance = np.where(live, found.distance, OUT_OF_REACH).astype(np.int16)
    outs = np.where(live, found.live_outs, 0).astype(np.int16)
    return distance, outs


def live_lines_each(card: Card, rows: np.ndarray, exposures: list[Exposure], seen: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`live_lines` one `analyze` a rack: the readable reference it is held to, and the path it replaced."""
    distance = np.full((len(rows), len(card.lines)), OUT_OF_REACH, dtype=np.int16)
    outs = np.zeros((len(rows), len(card.lines)), dtype=np.int16)
    for n, row in enumerate(rows):
        for line in analyze(card, Holding(tuple(int(x) for x in row), tuple(exposures)), tuple(int(x) for x in seen)).lines:
            if line.distance is not None and not line.dead:
                distance[n, line.order], outs[n, line.order] = line.distance, line.live_outs
    return distance, outs


def best_discard(hand: Hand, seat: str, strength: str, rng: random.Random | None = None) -> int:
    """The tile whose loss leaves the nearest line nearest, then the most lines close.

    A beginner looks at the nearest line only and picks among the tiles that
    keep it nearest at random; a shark counts what it has seen, so a dead
    line (E3) does not count and live outs break ties, and late in the hand
    it keeps a hot tile when another is as good (D1)."""
    card, rack = hand.card, hand.racks[seat]
    exposures = [e.as_exposure() for e in hand.exposed[seat]]
    kinds = sorted(set(rack))
    base = np.array(tiles.counts(rack), dtype=np.int16)
    rows = np.repeat(base[None, :], len(kinds), axis=0)
    rows[np.arange(len(kinds)), kinds] -= 1
    keep_joker = np.array([k == tiles.JOKER for k in kinds])
    lines = tables_for(card).batch_line_distances(rows, exposures)
    outs = np.zeros_like(lines)
    if strength == "shark":
        # Seen tiles only make lines worse: the discards already a tile behind the best stay out.
        plain = lines.min(axis=1)
        near = np.flatnonzero(plain <= plain.min() + 1)
        live, live_outs = live_lines(card, rows[near], exposures, seen_tiles(hand, seat))
        if (live.min(axis=1) < OUT_OF_REACH).any():  # else every line is dead: plain distance it is
            lines = np.full_like(lines, OUT_OF_REACH)
            lines[near], outs[near] = live, live_outs
    low = lines.min(axis=1)
    if strength == "beginner":
        rng = rng or random.Random(0)
        fine = [k for k, d, j in zip(kinds, low, keep_joker) if d == low.min() and not j]
        return rng.choice(fine) if fine else kinds[int(np.argmin(low))]
    close = (lines <= low[:, None] + 1).sum(axis=1)
    best_outs = np.where(lines == low[:, None], outs, 0).max(axis=1)
    hot = np.zeros(len(kinds), dtype=bool)
    if strength == "shark" and len(hand.wall) <= LATE:
        for other in SEATS:
            if other != seat and hand.exposed[other]:
                share = wanted_share(card, [e.as_exposure() for e in hand.exposed[other]])
                hot |= np.array([k < tiles.NATURALS and share[k] >= HOT for k in kinds])
    order = np.lexsort((keep_joker, -close, -best_outs, hot, low))
    return kinds[int(order[0])]


def decide(hand: Hand, seat: str, strength: str, rng: random.Random) -> Action:
    """The bot's action for the move `seat` owes now (see Hand.waiting)."""
    if strength not in STRENGTHS:
        raise ValueError(f"a bot is one of {', '.join(STRENGTHS)}, not {strength!r}")
    if strength == "coach":
        return coach_move(hand, seat)  # the coach's one evaluation: the review's yardstick
    owed = hand.waiting()[seat]
    card, rack = hand.card, hand.racks[seat]
    if owed == "pass":
        if strength == "beginner":
            return Action(seat, "pass", _beginner_pass(card, rack, rng))
        if strength == "shark":
            return _shark_pass(hand, seat, rng)
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
        now: int | None = None  # the shark's nearest live line before a call: the same for every size
        for purpose, size in sorted(purposes, key=lambda p: -p[1]):
            if purpose != EXPOSE:
                continue
            holding = hand.holding(seat)
            counts = list(holding.rack)
            used = min(counts[tile], size - 1)
            counts[tile] -= used
            counts[tiles.JOKER] -= size - 1 - used
            after = Holding(tuple(counts), holding.exposures + (Exposure(tile, size, size - 1 - used),))
            if strength == "shark":  # only a call that brings a live line nearer (E3)
                seen = seen_tiles(hand, seat)
                if now is None:
                    now = int(live_lines(card, np.array([holding.rack]), list(holding.exposures), seen)[0].min())
                seen[tile] -= 1  # the called tile is in the new exposure, no longer on the floor
                later = live_lines(card, np.array([after.rack]), list(after.exposures), seen)[0].min()
                if later < now:
                    return Action(seat, "call", size=size)
            elif nearest(card, after) < before and not (strength == "beginner" and rng.random() < MISSED_CALLS):
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
    return Action(seat, "discard", (tiles.CODES[best_discard(hand, seat, strength, rng)],))


# Steps every seat answers at once: the stop vote (C2) and the courtesy offer (C3).
# A real table takes them together, so nobody's answer is known when another's is asked.
TOGETHER = ("vote", "offer")


def answer(hand: Hand, seat: str, strength: str, limit: int = 2000) -> None:
    """The computer players move until `seat` owes a decision (or the hand ends).

    On a step every seat answers at once (`TOGETHER`) they wait for `seat`:
    it is asked before anyone's answer is on the table, so it is never asked
    to vote on a second Charleston another player has already stopped (C2),
    and its own vote is recorded with the others'. Each computer player's
    generator is seeded by the hand's seed, its seat and the moves so far,
    so the same moves always meet the same replies."""
    for _ in range(limit):
        waiting = hand.waiting()
        if seat in waiting and hand.phase == "charleston" and hand.step in TOGETHER:
            return
        others = [s for s in SEATS if s in waiting and s != seat]
        if not others:
            return
        other = others[0]
        rng = random.Random(f"{hand.seed}:{other}:{len(hand.actions)}")
        hand.apply(decide(hand, other, strength, rng))


def play(
    card: Card, seed: int, bots: dict[str, str], limit: int = 2000, timings: list[float] | None = None,
    watch: Callable[[Hand, Action, float], None] | None = None,
) -> Hand:
    """Four bots play a hand to its end; `bots` maps each seat to a strength.
    With `timings`, each decision's time (seconds, process CPU) is appended;
    `watch` sees the hand after every action, with the action and its time."""
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
                spent = time.process_time() - started
                if timings is not None:
                    timings.append(spent)
                hand.apply(action)
                if watch is not None:
                    watch(hand, action, spent)
                break
    raise RuntimeError(f"the hand of seed {seed} did not end in {limit} actions")
