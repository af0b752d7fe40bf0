"""Who pays what (P1-P6, H5, E2): levels, determinism, grading, rule coverage,
every amount against the digest's arithmetic, the API and the page."""

from __future__ import annotations

import html
import re

import pytest

from coach.notation import tiles
from coach.reading.tiles_away import Holding, parse_exposure
from coach.rules.mahjong import pay, score, winning_lines
from coach.rules.table_play import hot_wall_excused, hot_wall_pays
from coach.rules.table_rules import TableRules
from drills import payment as drill
from drills.kit import two_lines
from tests.support import choice_drill_checks as checks
from tests.support import table_rules_checks as tables
from tests.support.cards import CARD, holding, make_card

LEVELS = [level.number for level in drill.LEVELS]
ASSIGNED = {"P1", "P2", "P3", "P4", "P5", "P6", "H5", "E2"}
PER_LEVEL = {
    1: {"P1", "P2", "P3"},
    2: {"P1", "P2", "P3", "P4", "P5"},
    3: {"P6", "E2"},
    4: {"H5", "P1"},
}


def ask(level: int, seed: int):
    return drill.generate(seed, level, CARD)


def digest_bill(value: int, how: str, jokerless: bool, singles_and_pairs: bool) -> str:
    """The digest's arithmetic, written out independently of coach.rules.mahjong."""
    base = value  # P1
    if jokerless and not singles_and_pairs:
        base *= 2  # P4 (P5 when self-picked too)
    if how in ("discard", "own"):  # P2; P6: your own exposure pays as the discard
        return f"Discarder {2 * base}, the others {base} each"
    return f"Each pays {2 * base}"  # P3; P6: another's exposure pays as self-picked


def test_names_levels_and_template():
    assert drill.NAME == "payment" and drill.TITLE and drill.TEMPLATE == "choice"
    assert LEVELS == [1, 2, 3, 4]


@pytest.mark.parametrize("level", [0, 5, -1, True, "1", 2.0])
def test_a_level_out_of_range_is_an_answer_error(level):
    checks.check_level_refused(drill, CARD, level)


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_question(level):
    checks.check_same_seed_same_question(drill, CARD, level, range(30))


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_makes_valid_questions(level):
    for seed in range(200):
        q = ask(level, seed)
        assert q.drill == drill.NAME and q.level == level and q.card == CARD.name
        checks.check_valid_choice_question(q)
        assert "key" not in q.public()
        shown = list(q.rack) + [t for group in q.exposed for t in group]
        assert all(code in tiles.CODES for code in shown)
        counts = tiles.counts(shown)
        assert all(c <= cap for c, cap in zip(counts, tiles.COPIES)), "more copies than a set holds (T1)"


@pytest.mark.parametrize("level", LEVELS)
def test_every_winning_hand_is_real_and_every_bill_matches_the_digest(level):
    for seed in range(200):
        q = ask(level, seed)
        situation = q.key["situation"]
        if situation["how"] == "wall":  # E2
            assert q.key["best"] == "Nobody pays" and len(q.rack) + sum(map(len, q.exposed)) == 13
            continue
        held = Holding.of(q.rack, [parse_exposure(list(group)) for group in q.exposed])
        wins = winning_lines(CARD, held)
        assert [w.line.id for w in wins] == situation["lines"]
        assert situation["jokerless"] == ("J" not in q.rack and all("J" not in g for g in q.exposed))
        line = CARD.line(situation["line"])
        assert line.value == situation["value"]
        assert f"worth {line.value}" in " ".join(q.facts)
        if len(wins) > 1:  # H5: the line that pays most, checked against every other reading
            how = "discard" if situation["how"] in ("discard", "own") else "self"
            assert all(
                pay(line, how, situation["jokerless"])[2] >= pay(w.line, how, situation["jokerless"])[2] for w in wins
            )
        expected = digest_bill(situation["value"], situation["how"], situation["jokerless"], situation["singles_and_pairs"])
        assert q.key["best"] == expected, (level, seed, situation)


@pytest.mark.parametrize("level", LEVELS)
def test_right_wrong_and_show_me(level):
    for seed in range(0, 200, 9):
        q = ask(level, seed)
        best = q.key["best"]
        right = checks.grade_right(drill, q)
        assert right.explanation[0].startswith("Right: ")
        assert set(checks.cited_ids(" ".join(right.explanation))) <= set(right.rules)
        for choice in q.choices:
            if choice == best:
                continue
            wrong = checks.grade_wrong(drill, q, choice)
            first = checks.cited_ids(wrong.explanation[0])
            assert first and set(first) <= set(wrong.rules), wrong.explanation[0]
            assert wrong.items == tuple((item, False) for item in q.items)
        shown = drill.grade(q, None)
        assert not shown.correct and shown.best == best and shown.answer is None
        assert best in shown.explanation[0]


@pytest.mark.parametrize("answer", [60, 1.5, False, [], ["Each pays 60"], {}, "", "Everybody pays 1000"])
def test_bad_answers_are_answer_errors(answer):
    checks.check_answer_refused(drill, ask(1, 2), answer)


def test_the_levels_ask_every_payment_rule():
    asked = checks.rules_asked(ask, LEVELS, range(60))
    for level in LEVELS:
        assert PER_LEVEL[level] <= asked[level], (level, asked[level])
    assert set().union(*asked.values()) >= ASSIGNED


def test_level_3_has_both_exchanges_and_the_wall_game():
    kinds = {ask(3, seed).key["situation"]["how"] for seed in range(60)}
    assert kinds == {"exchange", "own", "wall"}


def test_level_2_has_singles_and_pairs_jokerless_and_joker_hands():
    seen = set()
    for seed in range(60):
        s = ask(2, seed).key["situation"]
        seen.add((s["singles_and_pairs"], s["jokerless"]))
    assert seen == {(True, True), (False, True), (False, False)}


def test_P4_P5_a_short_verdict_shows_each_doubling_of_the_bill():
    """Payment level 2 ("Jokerless hands"): the reasons a beginner reads first
    keep every doubling that makes the bill, the jokerless one too, not just
    the value and the discard or self-picked double (issue 25, item 5)."""
    seen = set()
    for seed in range(120):
        q = ask(2, seed)
        s = q.key["situation"]
        verdict = drill.grade(q, q.key["best"])
        said = verdict.reasons[0]
        doubled_for_jokers = s["jokerless"] and not s["singles_and_pairs"]
        assert ("× 2 for no jokers" in said) == doubled_for_jokers, said
        assert ("× 2 for the discard" in said) == (s["how"] == "discard"), said
        assert ("× 2 for self-picked" in said) == (s["how"] == "self"), said
        if s["jokerless"] and s["singles_and_pairs"]:
            assert "Singles & Pairs line gets no double for no jokers" in said, said
        # Each payment named in the bill is the value times two for each doubling named beside it.
        for amount, shown in re.findall(r"(\d+) (?:each )?\(([^)]*)\)", said):
            doubles = shown.count("× 2")
            assert int(amount) == s["value"] * 2**doubles, said
        seen.add((s["how"], doubled_for_jokers))
    assert seen == {("self", True), ("self", False), ("discard", True), ("discard", False)}


def test_P4_the_jokerless_bill_reads_as_each_doubling():
    q = next(q for q in (ask(2, seed) for seed in range(200))
             if q.key["situation"]["jokerless"] and not q.key["situation"]["singles_and_pairs"] and q.key["situation"]["how"] == "self")
    value = q.key["situation"]["value"]
    verdict = drill.grade(q, q.key["best"])
    assert f"pay {4 * value} each ({value} × 2 for self-picked × 2 for no jokers)" in verdict.reasons[0]


# -- amounts checked by hand against the digest ----------------------------------------------------------

# 2468-1 "222a 444a DDDa 666b 88b", worth 30, read with a = Dots, b = Bams.
WITH_JOKER = "2D 2D J 4D 4D 4D WD WD WD 6B 6B 6B 8B 8B"
NATURAL = "2D 2D 2D 4D 4D 4D WD WD WD 6B 6B 6B 8B 8B"


def bill(tiles_text: str, how: str, *exposed: str):
    payment = score(CARD, holding(tiles_text, *exposed), how)
    return payment.line.id, payment.discarder, payment.other, payment.total


def test_P1_P2_a_discard_the_discarder_pays_60_the_others_30():
    assert bill(WITH_JOKER, "discard") == ("2468-1", 60, 30, 120)
    assert drill.says(60, 30) == "Discarder 60, the others 30 each"


def test_P3_self_picked_all_three_pay_60():
    assert bill(WITH_JOKER, "self") == ("2468-1", None, 60, 180)
    assert drill.says(None, 60) == "Each pays 60"


def test_P4_jokerless_on_a_discard_120_and_60():
    assert bill(NATURAL, "discard") == ("2468-1", 120, 60, 240)


def test_P5_self_picked_and_jokerless_each_pays_four_times_120():
    assert bill(NATURAL, "self") == ("2468-1", None, 120, 360)


def test_P4_an_exposed_joker_spoils_jokerless():
    assert bill("2D 2D 2D WD WD WD 6B 6B 6B 8B 8B", "self", "4D 4D J") == ("2468-1", None, 60, 180)


def test_P4_singles_and_pairs_get_no_jokerless_bonus():
    # SP-2 "11a 22b 33c 44a 55b 66c 77a", worth 55.
    sp = "1D 1D 2B 2B 3C 3C 4D 4D 5B 5B 6C 6C 7D 7D"
    assert bill(sp, "self") == ("SP-2", None, 110, 330)
    assert bill(sp, "discard") == ("SP-2", 110, 55, 220)


def test_P6_joker_from_another_exposure_pays_as_self_picked_own_exposure_as_the_discard():
    assert bill(WITH_JOKER, "exchange") == ("2468-1", None, 60, 180)
    # A win by a joker out of your own exposure is paid as the discard you called.
    own = holding("2D 2D J 4D 4D 4D 6B 6B 6B 8B 8B", "WD WD WD")
    assert score(CARD, own, "discard").discarder == 60


def test_H5_quints_and_runs_paid_as_the_45_line():
    # QUINT-5 "RRRRR GGGGG 1111a" (45) and RUN-5 "1111a DDDa 2222b DDDb" (30).
    tiles_text = "1B 1B 1B 1B RD RD RD GD GD GD J J J J"
    assert [w.line.id for w in winning_lines(CARD, holding(tiles_text))] == ["QUINT-5", "RUN-5"]
    assert bill(tiles_text, "discard") == ("QUINT-5", 90, 45, 180)
    assert bill(tiles_text, "self") == ("QUINT-5", None, 90, 270)


def test_H5_hands_are_found_on_the_card():
    hands = two_lines.multi_reading_hands(CARD)
    assert hands
    for row in hands:
        wins = winning_lines(CARD, Holding.of([t for t, c in enumerate(row) for _ in range(c)]))
        assert len(wins) >= 2
        assert len({w.line.value for w in wins}) >= 2


def test_E2_a_wall_game_nobody_pays():
    q = next(ask(3, s) for s in range(100) if ask(3, s).key["situation"]["how"] == "wall")
    assert q.key["best"] == "Nobody pays"
    verdict = drill.grade(q, next(c for c in q.choices if c != "Nobody pays"))
    assert "E2" in verdict.rules and not verdict.correct


def test_drill_explanation_names_the_discarder_and_the_amounts():
    q = next(ask(1, s) for s in range(100) if ask(1, s).key["situation"]["how"] == "discard")
    who = re.match(r"(\w+) threw", q.facts[2]).group(1)
    value = q.key["situation"]["value"]
    right = drill.grade(q, q.key["best"])
    assert right.explanation[0].startswith(f"Right: {who} pays {2 * value} ({value} × 2 for the discard);")


# -- the JSON API and the page ----------------------------------------------------------------------------


registered = checks.registered


def test_api_right_and_wrong(client, registered):
    data = checks.api_question(client, drill, 2, 4)
    q = ask(2, 4)
    assert data["choices"] == list(q.choices) and data["rack"] == list(q.rack) and "key" not in data
    right = checks.check_api_right(client, drill, data["token"], q.key["best"])
    assert "P1" in right.get_json()["rules"]
    checks.check_api_wrong(client, drill, data["token"], q.choices, q.key["best"])
    shown = checks.api_answer(client, drill, data["token"], None)
    assert shown.get_json()["correct"] is False
    bad = checks.api_answer(client, drill, data["token"], "Each pays a lot")
    assert bad.status_code == 400 and "not one of the choices" in bad.get_json()["error"]


def test_page_renders_with_its_choices(client, registered):
    for level, seed in ((1, 3), (4, 3)):
        text = html.unescape(checks.drill_page(client, drill, level, seed))
        q = ask(level, seed)
        assert all(choice in text for choice in q.choices)
        assert q.facts[1] in text and 'id="rack"' in text


def test_a_card_with_no_double_readings_still_asks_a_bill():
    card = make_card(("WINDS", "NNN EEE WWW SSS FF", 25), ("KONGS", "NNNN EEEE WWW SSS", 30))
    assert two_lines.multi_reading_hands(card) == ()
    q = drill.generate(1, 4, card)
    assert q.key["best"] == digest_bill(**{k: q.key["situation"][k] for k in ("value", "how", "jokerless", "singles_and_pairs")})


def test_joker_variant_rows_are_the_readable_variants_in_order():
    """The array form the card's search uses (issue 13) against the row-by-row definition, every reading of the card."""
    import numpy as np

    for line in CARD.lines:
        for reading in line.readings:
            readable = np.array(two_lines._joker_variants(reading.groups), dtype=np.int16).reshape(-1, tiles.KINDS)
            assert np.array_equal(two_lines._joker_variant_rows(reading.groups), readable), line.id


def test_joker_variant_rows_leave_out_what_the_set_cannot_hold():
    # Three kongs each kept by one natural would need 9 jokers: the set has 8.
    card = make_card(("KONGS", "NNNN EEEE WWWW SS", 25))
    for line in card.lines:
        for reading in line.readings:
            rows = two_lines._joker_variant_rows(reading.groups)
            assert len(rows) == len(two_lines._joker_variants(reading.groups)) == 4**3 - 1
            assert (rows[:, tiles.JOKER] <= tiles.COPIES[tiles.JOKER]).all()
            assert all((rows[:, t] <= tiles.COPIES[t]).all() for t in range(tiles.NATURALS))


def test_warm_finds_the_double_readings_before_any_question():
    """Even on a card too small for some drills (their questions fail when asked, not here)."""
    import drills

    card = make_card(("WINDS", "NNN EEE WWW SSS FF", 25), ("KONGS", "NNNN EEEE WWW SSS", 30), name="Warm Card")
    assert two_lines._MULTI.get(id(card), (None,))[0] is not card  # ids of freed cards come back
    drills.warm(card)
    assert two_lines._MULTI[id(card)][0] is card


# -- under a table's own rules (TR1, TR2, TR4) ----------------------------------------------------

THREE = TableRules(players=3)
HOT = TableRules(wall_end="hot", blanks=2)


def under(rules, level, seeds=range(150)):
    return [tables.asked(drill.NAME, level, seed, rules) for seed in seeds]


@pytest.mark.parametrize("rules", tables.TABLES, ids=tables.table_id)
def test_questions_under_table_rules_are_rebuilt_exactly_and_say_the_rule_first(rules):
    count = tables.check_asked_under(drill.NAME, rules, [1, 2, 3, 4], range(40))
    for rule_id in ("TR1", "TR2", "TR4"):
        if tables.plays(rules, rule_id) and not (rule_id == "TR2" and rules.wall_end != "hot"):
            assert count.get(rule_id, 0) > 3, (rule_id, count)


@pytest.mark.parametrize("rules", tables.TABLES, ids=tables.table_id)
def test_every_choice_grades_and_cites_under_table_rules(rules):
    for level in (1, 2, 3, 4):
        for q in under(rules, level, range(0, 60, 4)):
            checks.check_valid_choice_question(q)
            for choice in (None, *q.choices):
                verdict = drill.grade(q, choice)
                assert verdict.correct == (choice == q.key["best"])
                assert set(checks.cited_ids(" ".join(verdict.explanation))) <= set(verdict.rules)


def test_TR4_two_losers_pay_at_a_table_of_three():
    for level in (1, 2, 3, 4):
        for q in under(THREE, level, range(60)):
            best = q.key["best"]
            assert "the others" not in best and "all three" not in " ".join(q.key["why"].values())
            situation = q.key["situation"]
            if situation.get("how") in ("self", "discard", "exchange", "own"):
                win = {"own": "discard", "exchange": "self"}.get(situation["how"], situation["how"])
                d, o, _ = pay(CARD.line(situation["line"]), win, situation["jokerless"])
                assert best == (f"Each pays {o}" if d is None else f"Discarder {d}, the other {o}"), best
                total = int(re.search(r": (\d+) in all", q.key["why"][best]).group(1))
                assert total == (2 * o if d is None else d + o)


def test_TR2_at_a_hot_wall_the_thrower_pays_for_the_table_unless_excused():
    seen = {True: 0, False: 0}
    for level in (1, 2, 3):
        for q in under(HOT, level):
            if q.key.get("kind") != "hot-wall":
                continue
            s = q.key["situation"]
            pays = hot_wall_pays(HOT.wall_end, s["late"], bool(hot_wall_excused(s["tile"], s["in_sight"])))
            assert s["hot"] == bool(pays)
            seen[bool(pays)] += 1
            d, o, total = pay(CARD.line(s["line"]), "discard", s["jokerless"])
            assert q.key["best"] == (f"Discarder {total}, the others nothing" if pays else f"Discarder {d}, the others {o} each")
    assert seen[True] > 10 and seen[False] > 3


def test_TR1_a_win_a_blank_swap_completes_pays_as_self_picked():
    asked = 0
    for level in (1, 3):
        for q in under(HOT, level):
            if q.key.get("kind") == "blank-swap-win":
                asked += 1
                s = q.key["situation"]
                _, o, _ = pay(CARD.line(s["line"]), "self", s["jokerless"])
                assert q.key["best"] == f"Each pays {o}" and "rule:TR1" in q.items
    assert asked > 5
