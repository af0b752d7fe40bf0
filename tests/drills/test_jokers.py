"""The jokers drill: where a joker may stand (J1, J2, J8) and when a joker
exchange is legal (J4-J8, E3); questions, grading, the API and the page."""

from __future__ import annotations

from functools import cache

import pytest

from coach.notation import tiles
from coach.notation.card import Group, parse_card
from coach.reading.tiles_away import Holding, fill
from drills import jokers as drill
from drills.kit.base import AnswerError
from tests.support import choice_drill_checks as checks
from tests.support.cards import CARD, make_card

LEVELS = [level.number for level in drill.LEVELS]
SEEDS = range(200)
SAMPLE = range(0, 200, 7)
ASSIGNED = {"J1", "J2", "J4", "J5", "J6", "J7", "J8", "E3"}


@cache
def ask(level: int, seed: int):
    return drill.generate(seed, level, CARD)


def test_levels_go_from_easy_to_hard():
    assert LEVELS == [1, 2, 3, 4]
    assert drill.NAME == "jokers" and drill.TEMPLATE == "choice"
    checks.check_level_refused(drill, CARD, 5)
    checks.check_level_refused(drill, CARD, 0)


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_question(level):
    checks.check_same_seed_same_question(drill, CARD, level, range(20))
    assert len({ask(level, seed).public()["facts"].__str__() for seed in range(40)}) > 5


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_asks_valid_questions(level):
    for seed in SEEDS:
        q = ask(level, seed)
        checks.check_valid_choice_question(q)
        assert all(code in tiles.INDEX for code in q.rack + tuple(c for e in q.exposed for c in e))
        assert "key" not in q.public()


@pytest.mark.parametrize("level", LEVELS)
def test_every_choice_grades_with_its_rule(level):
    for seed in SAMPLE:
        q = ask(level, seed)
        right = checks.check_every_choice_grades_with_its_rule(drill, q)
        assert right.best == q.key["best"]
        assert right.items == tuple((item, True) for item in q.items)


@pytest.mark.parametrize("level", LEVELS)
def test_show_me_is_not_correct_and_gives_the_best(level):
    checks.check_show_me(drill, ask(level, 11))


def test_answers_match_without_case_or_extra_spaces():
    q = ask(1, 3)
    verdict = drill.grade(q, "  " + q.key["best"].upper().replace(" ", "  ") + " ")
    assert verdict.correct and verdict.answer == q.key["best"]


@pytest.mark.parametrize("answer", [3, 1.5, ["Legal"], {"a": 1}, True, "", "Maybe", "Yes"])
def test_bad_answers_are_answer_errors(answer):
    q = ask(3, 2)
    with pytest.raises(AnswerError) as error:
        drill.grade(q, answer)
    message = str(error.value)
    assert "not one of the choices" in message or "must be one of the choices" in message


def test_the_levels_cover_the_assigned_rules():
    asked = checks.rules_asked(ask, LEVELS, SEEDS)
    assert asked[1] >= {"J1", "J2"}
    assert asked[2] >= {"J1", "J2", "J8"}
    assert asked[3] >= {"J4", "J7", "J8", "E3"}
    assert asked[4] >= {"J4", "J5", "J6", "E3"}
    assert set().union(*asked.values()) >= ASSIGNED


# -- the core truth, by hand ---------------------------------------------------------


def test_J1_J2_the_core_takes_jokers_only_in_groups_of_three_or_more():
    assert not Group(tiles.INDEX["8B"], 2).takes_jokers  # a pair
    assert not Group(tiles.FLOWER, 2).takes_jokers  # a Flower pair
    assert not Group(tiles.INDEX["N"], 1).takes_jokers  # a single
    assert Group(tiles.FLOWER, 3).takes_jokers  # a Flower pung
    assert Group(tiles.INDEX["6C"], 6).takes_jokers  # a sextet
    card = make_card(("T-1", "FF 2026a 8888b 6666c", 25), ("T-2", "FFF 2026a 888b 6666c", 25))
    pair_line, pung_line = card.lines
    pair = next(r for r in pair_line.readings if r.describe() == "a = Dots, b = Bams, c = Craks")
    pung = next(r for r in pung_line.readings if r.describe() == "a = Dots, b = Bams, c = Craks")
    rest = ["8B"] * 4 + ["6C"] * 4
    assert fill(pair, Holding.of(["F", "F", "2D", "WD", "2D", "6D"] + rest)).distance == 0
    # A joker cannot be the second Flower of a pair, nor the 0 of the year (J2)...
    assert fill(pair, Holding.of(["F", "J", "2D", "WD", "2D", "6D"] + rest)).distance == 1
    assert fill(pair, Holding.of(["F", "F", "2D", "J", "2D", "6D"] + rest)).distance == 1
    # ...but it may be the third Flower of a pung, or a tile of a kong (J1).
    assert fill(pung, Holding.of(["F", "F", "J", "2D", "WD", "2D", "6D", "8B", "8B", "J"] + ["6C"] * 4)).distance == 0


def year_card(*lines: tuple):
    """A card of the year 2026 (make_card's cards have no year)."""
    return parse_card(_yaml(lines))


def _yaml(lines: tuple) -> str:
    hands = "\n".join(
        f'      - {{id: "{spec[0]}", pattern: "{spec[1]}", value: {spec[2]}, '
        f"concealed: {str(spec[3] if len(spec) > 3 else False).lower()}}}"
        for spec in lines
    )
    return f"name: Year Card\nyear: 2026\nsections:\n  - name: Test\n    hands:\n{hands}\n"


def spots_of(card):
    return {(s.line.id, s.part, s.index): s for s in drill._spots(card)}


def test_J2_spots_are_sorted_as_the_rules_word_them():
    card = year_card(
        ("X-1", "FF 2026a FFFF NEWS", 25),
        ("X-2", "NN 4444a 66b 8888c FF", 25),
        ("SP-1", "NEWS 22a 44a 66b 88b FF", 50, True),
    )
    spots = spots_of(card)
    flower_pair, flower_pung = spots[("X-1", 0, 0)], spots[("X-1", 2, 0)]
    assert drill._category(flower_pair) == "flower-pair" and not drill._allowed(flower_pair)
    assert drill._category(flower_pung) == "flower-group" and drill._allowed(flower_pung)
    zero = spots[("X-1", 1, 1)]
    assert zero.kind == "year" and not drill._allowed(zero)
    assert spots[("X-1", 3, 2)].kind == "single" and not drill._allowed(spots[("X-1", 3, 2)])
    assert drill._allowed(spots[("X-2", 1, 0)]) and not drill._allowed(spots[("X-2", 0, 0)])
    assert all(not drill._allowed(s) for key, s in spots.items() if key[0] == "SP-1")
    assert drill._category(spots[("SP-1", 5, 0)]) == "singles-and-pairs"


def test_J2_a_joker_in_the_flower_pair_is_refused_and_in_a_flower_pung_allowed():
    card = year_card(("X-1", "FF 2026a FFFF NEWS", 25))
    answers = {}
    for seed in range(80):
        q = drill.generate(seed, 2, card)
        answers[q.rack] = q.key["best"]
    assert answers[("F", "J")] == drill.NO
    assert answers[("F", "F", "F", "J")] == drill.YES
    years = [rack for rack in answers if len(rack) == 4 and "F" not in rack]
    assert years and all("J" in rack and answers[rack] == drill.NO for rack in years)


def find(level: int, best: str, words: str):
    for seed in SEEDS:
        q = ask(level, seed)
        if q.key["best"] == best and words in " ".join(q.facts):
            return q
    raise AssertionError(f"no level {level} question with {best!r} and {words!r}")


def test_J4_E3_an_exchange_before_the_draw_is_too_early_and_kills_the_hand():
    q = find(3, drill.TIME, "not drawn yet")
    assert "rule:E3" in q.items and "rule:J4" in q.items
    verdict = drill.grade(q, drill.LEGAL)
    assert not verdict.correct and "E3" in verdict.rules
    assert any("dead (E3)" in line for line in verdict.explanation)


def test_J4_the_exact_tile_only():
    q = find(3, drill.TILE, "offer")
    exposure = next(line for line in q.facts if "exposure:" in line)
    offered = tiles.name(q.tile)
    assert offered in q.facts[-1] and not exposure.split(":", 1)[1].strip().startswith(offered + ",")
    verdict = drill.grade(q, drill.LEGAL)
    assert "exact" in verdict.explanation[0] and "J4" in verdict.rules


def test_J4_J7_your_own_exposure_is_fair_game():
    q = find(3, drill.LEGAL, "Your own exposure")
    assert q.exposed and "J" in q.exposed[0]
    assert {"rule:J4", "rule:J7"} <= set(q.items)


def test_J7_an_exchange_keeps_the_size():
    q = find(3, drill.SIZE, "two")
    assert q.items == ("rule:J7",)
    assert "(J7)" in drill.grade(q, None).explanation[0]


def test_J8_a_concealed_hand_may_redeem_jokers():
    q = find(3, drill.LEGAL, "concealed (C) line")
    assert "rule:J8" in q.items


def test_J5_no_call_only_to_redeem_and_no_short_call():
    only = find(4, drill.CALL, "only to give it")
    short = find(4, drill.CALL, "then expose")
    for q in (only, short):
        assert q.items == ("rule:J5",)
        assert drill.grade(q, drill.CALL).correct
        assert "J5" in drill.grade(q, drill.FIXED).rules


def test_J6_a_new_exposure_is_fixed_once_a_swap_starts():
    q = find(4, drill.FIXED, "take back")
    assert q.items == ("rule:J6",) and q.exposed and "J" not in q.exposed[0]
    assert "(J6)" in drill.grade(q, drill.LEGAL).explanation[0]


def test_exposures_never_need_more_tiles_than_a_set_holds():
    for level in (3, 4):
        for seed in SEEDS:
            q = ask(level, seed)
            for line in q.facts:
                if "exposure:" in line:
                    names = line.split(":", 1)[1].split("(")[0]
                    real = [n.strip() for n in names.split(",") if n.strip() != "Joker"]
                    code = tiles.code_of(real[0].lower())
                    assert len(real) + 1 <= tiles.COPIES[tiles.INDEX[code]], line


# -- through the web -------------------------------------------------------------------


registered = checks.registered


def test_api_asks_and_grades_right_and_wrong(client, registered):
    for level in LEVELS:
        body = checks.api_question(client, drill, level, 3)
        assert body["choices"] and "key" not in body and body["facts"]
        best = ask(level, 3).key["best"]
        checks.check_api_right(client, drill, body["token"], best)
        wrong = checks.check_api_wrong(client, drill, body["token"], body["choices"], best)
        assert wrong.get_json()["rules"]
        bad = checks.api_answer(client, drill, body["token"], 7)
        assert bad.status_code == 400 and "choices" in bad.get_json()["error"]


def test_the_page_shows_the_question_and_its_choices(client, registered):
    html = checks.drill_page(client, drill, 1, 3)
    q = ask(1, 3)
    checks.check_page_shows(html, [q.prompt, *q.choices, *q.facts])


def test_J1_J2_a_line_read_with_moved_numbers_says_how_they_were_read():
    """ "ODD-1: 1111a ..." shown with a kong of 9 Bams must say the 1s are read
    as 9s: a line whose numbers moved says so, number by number (issue 25, item 7)."""
    import re

    moved = 0
    for level in (1, 2):
        for seed in range(300):
            q = drill.generate(seed, level, CARD)
            line = q.facts[0]
            printed = set(re.match(r"Line [^:]+: ([^,]+),", line).group(1))
            shown = {str(tiles.number_of(tiles.INDEX[c])) for c in q.rack if tiles.number_of(tiles.INDEX[c])}
            for number in shown - printed:
                assert "with the numbers read" in line and f" as {number}" in line, (seed, level, q.facts)
                moved += 1
            if "with the numbers read" in line:
                assert re.search(r"read \d (higher|lower) \((\d as \d)(, \d as \d)*\)\.$", line), line
    assert moved > 20  # moved numbers are common on these levels, and each one is said
