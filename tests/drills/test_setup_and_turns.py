"""Set-up and turns (S1-S5, H3): dice, walls, the deal, a turn, who plays next
and changing aim; League rule or table rule (level 4); the same under a
table's own rules (TR1, TR4, TR5); questions, grading, the API and the page."""

from __future__ import annotations

import re
from functools import cache

import pytest

from coach.notation import tiles
from coach.rules.catalog import RULES
from coach.rules.table_rules import TableRules
from drills import setup_and_turns as drill
from tests.support import choice_drill_checks as checks
from tests.support import table_rules_checks as tables
from tests.support.cards import CARD

LEVELS = [level.number for level in drill.LEVELS]
SEEDS = range(200)
SAMPLE = range(0, 200, 5)
ASSIGNED = {"S1", "S2", "S3", "S4", "S5", "H3"}


@cache
def ask(level: int, seed: int):
    return drill.generate(seed, level, CARD)


def asked(level: int, prompt_start: str):
    return [ask(level, seed) for seed in SEEDS if ask(level, seed).prompt.startswith(prompt_start)]


def test_levels_go_from_easy_to_hard():
    assert LEVELS == [1, 2, 3, 4]
    assert drill.NAME == "setup-and-turns" and drill.TEMPLATE == "choice"
    checks.check_level_refused(drill, CARD, 5)


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_question(level):
    checks.check_same_seed_same_question(drill, CARD, level, range(20))
    assert len({ask(level, seed).prompt for seed in SEEDS}) >= (3 if level == 4 else 4)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_asks_valid_questions(level):
    for seed in SEEDS:
        checks.check_valid_choice_question(ask(level, seed))


@pytest.mark.parametrize("level", LEVELS)
def test_every_choice_grades_with_its_rule(level):
    for seed in SAMPLE:
        checks.check_every_choice_grades_with_its_rule(drill, ask(level, seed))


@pytest.mark.parametrize("level", LEVELS)
def test_show_me_is_not_correct_and_gives_the_best(level):
    checks.check_show_me(drill, ask(level, 8))


@pytest.mark.parametrize("answer", [13, 2.5, ["East"], {"seat": "East"}, True, "", "Nobody"])
def test_bad_answers_are_answer_errors(answer):
    checks.check_answer_refused(drill, ask(1, 6), answer)


def test_the_levels_cover_the_assigned_rules():
    rules = checks.rules_asked(ask, LEVELS, SEEDS)
    assert rules[1] >= {"S3", "S4", "S5", "H3"}
    assert rules[2] >= {"S1", "S2"}
    assert rules[3] >= {"S3", "S4", "S5"}
    assert set().union(*rules.values()) >= ASSIGNED


# -- the truth, worked out independently ------------------------------------------------


def test_S5_play_passes_to_the_right():
    order = {"East": "South", "South": "West", "West": "North", "North": "East"}
    questions = asked(1, "Who plays next")
    assert {q.facts[0].split()[0] for q in questions} == set(order)
    for q in questions:
        assert q.key["best"] == order[q.facts[0].split()[0]]


def test_S3_after_the_deal_east_has_14_and_the_others_13():
    questions = asked(1, "How many tiles do you hold")
    assert {q.facts[0] for q in questions} >= {"You are East.", "You are South."}
    for q in questions:
        assert q.key["best"] == ("14" if q.facts[0] == "You are East." else "13")


def test_S4_east_discards_first_without_drawing():
    q = asked(1, "What does East do first")[0]
    assert q.key["best"] == drill.EAST_FIRST and "S4" in q.key["rules"]


def test_H3_you_may_switch_aim_at_any_time():
    q = asked(1, "What may you do")[0]
    assert q.key["best"] == drill.SWITCH and q.items == ("rule:H3",)


def test_S1_the_highest_total_is_east_and_ties_roll_again_among_the_tied_only():
    for q in asked(2, "Who is East"):
        totals = {name: int(total) for name, total in (pair.rsplit(" ", 1) for pair in q.facts[1][8:-1].split(", "))}
        if len(q.facts) == 2:
            assert q.key["best"] == max(totals, key=totals.get)
        else:  # the re-roll decides between the tied two, whatever the others rolled first
            again = dict(pair.rsplit(" ", 1) for pair in q.facts[2].split(": ", 1)[1][:-1].split(", "))
            tied = [name for name, total in totals.items() if total == max(totals.values())]
            assert sorted(again) == sorted(tied)
            assert q.key["best"] == max(again, key=lambda name: int(again[name]))
    ties = asked(2, "What happens next")
    assert ties
    for q in ties:
        totals = {name: int(total) for name, total in (pair.rsplit(" ", 1) for pair in q.facts[1][8:-1].split(", "))}
        tied = [name for name, total in totals.items() if total == max(totals.values())]
        assert len(tied) >= 2 and all(name in q.key["best"] for name in tied) and q.key["best"].endswith("roll again")


def test_S2_walls_of_19_stacks_and_the_break_from_the_right():
    assert 4 * 19 * 2 == len(tiles.WALL)
    for q in asked(2, "How many stacks"):
        a, b = (int(word) for word in re.findall(r"\d+", q.facts[0])[:2])
        assert q.key["best"] == str(19 - (a + b))
    for q in asked(2, "Where does East break"):
        a, b = (int(word) for word in re.findall(r"\d+", q.facts[1]))
        assert q.key["best"] == f"{a + b} stacks from the right end of East's wall"
    assert asked(2, "How is each wall built")[0].key["best"] == "19 stacks, 2 tiles high"


def test_S3_the_deal_step_by_step():
    for q in asked(3, "How many tiles does"):
        seat = q.prompt.split()[4]
        rounds = {"no": 0, "one": 1, "two": 2}[q.facts[1].split()[2]]
        this_round = q.facts[1].split("in this round, ")[1]
        assert q.key["best"] == str(4 * rounds + (4 if seat in this_round else 0))
    assert asked(3, "How many tiles are still")[0].key["best"] == str(152 - 14 - 3 * 13)
    assert asked(3, "Which two tiles")[0].key["best"] == drill.EAST_LAST


def test_S4_a_discard_is_final_once_it_touches_the_table_or_is_named():
    questions = asked(3, "May ")
    answers = {q.key["best"] for q in questions}
    assert answers == {
        "No: it touched the table, so it is final",
        "No: it was named, so it is final",
        "Yes: it is neither named nor on the table yet",
    }


def test_S5_after_a_hand_the_player_on_easts_right_becomes_east():
    for q in asked(3, "Who is East"):
        seating = [pair.split()[0] for pair in q.facts[0].split(": ", 1)[1][:-1].split(", ")]
        hands = 1 if "next hand" in q.prompt else int(q.prompt.split()[3])
        assert q.key["best"] == seating[hands]


# -- through the web -------------------------------------------------------------------


registered = checks.registered


def test_api_asks_and_grades_right_and_wrong(client, registered):
    for level in LEVELS:
        body = checks.api_question(client, drill, level, 3)
        assert body["choices"] and body["facts"] and "key" not in body
        best = ask(level, 3).key["best"]
        checks.check_api_right(client, drill, body["token"], best)
        checks.check_api_wrong(client, drill, body["token"], body["choices"], best)
        bad = checks.api_answer(client, drill, body["token"], ["East"])
        assert bad.status_code == 400


def test_the_page_shows_the_question_and_its_choices(client, registered):
    html = checks.drill_page(client, drill, 1, 3)
    q = ask(1, 3)
    checks.check_page_shows(html, [q.prompt, *q.choices])


# -- level 4: League rule or table rule? ------------------------------------------------------


def test_TR1_TR6_C6_league_or_table_rule_follows_the_catalogs_flag():
    """Whichever way it is asked, the right choice is the rule the catalog flags
    as asked (a table rule or a League rule), and every other choice is the other kind."""
    claims = {drill.claim(rule): rule for rule in RULES.values()}
    asked_ids: set[str] = set()
    for seed in SEEDS:
        q = ask(4, seed)
        asked_ids |= {item[5:] for item in q.items}
        if q.prompt == "Whose rule is this?":
            rule = claims[q.facts[0].strip("\u201c\u201d")]
            assert q.key["best"] == (drill.TABLE_RULE if rule.table_rule else drill.LEAGUE_RULE)
            continue
        wanted = q.prompt.startswith("Which of these is a table rule")
        assert claims[q.key["best"]].table_rule == wanted
        assert all(claims[c].table_rule != wanted for c in q.choices if c != q.key["best"])
        assert not any(c.startswith(("At this table", "Table rule")) for c in q.choices)  # nothing gives it away
    assert {"TR1", "TR2", "TR3", "TR4", "TR5", "TR6", "C6"} <= asked_ids


def test_TR3_a_table_rule_stands_beside_the_league_rule_it_changes():
    for seed in SEEDS:
        q = ask(4, seed)
        if q.prompt.startswith("Which of these is a table rule") and "rule:TR3" in q.items:
            assert drill.claim(RULES["C4"]) in q.choices
            assert "(C4)" in " ".join(drill.grade(q, None).explanation)
            return
    raise AssertionError("TR3 was never asked beside C4")


# -- under a table's own rules -------------------------------------------------------------------


@pytest.mark.parametrize("rules", tables.TABLES, ids=tables.table_id)
def test_questions_under_table_rules_are_rebuilt_exactly_and_say_the_rule_first(rules):
    count = tables.check_asked_under(drill.NAME, rules, LEVELS, range(60), classifies=frozenset({4}))
    for rule_id in ("TR1", "TR4", "TR5"):
        if tables.plays(rules, rule_id):
            assert count.get(rule_id, 0) > 5, (rule_id, count)


@pytest.mark.parametrize("rules", tables.TABLES, ids=tables.table_id)
def test_every_choice_grades_with_its_rule_under_table_rules(rules):
    for level in LEVELS:
        for seed in range(0, 60, 3):
            q = tables.asked(drill.NAME, level, seed, rules)
            checks.check_valid_choice_question(q)
            checks.check_every_choice_grades_with_its_rule(drill, q)


THREE = TableRules(players=3)
BLANKS = TableRules(blanks=4, picking_ahead=True)


def _under(rules, level, start):
    return [q for seed in range(300) if (q := tables.asked(drill.NAME, level, seed, rules)).prompt.startswith(start)]


def test_TR4_three_players_east_south_west_and_north_never_plays():
    order = {"East": "South", "South": "West", "West": "East"}
    questions = _under(THREE, 1, "Who plays next")
    assert {q.facts[1].split()[0] for q in questions} == set(order)
    for q in questions:
        assert q.key["best"] == order[q.facts[1].split()[0]] and "rule:TR4" in q.items
    assert _under(THREE, 1, "How many tiles are dealt to North")[0].key["best"] == drill.NONE_DEALT
    for level in (1, 2, 3):
        for seed in range(100):
            q = tables.asked(drill.NAME, level, seed, THREE)
            assert not any("You are North" in fact for fact in q.facts), q.facts
            assert "North's right" not in " ".join(q.key["why"].values())


def test_TR4_the_walls_after_a_three_player_deal_keep_norths_tiles():
    for q in _under(THREE, 3, "How many tiles are still in the walls"):
        assert q.key["best"] == str(152 - 14 - 2 * 13) and "rule:TR4" in q.items
    for q in _under(TableRules(players=3, blanks=2, wall_end="hot"), 3, "How many tiles are still in the walls"):
        assert q.key["best"] == str(154 - 14 - 2 * 13)


def test_TR4_the_dice_and_east_rotate_over_three_players():
    for q in _under(THREE, 3, "Who is East"):
        seating = [pair.split()[0] for pair in q.facts[1].split(": ", 1)[1][:-1].split(", ")]
        assert len(seating) == 3
        hands = 1 if "next hand" in q.prompt else int(q.prompt.split()[3])
        assert q.key["best"] == seating[hands % 3]
    for q in _under(THREE, 2, "Who is East"):
        assert q.facts[1].startswith("Three players roll")


def test_TR1_the_set_with_blanks_and_the_swap():
    for q in _under(BLANKS, 2, "How many tiles are in the set"):
        assert q.key["best"] == "156" and q.facts[0].startswith("At your table 4 blanks")
    answers = {q.key["best"] for q in _under(BLANKS, 3, "May you swap your blank")}
    assert answers == {drill.SWAP_YES, *drill.SWAP_NO.values()}
    for q in _under(BLANKS, 3, "May you swap your blank"):
        if "A Joker lies" in q.facts[2]:
            assert q.key["best"] == drill.SWAP_NO["a joker"]
        elif "It is your turn: you have picked" in q.facts[2]:
            assert q.key["best"] == drill.SWAP_YES
    turn = _under(BLANKS, 1, "In what order does your turn go")
    assert turn and all(q.key["best"] == drill.TURN_WITH_BLANKS for q in turn)  # never the League's turn without the swap


def test_TR5_a_tile_picked_ahead_goes_back_when_the_discard_is_called():
    for q in _under(BLANKS, 3, "What becomes of the tile"):
        called = q.facts[2].startswith("Then")
        assert q.key["best"] == (drill.BACK if called else drill.DRAW_IT) and "rule:TR5" in q.items
    assert all(q.key["best"] == drill.AHEAD_YES for q in _under(BLANKS, 1, "May ") if "pick the next wall tile" in q.prompt)


def test_TR1_TR5_a_table_without_blanks_or_picking_ahead_is_never_asked_them():
    for level in (1, 2, 3):
        for seed in range(100):
            q = tables.asked(drill.NAME, level, seed, THREE)
            assert not tables.table_items(q) & {"TR1", "TR5"}
