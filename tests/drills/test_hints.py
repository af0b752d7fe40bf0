"""A hint speaks to the question asked (issue 25, item 4).

The drills answered by picking a choice give each kind of question its own
nudge (`Draft.hint`, else the nudge of the rule the answer rests on). Over
every level and many seeds: a question kind that names itself (`kind`) has
one hint whatever the deal, two kinds that ask different things never share
a hint, the hints quoted in issue 25 never come back, and a hint's words
belong to its question's topic."""

from __future__ import annotations

import re
from collections import defaultdict

import pytest

import drills
from drills.kit import choice
from drills.kit.base import Question
from tests.support import table_rules_checks as tables
from tests.support.cards import CARD

SEEDS = range(120)  # per level: every kind of every level comes up many times
CHOICE_DRILLS = [name for name, module in drills.DRILLS.items() if module.hint is choice.hint]
# Drills whose every question names its kind: one hint per kind, whatever the answer.
NAMED_KINDS = {"charleston-rules", "setup-and-turns", "calls", "dead-or-alive", "payment"}

# Names, seats, numbers, tiles and line ids change with the deal, not the question.
CHANGING = re.compile(
    r"\b(East|South|West|North|Ana|Ben|Cleo|Dev|Eve|Finn|Gus|Hana|first|second|third|Joker|Soap|Flower)\b"
    r"|\b[A-Z]+-\d+\b|\d+|\b(Bam|Dot|Crak|Wind|Red Dragon|Green Dragon)\b"
)


def template(prompt: str) -> str:
    return CHANGING.sub("_", prompt)


def kind_of(q: Question) -> str:
    return str(q.key.get("kind") or template(q.prompt))


def asked(name: str) -> list[tuple[int, Question]]:
    module = drills.get(name)
    return [(level, module.generate(seed, level, CARD)) for level in range(1, len(module.LEVELS) + 1) for seed in SEEDS]


ASKED: dict[str, list[tuple[int, Question]]] = {}


def questions(name: str) -> list[tuple[int, Question]]:
    if name not in ASKED:
        ASKED[name] = asked(name)
    return ASKED[name]


@pytest.mark.parametrize("name", CHOICE_DRILLS)
def test_each_kind_of_question_has_a_hint_of_its_own(name):
    hints_of: dict[str, set[str]] = defaultdict(set)
    prompts_of: dict[str, set[str]] = defaultdict(set)
    for _, q in questions(name):
        if name in NAMED_KINDS:
            assert q.key.get("kind"), f"a {name} question names no kind: {q.prompt}"
        hints_of[kind_of(q)].add(drills.hint(q))
        prompts_of[kind_of(q)].add(template(q.prompt))
    if name in NAMED_KINDS:
        for kind, said in hints_of.items():
            assert len(said) == 1, f"{kind} ({prompts_of[kind]}) gets several hints, chosen by its answer: {said}"
    kinds_of: dict[str, set[str]] = defaultdict(set)
    for kind, said in hints_of.items():
        for hint in said:
            kinds_of[hint].add(kind)
    for hint, kinds in kinds_of.items():
        assert len(kinds) == 1, f"different questions share one hint: {hint!r} for {sorted(kinds)}, asked as {[prompts_of[k] for k in kinds]}"
    assert len(hints_of) > 1


# The two hints issue 25 quoted never come back: tests/drills/test_verdicts_short.py (300 seeds a level).


# What a question is about (its prompt, matched) and the words its hint must use to speak to it.
TOPICS = (
    (r"courtesy", r"courtesy"),
    (r"\bCharleston\b", r"Charleston"),
    (r"\bpass(es)?\b|\btiles go\b", r"\bpass"),
    (r"unseen", r"unseen|last pass"),
    (r"\bjoker\b", r"joker"),
    (r"change the discard", r"tile"),
    (r"\bwall\b", r"wall|stack"),
    (r"Who is East\?|What happens next", r"total|roll|tie"),
    (r"Who is East .*hands?", r"hand"),
    (r"How many tiles|Which two tiles", r"tiles|four|number"),
    (r"your turn", r"turn"),
    (r"May you call", r"discard|call"),
    (r"Who gets", r"tile|win"),
    (r"kong", r"group|discard"),
    (r"skipped|plays next|do now", r"call|turn|play"),
    (r"pay", r"pa(y|id)|win"),
    (r"Mah Jongg", r"line|tile"),
    (r"dead|call it|follows", r"dead|hand|tile"),
)


@pytest.mark.parametrize("name", CHOICE_DRILLS)
def test_a_hints_words_belong_to_its_question(name):
    matched = 0
    for _, q in questions(name):
        hint = drills.hint(q)
        for asks, says in TOPICS:
            if re.search(asks, q.prompt, re.IGNORECASE):
                matched += 1
                assert re.search(says, hint, re.IGNORECASE), f"{q.prompt!r} is about /{asks}/ but its hint is not: {hint!r}"
    assert matched  # the topics reach this drill's questions


# -- under a table's own rules: the League's questions and the table's own, together ---------------

TABLE_DRILLS = [name for name in CHOICE_DRILLS if getattr(drills.get(name), "TABLE_RULES", False)]


def with_tables(name: str) -> list[tuple[int, Question]]:
    """The League's questions and those of every table of TABLES, 60 seeds a level."""
    module = drills.get(name)
    asked = list(questions(name))
    for rules in tables.TABLES:
        asked += [(level, tables.asked(name, level, seed, rules)) for level in range(1, len(module.LEVELS) + 1) for seed in range(60)]
    return asked


@pytest.mark.parametrize("name", TABLE_DRILLS)
def test_TR1_TR6_C6_each_kind_asked_under_table_rules_has_a_hint_of_its_own(name):
    hints_of: dict[str, set[str]] = defaultdict(set)
    for _, q in with_tables(name):
        assert q.key.get("kind"), f"a {name} question names no kind: {q.prompt}"
        hints_of[kind_of(q)].add(drills.hint(q))
    for kind, said in hints_of.items():
        assert len(said) == 1, f"{kind} gets several hints: {said}"
    kinds_of: dict[str, set[str]] = defaultdict(set)
    for kind, said in hints_of.items():
        kinds_of[next(iter(said))].add(kind)
    shared = {hint: kinds for hint, kinds in kinds_of.items() if len(kinds) > 1}
    assert not shared, f"different questions share one hint: {shared}"


@pytest.mark.parametrize("name", TABLE_DRILLS)
def test_TR1_TR6_C6_a_hints_words_belong_to_its_question_under_table_rules(name):
    for _, q in with_tables(name):
        hint = drills.hint(q)
        for asks, says in TOPICS:
            if re.search(asks, q.prompt, re.IGNORECASE):
                assert re.search(says, hint, re.IGNORECASE), f"{q.prompt!r} is about /{asks}/ but its hint is not: {hint!r}"
