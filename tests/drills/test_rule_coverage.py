"""Every rule of the digest is asked by some drill level (issue 7), and counted
as a skill item so mastery is kept per rule id. The table rules (TR1-TR6,
C6) are asked too: as a question of their own at a table that plays them
(issue 27), and all of them by "League rule or table rule?"."""

from __future__ import annotations

import drills
from coach.notation.card import house_card
from coach.rules.catalog import RULES
from coach.rules.table_rules import LEAGUE, SWITCHES, TableRules

SEEDS = range(60)


def asked_under(rules: TableRules, seeds=SEEDS) -> dict[str, str]:
    """Each rule id some question asks under these table rules, with where."""
    card = house_card()
    asked: dict[str, str] = {}
    for module in drills.DRILLS.values():
        for level in module.LEVELS:
            for seed in seeds:
                for item in drills.generate(module, seed, level.number, card, rules).items:
                    if item.startswith("rule:"):
                        asked.setdefault(item[5:], f"{module.NAME} level {level.number}")
    return asked


def test_every_rule_id_is_asked_by_some_drill_level():
    asked = asked_under(LEAGUE)
    missing = [rule_id for rule_id in RULES if rule_id not in asked]
    assert missing == [], f"no drill level asks {missing}"
    assert set(asked) <= set(RULES), "a drill names a rule id the digest does not have"


def test_TR1_TR6_C6_every_table_rule_is_asked_at_a_table_that_plays_it():
    """Beyond "League rule or table rule?", each switch switched on alone has
    questions of its own, in a drill that asks the table's rules."""
    for switch in SWITCHES:
        # A hot wall and a cold wall are different rules of TR2: each is asked; for the others, one setting.
        settings = switch.choices[1:] if switch.name == "wall_end" else switch.choices[1:2]
        for on in settings:
            places = _places(LEAGUE.with_(**{switch.name: on}), switch.rule_id)
            others = [name for name in places if name != "setup-and-turns level 4"]
            assert others, f"{switch.rule_id} ({on}) is asked only as League rule or table rule?, never as a rule of the table"


def _places(rules: TableRules, rule_id: str) -> list[str]:
    """Every drill level that asks `rule_id` under these table rules."""
    card = house_card()
    found = []
    for module in drills.DRILLS.values():
        for level in module.LEVELS:
            if any(f"rule:{rule_id}" in drills.generate(module, seed, level.number, card, rules).items for seed in range(40)):
                found.append(f"{module.NAME} level {level.number}")
    return found


def test_every_drill_is_in_the_daily_sessions_skill_order():
    from coach.store.daily import catalog

    names = [name for name, _ in catalog()]
    assert list(dict.fromkeys(names)) == list(drills.DRILLS)
