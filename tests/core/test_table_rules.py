"""Table rules as values: defaults are the League's, every switch has an id,
and a stored form (JSON for records, a code for tokens) reads back exactly."""

from __future__ import annotations

import itertools

import pytest

from coach.rules.catalog import RULES, TABLE_RULES
from coach.rules.table_rules import (
    BEFORE_SWITCHES,
    LEAGUE,
    SWITCHES,
    SWITCHES_BY_ID,
    TableRules,
    TableRulesError,
    names,
)


def every_rules() -> list[TableRules]:
    """Every combination of every switch's choices (5 x 3 x 2 x 2 x 2 x 2 x 2 = 480)."""
    return [TableRules(**dict(zip([s.name for s in SWITCHES], values))) for values in
            itertools.product(*(s.choices for s in SWITCHES))]


def test_league_is_every_switch_at_its_default() -> None:
    assert LEAGUE.is_league and LEAGUE.changed() == () and LEAGUE.to_json() == {} and LEAGUE.code() == ""
    assert all(getattr(LEAGUE, s.name) == s.default == s.choices[0] for s in SWITCHES)


def test_every_switch_has_a_catalog_rule_marked_as_a_table_rule() -> None:
    for switch in SWITCHES:
        assert RULES[switch.rule_id].table_rule, switch.rule_id
        assert switch.description.strip() and switch.league.strip() and switch.title.strip()
    assert [t.rule_id for t in TABLE_RULES] == [s.rule_id for s in SWITCHES]
    assert set(SWITCHES_BY_ID) == {"TR1", "TR2", "TR3", "TR4", "TR5", "TR6", "C6"}


def test_every_combination_reads_back_from_json_and_code() -> None:
    seen_codes = set()
    for rules in every_rules():
        assert TableRules.from_json(rules.to_json()) == rules
        assert TableRules.from_code(rules.code()) == rules
        seen_codes.add(rules.code())
        assert len(rules.code()) <= 64
    assert len(seen_codes) == 480


def test_C6_hands_stored_before_the_switches_read_with_air_mahjong_on() -> None:
    assert TableRules.from_record(None) == BEFORE_SWITCHES
    assert BEFORE_SWITCHES.rule_ids() == ("C6",)
    assert TableRules.from_record({}) == LEAGUE


@pytest.mark.parametrize("bad", [
    {"blanks": 3}, {"blanks": True}, {"blanks": "4"}, {"players": 2}, {"players": True}, {"wall_end": "warm"},
    {"air_mahjong": 1}, {"picking_ahead": "yes"}, {"nonsense": True}, [], "b4",
])
def test_bad_table_rules_are_refused_with_the_switch_named(bad: object) -> None:
    with pytest.raises(TableRulesError):
        TableRules.from_json(bad)


@pytest.mark.parametrize("bad", ["b3", "b", "9p", "cold.cold", "b4.b6", "x" * 65, "jc.", "warm", "3p.4p"])
def test_bad_codes_are_refused(bad: str) -> None:
    with pytest.raises(TableRulesError):
        TableRules.from_code(bad)


def test_names_say_each_changed_switch_with_its_id() -> None:
    rules = TableRules(blanks=4, wall_end="hot", joker_in_courtesy=True)
    assert names(rules) == [
        "TR1 Blank tiles: 4 blanks", "TR2 Hot or cold wall: hot wall", "TR3 Jokers in the courtesy pass: on",
    ]
    assert rules.rule_ids() == ("TR1", "TR2", "TR3")
