"""The rulings the drills and the advice ask of the table rules (coach.rules):
each switch changes exactly what docs/table-rules.md says, and nothing with
the League's rules (the default). The practice table's own rulings are
tested with the hand (tests/core/test_table_rules*.py)."""

from __future__ import annotations

import pytest

from coach.notation import tiles
from coach.rules import blanks, charleston, table, table_play
from coach.rules.blanks import BLANK
from coach.rules.calls import after_call
from coach.rules.charleston import PassError, check_pass
from coach.rules.table_rules import LEAGUE, TableRules

THREE = TableRules(players=3)
BLANKS = TableRules(blanks=4)
COURTESY_JOKER = TableRules(joker_in_courtesy=True)
RACK = [tiles.INDEX[c] for c in "1D 2D 3D 4B 5B 6B 7C 8C 9C N E W J".split()]


# -- TR1 blanks -------------------------------------------------------------------------


def test_TR1_the_set_holds_the_blanks_and_the_league_set_none():
    assert blanks.wall() == tiles.WALL and blanks.set_size() == 152
    assert blanks.wall(BLANKS).count(BLANK) == 4 and blanks.set_size(BLANKS) == 156
    assert blanks.set_ruling(BLANKS).rule == "TR1" and blanks.set_ruling().rule == "T1"
    assert table.wall_after_deal(BLANKS).decision == 156 - 53 and table.wall_after_deal(BLANKS).rule == "TR1"


def test_TR1_a_blank_is_swapped_on_your_turn_for_a_discard_but_a_joker_or_a_blank():
    assert blanks.may_swap(tiles.INDEX["5D"], BLANKS)
    refused = {
        "no blanks": blanks.may_swap(tiles.INDEX["5D"], LEAGUE),
        "not your turn": blanks.may_swap(tiles.INDEX["5D"], BLANKS, your_turn=False),
        "before you pick": blanks.may_swap(tiles.INDEX["5D"], BLANKS, acquired=False),
        "a joker": blanks.may_swap(tiles.JOKER, BLANKS),
        "a blank": blanks.may_swap(BLANK, BLANKS),
        "still callable": blanks.may_swap(tiles.INDEX["5D"], BLANKS, callable_now=True),
        "no blank held": blanks.may_swap(tiles.INDEX["5D"], BLANKS, blanks_held=0),
    }
    for why, ruling in refused.items():
        assert not ruling and ruling.rule == "TR1" and ruling.facts["why"] == why


def test_TR1_a_swap_is_no_call_pays_as_self_picked_and_blanks_never_win():
    assert not blanks.swap_is_call() and blanks.swap_win_pays_as().decision == "self"
    assert blanks.may_declare(0) and not blanks.may_declare(1)
    assert not blanks.discarded_blank_callable()
    assert blanks.split([BLANK, 3, BLANK, tiles.JOKER]) == ([3, tiles.JOKER], 2)
    assert blanks.code(BLANK) == "BL" and blanks.index("blank") == BLANK and blanks.index("5 dot") == tiles.INDEX["5D"]


def test_TR1_blanks_may_be_passed_only_where_there_are_blanks():
    rack = RACK[:-1] + [BLANK]
    check_pass(rack, [BLANK, RACK[0], RACK[1]], "first-right", rules=BLANKS)
    check_pass(rack, [BLANK], "courtesy", rules=BLANKS)
    with pytest.raises(PassError, match="TR1"):
        check_pass(rack, [BLANK, RACK[0], RACK[1]], "first-right")
    with pytest.raises(PassError, match="TR1"):
        check_pass(RACK, [BLANK, RACK[0], RACK[1]], "first-right", rules=BLANKS)  # no blank held


# -- TR3 a joker in the courtesy pass ---------------------------------------------------------


def test_TR3_a_joker_goes_in_the_courtesy_pass_only():
    check_pass(RACK, [tiles.JOKER], "courtesy", rules=COURTESY_JOKER)
    for which in charleston.PASSES:
        if which != "courtesy":
            with pytest.raises(PassError, match="C4"):
                check_pass(RACK, [tiles.JOKER, RACK[0], RACK[1]], which, rules=COURTESY_JOKER)
    with pytest.raises(PassError, match="C4"):
        check_pass(RACK, [tiles.JOKER], "courtesy")


# -- TR4 three players ------------------------------------------------------------------------


def test_TR4_three_seats_and_turns_east_south_west():
    assert table.plays_next("West", 3).decision == "East" and table.plays_next("West").decision == "North"
    assert table.plays_next("West", 3).rule == "TR4" and table.plays_next("West").rule == "S5"
    assert table.seats_between("South", "East", 3) == ["West"] and table.seats_between("South", "East") == ["West", "North"]
    assert table.east_after(["Ana", "Ben", "Cleo", "Dev"], 3, 3).decision == "Ana"
    assert table.east_after(["Ana", "Ben", "Cleo", "Dev"], 3).decision == "Dev"
    left = table.wall_after_deal(THREE)
    assert left.decision == 152 - 40 and left.rule == "TR4"
    assert table.wall_after_deal(TableRules(players=3, blanks=8)).decision == 160 - 40
    assert table.wall_after_deal().decision == 152 - 53 and table.wall_after_deal().rule == "S3"


def test_TR4_the_charleston_passes_right_and_left_with_no_across_and_no_courtesy():
    assert charleston.charlestons(3) == {"first": ("right", "left"), "second": ("left", "right")}
    assert charleston.charlestons() == charleston.CHARLESTONS and charleston.passes() == charleston.PASSES
    assert set(charleston.passes(3)) == {"first-right", "first-left", "second-left", "second-right"}
    for which in ("first-across", "second-across", "courtesy"):
        with pytest.raises(PassError, match="TR4"):
            check_pass(RACK, RACK[:3] if which != "courtesy" else RACK[:1], which, rules=THREE)


def test_TR4_after_a_call_play_goes_on_over_three_seats():
    assert after_call("West", "South", 3).decision == "West"
    assert after_call("South", "East", 3).facts["skipped"] == ("West",)
    assert after_call("South", "East").facts["skipped"] == ("West", "North")


# -- TR2 hot wall, TR5 picking ahead, C6 ------------------------------------------------------


def test_TR2_a_hot_wall_thrower_pays_for_the_table_unless_excused_or_early():
    assert table_play.hot_wall_pays("hot", True) and table_play.hot_wall_pays("hot", True).rule == "TR2"
    assert not table_play.hot_wall_pays("hot", False) and not table_play.hot_wall_pays("hot", True, excused=True)
    assert not table_play.hot_wall_pays("league", True) and table_play.hot_wall_pays("cold", True).rule == "P2"


def test_TR5_a_tile_picked_ahead_goes_back_when_the_discard_is_called():
    assert table_play.may_pick_ahead(True) and not table_play.may_pick_ahead()
    assert table_play.may_pick_ahead().rule == "K1" and table_play.may_pick_ahead(True).rule == "TR5"
    assert table_play.picked_ahead(called=True).decision == "wall" and table_play.picked_ahead(called=False).decision == "draw"


def test_C6_an_all_blind_pass_ends_the_charleston_only_at_a_table_that_plays_it():
    assert charleston.all_blind_ends(True) and not charleston.all_blind_ends()
