"""Mah Jongg and payment: H1, H5, P1-P6."""

import pytest

from coach.rules.mahjong import is_jokerless, pay, score, winning_lines
from tests.support.cards import holding, make_card

CARD = make_card(
    ("WINDS", "NNN EEE WWW SSS FF", 25),
    ("PAIRS", "NN EE WW SS 11a 22a 33a", 50, True),
    ("KONGS", "NNNN EEEE WWW SSS", 30),
)
WINDS_NATURAL = "N N N E E E W W W S S S F F"
WINDS_JOKER = "N N N E E E W W W S S J F F"


def test_H1_fourteen_tiles_on_one_line_win():
    wins = winning_lines(CARD, holding(WINDS_NATURAL))
    assert [w.line.id for w in wins] == ["WINDS"]


def test_H1_exposures_count_toward_the_fourteen():
    h = holding("E E E W W W S S S F F", "N N J")
    assert [w.line.id for w in winning_lines(CARD, h)] == ["WINDS"]


def test_H1_thirteen_tiles_never_win():
    assert winning_lines(CARD, holding("N N N E E E W W W S S S F")) == []
    payment = score(CARD, holding("N N N E E E W W W S S F F 9D"), "self")
    assert payment.line is None and payment.total == 0 and payment.other == 0


def test_P1_P2_win_on_a_discard():
    payment = score(CARD, holding(WINDS_JOKER), "discard")
    assert (payment.discarder, payment.other, payment.total) == (50, 25, 100)
    assert {"P1", "P2"} <= set(payment.rules)


def test_P3_self_picked_all_pay_double():
    payment = score(CARD, holding(WINDS_JOKER), "self")
    assert (payment.discarder, payment.other, payment.total) == (None, 50, 150)
    assert "P3" in payment.rules


def test_P4_jokerless_doubles_again():
    payment = score(CARD, holding(WINDS_NATURAL), "discard")
    assert payment.jokerless
    assert (payment.discarder, payment.other, payment.total) == (100, 50, 200)
    assert "P4" in payment.rules


def test_P4_exposure_jokers_spoil_jokerless():
    h = holding("E E E W W W S S S F F", "N N J")
    assert not is_jokerless(h)
    assert score(CARD, h, "discard").other == 25


def test_P4_singles_and_pairs_get_no_jokerless_bonus():
    line = CARD.line("PAIRS")
    assert line.singles_and_pairs
    assert pay(line, "discard", jokerless=True) == (100, 50, 200)
    assert pay(line, "self", jokerless=True) == (None, 100, 300)


def test_P5_self_picked_and_jokerless_pay_four_times():
    payment = score(CARD, holding(WINDS_NATURAL), "self")
    assert (payment.discarder, payment.other, payment.total) == (None, 100, 300)
    assert "P5" in payment.rules


def test_P6_joker_exchange_from_another_exposure_pays_as_self_picked():
    assert score(CARD, holding(WINDS_JOKER), "exchange").total == score(CARD, holding(WINDS_JOKER), "self").total
    assert "P6" in score(CARD, holding(WINDS_JOKER), "exchange").rules


def test_H5_paid_as_the_line_that_pays_most():
    card = make_card(("LOW", "NNN EEE WWW SSS FF", 25), ("HIGH", "NNN EEE WWW SSS FF", 40))
    payment = score(card, holding(WINDS_NATURAL), "discard")
    assert payment.line.id == "HIGH" and "H5" in payment.rules


def test_H5_jokerless_bonus_can_change_which_line_pays_most():
    # Seven pairs read as a Singles & Pairs line (50, no bonus) or as pairs
    # and kongs (30): jokerless, the 30 line pays 60 and wins.
    card = make_card(
        ("SP", "NN NN EE EE 11a 11a FF", 50, True),
        ("KONGS", "NNNN EEEE 1111a FF", 30),
    )
    tiles14 = "N N N N E E E E 1D 1D 1D 1D F F"
    payment = score(card, holding(tiles14), "self")
    assert payment.line.id == "KONGS" and payment.other == 120
    with_joker = score(card, holding("N N N N E E E J 1D 1D 1D 1D F F"), "self")
    assert with_joker.line.id == "KONGS" and with_joker.other == 60


def test_H4_concealed_line_cannot_win_with_an_exposure():
    card = make_card(("C", "NNN EEE WWW SSS FF", 40, True))
    assert score(card, holding("E E E W W W S S S F F", "N N N"), "self").line is None
    assert score(card, holding(WINDS_NATURAL), "discard").line.id == "C"


def test_unknown_win_kind_is_rejected():
    with pytest.raises(ValueError, match="a win is one of"):
        score(CARD, holding(WINDS_NATURAL), "robbed")
