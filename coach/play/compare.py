"""What a class did with the same deal, decision by decision (issue 16, part 6).

Every student of a class hand plays the same seed against the same
computer players, whose moves are a function of the position (the table
seeds their generator by the hand's seed, the seat and the number of
actions so far). So students who made the same moves stand in the very
same position, and their hands differ only from their first different
decision on.

`compare` walks the students' action lists together: at each of the
learner's decisions it counts what the students who share that position
chose, with the coach's choice there (the same coach, and the same
generator, as the review of each student's hand). Then the group follows
its most common choice; the students who chose otherwise are noted as
splitting off there ("after this, 5 students' hands differ"), and each
one's own review shows the rest of their hand. The walk is one replay of
one hand plus a grade per distinct choice: bounded by the hand's length,
whatever the size of the class.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from coach.notation import tiles
from coach.notation.card import Card
from coach.play.evaluation import coach_move
from coach.play.hand import BLANK_SWAP, Action, Hand, HandError, deal
from coach.play.review import BEST, RULES, decision_name, decision_when, describe, grade_decision
from coach.play.review import _words as coach_words  # the review's own wording of the coach's move
from coach.rules.charleston import pass_words
from coach.rules.table_rules import LEAGUE, TableRules

Key = tuple[str, str, tuple[str, ...], int, bool, int, int, str, int, int]


def same_move(action: Action) -> Key:
    """What makes two moves the same: the tiles of a pass as a set, not in the order picked."""
    picked = action.tiles
    if action.kind in ("pass", "courtesy"):
        picked = tuple(sorted(picked, key=tiles.sort_key))
    return (
        action.seat, action.kind, picked, action.blind, action.go, action.count, action.size, action.owner, action.group,
        action.place,
    )


def did(action: Action, hand: Hand) -> str:
    """A move in the past tense, in tile names: "threw the 3 Bam"."""
    names = ", ".join(tiles.name(c) for c in sorted(action.tiles, key=tiles.sort_key))
    latest = tiles.name(hand.latest[1]) if hand.latest is not None else "tile"
    if action.kind in ("pass", "courtesy"):
        return pass_words([tiles.name(c) for c in sorted(action.tiles, key=tiles.sort_key)], action.blind, "passed")
    if action.kind == "discard":
        return f"threw the {names}"
    if action.kind == "call":
        return f"called the {latest} for Mah Jongg" if not action.size else f"called the {latest} for a group of {action.size}"
    if action.kind == "no-call":
        return f"let the {latest} go"
    if action.kind == "exchange":
        return f"gave the {names} for {action.owner}'s joker"
    if action.kind == BLANK_SWAP:
        return f"swapped a blank for the {names} from the discards"
    if action.kind == "vote":
        return "voted for the second Charleston" if action.go else "voted to stop the Charleston"
    if action.kind == "offer":
        return f"offered {action.count} across"
    return "declared Mah Jongg"


@dataclass(frozen=True)
class Choice:
    """One move the students made at a shared position, and who made it."""

    action: Action
    words: str  # "threw the 3 Bam"
    players: tuple[str, ...]
    grade: str  # against the coach's choice, as the review grades it
    coach: bool  # the coach's very choice

    @property
    def count(self) -> int:
        return len(self.players)


@dataclass(frozen=True)
class Step:
    """One of the learner's decisions, at a position the group shares."""

    number: int  # the action's index in each of the group's hands
    decision: int  # the learner's decision number on this path, from 1
    kind: str
    wall: int  # tiles left in the wall
    rack: tuple[str, ...]  # the learner's concealed tiles there, sorted
    exposed: tuple[tuple[str, ...], ...]
    choices: tuple[Choice, ...]  # the most common first
    waiting: tuple[str, ...]  # reached this position but not played on yet
    coach: Action
    coach_words: str  # "throw the North Wind"
    reason: str  # the coach's reason, as the table's hint gives it
    rules: tuple[str, ...]
    split: tuple[str, ...]  # whose hands differ from here on (they chose otherwise)
    step: str = ""  # a Charleston pass: which one ("first-right", ... "second-right")

    @property
    def name(self) -> str:
        """ "First Charleston, pass right", "Stop vote", "Discard" (review.decision_name)."""
        return decision_name(self.kind, self.step)

    @property
    def when(self) -> str:
        """ "87 tiles in the wall" in play; empty in the Charleston."""
        return decision_when(self.kind, self.wall)

    @property
    def decided(self) -> int:
        return sum(c.count for c in self.choices)

    @property
    def headline(self) -> str:
        """ "7 of 12 threw the 3 Bam here; the coach would throw the North Wind." """
        top = self.choices[0]
        head = f"{top.count} of {self.decided} {top.words} here"
        if top.coach:
            return f"{head}, as the coach would."
        return f"{head}; the coach would {self.coach_words}."


@dataclass(frozen=True)
class Comparison:
    steps: tuple[Step, ...]
    players: int  # hands compared
    stopped: str  # why the walk ended, in words


def compare(
    card: Card, seed: int, hands: Mapping[str, Sequence[Action]], seat: str = "East", rules: TableRules = LEAGUE,
) -> Comparison:
    """The class's decisions at each position its largest group shared (see the module doc).
    `hands` maps each student (any name) to every action of their hand, the bots' too;
    `rules`: the table rules the class hand is played by."""
    hand = deal(card, seed, rules)
    group = sorted(hands)
    steps: list[Step] = []
    number = 0
    while group:
        moves: dict[Key, list[str]] = {}
        first: dict[Key, Action] = {}
        waiting = []
        for player in group:
            actions = hands[player]
            if len(actions) <= number:
                waiting.append(player)
                continue
            key = same_move(actions[number])
            moves.setdefault(key, []).append(player)
            first.setdefault(key, actions[number])
        if not moves:
            over = hand.phase == "over"
            return Comparison(tuple(steps), len(hands), "The hand is over." if over else "Nobody has played on from here yet.")
        ranked = sorted(moves, key=lambda k: -len(moves[k]))  # stable: the first seen wins a tie
        followed = ranked[0]
        if any(first[k].seat == seat for k in moves):
            step = _step(hand, seat, number, len(steps) + 1, moves, first, waiting, followed)
            if step is not None:
                steps.append(step)
        try:
            hand.apply(first[followed])
        except HandError as error:  # a stored hand the rules refuse: compare up to it
            return Comparison(tuple(steps), len(hands), f"A stored move is refused here: {error.message} ({error.rule}).")
        group = moves[followed]
        number += 1
    return Comparison(tuple(steps), len(hands), "")


def _step(
    hand: Hand, seat: str, number: int, decision: int, moves: dict[Key, list[str]],
    first: dict[Key, Action], waiting: list[str], followed: Key,
) -> Step | None:
    coach = coach_move(hand, seat)  # the review's, the hint's and the replay's coach
    coach_key = same_move(coach)
    choices = []
    for key, players in moves.items():
        played = first[key]
        if played.seat != seat:
            continue  # not the learner's move (hands with other computer players): not a choice
        try:
            grade = BEST if key == coach_key else grade_decision(hand, played).grade
        except (ValueError, KeyError):  # a stored move the rules refuse (say, a tile not held): no choice
            continue
        choices.append(Choice(played, did(played, hand), tuple(players), grade, key == coach_key))
    if not choices:
        return None
    choices.sort(key=lambda c: (-c.count, not c.coach))
    words = describe(hand, coach).replace("leaves you", "leaves the hand")  # the teacher reads it, not the player
    return Step(
        number=number,
        decision=decision,
        kind=first[followed].kind,
        wall=len(hand.wall),
        rack=tuple(sorted((tiles.TABLE_CODES[t] for t in hand.racks[seat]), key=tiles.sort_key)),
        exposed=tuple(tuple(e.as_exposure().codes) for e in hand.exposed[seat]),
        choices=tuple(choices),
        waiting=tuple(waiting),
        coach=coach,
        coach_words=coach_words(coach, hand),
        reason=words,
        rules=RULES.get(coach.kind, ("H3",)),
        split=tuple(p for key, players in moves.items() if key != followed for p in players),
        step=hand.step if first[followed].kind == "pass" else "",
    )
