"""Seats and turns in the core (coach/rules/table.py), one test per rule id."""

from __future__ import annotations

from coach.rules import table


def test_S1_the_highest_total_is_east_and_only_the_tied_roll_again():
    assert table.east_by_dice([("Ana", 7), ("Ben", 11), ("Cleo", 3), ("Dev", 10)]).decision == "Ben"
    tie = table.east_by_dice([("Ana", 9), ("Ben", 4), ("Cleo", 9), ("Dev", 2)])
    assert tie.decision == ("Ana", "Cleo") and tie.rule == "S1" and tie.facts["top"] == 9
    # the re-roll among the tied decides, whatever the others rolled first
    assert table.east_by_dice([("Ana", 5), ("Cleo", 8)]).decision == "Cleo"


def test_S2_east_breaks_its_own_wall_counting_stacks_from_the_right():
    ruling = table.wall_break((4, 5))
    assert ruling.decision == 9 and ruling.rule == "S2"
    assert ruling.facts == {"from": "right", "wall": "East", "left": 10, "stacks": 19}
    assert 4 * table.WALL_TILES == table.SET_SIZE == 152


def test_S3_the_deal_leaves_east_fourteen_the_others_thirteen():
    assert [table.after_the_deal(s).decision for s in table.SEATS] == [14, 13, 13, 13]
    assert table.tiles_dealt("West", 2).decision == 8
    assert table.tiles_dealt("West", 1, took_this_round=True).decision == 8
    assert table.wall_after_deal().decision == 152 - 53


def test_S4_east_discards_first_and_a_discard_is_final_once_touched_or_named():
    assert table.east_starts_without_drawing().facts["holds"] == 14
    assert table.discard_is_final(touched=True, named=False)
    assert table.discard_is_final(touched=False, named=True).facts["why"] == "named"
    assert not table.discard_is_final(touched=False, named=False)
    assert table.TURN_STEPS[0] == "draw" and table.TURN_STEPS[-1].startswith("discard")


def test_S5_play_passes_to_the_right_and_east_moves_right_each_hand():
    assert [table.plays_next(s).decision for s in table.SEATS] == ["South", "West", "North", "East"]
    assert table.seats_between("West", "South") == ["North", "East"]
    assert table.turns_after("North", "South") == 2
    players = ("Ana", "Ben", "Cleo", "Dev")
    assert [table.east_after(players, n).decision for n in range(5)] == ["Ana", "Ben", "Cleo", "Dev", "Ana"]
