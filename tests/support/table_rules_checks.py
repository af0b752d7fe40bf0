"""Checks shared by the tests of the rules drills asked under a table's own
rules (coach.rules.table_rules; drills.generate(..., rules=)).

TABLES are a few tables that between them switch every rule on, alone and
with others; `asked` makes a drill's questions under one of them through
`drills.generate`, the way the web layer asks. The checks: a question is
rebuilt exactly from (seed, level, card, rules) and carries its rules; a
question that asks a table rule (an item "rule:TR1") is asked at a table that
plays it and says so first, in its first fact ("At your table ...").
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

import drills
from coach.rules.table_rules import SWITCHES_BY_ID, TableRules
from drills.kit.base import Question
from tests.support.cards import CARD

TABLES: tuple[TableRules, ...] = (
    TableRules(players=3),
    TableRules(blanks=4, joker_in_courtesy=True, picking_ahead=True),
    TableRules(wall_end="cold", first_to_speak=True, air_mahjong=True),
    TableRules(wall_end="hot", blanks=2, players=3),
    TableRules(blanks=8, wall_end="hot", first_to_speak=True, joker_in_courtesy=True, air_mahjong=True, picking_ahead=True),
)


def table_id(rules: TableRules) -> str:
    return rules.code()


@cache
def asked(name: str, level: int, seed: int, rules: TableRules) -> Question:
    return drills.generate(drills.get(name), seed, level, CARD, rules)


def plays(rules: TableRules, rule_id: str) -> bool:
    """Whether this table plays the table rule `rule_id` (its switch is away from the League's)."""
    switch = SWITCHES_BY_ID[rule_id]
    return getattr(rules, switch.name) != switch.default


def table_items(q: Question) -> set[str]:
    """The table rules a question asks (its items), by id."""
    return {item[5:] for item in q.items if item[5:] in SWITCHES_BY_ID}


def check_asked_under(name: str, rules: TableRules, levels: Iterable[int], seeds: Iterable[int],
                      classifies: frozenset[int] = frozenset()) -> dict[str, int]:
    """Every question of `name` at `levels` under `rules`: carries the rules,
    is rebuilt exactly, and asks only the table rules this table plays,
    saying so in its first fact (the levels in `classifies` ask which rules
    are the League's and which a table's, whatever the table plays).
    Returns how often each table rule was asked."""
    count: dict[str, int] = {}
    for level in levels:
        for seed in seeds:
            q = asked(name, level, seed, rules)
            again = drills.generate(drills.get(name), seed, level, CARD, rules)
            assert q == again and q.key == again.key and q.public() == again.public()
            assert q.rules == rules and q.public()["table_rules"] == rules.to_json()
            said = [n for n, fact in enumerate(q.facts) if fact.startswith("At your table") or "(table rule C6" in fact]
            for rule_id in table_items(q):
                count[rule_id] = count.get(rule_id, 0) + 1
                if level in classifies:
                    continue
                assert plays(rules, rule_id), (level, seed, rule_id, q.prompt)
                assert said and said[0] == 0, (level, seed, q.facts)
    return count
