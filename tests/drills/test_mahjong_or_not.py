"""Mah Jongg or not (H1, H2, H4, H5, J2): every hand checked against the core,
every statement offered checked against the tiles; grading, the API and the page."""

from __future__ import annotations

from functools import cache

import pytest

from coach.notation import tiles
from coach.reading.tiles_away import Holding, parse_exposure
from coach.rules.mahjong import score, winning_lines
from drills import mahjong_or_not as drill
from tests.support import choice_drill_checks as checks
from tests.support.cards import CARD, holding, make_card

LEVELS = [level.number for level in drill.LEVELS]
SEEDS = range(200)
SAMPLE = range(0, 200, 9)
ASSIGNED = {"H1", "H2", "H4", "H5", "J2"}


@cache
def ask(level: int, seed: int):
    return drill.generate(seed, level, CARD)


def holding_of(q) -> Holding:
    exposures = [parse_exposure(list(e), n) for n, e in enumerate(q.exposed, start=1)]
    return Holding.of(list(q.rack), exposures)


def test_levels_go_from_easy_to_hard():
    assert LEVELS == [1, 2, 3]
    assert drill.NAME == "mahjong-or-not" and drill.TEMPLATE == "choice"
    checks.check_level_refused(drill, CARD, 4)


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_question(level):
    checks.check_same_seed_same_question(drill, CARD, level, range(20))
    assert len({ask(level, seed).rack for seed in range(40)}) > 30


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_asks_valid_questions(level):
    for seed in SEEDS:
        q = ask(level, seed)
        checks.check_valid_choice_question(q)
        parts = [("the rack", list(q.rack))] + [(f"exposure {n}", list(e)) for n, e in enumerate(q.exposed, 1)]
        tiles.check_supply(parts)  # no more copies of a tile than a set holds (T1)


@pytest.mark.parametrize("level", [1, 2])
def test_H1_a_declared_hand_is_judged_by_the_core(level):
    for seed in SEEDS:
        q = ask(level, seed)
        wins = [w.line.id for w in winning_lines(CARD, holding_of(q))]
        declared = q.facts[0].split(" on ", 1)[1].split(":", 1)[0]
        if q.key["best"].startswith("Mah Jongg on "):
            assert q.key["best"] == f"Mah Jongg on {declared}" and wins == [declared]
        else:
            assert wins == [], f"seed {seed}: a faulty hand completes {wins}"
            assert f"Mah Jongg on {declared}" in q.choices


def test_H1_H5_which_line_is_judged_by_the_core():
    for seed in SEEDS:
        q = ask(3, seed)
        h = holding_of(q)
        wins = [w.line.id for w in winning_lines(CARD, h)]
        if q.key["best"] == drill.NOT_MJ:
            assert wins == []
        else:
            assert q.key["best"] == f"Mah Jongg on {score(CARD, h, 'self').line.id}"
            for other in wins:
                text = f"Mah Jongg on {other}"
                if text in q.choices and text != q.key["best"]:
                    assert q.key["partial"][text] == 0.5


def test_every_offered_statement_but_one_is_false():
    """The statements a level offers are checked again here from the tiles:
    counts, jokers where a set of natural tiles is short, concealed lines."""
    for level in (1, 2):
        for seed in SEEDS:
            q = ask(level, seed)
            h = holding_of(q)
            declared = CARD.line(q.facts[0].split(" on ", 1)[1].split(":", 1)[0])
            for choice in q.choices:
                if choice == q.key["best"]:
                    continue
                if "tiles, not 14" in choice:
                    assert h.size == 14
                if " is concealed, and this hand has an exposure" in choice:
                    assert not (declared.concealed and h.exposures)
                if choice.startswith("Mah Jongg on "):
                    assert not winning_lines(CARD, h)
            best = q.key["best"]
            if "tiles, not 14" in best:
                assert h.size == int(best.split(": ")[1].split()[0]) != 14
            if "is concealed" in best:
                assert declared.concealed and h.exposures
            if "Singles & Pairs" in best:
                assert declared.singles_and_pairs and "J" in q.rack


@pytest.mark.parametrize("level", LEVELS)
def test_every_choice_grades_with_its_rule(level):
    for seed in SAMPLE:
        checks.check_every_choice_grades_with_its_rule(drill, ask(level, seed), half_credit=True, wrong_items=False)


@pytest.mark.parametrize("level", LEVELS)
def test_show_me_is_not_correct_and_gives_the_best(level):
    checks.check_show_me(drill, ask(level, 5))


@pytest.mark.parametrize("answer", [14, ["Not Mah Jongg"], {"line": "2468-1"}, False, "", "Mah Jongg on NOPE-9"])
def test_bad_answers_are_answer_errors(answer):
    checks.check_answer_refused(drill, ask(3, 1), answer)


def test_the_levels_cover_the_assigned_rules():
    asked = checks.rules_asked(ask, LEVELS, SEEDS)
    assert asked[1] >= {"H1", "J2"}
    assert asked[2] >= {"H1", "H2", "H4", "J2"}
    assert asked[3] >= {"H1", "H5"}
    assert set().union(*asked.values()) >= ASSIGNED


def test_each_fault_is_asked():
    bests = {level: {ask(level, seed).key["best"] for seed in SEEDS} for level in LEVELS}
    level_1 = " | ".join(bests[1])
    for words in ("Mah Jongg on", "13 tiles", "15 tiles", "has no place on", "a joker stands for"):
        assert words in level_1, words
    level_2 = " | ".join(bests[2])
    for words in ("Mah Jongg on", "is a run, not a pung", "is concealed", "where", "a digit of 2026", "Singles & Pairs"):
        assert words in level_2, words
    assert drill.NOT_MJ in bests[3]
    assert any(ask(3, seed).key["partial"] for seed in SEEDS)  # hands that read as two lines (H5)


# -- the core truth, by hand ---------------------------------------------------------


def test_the_core_truth_for_well_known_cases():
    card = make_card(("X-1", "NN 4444a 666a 888a FF", 25), ("C-1", "NN 4444a 666a 888a FF", 30, True))
    good = holding("N N 4D 4D 4D 4D 6D 6D 6D 8D 8D 8D F F")
    assert [w.line.id for w in winning_lines(card, good)] == ["X-1", "C-1"]
    # H1: 13 tiles are never Mah Jongg.
    assert winning_lines(card, holding("N N 4D 4D 4D 4D 6D 6D 6D 8D 8D 8D F")) == []
    # J2: a joker cannot be in a pair, not even a pair of Flowers.
    assert winning_lines(card, holding("N N 4D 4D 4D 4D 6D 6D 6D 8D 8D 8D F J")) == []
    assert winning_lines(card, holding("N J 4D 4D 4D 4D 6D 6D 6D 8D 8D 8D F F")) == []
    # J1: a joker may stand in the kong.
    assert [w.line.id for w in winning_lines(card, holding("N N 4D 4D 4D J 6D 6D 6D 8D 8D 8D F F"))] == ["X-1", "C-1"]
    # H4: with an exposure the concealed line is out; the exposed one still wins.
    exposed = holding("N N 6D 6D 6D 8D 8D 8D F F", "4D 4D 4D J")
    assert exposed.size == 14 and [w.line.id for w in winning_lines(card, exposed)] == ["X-1"]
    # H2: a pung where the line has a kong is no win, nor a run 5-6-7 for the pung of 6s.
    assert winning_lines(card, holding("N N 4D 4D 4D 6D 6D 6D 6D 8D 8D 8D F F")) == []
    assert winning_lines(card, holding("N N 4D 4D 4D 4D 5D 6D 7D 8D 8D 8D F F")) == []
    # H5: read as two lines, the hand is paid as the one that pays most.
    assert score(card, good, "self").line.id == "C-1"


def test_H5_a_house_card_hand_that_reads_as_two_lines():
    h = holding("9D 9D 9B 9B F F J J J J J J J J")
    wins = {w.line.id for w in winning_lines(CARD, h)}
    assert {"QUINT-4", "LIKE-2"} <= wins
    assert score(CARD, h, "self").line.id == "QUINT-4"  # 40 beats 35


# -- through the web -------------------------------------------------------------------


registered = checks.registered


def test_api_asks_and_grades_right_and_wrong(client, registered):
    for level in LEVELS:
        body = checks.api_question(client, drill, level, 3)
        assert body["rack"] and body["choices"] and "key" not in body
        best = ask(level, 3).key["best"]
        checks.check_api_right(client, drill, body["token"], best)
        wrong = checks.check_api_wrong(client, drill, body["token"], body["choices"], best)
        assert wrong.get_json()["explanation"]
        bad = checks.api_answer(client, drill, body["token"], "Mah Jongg on NOPE")
        assert bad.status_code == 400 and "not one of the choices" in bad.get_json()["error"]


def test_the_page_shows_the_hand_and_its_choices(client, registered):
    html = checks.drill_page(client, drill, 1, 3)
    q = ask(1, 3)
    checks.check_page_shows(html, q.choices)
    assert f"The player&#39;s rack · {len(q.rack)} tiles" in html  # whose hand it is (drills.kit.whose)


def test_H1_level_3_says_what_to_compare_in_one_sentence():
    """A short verdict never ends on a bare "Compare them with LIKE-4 (...).":
    the line to compare with and what the comparison shows stay one sentence."""
    compared = 0
    for seed in range(300):
        q = ask(3, seed)
        for answer in (None, *q.choices):
            verdict = drill.grade(q, answer)
            for line in (*verdict.reasons, *verdict.details):
                if line.startswith("Compare"):
                    compared += 1
                    head, _, why = line.partition(" to see why: ")
                    assert why and len(why) > 20, line
    assert compared > 50
