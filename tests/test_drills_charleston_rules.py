"""Charleston rules (C1-C6): levels, determinism, grading, rule coverage, the core truth, the API."""

from __future__ import annotations

import html
import re

import pytest

import drills
from coach import tiles
from coach.card import house_card
from coach.charleston import BLIND_PASSES, PASSES, PassError, check_pass
from coach.rules import RULES
from drills import charleston_rules as drill
from drills.base import AnswerError

CARD = house_card()
CITATION = re.compile(r"\(([A-Z]\d(?:, [A-Z]\d)*)\)")
LEVELS = [level.number for level in drill.LEVELS]
ASSIGNED = {"C1", "C2", "C3", "C4", "C5", "C6"}
# What each level asks, by rule id (S5 comes with the seats of level 2).
PER_LEVEL = {
    1: {"C1", "C2"},
    2: {"C1", "C2", "C3", "S5"},
    3: {"C1", "C3", "C4", "C5"},
    4: {"C1", "C2", "C3", "C5", "C6"},
}


def ask(level: int, seed: int):
    return drill.generate(seed, level, CARD)


def cited(line: str) -> list[str]:
    return [r for group in CITATION.findall(line) for r in group.split(", ")]


def find(level: int, test, seeds=range(2000)):
    for seed in seeds:
        q = ask(level, seed)
        if test(q):
            return q
    raise AssertionError(f"no seed at level {level} fits")


def test_names_levels_and_template():
    assert drill.NAME == "charleston-rules" and drill.TITLE and drill.TEMPLATE == "choice"
    assert LEVELS == [1, 2, 3, 4]


@pytest.mark.parametrize("level", [0, 5, -1, True, "1", 1.5])
def test_a_level_out_of_range_is_an_answer_error(level):
    with pytest.raises(AnswerError):
        drill.generate(1, level, CARD)


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_question(level):
    for seed in range(40):
        first, second = ask(level, seed), ask(level, seed)
        assert first == second and first.key == second.key and first.public() == second.public()


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_makes_valid_questions(level):
    prompts = set()
    for seed in range(200):
        q = ask(level, seed)
        assert q.drill == drill.NAME and q.level == level and q.card == CARD.name
        assert 2 <= len(q.choices) <= 5 and len(set(q.choices)) == len(q.choices)
        assert q.key["best"] in q.choices
        assert set(q.key["wrong"]) == set(q.choices) - {q.key["best"]}
        assert 1 <= len(q.facts) <= 5 and all(line.strip() for line in q.facts)
        assert q.prompt.strip()
        assert q.items and all(i.startswith("rule:") and i[5:] in RULES for i in q.items)
        assert {i[5:] for i in q.items} <= PER_LEVEL[level]
        assert all(code in tiles.CODES for code in q.rack)
        assert "key" not in q.public()
        prompts.add(q.prompt)
    assert len(prompts) >= 2  # the level mixes its kinds of question


@pytest.mark.parametrize("level", LEVELS)
def test_right_wrong_and_show_me(level):
    for seed in range(0, 200, 7):
        q = ask(level, seed)
        best = q.key["best"]
        right = drill.grade(q, best)
        assert right.correct and right.score == 1.0 and right.best == best and right.answer == best
        assert right.explanation[0].startswith("Right: ")
        assert right.items == tuple((item, True) for item in q.items)
        assert set(cited(" ".join(right.explanation))) <= set(right.rules)
        for choice in q.choices:
            if choice == best:
                continue
            wrong = drill.grade(q, choice)
            assert not wrong.correct and wrong.score == 0.0 and wrong.best == best and wrong.answer == choice
            assert wrong.explanation[0].startswith("Not quite.")
            first = cited(wrong.explanation[0])
            assert first, f"the wrong answer's first line names no rule: {wrong.explanation[0]}"
            assert set(first) <= set(wrong.rules)
            assert wrong.items == tuple((item, False) for item in q.items)
        shown = drill.grade(q, None)
        assert not shown.correct and shown.score == 0.0 and shown.best == best and shown.answer is None
        assert best in shown.explanation[0]


def test_answers_are_matched_without_case_or_extra_spaces():
    q = ask(1, 3)
    best = q.key["best"]
    assert drill.grade(q, f"  {best.upper()} ").correct
    assert drill.grade(q, best.lower()).answer == best


@pytest.mark.parametrize("answer", [3, 1.5, True, [], ["Right"], {}, {"answer": "Right"}, "", "Diagonal"])
def test_bad_answers_are_answer_errors(answer):
    with pytest.raises(AnswerError):
        drill.grade(ask(1, 3), answer)


def test_an_answer_not_among_the_choices_names_them():
    q = ask(2, 3)
    with pytest.raises(AnswerError, match="not one of the choices"):
        drill.grade(q, "Nobody")


def test_the_levels_ask_every_charleston_rule():
    asked: dict[int, set[str]] = {}
    for level in LEVELS:
        # The repository's coverage test walks 60 seeds; so do we.
        asked[level] = {i[5:] for seed in range(60) for i in ask(level, seed).items}
        assert asked[level] == PER_LEVEL[level], level
    assert set().union(*asked.values()) >= ASSIGNED


# -- the core truth the drill relies on -----------------------------------------------------------


def test_S5_right_is_the_next_seat_in_turn_order():
    assert drill.seat_after("East", "right") == "South"
    assert drill.seat_after("East", "across") == "West"
    assert drill.seat_after("East", "left") == "North"
    assert drill.seat_after("North", "right") == "East"
    assert drill.seat_before("West", "right") == "South"  # South passes right to West


def test_C1_C2_C3_directions_come_from_the_core():
    assert [PASSES[k][1] for k in ("first-right", "first-across", "first-left")] == ["right", "across", "left"]
    assert [PASSES[k][1] for k in ("second-left", "second-across", "second-right")] == ["left", "across", "right"]
    assert PASSES["courtesy"] == ("courtesy", "across")


def test_C4_a_joker_never_passes_on_any_pass():
    hand = [tiles.JOKER, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
    for which in PASSES:
        with pytest.raises(PassError, match="C4"):
            check_pass(hand, [tiles.JOKER, 0, 1], which)


def test_C5_blind_only_on_the_last_pass_of_each_charleston_and_three_still_move():
    hand = list(range(13))
    assert BLIND_PASSES == ("first-left", "second-right")
    for which in PASSES:
        if which in BLIND_PASSES:
            check_pass(hand, [0], which, blind=2)
            check_pass(hand, [], which, blind=3)
            with pytest.raises(PassError):
                check_pass(hand, [0, 1], which, blind=2)  # four tiles
        else:
            with pytest.raises(PassError, match="C5"):
                check_pass(hand, [0], which, blind=2)


def test_C3_courtesy_moves_zero_to_three():
    hand = list(range(13))
    for n in range(4):
        check_pass(hand, hand[:n], "courtesy")
    with pytest.raises(PassError, match="C3"):
        check_pass(hand, hand[:4], "courtesy")


def test_C3_the_smaller_offer_moves():
    q = find(4, lambda q: q.prompt.startswith("How many tiles move"))
    offers = [int(n) for n in re.findall(r"offers? (\d) tile", q.facts[1])]
    assert len(offers) == 2 and offers[0] != offers[1]
    assert q.key["best"] == f"{min(offers)} tile" + ("" if min(offers) == 1 else "s")


def test_C1_first_charleston_cannot_be_stopped_C2_second_can():
    first = find(4, lambda q: q.prompt == "May you stop the first Charleston?")
    second = find(4, lambda q: q.prompt == "May you stop the second Charleston?")
    assert first.key["best"].startswith("No") and "rule:C1" in first.items
    assert second.key["best"].startswith("Yes") and "rule:C2" in second.items


def test_C6_is_asked_only_at_an_air_mahjong_table_as_a_table_rule():
    seen = set()
    for seed in range(300):
        q = ask(4, seed)
        if "rule:C6" not in q.items:
            continue
        assert "Air Mahjong" in q.facts[0] and "not the League's" in q.facts[0]
        everyone = "every player" in q.facts[1]
        assert (q.key["best"] == drill.ENDS) is everyone
        seen.add(everyone)
        verdict = drill.grade(q, q.key["best"])
        assert "C6" in verdict.rules
        if everyone:  # the League default is named beside the table rule
            assert any("League rules" in line for line in verdict.explanation)
    assert seen == {True, False}


def test_C6_never_leaks_into_other_questions():
    for level in LEVELS:
        for seed in range(200):
            q = ask(level, seed)
            if "rule:C6" not in q.items:
                assert "Air Mahjong" not in " ".join(q.facts)
                assert drill.ENDS not in q.choices


def test_level_2_receiver_answer_matches_the_seats():
    q = find(2, lambda q: q.prompt == "Who receives your three tiles?" and q.facts[0] == "You are East."
             and "first pass of the first Charleston" in q.facts[1])
    assert q.key["best"] == "South"


def test_level_3_legal_pass_answers_agree_with_check_pass():
    for seed in range(300):
        q = ask(3, seed)
        if q.prompt != "May you make this pass?":
            continue
        assert len(q.rack) == 13
        verdict = drill.grade(q, q.key["best"])
        assert verdict.correct
        if q.key["best"] == drill.NO_JOKER:
            assert "Joker" in q.facts[1] and "J" in q.rack


# -- the JSON API and the page ----------------------------------------------------------------------


@pytest.fixture
def registered(monkeypatch):
    monkeypatch.setitem(drills.DRILLS, drill.NAME, drill)


def test_api_right_and_wrong(client, registered):
    asked = client.post(f"/api/drills/{drill.NAME}/questions", json={"seed": 3, "level": 4})
    assert asked.status_code == 201
    data = asked.get_json()
    q = ask(4, 3)
    assert data["choices"] == list(q.choices) and data["facts"] == list(q.facts)
    assert "key" not in data
    right = client.post(f"/api/drills/{drill.NAME}/answers", json={"token": data["token"], "answer": q.key["best"]})
    assert right.status_code == 200
    body = right.get_json()
    assert body["correct"] is True and body["score"] == 1 and body["rules"]
    wrong_choice = next(c for c in q.choices if c != q.key["best"])
    wrong = client.post(f"/api/drills/{drill.NAME}/answers", json={"token": data["token"], "answer": wrong_choice})
    assert wrong.status_code == 200
    assert wrong.get_json()["correct"] is False and wrong.get_json()["best"] == q.key["best"]
    assert cited(wrong.get_json()["explanation"][0])
    bad = client.post(f"/api/drills/{drill.NAME}/answers", json={"token": data["token"], "answer": 7})
    assert bad.status_code == 400 and "error" in bad.get_json()


def test_page_renders_with_its_choices(client, registered):
    page = client.get(f"/drills/{drill.NAME}?level=1&seed=3")
    assert page.status_code == 200
    text = html.unescape(page.get_data(as_text=True))
    q = ask(1, 3)
    for choice in q.choices:
        assert choice in text
    assert q.prompt in text and q.facts[0] in text


def test_page_with_a_rack_renders(client, registered):
    seed = next(s for s in range(200) if ask(3, s).rack)
    page = client.get(f"/drills/{drill.NAME}?level=3&seed={seed}")
    assert page.status_code == 200 and 'id="rack"' in page.get_data(as_text=True)
