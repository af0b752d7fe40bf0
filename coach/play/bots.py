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

Under the table rules (docs/table-rules.md) every strength plays legally:
a blank (TR1) is no part of the holding any of them reads; the beginner and
the club player keep their blanks in the Charleston (passing one only when
too few other tiles may go), the shark and the coach pass as the pass
evaluation says under the hand's rules (a blank kept when a pass keeping it
is as good); each swaps a blank for a discard when that brings its hand nearer and not
otherwise, and throws a blank only when every other discard leaves it
further away. Nobody is asked to call in a cold wall's last tiles (TR2),
so there the shark keeps no tile back for defence.
The club player and the shark use the tile they may have seen by picking
ahead (TR5, `coach.play.seen.next_tile`): no call for an exposure the
draw does as well. The order the computer players answer a discard in is
`next_to_act`'s, stated once (TR6).

Each decision is a pure function of the hand's state and a seeded
generator, so a hand of bots replays exactly.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable

import numpy as np

from coach.advice.discard import wanted_share
from coach.advice.passes import EvaluationOptions, evaluate_pass
from coach.notation import tiles
from coach.notation.card import Card
from coach.play.evaluation import coach_move, nobody_calls
from coach.play.hand import BLANK_SWAP, EXPOSE, MAH_JONGG, SEATS, Action, Hand, deal
from coach.play.outlook import seen_tiles
from coach.play.policies import least_suit_policy, nearest_three_policy
from coach.play.seen import next_tile
from coach.reading.analysis import analyze
from coach.reading.many import analyze_many
from coach.reading.tiles_away import OUT_OF_REACH, Exposure, Holding, tables_for
from coach.rules.calls import speaking_order
from coach.rules.charleston import PassError
from coach.rules.mahjong import winning_lines
from coach.rules.table_rules import LEAGUE, TableRules

STRENGTHS = ("beginner", "club", "shark", "coach")
MISSED_CALLS = 0.4  # the share of good exposure calls a beginner does not see
LATE = 40  # tiles left in the wall when a shark starts to defend (D1)
HOT = 0.5  # a tile at least this share of an exposure's possible hands need is hot (D1)
# The shark's pass: the pass drill's evaluation on fewer samples, a few ms a pass.
PASS_EFFORT = EvaluationOptions(samples=24, refine=4, refine_samples=32, screen=24, cap=96)


def nearest(card: Card, holding: Holding) -> int:
    return int(tables_for(card).line_distances(holding).min())


def naturals(rack: list[int]) -> list[int]:
    """The rack without its blanks: the tiles a card reads (TR1)."""
    return [t for t in rack if t != tiles.BLANK]


def passable(rack: list[int]) -> int:
    """How many tiles of the rack a pass may take besides blanks: all but jokers (C4)."""
    return sum(1 for t in rack if t not in (tiles.JOKER, tiles.BLANK))


def _with_blanks(chosen: list[int], rack: list[int], count: int) -> tuple[str, ...]:
    """`chosen`, made up to `count` with blanks when too few other tiles may go:
    the computer players keep their blanks in the Charleston otherwise (TR1)."""
    out = list(chosen[:count]) + [tiles.BLANK] * max(0, count - len(chosen))
    return tuple(tiles.TABLE_CODES[t] for t in out)


def _pass_tiles(card: Card, rack: list[int], count: int, rng: random.Random) -> tuple[str, ...]:
    own = naturals(rack)
    chosen = nearest_three_policy(card, own, [], rng)[:count] if passable(own) >= 3 else [t for t in own if t != tiles.JOKER]
    return _with_blanks(chosen, rack, count)  # never a joker (C4)


def _shark_pass(hand: Hand, seat: str, rng: random.Random) -> Action:
    """The pass drill's own evaluation (expected tiles away after the exchange),
    on fewer samples to stay quick. On the last pass of a Charleston it may
    send some of the incoming tiles on unseen (C5): the evaluation values
    that as passing 3 - blind own tiles for as many unseen ones. It reads the
    hand's table rules as the first-pass drill does (`evaluate_pass(..., rules=)`):
    blanks in the rack (TR1, kept when a pass keeping them is as good) and the
    passes of a table of three (TR4)."""
    rack = hand.racks[seat]
    try:
        advice = evaluate_pass(hand.card, list(rack), hand.step, seed=rng.randrange(2**31), options=PASS_EFFORT, rules=hand.rules)
    except PassError:  # too few tiles to pass but jokers
        return Action(seat, "pass", _pass_tiles(hand.card, rack, 3, rng))
    return Action(seat, "pass", tuple(tiles.TABLE_CODES[t] for t in advice.best.tiles), blind=advice.best.blind)


def _beginner_pass(card: Card, rack: list[int], rng: random.Random) -> tuple[str, ...]:
    """A beginner's habit: pass the suit you hold least of, keeping the honours."""
    own = naturals(rack)
    if passable(own) < 3:
        return _pass_tiles(card, rack, 3, rng)
    return tuple(tiles.CODES[t] for t in least_suit_policy(card, own, [], rng))


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
    card, rack = hand.card, naturals(hand.racks[seat])
    if len(rack) < len(hand.racks[seat]):  # TR1: a blank is thrown only when every other tile costs the hand
        kept_blank = _blank_stays(hand, seat)
        if kept_blank is not None:
            return kept_blank
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
    if strength == "shark" and len(hand.wall) <= LATE and not nobody_calls(hand):  # TR2: a cold wall's end: none called
        for other in SEATS:
            if other != seat and hand.exposed[other]:
                share = wanted_share(card, [e.as_exposure() for e in hand.exposed[other]])
                hot |= np.array([k < tiles.NATURALS and share[k] >= HOT for k in kinds])
    order = np.lexsort((keep_joker, -close, -best_outs, hot, low))
    return kinds[int(order[0])]


def _blank_stays(hand: Hand, seat: str) -> int | None:
    """With a blank held: BLANK when every other discard leaves the hand further
    away (the blank is no part of the hand, TR1), None when some tile can go
    at no cost (the blank is kept: a later swap may take a tile it needs)."""
    holding = hand.holding(seat)
    kinds = sorted(set(holding.rack_tiles()))
    if not kinds:
        return tiles.BLANK
    rows = np.repeat(np.array([holding.rack], dtype=np.int16), len(kinds), axis=0)
    rows[np.arange(len(kinds)), kinds] -= 1
    after = tables_for(hand.card).batch_line_distances(rows, list(holding.exposures)).min(axis=1)
    return tiles.BLANK if after.min() > nearest(hand.card, holding) else None


def blank_swap(hand: Hand, seat: str) -> Action | None:
    """The blank swap that brings the hand nearest, if one brings it nearer at all
    (TR1); None to keep the blank. One tile's copies on the floor are the same
    swap: the first of them is taken."""
    swaps = hand.blank_swaps(seat)
    if not swaps:
        return None
    holding = hand.holding(seat)
    place_of: dict[int, int] = {}
    for place, tile in swaps:
        place_of.setdefault(tile, place)
    kinds = sorted(place_of)
    rows = np.repeat(np.array([holding.rack], dtype=np.int16), len(kinds), axis=0)
    rows[np.arange(len(kinds)), kinds] += 1
    after = tables_for(hand.card).batch_line_distances(rows, list(holding.exposures)).min(axis=1)
    best = int(np.argmin(after))  # the first of the nearest, in table order
    if after[best] >= nearest(hand.card, holding):
        return None
    return Action(seat, BLANK_SWAP, (tiles.CODES[kinds[best]],), place=place_of[kinds[best]])


def _draw_does_as_well(hand: Hand, seat: str, after_call: Holding) -> bool:
    """TR5: the seat has seen the next wall tile (it draws next); a call for an
    exposure is no better when that draw leaves the hand as near, unexposed."""
    ahead = next_tile(hand, seat)
    if ahead is None or ahead == tiles.BLANK:
        return False
    holding = hand.holding(seat)
    counts = list(holding.rack)
    counts[ahead] += 1
    return nearest(hand.card, Holding(tuple(counts), holding.exposures)) <= nearest(hand.card, after_call)


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
            if strength != "beginner" and _draw_does_as_well(hand, seat, after):
                continue  # TR5: the tile seen ahead does as well without exposing
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
    swap = blank_swap(hand, seat)  # TR1: only one that brings the hand nearer
    if swap is not None:
        return swap
    return Action(seat, "discard", (tiles.TABLE_CODES[best_discard(hand, seat, strength, rng)],))


# Steps every seat answers at once: the stop vote (C2) and the courtesy offer (C3).
# A real table takes them together, so nobody's answer is known when another's is asked.
TOGETHER = ("vote", "offer")


def next_to_act(hand: Hand, waiting: Iterable[str]) -> str:
    """Which of the `waiting` seats moves next: the one place the computer players'
    order is decided. The answers to a discard under "first to speak" (TR6) come
    in the stated order of speaking, seat order after the discarder
    (`coach.rules.calls.speaking_order`; the learner, asked first, is not among
    `waiting` then, see `answer`). Otherwise East, South, West, North: by the
    League's rules the order of the answers never changes who gets a discard (K4)."""
    if hand.rules.first_to_speak and hand.latest is not None:
        return str(speaking_order(hand.latest[0], tuple(waiting), players=hand.rules.players).decision[0])
    return next(s for s in SEATS if s in waiting)


def answer(hand: Hand, seat: str, strength: str, limit: int = 2000) -> None:
    """The computer players move until `seat` owes a decision (or the hand ends).

    On a step every seat answers at once (`TOGETHER`) they wait for `seat`:
    it is asked before anyone's answer is on the table, so it is never asked
    to vote on a second Charleston another player has already stopped (C2),
    and its own vote is recorded with the others'. Under "first to speak"
    (TR6) they wait for `seat` on a discard too: the learner at the practice
    table speaks first, then the computer players in seat order after the
    discarder (`next_to_act`). Each computer player's generator is seeded by
    the hand's seed, its seat and the moves so far, so the same moves always
    meet the same replies."""
    for _ in range(limit):
        waiting = hand.waiting()
        if seat in waiting and hand.phase == "charleston" and hand.step in TOGETHER:
            return
        if seat in waiting and hand.rules.first_to_speak and hand.latest is not None:
            return  # TR6: the learner is asked first
        others = [s for s in SEATS if s in waiting and s != seat]
        if not others:
            return
        other = next_to_act(hand, others)
        rng = random.Random(f"{hand.seed}:{other}:{len(hand.actions)}")
        hand.apply(decide(hand, other, strength, rng))


def play(
    card: Card, seed: int, bots: dict[str, str], limit: int = 2000, timings: list[float] | None = None,
    watch: Callable[[Hand, Action, float], None] | None = None, rules: TableRules = LEAGUE,
) -> Hand:
    """The bots play a hand to its end under the table's `rules`; `bots` maps each
    seat in play to a strength. With `timings`, each decision's time (seconds,
    process CPU) is appended; `watch` sees the hand after every action, with
    the action and its time."""
    hand = deal(card, seed, rules)
    rngs = {seat: random.Random(f"{seed}:{seat}") for seat in hand.seats}
    for _ in range(limit):
        waiting = hand.waiting()
        if not waiting:
            return hand
        seat = next_to_act(hand, waiting)  # a fixed order, so a replay makes the same choices
        started = time.process_time()
        action = decide(hand, seat, bots[seat], rngs[seat])
        spent = time.process_time() - started
        if timings is not None:
            timings.append(spent)
        hand.apply(action)
        if watch is not None:
            watch(hand, action, spent)
    raise RuntimeError(f"the hand of seed {seed} did not end in {limit} actions")
