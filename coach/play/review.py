"""A coach's review of every decision one player made in a hand (issue 16).

The hand is replayed from its record; at each of the player's decisions
the coach (the "club" computer player) says what it would have done, and
both choices are measured the same way, in tiles away from the nearest
line right after the decision:

- a pass: the tiles kept (before any arrive), C1-C5;
- a discard: the rack left, S4 (and holding a winning hand is never right:
  declare Mah Jongg, E1);
- a call or no call: the holding after it (a call for Mah Jongg is worth
  everything, K3; an exposure that brings the hand no nearer is not, K2);
- a joker exchange: the holding after it (J4);
- the stop vote and the courtesy offer: the coach's own choice (C2, C3).

The grade is the cost, in tiles away, of the player's choice over the
coach's: 0 is "best" when it is the coach's very choice or leaves as many
lines as close, "good" otherwise; 1 tile is an "inaccuracy"; 2 or more,
or a missed Mah Jongg, a "mistake" (thresholds in `GRADES`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from coach.notation import tiles
from coach.notation.card import Card
from coach.play.bots import decide
from coach.play.hand import SEATS, Action, Hand, deal
from coach.reading.tiles_away import Exposure, Holding, tables_for
from coach.rules.charleston import pass_words

BEST, GOOD, INACCURACY, MISTAKE = "best", "good", "inaccuracy", "mistake"
# The cost in tiles away from which each grade starts; a missed Mah Jongg is a mistake.
GRADES = ((2, MISTAKE), (1, INACCURACY), (0, GOOD))
MISSED_WIN = 14  # the cost of not taking a win: every tile
# Stored reviews (coach/store/reviews.py) carry the version they were graded
# with: bump it whenever the grading changes, and every stored review is graded again.
REVIEW_VERSION = 1


@dataclass(frozen=True)
class Reviewed:
    number: int  # the action's index in the hand's record
    seat: str
    kind: str  # pass, vote, offer, courtesy, call, discard, exchange, mahjong
    played: Action
    coach: Action
    grade: str
    cost: int  # tiles away lost against the coach's choice (MISSED_WIN for a missed win)
    reason: str
    rules: tuple[str, ...]
    wall: int  # tiles left in the wall at the time
    rack: tuple[str, ...] = ()  # the player's concealed tiles just before the decision
    exposed: tuple[tuple[str, ...], ...] = ()  # and their exposures

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number, "seat": self.seat, "kind": self.kind,
            "played": self.played.to_json(), "coach": self.coach.to_json(),
            "grade": self.grade, "cost": self.cost, "reason": self.reason, "rules": list(self.rules), "wall": self.wall,
            "rack": list(self.rack), "exposed": [list(e) for e in self.exposed],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Reviewed:
        """A decision as `to_json` wrote it (a stored review read back)."""
        return cls(
            int(data["number"]), str(data["seat"]), str(data["kind"]),
            Action.from_json(data["played"]), Action.from_json(data["coach"]),
            str(data["grade"]), int(data["cost"]), str(data["reason"]), tuple(data["rules"]), int(data["wall"]),
            tuple(data.get("rack", ())), tuple(tuple(e) for e in data.get("exposed", ())),
        )


@dataclass(frozen=True)
class Review:
    seat: str
    decisions: tuple[Reviewed, ...]
    winner: str | None
    line: str | None  # the winning line's id, if someone won

    @property
    def accuracy(self) -> float:
        """The share of decisions graded best or good."""
        if not self.decisions:
            return 1.0
        return sum(1 for d in self.decisions if d.grade in (BEST, GOOD)) / len(self.decisions)

    def costliest(self, n: int = 3) -> list[Reviewed]:
        hurt = [d for d in self.decisions if d.cost > 0]
        return sorted(hurt, key=lambda d: (-d.cost, d.number))[:n]

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "accuracy": round(self.accuracy, 3),
            "decisions": [d.to_json() for d in self.decisions],
            "costliest": [d.number for d in self.costliest()],
            "winner": self.winner,
            "line": self.line,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Review:
        """A review as `to_json` wrote it; its accuracy and costliest are worked out again, the same."""
        return cls(
            str(data["seat"]), tuple(Reviewed.from_json(d) for d in data["decisions"]), data.get("winner"), data.get("line")
        )


def _nearest(card: Card, rack: list[int] | tuple[int, ...], exposures: tuple[Exposure, ...]) -> tuple[int, int]:
    """(tiles away from the nearest line, lines within one more): lower is better."""
    distances = tables_for(card).line_distances(Holding(tuple(tiles.counts(rack)), exposures))
    low = int(distances.min())
    return low, int(np.sum(distances <= low + 1))


def _without(rack: list[int], codes: tuple[str, ...]) -> list[int]:
    left = list(rack)
    for code in codes:
        left.remove(tiles.INDEX[code])
    return left


def _measure(hand: Hand, action: Action) -> tuple[int, int]:
    """How near the player stands right after this action (see the module doc)."""
    seat = action.seat
    holding = hand.holding(seat)
    rack = list(hand.racks[seat])
    if action.kind in ("pass", "courtesy"):
        kept = _without(rack, action.tiles)  # forwarded tiles never enter the rack (C5)
        return _nearest(hand.card, kept, holding.exposures)
    if action.kind == "discard":
        return _nearest(hand.card, _without(rack, action.tiles), holding.exposures)
    if action.kind == "exchange":
        after = _without(rack, action.tiles) + [tiles.JOKER]
        return _nearest(hand.card, after, holding.exposures)
    if action.kind == "call" and action.size:
        assert hand.latest is not None
        tile = hand.latest[1]
        used = min(rack.count(tile), action.size - 1)
        after = list(rack)
        for _ in range(used):
            after.remove(tile)
        for _ in range(action.size - 1 - used):
            after.remove(tiles.JOKER)
        return _nearest(hand.card, after, holding.exposures + (Exposure(tile, action.size, action.size - 1 - used),))
    return _nearest(hand.card, rack, holding.exposures)


def _names(codes: tuple[str, ...]) -> str:
    return ", ".join(tiles.name(c) for c in codes) or "nothing"


def _words(action: Action, hand: Hand) -> str:
    if action.kind in ("pass", "courtesy"):
        return pass_words([tiles.name(c) for c in action.tiles], action.blind)
    if action.kind == "discard":
        return f"throw the {_names(action.tiles)}"
    if action.kind == "exchange":
        return f"give the {_names(action.tiles)} for {action.owner}'s joker"
    if action.kind == "call":
        tile = tiles.name(hand.latest[1]) if hand.latest else "tile"
        return f"call the {tile} for Mah Jongg" if not action.size else f"call the {tile} for a group of {action.size}"
    if action.kind == "no-call":
        return "let it go"
    if action.kind == "vote":
        return "play the second Charleston" if action.go else "stop the Charleston"
    if action.kind == "offer":
        return f"offer {action.count} across"
    return "declare Mah Jongg"


RULES = {"pass": ("C1",), "courtesy": ("C3",), "vote": ("C2",), "offer": ("C3",), "discard": ("S4",), "exchange": ("J4",),
         "call": ("K2",), "no-call": ("K2",), "mahjong": ("E1",)}


def grade_decision(hand: Hand, played: Action, coach: Action) -> tuple[str, int, str, tuple[str, ...]]:
    """(grade, cost, reason, rules) of the played action against the coach's, in this state."""
    rules = RULES.get(played.kind, ("H3",))
    if played == coach:
        return BEST, 0, f"The coach would also {_words(coach, hand)}.", rules
    win_now = coach.kind == "mahjong" or (coach.kind == "call" and not coach.size)
    if win_now:
        return MISTAKE, MISSED_WIN, f"The hand was complete: {_words(coach, hand)} wins it.", ("E1", "K3") if coach.kind == "call" else ("E1",)
    if played.kind in ("vote", "offer"):
        return INACCURACY, 1, f"You chose to {_words(played, hand)}; the coach would {_words(coach, hand)}.", rules
    mine, theirs = _measure(hand, played), _measure(hand, coach)
    cost = max(0, mine[0] - theirs[0])
    if cost == 0:
        grade = BEST if mine[1] >= theirs[1] else GOOD
        reason = (
            f"As good as the coach's choice ({_words(coach, hand)}): {mine[0]} tiles away either way."
            if grade == BEST
            else f"Fine: {mine[0]} tiles away as with the coach's choice ({_words(coach, hand)}), "
            f"which keeps {theirs[1]} lines close to your {mine[1]}."
        )
        return grade, 0, reason, rules
    grade = next(name for start, name in GRADES if cost >= start)
    reason = (
        f"You chose to {_words(played, hand)}: that leaves you {mine[0]} tiles away. "
        f"The coach would {_words(coach, hand)}: {theirs[0]} away."
    )
    return grade, cost, reason, rules


def describe(hand: Hand, action: Action) -> str:
    """The coach's move in words, with why: the table's hint."""
    words = _words(action, hand)
    if action.kind == "mahjong" or (action.kind == "call" and not action.size):
        return f"The coach would {words}: the hand is complete (E1)."
    if action.kind in ("pass", "courtesy", "discard", "exchange") or action.kind == "call":
        low, close = _measure(hand, action)
        lines = "line" if close == 1 else "lines"
        return f"The coach would {words}: that leaves you {low} tiles away, with {close} {lines} within one more ({', '.join(RULES[action.kind])})."
    if action.kind == "no-call":
        return "The coach would let it go: no call brings your hand nearer (K2)."
    return f"The coach would {words} ({', '.join(RULES.get(action.kind, ('H3',)))})."


def review(
    card: Card, seed: int, actions: list[Action], seat: str, progress: Callable[[int, int], None] | None = None
) -> Review:
    """Replay the hand and grade every decision `seat` made.

    `progress(done, total)` is called after each graded decision (a stored
    review shows it while it runs: coach/web/shared/practice/reviews.py)."""
    if seat not in SEATS:
        raise ValueError(f"a seat is one of {', '.join(SEATS)}, not {seat!r}")
    total = sum(1 for action in actions if action.seat == seat)
    hand = deal(card, seed)
    rng = random.Random(f"review:{seed}:{seat}")
    out = []
    for number, action in enumerate(actions):
        if action.seat == seat:
            coach = decide(hand, seat, "club", rng)
            grade, cost, reason, rules = grade_decision(hand, action, coach)
            rack = tuple(sorted((tiles.CODES[t] for t in hand.racks[seat]), key=tiles.sort_key))
            exposed = tuple(tuple(e.as_exposure().codes) for e in hand.exposed[seat])
            out.append(
                Reviewed(number, seat, action.kind, action, coach, grade, cost, reason, rules, len(hand.wall), rack, exposed)
            )
            if progress is not None:
                progress(len(out), total)
        hand.apply(action)
    result = hand.result
    line = result.payment.line.id if result and result.payment and result.payment.line else None
    return Review(seat, tuple(out), result.winner if result else None, line)


def review_text(found: Review) -> str:
    """The review as a player reads it."""
    lines = [f"Review of {found.seat}'s decisions: {len(found.decisions)} decisions, accuracy {found.accuracy:.0%}."]
    if found.winner:
        lines.append(f"{found.winner} won with {found.line}.")
    else:
        lines.append("Nobody won: a wall game (E2).")
    worst = found.costliest()
    if worst:
        lines.append("The costliest decisions:")
        for d in worst:
            lines.append(f"  #{d.number} ({d.kind}, {d.wall} tiles in the wall): {d.grade}. {d.reason}")
    lines.append("Every decision:")
    for d in found.decisions:
        lines.append(f"  #{d.number:<3} {d.kind:<9} {d.grade:<11} {d.reason} ({', '.join(d.rules)})")
    return "\n".join(lines)
