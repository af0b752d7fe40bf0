"""Name the tile (rules T1-T4, J1): levels, answers, determinism, explanations."""

from __future__ import annotations

import re

import pytest

from coach.notation import tiles
from coach.rules.catalog import RULES
from drills import name_the_tile as drill
from drills.kit.base import AnswerError
from tests.support.cards import CARD

CITATION = re.compile(r"\(([A-Z]\d(?:, [A-Z]\d)*)\)")
SEEDS = range(300)


def ask(level: int, seed: int):
    return drill.generate(seed, level, CARD)


def seed_for(level: int, tile: str) -> int:
    for seed in range(5000):
        if ask(level, seed).tile == tile:
            return seed
    raise AssertionError(f"no seed shows {tile} at level {level}")


def assert_cites_rules(verdict) -> None:
    """Every explanation line cites rule ids, and all of them are in `rules`."""
    assert verdict.explanation
    for line in verdict.explanation:
        found = CITATION.findall(line)
        assert found, f"no rule id cited in: {line}"
        for group in found:
            for rule_id in group.split(", "):
                assert rule_id in RULES
                assert rule_id in verdict.rules, (rule_id, verdict.rules)


def test_levels_are_numbered_from_one():
    assert [level.number for level in drill.LEVELS] == [1, 2, 3, 4]
    assert drill.NAME == "name-the-tile" and drill.TITLE


@pytest.mark.parametrize("level", [0, 5, -1, True, "1", 1.0])
def test_a_level_out_of_range_is_an_answer_error(level):
    with pytest.raises(AnswerError):
        drill.generate(1, level, CARD)


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_same_seed_same_question(level):
    for seed in range(50):
        first, second = ask(level, seed), ask(level, seed)
        assert first == second
        assert first.key == second.key
        assert first.public() == second.public()


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_seeds_vary_the_question(level):
    assert len({ask(level, seed).public()["prompt"] + str(ask(level, seed).tile) for seed in SEEDS}) > 2


def test_level_1_shows_the_tile_and_four_different_choices_T1():
    seen = set()
    for seed in SEEDS:
        q = ask(1, seed)
        assert q.tile in tiles.CODES
        assert len(q.choices) == 4 and len(set(q.choices)) == 4
        assert q.tile in q.choices
        assert all(c in tiles.CODES for c in q.choices)
        assert q.items == (f"tile:{q.tile}", "rule:T1")
        assert "choices" in q.public() and q.public()["tile"] == q.tile
        seen.add(q.tile)
    assert len(seen) >= 30  # the whole set turns up, not a few favourites


def test_level_1_right_and_wrong_answers_T1():
    q = ask(1, 3)
    right = drill.grade(q, q.tile)
    assert right.correct and right.score == 1.0 and right.best == q.tile and right.answer == q.tile
    assert right.items == ((f"tile:{q.tile}", True), ("rule:T1", True))
    wrong_code = next(c for c in q.choices if c != q.tile)
    wrong = drill.grade(q, wrong_code)
    assert not wrong.correct and wrong.score == 0.0 and wrong.best == q.tile
    assert wrong.items == ((f"tile:{q.tile}", False), ("rule:T1", False))
    # the explanation names the tile, its suit or kind, and what the learner picked
    assert tiles.name(q.tile) in wrong.explanation[0]
    assert any(tiles.name(wrong_code) in line for line in wrong.explanation)
    assert_cites_rules(right)
    assert_cites_rules(wrong)


def test_level_1_names_are_accepted_as_well_as_codes_T1():
    q = ask(1, seed_for(1, "5D"))
    assert drill.grade(q, "5 dot").correct
    assert drill.grade(q, "Five Dots").correct
    assert drill.grade(q, " 5d ").correct


def test_level_1_unknown_tile_is_an_answer_error():
    q = ask(1, 0)
    with pytest.raises(AnswerError, match="not a tile"):
        drill.grade(q, "dragonfly")


@pytest.mark.parametrize("answer", [5, 1.5, True, [], ["5D"], {}, {"tile": "5D"}])
@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_answers_of_the_wrong_json_type_are_answer_errors(level, answer):
    with pytest.raises(AnswerError, match="as text"):
        drill.grade(ask(level, 1), answer)


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_an_empty_answer_is_an_answer_error(level):
    for empty in ("", "   "):
        with pytest.raises(AnswerError, match="empty"):
            drill.grade(ask(level, 1), empty)


@pytest.mark.parametrize("code", tiles.CODES)
def test_level_2_accepts_every_alias_of_the_card_format_T1(code):
    q = ask(2, seed_for(2, code))
    assert q.prompt.startswith("Type") and not q.choices
    aliases = [alias for alias, target in tiles.ALIASES.items() if target == code]
    assert aliases
    for alias in aliases + [alias.upper() for alias in aliases] + [f"  {aliases[0]}  "]:
        verdict = drill.grade(q, alias)
        assert verdict.correct, alias
        assert verdict.answer == code
    # and every other tile is wrong
    other = "1B" if code != "1B" else "2B"
    assert not drill.grade(q, other).correct


def test_level_2_a_typo_is_graded_wrong_with_a_suggestion_T1():
    q = ask(2, seed_for(2, "5D"))
    verdict = drill.grade(q, "5 dto")
    assert not verdict.correct and verdict.score == 0.0
    assert verdict.answer is None and verdict.best == "5D"
    assert '"5 dto" is not the name of any tile' in verdict.explanation[0]
    assert 'Did you mean "5 Dot"?' in verdict.explanation[0]  # the tile's name, as verdicts write it
    assert any("5 Dot" in line and "Dots suit" in line for line in verdict.explanation)
    assert any('"5D"' in line for line in verdict.explanation)  # how to write it
    assert_cites_rules(verdict)


def test_level_2_a_wrong_tile_name_says_what_that_tile_is_T2():
    q = ask(2, seed_for(2, "RD"))
    verdict = drill.grade(q, "green dragon")
    assert not verdict.correct
    assert any("Green Dragon" in line and "Bams" in line for line in verdict.explanation)
    assert "T2" in verdict.rules
    assert_cites_rules(verdict)


def test_level_3_asks_both_ways_T2():
    prompts = {ask(3, seed).prompt for seed in SEEDS}
    assert {f"Which Dragon goes with {s}?" for s in ("Dots", "Bams", "Craks")} <= prompts
    assert {
        "Which suit does the Red Dragon go with?",
        "Which suit does the Green Dragon go with?",
        "Which suit does the White Dragon (Soap) go with?",
    } <= prompts


def test_level_3_dragon_for_a_suit_T2():
    for seed in SEEDS:
        q = ask(3, seed)
        if q.prompt == "Which Dragon goes with Bams?":
            break
    assert q.choices == ("RD", "GD", "WD") and q.tile is None
    right = drill.grade(q, "green dragon")
    assert right.correct and right.best == "GD"
    wrong = drill.grade(q, "RD")
    assert not wrong.correct
    assert any("Red Dragon goes with Craks" in line for line in wrong.explanation)
    assert "T2" in wrong.rules
    assert_cites_rules(right)
    assert_cites_rules(wrong)
    assert right.detail["suit"] == "B" and right.detail["dragon"] == "GD"


def test_level_3_suit_for_a_dragon_T2():
    for seed in SEEDS:
        q = ask(3, seed)
        if q.prompt == "Which suit does the White Dragon (Soap) go with?":
            break
    assert q.tile == "WD" and q.choices == ("Dots", "Bams", "Craks")
    for answer in ("Dots", "dots", "dot", "D", "circles"):
        verdict = drill.grade(q, answer)
        assert verdict.correct and verdict.best == "Dots" and verdict.answer == "Dots"
    wrong = drill.grade(q, "Craks")
    assert not wrong.correct and wrong.answer == "Craks"
    assert any("Craks go with the Red Dragon" in line for line in wrong.explanation)
    assert "T2" in wrong.rules and "T4" in wrong.rules  # Soap as zero, too
    assert_cites_rules(wrong)
    with pytest.raises(AnswerError, match="not a suit"):
        drill.grade(q, "Winds")


def test_level_4_flower_joker_or_soap_T3_T4_J1():
    found = {}
    for seed in SEEDS:
        q = ask(4, seed)
        assert q.tile in ("F", "J", "WD") and sorted(q.choices) == ["F", "J", "WD"]
        found.setdefault(q.tile, q)
    assert set(found) == {"F", "J", "WD"}
    expected = {"F": "T3", "J": "J1", "WD": "T4"}
    for code, q in found.items():
        right = drill.grade(q, code)
        assert right.correct and expected[code] in right.rules
        assert f"rule:{expected[code]}" in q.items
        assert_cites_rules(right)
        other = next(c for c in ("F", "J", "WD") if c != code)
        wrong = drill.grade(q, tiles.name(other).lower())
        assert not wrong.correct and wrong.answer == other
        assert expected[code] in wrong.rules
        assert_cites_rules(wrong)


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_show_me_is_not_correct_and_gives_the_answer(level):
    q = ask(level, 11)
    verdict = drill.grade(q, None)
    assert not verdict.correct and verdict.score == 0.0 and verdict.answer is None
    assert verdict.best is not None
    assert verdict.public()["best"] == verdict.best
    assert_cites_rules(verdict)


def test_explanations_name_suit_or_kind_for_every_tile_T1_T2_T3():
    for code in tiles.CODES:
        q = ask(1, seed_for(1, code))
        verdict = drill.grade(q, None)
        first = verdict.explanation[0]
        if code[0].isdigit():
            assert tiles.SUIT_PLURALS[code[1]] in first
        elif code in tiles.WINDS:
            assert "Wind" in first
        elif code in ("RD", "GD"):
            assert "goes with" in first and "T2" in verdict.rules
        elif code == "WD":
            assert "Soap" in first and "T4" in verdict.rules
        elif code == "F":
            assert "Flower" in first and "T3" in verdict.rules
        else:
            assert "Joker" in first and "J1" in verdict.rules
        assert "T1" in verdict.rules
        assert_cites_rules(verdict)


def test_public_question_never_holds_the_key():
    for level in (1, 2, 3, 4):
        data = ask(level, 5).public()
        assert "key" not in data and "items" not in data
