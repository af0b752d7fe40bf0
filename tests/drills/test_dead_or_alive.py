"""Dead or alive (E1, E3, E4): levels, determinism, grading with half credit for a
dead hand's wrong reason, every verdict worked out again from what the learner
sees, and the JSON API."""

from __future__ import annotations

from functools import cache

import pytest

from coach.notation import tiles
from coach.reading.tiles_away import Holding, assign_exposures, parse_exposure
from coach.rules.catalog import RULES
from coach.rules.mahjong import winning_lines
from drills import dead_or_alive as drill
from tests.support import choice_drill_checks as checks
from tests.support.cards import CARD

LEVELS = [1, 2]
SEEDS = range(200)
SAMPLE = range(0, 200, 7)
ASSIGNED = ("E1", "E3", "E4")


@cache
def ask(level: int, seed: int):
    return drill.generate(seed, level, CARD)


def holding_of(q) -> Holding:
    return Holding.of(list(q.rack), [parse_exposure(list(e), n) for n, e in enumerate(q.exposed, 1)])


def lines_holding(exposures, concealed: bool) -> list[str]:
    """Lines of one kind with a reading that has a group for every exposure, reading by reading."""
    return [
        line.id for line in CARD.lines
        if line.concealed == concealed and any(assign_exposures(r.groups, exposures) is not None for r in line.readings)
    ]


# -- the protocol ---------------------------------------------------------------------


def test_name_title_levels_and_template():
    assert drill.NAME == "dead-or-alive" and drill.TITLE and drill.TEMPLATE == "choice"
    assert [level.number for level in drill.LEVELS] == LEVELS
    assert drill.LEVELS[0].title == "Dead or alive?" and drill.LEVELS[1].title == "What follows?"


@pytest.mark.parametrize("level", [0, 3, False, "1"])
def test_a_level_out_of_range_is_an_answer_error(level):
    checks.check_level_refused(drill, CARD, level)


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_question(level):
    checks.check_same_seed_same_question(drill, CARD, level, range(30))


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_generates_valid_questions(level):
    prompts = set()
    for seed in SEEDS:
        q = ask(level, seed)
        assert q.prompt and 1 <= len(q.facts) <= 5 and all(q.facts)
        assert 2 <= len(q.choices) <= 5 and len(set(q.choices)) == len(q.choices)
        assert q.key["best"] in q.choices and set(q.key["why"]) == set(q.choices)
        assert q.items and all(i.startswith("rule:") and i[5:] in RULES for i in q.items)
        tiles.check_supply([("rack", q.rack)] + [(f"exposure {n}", e) for n, e in enumerate(q.exposed, 1)])
        prompts.add(q.prompt.split()[0])
        if level == 1:
            assert drill.NOT_DEAD in q.choices
            assert not (drill.NO_LINE in q.choices and drill.CONCEALED in q.choices and q.key["best"] != drill.NOT_DEAD)
    assert len(prompts) >= (1 if level == 1 else 3)


def test_the_levels_between_them_ask_every_assigned_rule():
    asked = checks.rules_asked(ask, LEVELS, SEEDS)
    assert asked[1] >= {"E1", "E3"}
    assert asked[2] >= {"E1", "E3", "E4"}
    assert asked[1] | asked[2] >= set(ASSIGNED)


def test_both_answers_turn_up_at_level_1():
    answers = {ask(1, seed).key["best"] for seed in SEEDS}
    assert answers == {drill.NOT_DEAD, *drill.CAUSES}  # every cause of E3, and alive hands too


# -- grading --------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_right_wrong_and_show_me(level):
    for seed in SAMPLE:
        q = ask(level, seed)
        best = q.key["best"]
        right = checks.grade_right(drill, q)
        assert right.items == tuple((item, True) for item in q.items)
        for choice in q.choices:
            if choice == best:
                continue
            wrong = drill.grade(q, choice)
            assert not wrong.correct and wrong.best == best and wrong.answer == choice
            half = level == 1 and best in drill.CAUSES and choice in drill.CAUSES
            assert wrong.score == (0.5 if half else 0.0)
            assert wrong.items == tuple((item, False) for item in q.items)
            checks.check_pick_cites_its_rule(wrong, choice)
        shown = checks.grade_show_me(drill, q)
        for verdict in (right, shown):
            for line in verdict.explanation:
                ids = checks.cited_ids(line)
                assert ids and all(r in verdict.rules for r in ids), line


def test_a_dead_hand_for_the_wrong_reason_earns_half_E3():
    for seed in SEEDS:
        q = ask(1, seed)
        others = [c for c in q.choices if c in drill.CAUSES and c != q.key["best"]]
        if q.key["best"] in drill.CAUSES and others:
            verdict = drill.grade(q, others[0])
            assert verdict.score == 0.5 and not verdict.correct
            assert verdict.explanation[0].startswith("Half right")  # as every choice drill says half credit
            assert "dead, but not for that reason" in " ".join(verdict.explanation)
            assert drill.grade(q, drill.NOT_DEAD).score == 0.0
            return
    raise AssertionError("no dead hand with another cause among its choices")


@pytest.mark.parametrize("answer", [1, 0.5, True, [], [drill.NOT_DEAD], {}])
def test_answers_of_the_wrong_type_are_answer_errors(answer):
    checks.check_answer_refused(drill, ask(1, 2), answer, match="as text")


@pytest.mark.parametrize("answer", ["", "Dead", "alive", "Dead: because"])
def test_answers_not_among_the_choices_are_answer_errors(answer):
    checks.check_answer_refused(drill, ask(1, 2), answer, match="not one of the choices")


# -- the truth, worked out again from what the learner sees -------------------------------------


def expected_level_1(q) -> str:
    text = " ".join(q.facts)
    if '"Mah Jongg"' in text:  # E1: the others check the hand
        return drill.NOT_DEAD if winning_lines(CARD, holding_of(q)) else drill.FALSE_MJ
    if "rack and exposures are shown" in text:  # E3: the count after East's first discard
        expected = 14 if "not yet discarded" in text or "not made the first discard" in text else 13
        return drill.NOT_DEAD if holding_of(q).size == expected else drill.COUNT
    if "holds 13 tiles in all" in text:  # E3: exposures against the card
        exposures = holding_of(q).exposures
        if lines_holding(exposures, concealed=False):
            return drill.NOT_DEAD
        return drill.CONCEALED if lines_holding(exposures, concealed=True) else drill.NO_LINE
    if "takes a tile from the wall" in text:
        return drill.DREW
    if "without drawing a tile first" in text:
        return drill.EARLY
    if "Before drawing" in text and "takes the joker" in text:
        return drill.SWAP  # J4: an exchange needs a tile acquired first
    assert "calls it for a pung" in text or "draws, then hands" in text, text
    return drill.NOT_DEAD  # K5: a call replaces the draw; J4: draw, then exchange


def test_level_1_agrees_with_the_card_and_the_turn_E1_E3():
    for seed in SEEDS:
        q = ask(1, seed)
        assert q.key["best"] == expected_level_1(q), (seed, q.facts, q.rack, q.exposed)


def test_level_2_agrees_with_the_card_E1_E3_E4():
    for seed in SEEDS:
        q = ask(2, seed)
        text = " ".join(q.facts)
        best = q.key["best"]
        if '"Mah Jongg"' in text:
            player = text.split()[0]
            won = bool(winning_lines(CARD, holding_of(q)))
            assert best.startswith(f"{player} wins") == won
            assert best.startswith(f"{player}'s hand is dead") == (not won)
        elif "must be dead" in text:  # a guess, and the exposures fit an exposed line
            assert lines_holding(holding_of(q).exposures, concealed=False)
            assert "plays on" in best
        else:  # the exposures prove the hand dead: no line holds them together
            exposures = holding_of(q).exposures
            assert not lines_holding(exposures, False) and not lines_holding(exposures, True)
            assert best in (
                "Keep playing, and play defence",
                "No: a dead hand makes no calls",
            ) or "still pays" in best


# -- hand-built cases of the core truth -----------------------------------------------------


def test_a_kong_of_east_exposed_fits_only_a_concealed_line_E3_H4():
    exposures = (parse_exposure("E E E E"),)
    assert drill.exposed_lines(CARD, exposures) == []
    assert [line.id for line in drill.concealed_lines(CARD, exposures)] == ["369-2"]


def test_exposures_of_one_line_fit_it_E3():
    exposures = (parse_exposure("2D 2D 2D"), parse_exposure("4D 4D J"))
    assert "2468-1" in [line.id for line in drill.exposed_lines(CARD, exposures)]


def test_exposures_no_line_holds_together_E3():
    exposures = (parse_exposure("E E E E E"), parse_exposure("9D 9D 9D"))
    assert drill.exposed_lines(CARD, exposures) == [] and drill.concealed_lines(CARD, exposures) == []


def test_a_joker_in_a_pair_is_no_mah_jongg_J2_E1():
    # 2468-1 read with Dots and Bams; the pair of 8 Bams may not hold a joker.
    right = Holding.of(["2D", "2D", "2D", "4D", "4D", "J", "WD", "WD", "WD", "6B", "6B", "6B", "8B", "8B"])
    assert [w.line.id for w in winning_lines(CARD, right)] == ["2468-1"]
    wrong = Holding.of(["2D", "2D", "2D", "4D", "4D", "J", "WD", "WD", "WD", "6B", "6B", "6B", "8B", "J"])
    assert winning_lines(CARD, wrong) == []


# -- through the web ----------------------------------------------------------------------


registered = checks.registered


@pytest.mark.parametrize("level", LEVELS)
def test_api_right_and_wrong(client, registered, level):
    data = checks.api_question(client, drill, level, 3)
    q = drill.generate(3, level, CARD)
    assert data["choices"] == list(q.choices) and data["facts"] == list(q.facts) and "key" not in data
    right = checks.check_api_right(client, drill, data["token"], q.key["best"])
    assert right.get_json()["score"] == 1.0
    wrong_choice = next(c for c in q.choices if c != q.key["best"])
    wrong = checks.api_answer(client, drill, data["token"], wrong_choice)
    assert wrong.status_code == 200 and wrong.get_json()["correct"] is False
    shown = checks.api_answer(client, drill, data["token"], None)
    assert shown.get_json()["best"] == q.key["best"] and shown.get_json()["score"] == 0
    bad = checks.api_answer(client, drill, data["token"], ["x"])
    assert bad.status_code == 400


@pytest.mark.parametrize("level", LEVELS)
def test_page_renders_the_choices(client, registered, level):
    html = checks.drill_page(client, drill, level, 3)
    q = drill.generate(3, level, CARD)
    checks.check_page_shows(html, q.choices + q.facts)
