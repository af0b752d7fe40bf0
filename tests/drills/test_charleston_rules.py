"""Charleston rules (C1-C6): levels, determinism, grading, rule coverage, the core truth, the API."""

from __future__ import annotations

import html
import re

import pytest

from coach.notation import tiles
from coach.rules import charleston as core
from coach.rules.charleston import BLIND_PASSES, PASSES, PassError, check_pass, receiver, sender
from coach.rules.table_rules import TableRules
from drills import charleston_rules as drill
from tests.support import choice_drill_checks as checks
from tests.support import table_rules_checks as tables
from tests.support.cards import CARD

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
    checks.check_level_refused(drill, CARD, level)


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_question(level):
    checks.check_same_seed_same_question(drill, CARD, level, range(40))


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_makes_valid_questions(level):
    prompts = set()
    for seed in range(200):
        q = ask(level, seed)
        assert q.drill == drill.NAME and q.level == level and q.card == CARD.name
        checks.check_valid_choice_question(q)
        assert set(q.key["why"]) == set(q.choices)
        assert q.prompt.strip()
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
        right = checks.grade_right(drill, q)
        assert right.explanation[0].startswith("Right: ")
        assert right.items == tuple((item, True) for item in q.items)
        assert set(checks.cited_ids(" ".join(right.explanation))) <= set(right.rules)
        for choice in q.choices:
            if choice == best:
                continue
            wrong = checks.grade_wrong(drill, q, choice)
            assert wrong.explanation[0].startswith("Not quite.")
            first = checks.cited_ids(wrong.explanation[0])
            assert first, f"the wrong answer's first line names no rule: {wrong.explanation[0]}"
            assert set(first) <= set(wrong.rules)
            assert wrong.items == tuple((item, False) for item in q.items)
        checks.check_show_me(drill, q)


def test_answers_are_matched_without_case_or_extra_spaces():
    q = ask(1, 3)
    checks.check_answers_ignore_case_and_spaces(drill, q, f"  {q.key['best'].upper()} ")


@pytest.mark.parametrize("answer", [3, 1.5, True, [], ["Right"], {}, {"answer": "Right"}, "", "Diagonal"])
def test_bad_answers_are_answer_errors(answer):
    checks.check_answer_refused(drill, ask(1, 3), answer)


def test_an_answer_not_among_the_choices_names_them():
    checks.check_answer_refused(drill, ask(2, 3), "Nobody", match="not one of the choices")


def test_the_levels_ask_every_charleston_rule():
    # The repository's coverage test walks 60 seeds; so do we.
    asked = checks.rules_asked(ask, LEVELS, range(60))
    for level in LEVELS:
        assert asked[level] == PER_LEVEL[level], level
    assert set().union(*asked.values()) >= ASSIGNED


# -- the core truth the drill relies on -----------------------------------------------------------


def test_S5_right_is_the_next_seat_in_turn_order():
    assert receiver("East", "right") == "South"
    assert receiver("East", "across") == "West"
    assert receiver("East", "left") == "North"
    assert receiver("North", "right") == "East"
    assert sender("West", "right") == "South"  # South passes right to West


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


def test_C6_is_asked_only_at_a_table_that_plays_it_and_cited_by_its_id():
    seen = set()
    for seed in range(300):
        q = ask(4, seed)
        if "rule:C6" not in q.items:
            continue
        assert "table rule C6" in q.facts[0] and "not a League rule" in q.facts[0]
        # The rule is cited by its id, never by the name of a site (issue 25, item 13).
        text = " ".join((*q.facts, *drill.grade(q, q.key["best"]).explanation, *map(str, q.key["why"].values())))
        assert "Air Mahjong" not in text
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
                assert "C6" not in " ".join(q.facts)
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


registered = checks.registered


def test_api_right_and_wrong(client, registered):
    data = checks.api_question(client, drill, 4, 3)
    q = ask(4, 3)
    assert data["choices"] == list(q.choices) and data["facts"] == list(q.facts)
    assert "key" not in data
    body = checks.check_api_right(client, drill, data["token"], q.key["best"]).get_json()
    assert body["score"] == 1 and body["rules"]
    wrong = checks.check_api_wrong(client, drill, data["token"], q.choices, q.key["best"])
    assert wrong.status_code == 200
    assert checks.cited_ids(wrong.get_json()["explanation"][0])
    bad = checks.api_answer(client, drill, data["token"], 7)
    assert bad.status_code == 400 and "error" in bad.get_json()


def test_page_renders_with_its_choices(client, registered):
    text = html.unescape(checks.drill_page(client, drill, 1, 3))
    q = ask(1, 3)
    for choice in q.choices:
        assert choice in text
    assert q.prompt in text and q.facts[0] in text


def test_page_with_a_rack_renders(client, registered):
    seed = next(s for s in range(200) if ask(3, s).rack)
    assert 'id="rack"' in checks.drill_page(client, drill, 3, seed)


# -- under a table's own rules (TR1, TR3, TR4, C6) --------------------------------------------------

THREE = TableRules(players=3)
COURTESY_JOKER = TableRules(joker_in_courtesy=True, blanks=4)
AIR = TableRules(air_mahjong=True)
OTHER = TableRules(blanks=2)  # table rules, but not C6


def under(rules, level, seeds=range(200)):
    return [tables.asked(drill.NAME, level, seed, rules) for seed in seeds]


@pytest.mark.parametrize("rules", tables.TABLES, ids=tables.table_id)
def test_questions_under_table_rules_are_rebuilt_exactly_and_say_the_rule_first(rules):
    count = tables.check_asked_under(drill.NAME, rules, LEVELS, range(60))
    for rule_id in ("TR1", "TR3", "TR4", "C6"):
        if tables.plays(rules, rule_id) and not (rule_id == "TR3" and rules.players == 3):
            assert count.get(rule_id, 0) > 3, (rule_id, count)


@pytest.mark.parametrize("rules", tables.TABLES, ids=tables.table_id)
def test_every_choice_grades_and_cites_under_table_rules(rules):
    for level in LEVELS:
        for q in under(rules, level, range(0, 80, 4)):
            checks.check_valid_choice_question(q)
            for choice in (None, *q.choices):
                verdict = drill.grade(q, choice)
                assert verdict.correct == (choice == q.key["best"])
                assert set(checks.cited_ids(" ".join(verdict.explanation))) <= set(verdict.rules)


def test_TR4_three_players_pass_right_then_left_with_no_across_and_no_courtesy():
    for level in (1, 2):
        for q in under(THREE, level):
            assert q.facts[0].startswith("At your table three play") and "rule:TR4" in q.items
            assert q.key["best"] not in ("Across", "North")
            if q.prompt.startswith("Which way do the tiles go on"):
                charleston, place = ("first" if "first Charleston" in q.prompt else "second"), (0 if "the first pass" in q.prompt else 1)
                assert q.key["best"] == core.charlestons(3)[charleston][place].capitalize()
            if q.prompt == "Who receives your three tiles?":
                seat = q.facts[1].split()[2].rstrip(".")
                charleston = "first" if "first Charleston" in q.facts[2] else "second"
                place = 0 if "the first pass" in q.facts[2] else 1
                assert q.key["best"] == core.receiver(seat, core.charlestons(3)[charleston][place], 3)
            if "courtesy" in q.prompt:
                assert q.key["best"] == drill.NOBODY
    for level in (3, 4):
        for q in under(THREE, level):
            text = " ".join((q.prompt, *q.facts, *q.choices))
            assert "across pass" not in text and "courtesy pass moves" not in text.lower(), text


def test_TR3_a_joker_may_go_only_in_the_courtesy_pass():
    asked = 0
    for q in under(COURTESY_JOKER, 3):
        if q.prompt == "May you pass your joker on this pass?":
            asked += 1
            assert q.facts[0].startswith("At your table a joker may go in the courtesy pass")
            courtesy = "courtesy pass" in q.facts[1]
            assert q.key["best"] == (drill.JOKER_YES if courtesy else drill.JOKER_NO)
            assert "never pass a joker, in any" not in " ".join(drill.grade(q, None).explanation)
        if q.prompt == "May you make this pass?" and "a Joker" in q.facts[-1]:
            assert "courtesy" not in q.facts[-2]  # never planted where the table allows it
            assert q.key["best"] == drill.NO_JOKER_HERE
    assert asked > 5
    counts = [q for q in under(COURTESY_JOKER, 4) if "You offer a joker" in " ".join(q.facts)]
    for q in counts:
        mine, theirs = q.key["situation"]["mine"], q.key["situation"]["theirs"]
        said = {1: "a joker;", 2: "a joker and one other tile;", 3: "a joker and two other tiles;"}[mine]
        assert said in q.facts[2] and f"offers {theirs} tile" in q.facts[2]
        assert q.key["best"] == f"{min(mine, theirs)} tile{'s' if min(mine, theirs) != 1 else ''}"
    assert counts


def test_TR1_blanks_may_be_passed_on_every_pass():
    blank_questions = [q for q in under(COURTESY_JOKER, 3) if q.prompt == "May you pass a blank on this pass?"]
    assert blank_questions and all(q.key["best"] == drill.BLANK_YES for q in blank_questions)
    assert all("rule:TR1" in q.items for q in blank_questions)
    assert not [q for q in under(THREE, 3) if q.prompt == "May you pass a blank on this pass?"]  # no blanks, never asked


def test_C6_an_all_blind_pass_ends_the_charleston_only_where_the_table_plays_it():
    on = [q for q in under(AIR, 4) if q.prompt == "What comes next?"]
    off = [q for q in under(OTHER, 4) if q.prompt == "What comes next?"]
    assert on and off
    for q in on:
        assert q.facts[0] == drill.TABLE_PLAYS_C6
        everyone = "every player sent all three" in q.facts[1]
        assert (q.key["best"] == drill.ENDS) == everyone
    for q in off:
        assert drill.TABLE_PLAYS_C6 not in q.facts and q.key["best"] != drill.ENDS  # League: it goes on
        assert q.key["best"] == drill.GOES_ON["first" if "first Charleston" in q.facts[0] else "second"]


def test_C6_and_TR_rules_stay_out_of_a_table_that_does_not_play_them():
    for level in LEVELS:
        for q in under(OTHER, level, range(100)):
            assert not tables.table_items(q) - {"TR1", "C6"}
            if "rule:C6" in q.items:
                assert drill.TABLE_PLAYS_C6 not in q.facts
