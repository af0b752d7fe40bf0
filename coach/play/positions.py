"""Positions to replay: the moments of a played hand where the learner's
decision was a mistake, asked again as questions (issue 16, part 5).

A position is the hand's seed, the actions before the decision and the
seat deciding: replaying those rebuilds exactly what the table showed.
The reviewed decisions graded an "inaccuracy" or a "mistake" become
positions: one discard can only cost one tile, so most discards worth
replaying are inaccuracies or mistakes by what they cost in points. The stop vote and the courtesy offer are left out: they
are valued by the review, but a yes-or-no choice asked again teaches little.

An answer at a position is graded as the review grades a decision
(`coach.play.review.grade_decision`) against the coach's move there: the
coach's one evaluation (`coach.play.evaluation`), a function of the
position, so the same position always gets the same coach's move, the
one the table's hint and the review gave. It is correct when best or
good. An illegal answer is refused with the rule id (`HandError`).
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass

from coach.notation import tiles
from coach.notation.card import Card
from coach.play.evaluation import coach_move as evaluation_move
from coach.play.hand import SEATS, Action, Hand, HandError, replay
from coach.play.review import BEST, GOOD, INACCURACY, MISTAKE, Review, grade_decision
from coach.rules.table_rules import LEAGUE, TableRules

REPLAYED = (INACCURACY, MISTAKE)
# The decisions a position asks again (not the stop vote nor the courtesy offer).
KINDS = ("pass", "courtesy", "discard", "exchange", "blank", "mahjong", "call", "no-call")


@dataclass(frozen=True)
class Position:
    seed: int
    actions: tuple[Action, ...]  # every action of the hand before the decision
    seat: str  # whose decision it is
    played: Action  # what the learner played there
    rules: TableRules = LEAGUE  # the table rules the hand was played by (docs/table-rules.md)

    @property
    def number(self) -> int:
        """The decision's index in the hand's record."""
        return len(self.actions)


@dataclass(frozen=True)
class Graded:
    grade: str  # best, good, inaccuracy, mistake (hand_review)
    cost: float  # what the answer gave up against the coach's move (points, or tiles in the Charleston)
    reason: str
    rules: tuple[str, ...]
    coach: Action
    unit: str = "points"  # of `cost`: "points" in play, "tiles" in the Charleston
    missed_win: bool = False

    @property
    def correct(self) -> bool:
        return self.grade in (BEST, GOOD)


def to_replay(found: Review) -> list[int]:
    """The decision numbers of a reviewed hand that become positions."""
    return [d.number for d in found.decisions if d.grade in REPLAYED and d.played.kind in KINDS]


def position_at(seed: int, actions: list[Action], number: int, seat: str, rules: TableRules = LEAGUE) -> Position:
    """The position before decision `number` of a hand's record, played under `rules`;
    ValueError if the record has no decision of `seat` there."""
    if seat not in SEATS or not 0 <= number < len(actions) or actions[number].seat != seat:
        raise ValueError(f"decision {number} of this hand is not {seat}'s")
    return Position(seed, tuple(actions[:number]), seat, actions[number], rules)


def rebuild(card: Card, position: Position) -> Hand:
    """The hand as it stood at the decision (HandError if the record no longer replays)."""
    hand = replay(card, position.seed, list(position.actions), position.rules)
    if position.seat not in hand.waiting():
        raise HandError(f"{position.seat} had no decision to make here", "H1")
    return hand


def coach_move(hand: Hand, position: Position) -> Action:
    """The coach's move at the position: always the same one for the same position."""
    return evaluation_move(hand, position.seat)


def check_legal(hand: Hand, action: Action) -> None:
    """HandError, with the rule id, if the action could not be played here
    (tried on a copy: the card is shared, never copied)."""
    trial = copy.deepcopy(hand, {id(hand.card): hand.card})
    trial.apply(action)


def same_move(a: Action, b: Action) -> bool:
    """The same move, whatever order a pass's tiles were picked in."""
    return a.kind == b.kind and Counter(a.tiles) == Counter(b.tiles) and (
        a.seat, a.blind, a.go, a.count, a.size, a.owner, a.group, a.place
    ) == (b.seat, b.blind, b.go, b.count, b.size, b.owner, b.group, b.place)


def grade_answer(hand: Hand, position: Position, answer: Action) -> Graded:
    """The answer at the position, graded against the coach's move there."""
    if answer.seat != position.seat:
        raise HandError(f"you are {position.seat} in this position", "S5")
    check_legal(hand, answer)
    coach = coach_move(hand, position)
    if same_move(answer, coach):
        answer = coach
    judged = grade_decision(hand, answer)
    return Graded(judged.grade, judged.cost, judged.reason, judged.rules, judged.coach, judged.unit, judged.missed_win)


def drawn_tile(hand: Hand, seat: str) -> int | None:
    """The tile the seat just drew, if its turn began with a draw (it saw it)."""
    if hand.phase == "play" and hand.latest is None and hand.turn == seat and hand.acquired == "draw":
        return hand.racks[seat][-1]
    return None


def codes(values: list[int]) -> tuple[str, ...]:
    return tuple(sorted((tiles.TABLE_CODES[t] for t in values), key=tiles.sort_key))
