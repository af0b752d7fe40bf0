"""What the rules drills share when a question is asked under a table's own
rules (coach.rules.table_rules): the sentence that says the table's rule
first ("At your table a joker may go in the courtesy pass."), and the
choice of what to ask.

A rules drill asked under table rules mixes two kinds of question: its
League questions, each asked as the table plays it (a kind the table's
rules would make wrong is adapted, or left out), and questions of the
table rules themselves, asked only where a switch is on. About half of the
questions of a level are of the table's own rules when any apply to it."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from coach.rules.table_rules import WALL_COLD, WALL_HOT, TableRules
from drills.kit.choice import Draft

TABLE_SHARE = 0.5  # of a level's questions, those asked of the table's own rules (when any apply)

# A situation builder that knows the table's rules.
RulesBuilder = Callable[[random.Random, Any, TableRules], Draft]


def says(rules: TableRules, rule_id: str) -> str:
    """The table's rule said first, in plain words, before the question."""
    if rule_id == "TR1":
        return (f"At your table {rules.blanks} blanks are in play: on your turn you may swap one from your rack"
                " for a discarded tile other than a joker. A blank is never part of a hand.")
    if rule_id == "TR2":
        if rules.wall_end == WALL_COLD:
            return ("At your table the wall is cold: from the tiles left behind at the break to the end,"
                    " no discard may be called.")
        if rules.wall_end == WALL_HOT:
            return ("At your table the wall is hot: in the tiles left behind at the break, whoever throws"
                    " the winning tile pays for everyone.")
        raise ValueError("TR2 is said only at a hot or cold wall")
    if rule_id == "TR3":
        return "At your table a joker may go in the courtesy pass (never in the Charleston's own passes)."
    if rule_id == "TR4":
        return ("At your table three play: East, South and West. North's seat is empty, and its tiles stay"
                " in the wall.")
    if rule_id == "TR5":
        return ("At your table you may pick ahead: the next player may look at the next wall tile while the"
                " discard can still be called.")
    if rule_id == "TR6":
        return "At your table the first to speak takes a discard, though Mah Jongg still beats an exposure."
    if rule_id == "C6":
        return "At your table an all-blind pass ends the Charleston (table rule C6, not a League rule)."
    raise ValueError(f"{rule_id} is not a table rule")


@dataclass(frozen=True)
class Kind:
    """One kind of question a rules drill asks under table rules: its builder
    and the tables it may be asked at (`when`)."""

    build: RulesBuilder
    when: Callable[[TableRules], bool] = lambda rules: True


def picked(rng: random.Random, rules: TableRules, league: Sequence[Kind], own: Sequence[Kind]) -> Callable[[random.Random, Any], Draft]:
    """The builder of this question: one of the table's own kinds that apply
    (about TABLE_SHARE of the time, when any apply), else one of the League
    kinds that hold at this table; bound to the rules, named as its builder
    (a question's kind, `choice.asking`)."""
    mine = [k for k in own if k.when(rules)]
    theirs = [k for k in league if k.when(rules)]
    if mine and (not theirs or rng.random() < TABLE_SHARE):
        kind = rng.choice(mine)
    else:
        kind = rng.choice(theirs)
    build = kind.build

    def bound(rng: random.Random, card: Any) -> Draft:
        return build(rng, card, rules)

    bound.__name__ = getattr(build, "__name__", "")
    return bound


def at_table(kinds: Mapping[int, tuple[Sequence[Kind], Sequence[Kind]]]) -> Callable[[random.Random, TableRules, int], Callable[[random.Random, Any], Draft]]:
    """`choice.asking`'s `under`: for a level, its (League kinds, table kinds)."""
    def under(rng: random.Random, rules: TableRules, level: int) -> Callable[[random.Random, Any], Draft]:
        league, own = kinds[level]
        return picked(rng, rules, league, own)

    return under
