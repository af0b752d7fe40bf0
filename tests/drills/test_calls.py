"""Calls (K1-K7, J3, H4): levels, determinism, grading, the truth of every
question checked again from what the learner sees, and the JSON API."""

from __future__ import annotations

import re
from functools import cache

import pytest

from coach.notation import tiles
from coach.reading.tiles_away import Exposure, Holding, assign_exposures, parse_exposure
from coach.rules.calls import MAH_JONGG as MAH_JONGG_CALL
from coach.rules.calls import after_call, who_gets
from coach.rules.catalog import RULES
from coach.rules.mahjong import winning_lines
from coach.rules.table_play import in_last_wall
from coach.rules.table_rules import TableRules
from drills import calls as drill
from tests.support import choice_drill_checks as checks
from tests.support import table_rules_checks as tables
from tests.support.cards import CARD

LEVELS = [1, 2, 3, 4]
SEEDS = range(200)
SAMPLE = range(0, 200, 9)
ASSIGNED = ("K1", "K2", "K3", "K4", "K5", "K6", "K7", "J3", "H4")
SEATS = ("East", "South", "West", "North")


@cache
def ask(level: int, seed: int):
    return drill.generate(seed, level, CARD)


def tile_code(words: str) -> str:
    return tiles.code_of(words.removesuffix(" Wind").removeprefix("the ").removeprefix("a "))


# -- the protocol ---------------------------------------------------------------------


def test_name_title_levels_and_template():
    assert drill.NAME == "calls" and drill.TITLE and drill.TEMPLATE == "choice"
    assert [level.number for level in drill.LEVELS] == LEVELS
    assert all(level.title and level.description for level in drill.LEVELS)


@pytest.mark.parametrize("level", [0, 5, -1, True, "1", 1.0])
def test_a_level_out_of_range_is_an_answer_error(level):
    checks.check_level_refused(drill, CARD, level)


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_question(level):
    checks.check_same_seed_same_question(drill, CARD, level, range(30))


@pytest.mark.parametrize("level", LEVELS)
def test_seeds_vary_the_question(level):
    assert len({(ask(level, s).facts, ask(level, s).choices) for s in SEEDS}) > 150


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_generates_valid_questions(level):
    for seed in SEEDS:
        q = ask(level, seed)
        assert q.drill == drill.NAME and q.level == level and q.seed == seed and q.card == CARD.name
        assert q.prompt and 1 <= len(q.facts) <= 5 and all(q.facts)
        assert 2 <= len(q.choices) <= 5 and len(set(q.choices)) == len(q.choices)
        assert all(isinstance(c, str) and c == c.strip() and c for c in q.choices)
        assert q.key["best"] in q.choices
        assert set(q.key["why"]) == set(q.choices)
        assert q.items and all(i.startswith("rule:") and i[5:] in RULES for i in q.items)
        assert "key" not in q.public() and "choices" in q.public() and "facts" in q.public()
        parts = [("rack", q.rack)] + [(f"exposure {n}", e) for n, e in enumerate(q.exposed, 1)]
        tiles.check_supply(parts)  # never more copies than a set holds (T1)
        if level in (1, 2):
            holding = Holding.of(list(q.rack), [parse_exposure(list(e), n) for n, e in enumerate(q.exposed, 1)])
            assert holding.size == 13  # another player just discarded


@pytest.mark.parametrize("level", LEVELS)
def test_choices_come_in_a_seeded_order(level):
    first_places = {ask(level, seed).choices.index(ask(level, seed).key["best"]) for seed in SEEDS}
    assert len(first_places) >= 2


def test_the_levels_between_them_ask_every_assigned_rule():
    asked = checks.rules_asked(ask, LEVELS, SEEDS)
    assert set().union(*asked.values()) >= set(ASSIGNED)
    assert asked[1] >= {"K1", "K2", "K6", "J3"}
    assert asked[2] >= {"K2", "K3", "K7", "H4", "J3"}
    assert asked[3] >= {"K4", "S5"}
    assert asked[4] >= {"K5", "K6", "S5"}


# -- grading --------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_right_wrong_and_show_me(level):
    for seed in SAMPLE:
        q = ask(level, seed)
        best = q.key["best"]
        right = checks.grade_right(drill, q)
        assert right.explanation[0].startswith("Right.")
        assert right.items == tuple((item, True) for item in q.items)
        for choice in q.choices:
            if choice == best:
                continue
            if choice in q.key.get("also", ()):  # the rules allow this call too: credited (K2)
                also = drill.grade(q, choice)
                assert also.correct and also.score == 1.0 and also.explanation[0].startswith("Right.")
                continue
            wrong = checks.grade_wrong(drill, q, choice)
            assert wrong.explanation[0].startswith(f'Not quite: the answer is "{best}".')
            assert wrong.items == tuple((item, False) for item in q.items)
            # the line on the learner's choice says which rule decides it
            checks.check_pick_cites_its_rule(wrong, choice)
        shown = checks.grade_show_me(drill, q)
        assert shown.explanation[0].startswith(f'The answer is "{best}".')
        for verdict in (right, shown):
            for line in verdict.explanation:
                ids = checks.cited_ids(line)
                assert ids, f"no rule id cited in: {line}"
                assert all(rule_id in verdict.rules and rule_id in RULES for rule_id in ids)


def test_answers_are_matched_without_case_or_extra_spaces():
    q = ask(1, 3)
    checks.check_answers_ignore_case_and_spaces(drill, q, f"  {q.key['best'].upper()}  ")


@pytest.mark.parametrize("answer", [5, 1.5, True, [], ["No"], {}, {"answer": "No"}])
def test_answers_of_the_wrong_type_are_answer_errors(answer):
    checks.check_answer_refused(drill, ask(1, 1), answer, match="as text")


@pytest.mark.parametrize("answer", ["", "   ", "Maybe", "Yes", "North West"])
def test_answers_not_among_the_choices_are_answer_errors(answer):
    checks.check_answer_refused(drill, ask(3, 1), answer, match="not one of the choices")


# -- the truth, worked out again from what the learner sees ---------------------------------


def expected_calls(q) -> set[str]:
    """The right answers to levels 1 and 2, from the rack, exposures, facts and card alone.

    K2 is read as the card reads it: an exposure is legal when some exposed
    line has a group, beside the exposures already down, that the rack's
    tiles of the discard and its jokers complete (H3: any line still open)."""
    discard = tiles.INDEX[tile_code(re.match(r"May you call (.+?)(?:, and for what\?| and still play )", q.prompt).group(1))]
    text = " ".join(q.facts)
    line = CARD.line(re.search(r"You play (\S+),", text).group(1))
    exposures = [parse_exposure(list(e), n) for n, e in enumerate(q.exposed, 1)]
    holding = Holding.of(list(q.rack), exposures)
    too_late = "put it on the rack." in text and "not yet" not in text
    too_late |= "already discarded" in text or "; then" in text
    if too_late or discard == tiles.JOKER:  # K1, J3
        return {"No"}
    if winning_lines(CARD, Holding.of(list(q.rack) + [tiles.CODES[discard]], exposures)):
        return {"Yes, for Mah Jongg"}  # K3
    if line.concealed:
        return {"No"}  # K7: not if you keep this line
    held = holding.rack[discard] + holding.jokers
    sizes = {
        size for size in (3, 4, 5, 6) if held >= size - 1
        and any(
            assign_exposures(r.groups, exposures + [Exposure(discard, size)]) is not None
            for other in CARD.lines if not other.concealed for r in other.readings
        )
    }
    return {drill.for_group(size) for size in sizes} or {"No"}  # K2


@pytest.mark.parametrize("level", [1, 2])
def test_may_you_call_it_agrees_with_the_card(level):
    for seed in SEEDS:
        q = ask(level, seed)
        right = expected_calls(q)
        assert q.key["best"] in right, (seed, q.facts, q.rack, q.exposed)
        assert set(q.key["also"]) == (right - {q.key["best"]}) & set(q.choices), seed


def test_who_gets_the_discard_follows_turn_order_K4():
    for seed in SEEDS:
        q = ask(3, seed)
        thrower = re.match(r"(\w+) just threw", q.facts[0]).group(1)
        calls = dict(re.findall(r"(\w+) calls it for ([\w ]+?)[;.]", q.facts[1]))
        assert len(calls) == 2

        def rank(seat: str) -> tuple[bool, int]:
            return calls[seat] != "Mah Jongg", (SEATS.index(seat) - SEATS.index(thrower)) % 4

        assert q.key["best"] == min(calls, key=rank)
        assert drill.FIRST_TO_SPEAK in q.choices  # a table rule, never the League answer
        verdict = drill.grade(q, drill.FIRST_TO_SPEAK)
        assert not verdict.correct and "table rule" in " ".join(verdict.explanation)


def test_equal_calls_name_the_table_variant_K4():
    seen = 0
    for seed in SEEDS:
        q = ask(3, seed)
        purposes = re.findall(r"calls it for ([\w ]+?)[;.]", q.facts[1])
        mah_jongg_beats = (purposes[0] == "Mah Jongg") != (purposes[1] == "Mah Jongg")
        text = " ".join(drill.grade(q, None).explanation)
        assert ("variant" in text) == (not mah_jongg_beats)
        seen += not mah_jongg_beats
    assert seen > 20


def test_after_the_call_K5_K6():
    kinds = set()
    for seed in SEEDS:
        q = ask(4, seed)
        best = q.key["best"]
        text = " ".join(q.facts)
        if q.prompt == "Who plays next?":
            caller = re.search(r"(\w+) called it", text).group(1)
            assert best == SEATS[(SEATS.index(caller) + 1) % 4]
        elif q.prompt == "Whose turn is skipped?":
            thrower = re.match(r"(\w+) threw", text).group(1)
            caller = re.search(r"(\w+) called it", text).group(1)
            steps = (SEATS.index(caller) - SEATS.index(thrower)) % 4
            lost = [SEATS[(SEATS.index(thrower) + k) % 4] for k in range(1, steps)]
            assert best == (drill.join(lost) if lost else "Nobody")
        elif q.prompt == "What do you do now?":
            assert best == drill.DISCARD  # no draw after a call, not even for a kong
            assert sum(len(e) for e in q.exposed) + len(q.rack) == 14
        else:
            assert q.prompt.startswith("May you add your fourth")
            assert best == (drill.LOCKED if "already discarded" in text else drill.MAY)
            # the card allows the kong the learner wants to make (K6)
            line = CARD.line(re.search(r"You play (\S+),", text).group(1))
            tile = tiles.INDEX[q.exposed[-1][0]]
            reading = next(r for r in line.readings if f"You play {drill.line_text(line, r)}." in q.facts)
            assert any(g.tile == tile and g.size == 4 for g in reading.groups)
        kinds.add(q.prompt.split()[0])
    assert kinds == {"Who", "Whose", "What", "May"}


# -- hand-built cases of the core truth -----------------------------------------------------


def reading_of(line_id: str, suits: dict[str, str]):
    line = CARD.line(line_id)
    return line, next(r for r in line.readings if dict(r.suits) == suits)


def test_a_discard_completing_a_pung_may_be_called_for_it_K2():
    # 2468-1 read with Dots and Bams: 222 444 Soap-pung in Dots, 666 88 in Bams.
    line, reading = reading_of("2468-1", {"a": "D", "b": "B"})
    rack = ["2D", "2D", "2D", "4D", "4D", "WD", "WD", "6B", "6B", "8B", "N", "E", "S"]
    holding = Holding.of(rack)
    assert drill.Truth(CARD, line, reading, holding, tiles.INDEX["6B"]).answer() == "Yes, for a pung"
    assert drill.Truth(CARD, line, reading, holding, tiles.INDEX["4D"]).answer() == "Yes, for a pung"


def test_a_pair_tile_may_not_be_called_unless_it_wins_K2_K3():
    line, reading = reading_of("2468-1", {"a": "D", "b": "B"})
    holding = Holding.of(["2D", "2D", "2D", "4D", "4D", "WD", "WD", "6B", "6B", "8B", "N", "E", "S"])
    assert drill.Truth(CARD, line, reading, holding, tiles.INDEX["8B"]).answer() == "No"
    # the same 8 Bam is the winning tile of the full hand: called for Mah Jongg
    full = Holding.of(["2D", "2D", "2D", "4D", "4D", "4D", "WD", "WD", "WD", "6B", "6B", "6B", "8B"])
    assert drill.Truth(CARD, line, reading, full, tiles.INDEX["8B"]).answer() == "Yes, for Mah Jongg"


def test_a_joker_on_the_rack_helps_complete_a_called_group_J1_K2():
    line, reading = reading_of("2468-1", {"a": "D", "b": "B"})
    holding = Holding.of(["2D", "2D", "2D", "4D", "J", "WD", "WD", "6B", "8B", "8B", "N", "E", "S"])
    assert drill.Truth(CARD, line, reading, holding, tiles.INDEX["4D"]).answer() == "Yes, for a pung"


def test_two_tiles_do_not_make_a_kong_K2():
    # ADD-1 wants a kong of Norths: two Norths and the discard make only a pung.
    line = CARD.line("ADD-1")
    reading = line.readings[0]
    holding = Holding.of(["N", "N", "3D", "3D", "3D", "4B", "4B", "4B", "4B", "1C", "2C", "5C", "9C"])
    answers = drill.Truth(CARD, line, reading, holding, tiles.INDEX["N"]).answers()
    assert "Yes, for a kong" not in answers
    # ...but a pung of Norths is a group other lines still open to the hand take (K2, H3)
    assert answers == ["Yes, for a pung"]


def test_a_discarded_joker_is_never_called_even_to_win_J3():
    line, reading = reading_of("2468-1", {"a": "D", "b": "B"})
    short_of_a_pung = Holding.of(["2D", "2D", "2D", "4D", "4D", "4D", "WD", "WD", "6B", "6B", "6B", "8B", "8B"])
    truth = drill.Truth(CARD, line, reading, short_of_a_pung, tiles.JOKER)
    assert truth.wins_line  # the joker would finish the hand...
    assert truth.answer() == "No"  # ...and still cannot be called


def test_a_concealed_line_calls_only_for_mah_jongg_K7_H4():
    line, reading = reading_of("2468-5", {"a": "D", "b": "B", "c": "C"})
    assert line.concealed
    near = Holding.of(["2D", "4D", "6D", "8D", "2B", "4B", "6B", "8B", "6C", "6C", "8C", "N", "S"])
    assert drill.Truth(CARD, line, reading, near, tiles.INDEX["6C"]).answer() == "No"
    last = Holding.of(["2D", "4D", "6D", "8D", "2B", "4B", "6B", "8B", "6C", "6C", "6C", "8C", "8C"])
    assert drill.Truth(CARD, line, reading, last, tiles.INDEX["8C"]).answer() == "Yes, for Mah Jongg"


def test_a_locked_pung_never_grows_into_a_kong_K6():
    line, reading = reading_of("2468-1", {"a": "D", "b": "B"})
    exposed = (parse_exposure("6B 6B 6B"),)
    holding = Holding.of(["2D", "2D", "2D", "4D", "4D", "WD", "WD", "8B", "N", "E"], exposed)
    assert drill.Truth(CARD, line, reading, holding, tiles.INDEX["6B"]).answer() == "No"


def test_a_late_call_is_refused_K1():
    line, reading = reading_of("2468-1", {"a": "D", "b": "B"})
    holding = Holding.of(["2D", "2D", "2D", "4D", "4D", "WD", "WD", "6B", "6B", "8B", "N", "E", "S"])
    truth = drill.Truth(CARD, line, reading, holding, tiles.INDEX["6B"])
    assert truth.answer(stale=True) == "No" and truth.answer() == "Yes, for a pung"


def test_turn_order_helpers_S5():
    assert drill.after("East") == "South" and drill.after("North") == "East"
    assert drill.between("West", "South") == ["North", "East"]
    assert drill.between("East", "South") == []


# -- through the web ----------------------------------------------------------------------


registered = checks.registered


@pytest.mark.parametrize("level", LEVELS)
def test_api_right_and_wrong(client, registered, level):
    data = checks.api_question(client, drill, level, 3)
    q = drill.generate(3, level, CARD)
    assert data["choices"] == list(q.choices) and data["facts"] == list(q.facts) and "key" not in data
    checks.check_api_right(client, drill, data["token"], q.key["best"])
    wrong = checks.check_api_wrong(client, drill, data["token"], q.choices, q.key["best"])
    assert wrong.get_json()["rules"]
    bad = checks.api_answer(client, drill, data["token"], "Perhaps")
    assert bad.status_code == 400 and "not one of the choices" in bad.get_json()["error"]


def test_page_renders_the_choices(client, registered):
    html = checks.drill_page(client, drill, 1, 3)
    q = drill.generate(3, 1, CARD)
    checks.check_page_shows(html, q.choices + q.facts)


# -- under a table's own rules (TR1, TR2, TR4, TR6) ---------------------------------------------

COLD = TableRules(wall_end="cold", first_to_speak=True)
BLANKS = TableRules(blanks=4)
THREE = TableRules(players=3)


def under(rules, level, seeds=SEEDS):
    return [tables.asked(drill.NAME, level, seed, rules) for seed in seeds]


@pytest.mark.parametrize("rules", tables.TABLES, ids=tables.table_id)
def test_questions_under_table_rules_are_rebuilt_exactly_and_say_the_rule_first(rules):
    count = tables.check_asked_under(drill.NAME, rules, LEVELS, range(40))
    for rule_id in ("TR1", "TR4", "TR6"):
        if tables.plays(rules, rule_id):
            assert count.get(rule_id, 0) > 3, (rule_id, count)
    if rules.wall_end == "cold":
        assert count.get("TR2", 0) > 3


@pytest.mark.parametrize("rules", tables.TABLES, ids=tables.table_id)
def test_every_choice_grades_and_cites_under_table_rules(rules):
    for level in LEVELS:
        for q in under(rules, level, range(0, 60, 4)):
            checks.check_valid_choice_question(q)
            for choice in (None, *q.choices):
                verdict = drill.grade(q, choice)
                assert verdict.correct == (choice == q.key["best"] or choice in q.key["also"])
                assert set(checks.cited_ids(" ".join(verdict.explanation))) <= set(verdict.rules)


def test_TR2_at_a_cold_wall_nothing_is_called_in_the_walls_end():
    asked = {True: 0, False: 0}
    for level in (1, 2):
        for q in under(COLD, level):
            if q.key["kind"] != "cold-wall":
                continue
            end, left = (int(n) for n in re.match(r"The wall's end is its last (\d+) tiles .*; (\d+) tiles? (?:is|are) left", q.facts[1]).groups())
            late = in_last_wall(left, (end // 2,)).decision
            asked[late] += 1
            assert (q.key["best"] == drill.COLD_NO) == late, q.facts
            assert q.facts[0].startswith("At your table the wall is cold") and "rule:TR2" in q.items
    assert asked[True] > 5 and asked[False] > 2


def test_TR1_a_blank_swap_is_no_call_and_a_discarded_blank_is_never_called():
    swaps = [q for q in under(BLANKS, 1) if q.key["kind"] == "swap-not-call"]
    thrown = [q for q in under(BLANKS, 2) if q.key["kind"] == "blank-discard"]
    assert swaps and thrown
    assert all(q.key["best"] == drill.SWAP_NOT_CALL and "rule:TR1" in q.items for q in swaps)
    assert all(q.key["best"] == drill.BLANK_NEVER for q in thrown)


def test_TR6_the_first_to_speak_takes_it_but_mah_jongg_still_wins():
    by_purpose = by_speaking = 0
    for q in under(COLD, 3):
        thrower = re.match(r"(\w+) just threw", q.facts[1]).group(1)
        claims = {seat: (MAH_JONGG_CALL if purpose == "Mah Jongg" else "exposure")
                  for seat, purpose in re.findall(r"(\w+) calls it for ([\w ]+?)[;.]", q.facts[2])}
        first = q.facts[3].split()[0]
        spoken = {s: claims[s] for s in (first, next(s for s in claims if s != first))}  # in the order spoken
        assert q.key["best"] == who_gets(thrower, spoken, first_to_speak=True).decision
        mixed = len(set(claims.values())) > 1
        by_purpose += mixed
        by_speaking += not mixed
        if not mixed:
            assert q.key["best"] == first
    assert by_purpose > 10 and by_speaking > 10


def test_TR4_after_a_call_at_three_play_goes_east_south_west():
    asked = 0
    for q in under(THREE, 4):
        text = " ".join(q.facts[1:])
        assert not re.search(r"You are North|North (threw|called)", " ".join(q.facts)), q.facts  # nobody plays at North
        if q.prompt in ("Who plays next?", "Whose turn is skipped?"):
            asked += 1
            thrower = re.match(r"(\w+) threw", q.facts[1]).group(1)
            caller = re.search(r"(\w+) called it", text).group(1)
            ruling = after_call(thrower, caller, THREE.players)
            best = ruling.decision if q.prompt == "Who plays next?" else (drill.join(list(ruling.facts["skipped"])) or "Nobody")
            assert q.key["best"] == best and "rule:TR4" in q.items
    assert asked > 20
