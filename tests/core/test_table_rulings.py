"""The rulings of the table rules in the core (coach.rules): each switch
changes exactly what docs/table-rules.md says, and nothing with the
League's rules (the default)."""

from __future__ import annotations

import pytest

from coach.notation import tiles
from coach.rules import blanks, charleston, table
from coach.rules.blanks import BLANK
from coach.rules.calls import MAH_JONGG, after_call, in_wall_end, wall_end_call, who_gets
from coach.rules.charleston import PassError, check_pass
from coach.rules.mahjong import Bill, hot_thrower_excused, hot_wall_pays, losers, pay, table_bill
from coach.rules.table_rules import LEAGUE, TableRules
from tests.support.cards import CARD

THREE = TableRules(players=3)
BLANKS = TableRules(blanks=4)
COURTESY_JOKER = TableRules(joker_in_courtesy=True)
COLD, HOT = TableRules(wall_end="cold"), TableRules(wall_end="hot")
SPEAK = TableRules(first_to_speak=True)
AHEAD = TableRules(picking_ahead=True)
RACK = [tiles.INDEX[c] for c in "1D 2D 3D 4B 5B 6B 7C 8C 9C N E W J".split()]


# -- TR1 blanks -------------------------------------------------------------------------


def test_TR1_the_set_holds_the_blanks_and_the_league_set_none():
    assert blanks.wall() == tiles.WALL and blanks.set_size() == 152 == table.set_size()
    assert blanks.wall(BLANKS).count(BLANK) == 4 and blanks.set_size(BLANKS) == 156 == table.set_size(BLANKS)
    assert blanks.set_ruling(BLANKS).rule == "TR1" and blanks.set_ruling().rule == "T1"


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
    assert charleston.joker_may_pass("courtesy", COURTESY_JOKER).rule == "TR3"
    for which in charleston.PASSES:
        if which != "courtesy":
            with pytest.raises(PassError, match="C4"):
                check_pass(RACK, [tiles.JOKER, RACK[0], RACK[1]], which, rules=COURTESY_JOKER)
    with pytest.raises(PassError, match="C4"):
        check_pass(RACK, [tiles.JOKER], "courtesy")


# -- TR4 three players ------------------------------------------------------------------------


def test_TR4_three_seats_and_turns_east_south_west():
    assert table.seats(THREE) == ("East", "South", "West") and table.seats() == tiles.SEATS
    assert table.plays_next("West", THREE).decision == "East" and table.plays_next("West").decision == "North"
    assert table.plays_next("West", THREE).rule == "TR4"
    assert table.turns_after("South", "East", THREE) == 2
    assert table.east_after(["Ana", "Ben", "Cleo", "Dev"], 3, THREE).decision == "Ana"
    left = table.wall_after_deal(THREE)
    assert left.decision == 152 - 40 and left.rule == "TR4"
    assert table.wall_after_deal(TableRules(players=3, blanks=8)).decision == 160 - 40
    assert table.wall_after_deal().decision == 152 - 53


def test_TR4_the_charleston_passes_right_and_left_with_no_across_and_no_courtesy():
    assert charleston.charlestons(THREE) == {"first": ("right", "left"), "second": ("left", "right")}
    assert charleston.steps(THREE) == ("first-right", "first-left", "vote", "second-left", "second-right")
    assert charleston.steps() == charleston.STEPS and set(charleston.passes()) == set(charleston.PASSES)
    assert "courtesy" not in charleston.passes(THREE) and not charleston.has_courtesy(THREE)
    assert [charleston.receiver(s, "right", THREE) for s in table.seats(THREE)] == ["South", "West", "East"]
    assert [charleston.receiver(s, "left", THREE) for s in table.seats(THREE)] == ["West", "East", "South"]
    for seat in table.seats(THREE):
        for direction in ("right", "left"):
            assert charleston.sender(charleston.receiver(seat, direction, THREE), direction, THREE) == seat
    for which in ("first-across", "second-across", "courtesy"):
        with pytest.raises(PassError, match="TR4"):
            check_pass(RACK, RACK[:3] if which != "courtesy" else RACK[:1], which, rules=THREE)


def test_TR4_two_losers_pay():
    line = next(line for line in CARD.lines if line.takes_jokers)
    v = line.value
    assert losers(THREE) == 2 and losers() == 3
    assert table_bill(line, "discard", False, THREE) == Bill(2 * v, v, 1, 3 * v, "TR4")
    assert table_bill(line, "self", False, THREE) == Bill(None, 2 * v, 2, 4 * v, "TR4")
    assert table_bill(line, "discard", False) == Bill(*pay(line, "discard", False)[:2], 2, pay(line, "discard", False)[2], "")


def test_TR4_after_a_call_play_goes_on_over_three_seats():
    assert after_call("West", "South", THREE).decision == "West"
    assert after_call("South", "East", THREE).facts["skipped"] == ("West",)


# -- TR2 hot and cold walls -------------------------------------------------------------------


def test_TR2_a_cold_wall_forbids_calls_in_the_last_tiles_only():
    assert in_wall_end(14, 7) and not in_wall_end(15, 7)
    assert not wall_end_call(COLD, 10, 7) and wall_end_call(COLD, 30, 7)
    assert wall_end_call(COLD).rule == "TR2" and not wall_end_call(COLD)
    assert wall_end_call(HOT, 10, 7) and wall_end_call(LEAGUE, 10, 7)


def test_TR2_a_hot_wall_thrower_pays_for_the_table_unless_every_copy_was_in_sight():
    line = next(line for line in CARD.lines if line.takes_jokers)
    v = line.value
    assert hot_wall_pays(HOT) and not hot_wall_pays(HOT, in_wall_end=False) and not hot_wall_pays(LEAGUE)
    assert not hot_wall_pays(HOT, excused=True)
    assert table_bill(line, "discard", False, HOT, hot=True) == Bill(4 * v, 0, 2, 4 * v, "TR2")
    assert table_bill(line, "discard", False, TableRules(wall_end="hot", players=3), hot=True) == Bill(3 * v, 0, 1, 3 * v, "TR2")
    assert hot_thrower_excused(tiles.INDEX["5D"], 3) and not hot_thrower_excused(tiles.INDEX["5D"], 2)
    assert hot_thrower_excused(tiles.FLOWER, 7) and not hot_thrower_excused(tiles.FLOWER, 6)


# -- TR5 picking ahead, TR6 first to speak, C6 ------------------------------------------------


def test_TR5_a_tile_picked_ahead_goes_back_when_the_discard_is_called():
    assert table.may_pick_ahead(AHEAD) and not table.may_pick_ahead()
    assert table.may_pick_ahead().rule == "K1" and table.may_pick_ahead(AHEAD).rule == "TR5"
    assert table.picked_ahead(called=True).decision == "wall" and table.picked_ahead(called=False).decision == "draw"


def test_TR6_the_first_to_speak_wins_between_equal_calls_but_mah_jongg_still_beats_an_exposure():
    claims = {"South": "exposure", "North": "exposure"}
    assert who_gets("East", claims).decision == "South"
    assert who_gets("East", claims, SPEAK, spoken=("North", "South")).decision == "North"
    assert who_gets("East", claims, SPEAK, spoken=("North", "South")).rule == "TR6"
    mixed = {"South": "exposure", "North": MAH_JONGG}
    assert who_gets("East", mixed, SPEAK, spoken=("South", "North")).decision == "North"
    assert who_gets("East", claims, LEAGUE, spoken=("North", "South")).decision == "South"  # spoken order ignored


def test_C6_an_all_blind_pass_ends_the_charleston_only_at_a_table_that_plays_it():
    assert charleston.all_blind_ends(TableRules(air_mahjong=True)) and not charleston.all_blind_ends()
