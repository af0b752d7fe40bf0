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


# -- the winning hand laid out as its line reads (issue 24, item 7) --------------------------

YEAR = make_card(("YEAR", "FF 2026a 222b 66c NNN", 25), ("PUNGS", "222a 2222b 444a 6666b", 25, False))


def laid(card, rack: str, *exposed: str):
    from coach.rules.mahjong import lay_out

    h = holding(rack, *exposed)
    (win,) = winning_lines(card, h)
    return lay_out(h, win.reading)


def test_H1_the_winning_tiles_lie_in_the_lines_order_one_token_each():
    groups = laid(YEAR, "N F 2D 0 2D 6D 2B 2B 2B 6C 6C N N F")
    assert [g.codes for g in groups] == [["F", "F"], ["2D", "WD", "2D", "6D"], ["2B", "2B", "2B"], ["6C", "6C"], ["N", "N", "N"]]
    assert [g.label for g in groups] == ["Pair of Flowers", "4 singles", "Pung of 2 Bams", "Pair of 6 Craks", "Pung of Norths"]
    assert sum(len(g.tiles) for g in groups) == 14 and not any(g.exposed for g in groups)


def test_J1_a_joker_stands_inside_its_pung_not_in_a_heap_of_its_own():
    groups = laid(YEAR, "F F 2D 0 2D 6D 2B J 2B 6C 6C N N J")
    assert [g.codes for g in groups][2:] == [["2B", "2B", "J"], ["6C", "6C"], ["N", "N", "J"]]
    assert [g.jokers for g in groups] == [0, 0, 1, 0, 1] and groups[2].rule == "J1" and groups[0].rule == "H2"
    assert groups[2].label == "Pung of 2 Bams, 1 joker"


def test_J2_jokers_never_stand_in_a_single_or_a_pair():
    # Two 2 Dots on the rack could fill the year's singles or the pung: naturals go where jokers may not.
    groups = laid(YEAR, "F F 2D 0 2D 6D 2B J J 6C 6C N N N")
    assert groups[1].codes == ["2D", "WD", "2D", "6D"] and groups[1].jokers == 0 and groups[3].jokers == 0
    assert groups[2].codes == ["2B", "J", "J"]


def test_J7_an_exposure_keeps_its_own_jokers_and_is_marked_exposed():
    groups = laid(YEAR, "F F 2D 0 2D 6D 6C 6C N N N", "2B J J")
    assert groups[2].codes == ["2B", "J", "J"] and groups[2].exposed and groups[2].label == "Pung of 2 Bams, 2 jokers"
    assert [g.exposed for g in groups] == [False, False, True, False, False]


def test_H2_a_kong_and_two_pungs_of_one_number_each_keep_their_own_suit():
    groups = laid(YEAR, "2D 2D 2D 2B 2B J 2B 4D 4D 4D 6B 6B J J")
    assert [g.codes for g in groups] == [["2D", "2D", "2D"], ["2B", "2B", "2B", "J"], ["4D", "4D", "4D"], ["6B", "6B", "J", "J"]]


def test_H1_tiles_that_do_not_complete_the_reading_are_refused():
    from coach.rules.mahjong import lay_out

    (win,) = winning_lines(YEAR, holding("F F 2D 0 2D 6D 2B 2B 2B 6C 6C N N N"))
    with pytest.raises(ValueError, match="H1"):
        lay_out(holding("F F 2D 0 2D 6D 2B 2B 2B 6C 6C N N 9D"), win.reading)
