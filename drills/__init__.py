"""The drills, in teaching order.

Each drill is a module following the protocol of `drills/kit/base.py`
(NAME, TITLE, LEVELS, generate, grade, hint). The web app and the API list
them in the order of `DRILLS`, which is also the daily session's order
for new skills.

Every drill's `generate` is wrapped here by `drills.kit.base.checked`, so no
question is asked before its scene passes the checker of `coach.rules.scenes`:
whoever imports a drill gets only scenes a real set can make.
"""

from __future__ import annotations

import dataclasses
from types import ModuleType

from coach.notation.card import Card
from coach.rules.table_rules import LEAGUE, TableRules
from drills import calls, charleston_rules, dead_or_alive, first_pass, hot_or_safe, jokers, mahjong_or_not, name_the_tile, nearest_hand, payment, setup_and_turns
from drills.kit import base

# The tiles and the table first, then reading the card and jokers, then the
# Charleston, then play: calls, defence, dead hands and who pays.
_TEACHING_ORDER: tuple[ModuleType, ...] = (
    name_the_tile,
    setup_and_turns,
    nearest_hand,
    jokers,
    mahjong_or_not,
    first_pass,
    charleston_rules,
    calls,
    hot_or_safe,
    dead_or_alive,
    payment,
)

DRILLS: dict[str, ModuleType] = {module.NAME: module for module in _TEACHING_ORDER}
for _module in _TEACHING_ORDER:
    _module.generate = base.checked(_module.generate)  # type: ignore[attr-defined]  # every drill module has generate: a ModuleType does not say so


def get(name: str) -> ModuleType:
    """The drill module called `name`; KeyError naming the known drills otherwise."""
    try:
        return DRILLS[name]
    except (KeyError, TypeError):
        known = ", ".join(DRILLS)
        raise KeyError(f'there is no drill "{name}" (drills: {known})') from None


def generate(module: ModuleType, seed: int, level: int, card: Card, rules: TableRules = LEAGUE) -> base.Question:
    """The question for (drill, seed, level, card) under a table's own rules.
    A drill whose questions differ under table rules says so (`TABLE_RULES =
    True`) and takes them; any other asks its League question, which then
    carries the table's rules so that its verdict shows what it assumed."""
    if rules == LEAGUE:
        return module.generate(seed, level, card)
    if getattr(module, "TABLE_RULES", False):
        return module.generate(seed, level, card, rules=rules)
    return dataclasses.replace(module.generate(seed, level, card), rules=rules)


def warm(card: Card) -> None:
    """Ask one question of every drill and level on `card`, so that what a
    drill works out once per card (payment's search for hands that read two
    ways, about a second on the house card; the card's explanation indexes)
    is done before a learner waits for it; a drill with a `warm(card)` of its
    own is asked for it too (hot-or-safe: every player's exposures it can
    deal). `serve` calls it before gunicorn forks its workers, which then
    share the result."""
    for module in _TEACHING_ORDER:
        for level in module.LEVELS:
            try:
                module.hint(module.generate(0, level.number, card))
            except Exception:
                continue
        ahead = getattr(module, "warm", None)  # what a drill's deals would otherwise work out one by one
        if ahead is not None:
            ahead(card)


def prepare(question: base.Question) -> None:
    """Work the answer will need, done when the question is asked, while the
    learner reads it (issue 26): a drill with a `prepare(question)` keeps it
    (first-pass: the question's pass evaluation); the others need nothing.
    The grade is the same either way: what is kept is what it would work out."""
    ready = getattr(get(question.drill), "prepare", None)
    if ready is not None:
        ready(question)


def hint(question: base.Question) -> str:
    """The nudge its drill gives before the answer (the first press of "Hint")."""
    return str(get(question.drill).hint(question))
