"""Joker exchange in the core (coach/rules/joker_exchange.py), one test per rule id."""

from __future__ import annotations

import pytest

from coach.notation import tiles
from coach.rules import joker_exchange as exchange
from coach.rules.joker_exchange import Exchange, exchange_ruling

FIVE_DOT, SIX_DOT = tiles.INDEX["5D"], tiles.INDEX["6D"]


def swap(**kw) -> Exchange:
    return Exchange(stands_for=FIVE_DOT, offered=kw.pop("offered", FIVE_DOT), **kw)


def test_J4_own_turn_after_a_draw_or_call_with_the_exact_tile_any_exposure():
    assert exchange_ruling(swap())
    assert exchange_ruling(swap(acquired="call"))
    assert exchange_ruling(swap(own_exposure=True)).facts["own"]
    not_yet = exchange_ruling(swap(acquired=None))
    assert not not_yet and not_yet.rule == "J4" and not_yet.facts["cause"] == exchange.TIME
    assert not_yet.facts["dead"]  # before acquiring a tile: the hand is dead (E3)
    other_turn = exchange_ruling(swap(your_turn=False))
    assert not other_turn and not other_turn.facts["dead"]
    wrong = exchange_ruling(swap(offered=SIX_DOT))
    assert not wrong and wrong.rule == "J4" and wrong.facts["cause"] == exchange.TILE
    with pytest.raises(ValueError):
        exchange_ruling(swap(acquired="wish"))


def test_J5_a_call_only_to_redeem_a_joker_is_not_allowed():
    ruling = exchange_ruling(swap(acquired="call", call_stands_alone=False))
    assert not ruling and ruling.rule == "J5" and ruling.facts["cause"] == exchange.CALL


def test_J6_the_new_exposure_is_fixed_once_a_swap_starts():
    ruling = exchange_ruling(swap(acquired="call", rearranged_after=True))
    assert not ruling and ruling.rule == "J6" and ruling.facts["cause"] == exchange.FIXED


def test_J7_one_joker_for_one_exact_tile_the_exposure_keeps_its_size():
    grows = exchange_ruling(swap(given=2, taken=1))
    shrinks = exchange_ruling(swap(given=1, taken=2))
    assert grows.rule == shrinks.rule == "J7" and not grows and not shrinks
    assert (grows.facts["size_change"], shrinks.facts["size_change"]) == (1, -1)


def test_J8_a_concealed_hand_may_redeem_jokers():
    ruling = exchange_ruling(swap(concealed_hand=True))
    assert ruling and ruling.rule == "J8"
