"""The rulings of the table rules (coach.rules): each pure, each with the id
that decides it, and each the League's ruling when its switch is off."""

from __future__ import annotations

import pytest

from coach.notation import tiles
from coach.reading.tiles_away import Holding
from coach.rules.calls import MAH_JONGG, speaking_order, who_gets
from coach.rules.charleston import (
    BLIND_PASSES,
    STEPS,
    PassError,
    has_courtesy,
    may_pass_joker,
    pass_steps,
    receiver,
    sender,
    steps,
)
from coach.rules.mahjong import score, thrower_pays_all
from coach.rules.table import next_seat, seats_in_play, turns_after
from coach.rules.table_play import (
    cold_wall_call,
    hot_wall_excused,
    in_last_wall,
    last_wall,
    may_swap_now,
    may_take_with_blank,
    picks_ahead,
)
from tests.support.hands import CARD, codes


def test_TR4_three_seats_play_in_turn_and_pass_right_and_left_only() -> None:
    assert seats_in_play(3) == ("East", "South", "West") and seats_in_play() == tiles.SEATS
    assert [next_seat(s, 1, 3) for s in seats_in_play(3)] == ["South", "West", "East"]
    assert turns_after("West", "South", 3) == 2 and turns_after("West", "South") == 3
    assert steps(3) == ("first-right", "first-left", "vote", "second-left", "second-right") and steps(4) == STEPS
    assert pass_steps(3) == ("first-right", "first-left", "second-left", "second-right")
    assert all(step in pass_steps(3) for step in BLIND_PASSES)  # the last pass of each is still the blind one
    assert receiver("West", "right", 3) == "East" and receiver("East", "left", 3) == "West"
    assert all(sender(receiver(s, d, 3), d, 3) == s for s in seats_in_play(3) for d in ("right", "left"))
    assert receiver("East", "left") == "North"  # four players: unchanged
    with pytest.raises(PassError, match="TR4"):
        receiver("East", "across", 3)
    assert has_courtesy(4) and not has_courtesy(3) and has_courtesy(3).rule == "TR4"


def test_TR3_a_joker_passes_in_the_courtesy_pass_only_with_the_switch() -> None:
    assert may_pass_joker("courtesy", True) and may_pass_joker("courtesy", True).rule == "TR3"
    assert not may_pass_joker("courtesy") and may_pass_joker("courtesy").rule == "C4"
    assert not may_pass_joker("first-right", True) and not may_pass_joker("second-left", True)


def test_TR6_the_first_spoken_of_the_best_purpose_wins_and_the_order_of_speaking_is_stated() -> None:
    claims = {"North": "exposure", "South": "exposure"}  # North spoke first
    assert who_gets("East", claims).decision == "South" and who_gets("East", claims).rule == "K4"
    assert who_gets("East", claims, first_to_speak=True).decision == "North"
    assert who_gets("East", claims, first_to_speak=True).rule == "TR6"
    assert who_gets("East", {"North": "exposure", "West": MAH_JONGG}, first_to_speak=True).decision == "West"
    order = speaking_order("West", ("East", "South", "North"), first="East")
    assert order.decision == ("East", "North", "South") and order.rule == "TR6"
    assert speaking_order("West", ("East", "South", "North")).decision == ("North", "East", "South")
    assert speaking_order("South", ("East", "West"), players=3).decision == ("West", "East")


def test_TR4_two_losers_pay_each_what_they_would_at_four() -> None:
    won = Holding.of(codes("1D 1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 3D 4D 4D"))
    value = 2 * CARD.line("KONGS").value  # jokerless (P4)
    four, three = score(CARD, won, "discard"), score(CARD, won, "discard", players=3)
    assert (four.discarder, four.other, four.total) == (2 * value, value, 4 * value)
    assert (three.discarder, three.other, three.total) == (2 * value, value, 3 * value) and "TR4" in three.rules
    assert "TR4" not in four.rules and "the other two" in " ".join(four.explanation)
    self_picked = score(CARD, won, "self", players=3)
    assert (self_picked.discarder, self_picked.other, self_picked.total) == (None, 2 * value, 4 * value)
    assert "both pay double" in " ".join(self_picked.explanation)


def test_TR2_the_hot_thrower_pays_the_whole_tables_share() -> None:
    won = Holding.of(codes("1D 1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 3D 4D 4D"))
    payment = score(CARD, won, "discard")
    hot = thrower_pays_all(payment)
    assert (hot.discarder, hot.other, hot.total) == (payment.total, 0, payment.total) and "TR2" in hot.rules
    with pytest.raises(ValueError):
        thrower_pays_all(score(CARD, won, "self"))


def test_TR2_the_last_wall_and_who_is_excused() -> None:
    assert last_wall((1, 2, 3)).decision == 12 and last_wall((1, 2, 3)).rule == "TR2"
    assert in_last_wall(12, (1, 2, 3)) and not in_last_wall(13, (1, 2, 3))
    assert not cold_wall_call("cold", True) and cold_wall_call("cold", False) and cold_wall_call("hot", True)
    assert cold_wall_call("league", True).rule == "K1" and cold_wall_call("cold", True).rule == "TR2"
    five_dot, flower = tiles.INDEX["5D"], tiles.FLOWER
    assert hot_wall_excused(five_dot, 3) and not hot_wall_excused(five_dot, 2)
    assert hot_wall_excused(flower, 7) and not hot_wall_excused(flower, 6)


def test_TR1_what_a_blank_may_take_and_when() -> None:
    assert may_take_with_blank(tiles.INDEX["5D"]) and may_take_with_blank(tiles.FLOWER)
    assert not may_take_with_blank(tiles.JOKER) and not may_take_with_blank(tiles.BLANK)
    assert may_swap_now("draw", False, True) and may_swap_now("call", False, True)
    assert not may_swap_now("deal", False, True) and not may_swap_now(None, False, True)
    assert not may_swap_now("draw", True, True) and not may_swap_now("draw", False, False)
    assert all(r.rule == "TR1" for r in (may_swap_now("deal", False, True), may_take_with_blank(tiles.JOKER)))


def test_TR5_the_next_player_picks_ahead() -> None:
    assert picks_ahead("East").decision == "South" and picks_ahead("North").decision == "East"
    assert picks_ahead("West", 3).decision == "East" and picks_ahead("West").rule == "TR5"
