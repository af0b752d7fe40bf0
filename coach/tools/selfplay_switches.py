"""`python -m coach selfplay --all-switches`: the computer players under each table rule and each pair.

Issue 27's check of the play side: for every value of every switch
(docs/table-rules.md: TR1 2, 4, 6 or 8 blanks, TR2 cold or hot, TR3, TR4,
TR5, TR6 and C6) and for every pair of switches (each combination of their
values), N hands are played to their end by the computer players, and each
hand is held to three things:

- every tile of the set, the 152 and the table's blanks, is in exactly one
  place (a rack, an exposure, the discards or the wall) after every action
  (`Hand.census() == Hand.full_set()`), and only the seats in play act (TR4);
- the hand ends in Mah Jongg or a wall game, nobody calls in a cold wall's
  last tiles (TR2), and the payments add up to nothing among the seats in play;
- its record, written as JSON and read back (seed, card, rules, actions;
  `hand.replay_record`), replays to the very same state, every move but a
  Charleston pass checked legal on the way (a pass's list is every set of
  three: long to build; the engine checks a pass itself).

Any exception counts as an error of that switch set, named with its seed;
the run goes on. With `--review-every K` East's decisions in every Kth hand
are reviewed under the hand's rules (`coach.play.review`), an error there
counted too.

The seats: hands alternate the quick strengths (beginner and club, seated
in turn); every `--strong-every`th hand seats all four strengths (beginner,
club, shark, coach), so the coach's evaluation and the shark's pass
evaluation play under every set as well.

The report is a table: switch set, hands, errors, CPU seconds and wall
seconds, with the hands won, wall games, blank swaps and reviews.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TextIO

from coach.notation.card import Card
from coach.play.bots import STRENGTHS, play
from coach.play.hand import BLANK_SWAP, SEATS, Action, Hand, deal, rules_of
from coach.play.legal import is_legal
from coach.play.review import review
from coach.rules.table_rules import SWITCHES, WALL_COLD, TableRules
from coach.tools.selfplay import SelfPlayError, _stop_on_sigterm, state

QUICK = ("beginner", "club")
SET_KINDS = ("singles", "pairs", "all")


def single_sets() -> list[TableRules]:
    """Each switch at each value away from the League's, one switch at a time."""
    return [TableRules().with_(**{s.name: value}) for s in SWITCHES for value in s.choices if value != s.default]


def pair_sets() -> list[TableRules]:
    """Every pair of switches, at each combination of their values away from the League's."""
    out = []
    for a, b in itertools.combinations(SWITCHES, 2):
        for x in (v for v in a.choices if v != a.default):
            for y in (v for v in b.choices if v != b.default):
                out.append(TableRules().with_(**{a.name: x, b.name: y}))
    return out


def switch_sets(kind: str = "all", codes: str = "") -> list[TableRules]:
    """The sets to play: `codes` ("b2,cold,b4.3p") if given, else singles, pairs or all."""
    if codes:
        return [TableRules.from_code(c.strip()) for c in codes.split(",") if c.strip()]
    if kind not in SET_KINDS:
        raise ValueError(f"the switch sets are one of {', '.join(SET_KINDS)}")
    return (single_sets() if kind != "pairs" else []) + (pair_sets() if kind != "singles" else [])


def seating(number: int, strong_every: int) -> dict[str, str]:
    """Hand `number`'s computer players: the quick strengths in turn, a different
    seat first each hand; every `strong_every`th hand all four strengths."""
    strengths = STRENGTHS if strong_every and number % strong_every == strong_every - 1 else QUICK
    return {seat: strengths[(number + i) % len(strengths)] for i, seat in enumerate(SEATS)}


def checked_hand(card: Card, seed: int, bots: dict[str, str], rules: TableRules) -> Hand:
    """One hand of computer players under `rules`, every tile counted after every
    action, then its record read back and replayed (SelfPlayError on a fault)."""

    def watch(hand: Hand, action: Action, spent: float) -> None:
        if hand.census() != hand.full_set():
            whole = sum(hand.full_set().values())
            raise SelfPlayError(f"after action {len(hand.actions)} ({action.kind} by {action.seat}) the tiles do not add up to {whole}")
        if action.seat not in hand.seats:
            raise SelfPlayError(f"{action.seat} acted at a table of {rules.players} (TR4)")

    hand = play(card, seed, bots, watch=watch, rules=rules)
    if hand.phase != "over" or hand.result is None:
        raise SelfPlayError("the hand did not end")
    if sum(hand.result.pays.values()) != 0 or set(hand.result.pays) != set(hand.seats):
        raise SelfPlayError(f"the payments do not add up among the seats in play: {hand.result.pays}")
    record = json.loads(json.dumps(hand.record()))
    if record.get("card") != card.name or rules_of(record) != rules:
        raise SelfPlayError("the record does not name the hand's card and rules")
    again = deal(card, record["seed"], rules_of(record))
    for raw in record["actions"]:
        action = Action.from_json(raw)
        if action.kind != "pass" and not is_legal(again, action):
            raise SelfPlayError(f"action {len(again.actions)} ({action.kind} by {action.seat}) is not on the legal list")
        if action.kind == "call" and again.rules.wall_end == WALL_COLD and again.in_last_wall:
            raise SelfPlayError(f"action {len(again.actions)}: a call in a cold wall's last tiles (TR2)")
        again.apply(action)
    if state(again) != state(hand):
        raise SelfPlayError("the record does not replay to the same final state")
    return hand


@dataclass
class Row:
    """One switch set's hands."""

    rules: TableRules
    hands: int = 0
    won: int = 0
    walls: int = 0
    moves: Counter[str] = field(default_factory=Counter)
    reviews: int = 0
    errors: list[str] = field(default_factory=list)
    cpu: float = 0.0
    wall_clock: float = 0.0

    @property
    def name(self) -> str:
        return ".".join(self.rules.rule_ids()) + f" ({self.rules.code()})"


def play_set(card: Card, rules: TableRules, hands: int, seed: int, strong_every: int = 10, review_every: int = 0,
             stop: threading.Event | None = None) -> Row:
    """`hands` checked hands under `rules`; errors are counted and named, not raised."""
    row = Row(rules)
    cpu, clock = time.process_time(), time.perf_counter()
    for number in range(hands):
        if stop is not None and stop.is_set():
            break
        hand_seed = seed * 1_000_003 + number
        bots = seating(number, strong_every)
        row.hands += 1
        try:
            hand = checked_hand(card, hand_seed, bots, rules)
            assert hand.result is not None
            row.won += hand.result.winner is not None
            row.walls += hand.result.winner is None
            row.moves.update(a.kind for a in hand.actions)
            if review_every and number % review_every == 0:
                review(card, hand_seed, list(hand.actions), "East", rules=rules)
                row.reviews += 1
        except Exception as error:  # a check: count it, name the hand, go on
            row.errors.append(f"{rules.code()} seed {hand_seed}, bots {','.join(bots.values())}: {type(error).__name__}: {error}")
    row.cpu, row.wall_clock = time.process_time() - cpu, time.perf_counter() - clock
    return row


HEADER = f"{'switch set':<28} {'hands':>6} {'errors':>6} {'cpu s':>8} {'wall s':>8} {'won':>5} {'walls':>5} {'swaps':>5} {'reviews':>7}\n"


def row_text(row: Row) -> str:
    return (f"{row.name:<28} {row.hands:>6} {len(row.errors):>6} {row.cpu:>8.1f} {row.wall_clock:>8.1f} {row.won:>5} "
            f"{row.walls:>5} {row.moves[BLANK_SWAP]:>5} {row.reviews:>7}\n")


def run(args: argparse.Namespace, out: TextIO, progress: TextIO | None = sys.stderr, card: Card | None = None) -> int:
    """Every switch set of `args` (see the module doc); the table is written as each set ends."""
    if card is None:
        from coach.reading.disk_cache import house_card_cached, load_card_cached

        card = load_card_cached(args.card) if getattr(args, "card", None) else house_card_cached()
    sets = switch_sets(getattr(args, "switch_sets", "all") or "all", getattr(args, "sets", "") or "")
    hands, seed = max(1, int(args.hands)), int(args.seed)
    strong_every, review_every = int(getattr(args, "strong_every", 10)), int(getattr(args, "review_every", 0) or 0)
    out.write(f"Self-play under the table rules on {card.name}, seed {seed}: {hands} hands a switch set, {len(sets)} sets; "
              f"every tile counted after every action, every record replayed from its JSON.\n")
    out.write(HEADER)
    out.flush()
    rows = []
    with _stop_on_sigterm() as stop:
        for n, rules in enumerate(sets, 1):
            if stop.is_set():
                break
            row = play_set(card, rules, hands, seed, strong_every, review_every, stop)
            rows.append(row)
            out.write(row_text(row))
            out.flush()
            if progress is not None:
                print(f"selfplay --all-switches: {n}/{len(sets)} sets", file=progress, flush=True)
    errors = [e for r in rows for e in r.errors]
    total = sum(r.hands for r in rows)
    out.write(f"{len(rows)} sets, {total} hands, {len(errors)} with errors, {sum(r.cpu for r in rows):.0f} s CPU.\n")
    if len(rows) < len(sets):
        out.write(f"Stopped early (SIGTERM) after {len(rows)} of {len(sets)} sets.\n")
    for e in errors[:20]:
        out.write(f"  {e}\n")
    return 1 if errors else 0
