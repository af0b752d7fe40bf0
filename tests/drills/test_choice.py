"""The one shape of the rules drills (drills/kit/choice.py): the retry loop, the
question builder and the one grade, on drafts made up here."""

from __future__ import annotations

import random

import pytest

from drills.kit import choice, wording
from drills.kit.base import Level
from tests.support.cards import CARD

LEVELS = (Level(1, "One", "the only level"),)


def _draft(rng: random.Random, card=None) -> choice.Draft:
    return choice.Draft(
        prompt="Who plays next?", facts=("East has just discarded.",), best="South",
        why=("play passes to the right (S5).", "East, South, West, North (S5)."),
        wrong={"West": "West plays after South (S5).", "North": "North played before East (S5)."},
        rules=("S5",),
    )


def test_dealt_tries_each_kind_then_names_what_it_could_not_deal():
    tried: list[str] = []
    assert choice.dealt("thing", lambda: tried.append("a"), lambda: "found") == "found"
    assert tried == ["a"] * choice.ATTEMPTS
    with pytest.raises(choice.DealError, match=f"no level-2 table after {choice.ATTEMPTS} deals of each kind"):
        choice.dealt("level-2 table", lambda: None, lambda: None)


def test_a_drill_of_a_header_and_a_table_asks_and_grades():
    generate = choice.asking("made-up", LEVELS, {1: (_draft,)}, choice.WHY_FIRST)
    q = generate(3, 1, CARD)
    assert sorted(q.choices) == ["North", "South", "West"] and q.items == ("rule:S5",)
    assert q == generate(3, 1, CARD) and "key" not in q.public()
    right = choice.grade(q, " south ")
    assert right.correct and right.explanation[0] == "Right: play passes to the right (S5)." and right.rules == ("S5",)
    wrong = choice.grade(q, "West")
    assert not wrong.correct and wrong.explanation[:2] == (
        "Not quite. West plays after South (S5).", 'The answer is "South": play passes to the right (S5).')
    shown = choice.grade(q, None)
    assert shown.answer is None and shown.explanation[0].startswith('The answer is "South"')


def test_another_choice_the_rules_allow_is_credited_and_named():
    q = choice.question(random.Random(1), "made-up", 1, 1, CARD.name, _draft(random.Random(1)), choice.SENTENCE)
    key = choice.answer_key("South", dict(q.key["why"]), voice=choice.SENTENCE, also=["West"])
    verdict = choice.grade(type(q)(**{**q.__dict__, "key": key}), "West")
    assert verdict.correct and verdict.score == 1.0
    assert verdict.explanation == ("Right. West plays after South (S5).", '"South" is right too. play passes to the right (S5).')


def test_half_credit_opens_half_right_in_every_voice():
    for voice in (choice.COLON, choice.SENTENCE):
        key = choice.answer_key("Dead: A", {"Dead: A": "A (E3).", "Dead: B": "Not B (E3)."}, voice=voice, partial={"Dead: B": 0.5})
        q = choice.question(random.Random(0), "made-up", 1, 1, CARD.name, _draft(random.Random(0)), voice)
        q = type(q)(**{**q.__dict__, "choices": ("Dead: A", "Dead: B"), "key": key})
        verdict = choice.grade(q, "Dead: B")
        assert verdict.score == 0.5 and verdict.explanation[0].startswith("Half right")


def test_wording_counts_and_lists():
    assert wording.join([]) == "" and wording.join(["East"]) == "East"
    assert wording.join(["East", "South", "West"]) == "East, South and West"
    assert wording.seats([]) == "Nobody"
    assert wording.count(4, 3) == "three 5 Dots" and wording.count(4, 11) == "11 of the 5 Dots"  # never two figures in a row
    assert wording.group(4, 3) == "pung of 5 Dots"
    assert wording.naturals_and_jokers(4, 3, 1) == "three 5 Dots and one Joker"
    assert wording.naturals_and_jokers(4, 0, 0) == "none"
