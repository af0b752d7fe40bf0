"""Every sentence a learner reads is plain English (issue 25, item 8).

Every drill and level is asked over many seeds; every text a learner reads
(the prompt, the choices, the facts, the hint, and for every choice the
verdict: headline, reasons, details and the full explanation) is searched
for the broken English beginners met: "a East", "a 8 Crak", "1 tiles",
"all 2 of", "They fits", "East's a kong", "3 2 Bams", and the engine's word
"reading" used as jargon. Articles and plurals come from one function,
`coach.notation.tiles.say`, tested here too."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

import drills
from coach.notation import tiles
from drills.kit.base import Question
from tests.support import table_rules_checks as tables
from tests.support.cards import CARD

SEEDS = range(300)

# "an" before a vowel sound, "8", "11" and "18" read aloud, and the letter X.
AN_SOUND = r"(?:[AEIOUaeiou](?!ne\b|ni|s[eu])|8|1[18](?!\d)|X\b)"
BROKEN: dict[str, re.Pattern[str]] = {
    "a before a vowel sound": re.compile(rf"\b[Aa] {AN_SOUND}"),
    "an before a consonant sound": re.compile(rf"\b[Aa]n (?!{AN_SOUND})"),
    "one tile in the plural": re.compile(r"(?<![\d.])\b(?:1|one) tiles\b"),
    "all with a figure": re.compile(r"\ball [0-9] of\b"),
    "they with a singular verb": re.compile(r"\b[Tt]hey (?:fits|is|has|needs|takes)\b"),
    "a possessive read as 'is'": re.compile(r"'s an? (?:single|pair|pung|kong|quint|sextet)\b"),
    "two figures before a suit": re.compile(r"\b\d+ \d+ (?:Dots?|Bams?|Craks?)\b"),
    "the engine's word 'reading'": re.compile(r"\breadings?\b", re.IGNORECASE),
}


def answers(question: Question) -> list[object]:
    """Every answer worth reading the verdict of: "show me", every choice;
    for drills without choices the best answer and a wrong one."""
    if question.choices:
        return [None, *question.choices]
    module = drills.get(question.drill)
    best = module.grade(question, None).best
    if question.drill == "first-pass":
        others = [code for code in question.rack if code != "J" and code not in best]
        return [None, best, others[:3]]
    if question.drill == "nearest-hand":
        return [None, best, question.key.lines[-1].line.id]
    return [None, best, "bird"]  # name-the-tile, typed: a word for the 1 Bam


def texts(question: Question) -> Iterator[str]:
    """Every text a learner reads of one question, before and after answering."""
    module = drills.get(question.drill)
    yield from (question.prompt, *question.choices, *question.facts, drills.hint(question))
    for answer in answers(question):
        verdict = module.grade(question, answer)
        yield from (verdict.headline, *verdict.reasons, *verdict.details, *verdict.explanation)


def broken(text: str) -> list[str]:
    return [f"{what}: {text!r}" for what, pattern in BROKEN.items() if pattern.search(text)]


@pytest.mark.parametrize("name", list(drills.DRILLS))
def test_every_sentence_of_every_drill_and_level_is_plain_english(name):
    module = drills.get(name)
    found: dict[str, None] = {}
    asked = 0
    for level in module.LEVELS:
        for seed in SEEDS:
            question = module.generate(seed, level.number, CARD)
            asked += 1
            for text in texts(question):
                for problem in broken(text):
                    found.setdefault(f"level {level.number} seed {seed}: {problem}")
    assert asked == len(module.LEVELS) * len(SEEDS)
    assert not found, "\n".join(list(found)[:20])


TABLE_DRILLS = [name for name, module in drills.DRILLS.items() if getattr(module, "TABLE_RULES", False)]


@pytest.mark.parametrize("name", TABLE_DRILLS)
@pytest.mark.parametrize("rules", tables.TABLES, ids=tables.table_id)
def test_TR1_TR6_C6_every_sentence_under_table_rules_is_plain_english(name, rules):
    module = drills.get(name)
    found: dict[str, None] = {}
    for level in module.LEVELS:
        for seed in range(60):
            for text in texts(tables.asked(name, level.number, seed, rules)):
                for problem in broken(text):
                    found.setdefault(f"level {level.number} seed {seed}: {problem}")
    assert not found, "\n".join(list(found)[:20])


@pytest.mark.parametrize(
    ("thing", "count", "said"),
    [
        ("E", 1, "an East"), ("8C", 1, "an 8 Crak"), ("5D", 1, "a 5 Dot"), ("1B", 1, "a 1 Bam"),
        ("WD", 1, "a Soap"), ("RD", 1, "a Red Dragon"), ("F", 1, "a Flower"), ("J", 1, "a Joker"),
        ("WD", 2, "two Soaps"), ("N", 3, "three Norths"), ("8B", 4, "four 8 Bams"), ("F", 0, "no Flowers"),
        ("tile", 1, "a tile"), ("line", 11, "11 lines"), ("11", 1, "an 11"), ("18", 1, "an 18"),
        ("X", 1, "an X"), ("odd hand", 1, "an odd hand"), ("one-tile wait", 1, "a one-tile wait"),
    ],
)
def test_T1_one_function_says_articles_and_plurals(thing, count, said):
    assert tiles.say(thing, count) == said


def test_T1_counts_as_figures_and_past_eight_never_read_as_two_numbers():
    assert tiles.say("tile", 1, figures=True) == "1 tile"
    assert tiles.say("tile", 3, figures=True) == "3 tiles"
    assert tiles.say("tile", 1, the_one="one") == "one tile"
    assert tiles.plural("5D", 1) == "one 5 Dot"
    assert tiles.say("5D", 11) == "11 of the 5 Dots"
    assert not BROKEN["two figures before a suit"].search(tiles.say("2B", 9))


def test_the_patterns_catch_what_the_beginners_met():
    for text in ("You give South a East.", "a 8 Crak", "A pair takes 1 tiles of yours", "all 2 of North's hands",
                 "They fits a line", "East's a kong of Souths fits", "3 2 Bams", "No reading of 2026-2 uses it",
                 "an 5 Dot"):
        assert broken(text), text
    for text in ("You give South an East Wind.", "an 8 Crak", "an 11", "a 1 Dot", "6.1 tiles away",
                 "all 18 of them", "They fit a line", "East's exposure, a kong of Souths, fits", "two 2 Bams",
                 "read as a = Dots", "a one-tile wait", "an X line"):
        assert not broken(text), text
