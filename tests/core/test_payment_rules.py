"""Why a hand is not Mah Jongg (H1, H4) and how a joker-exchange win pays (P6),
decided in coach/rules/mahjong.py; `python -m coach score` says the same."""

from __future__ import annotations

import pytest

from coach.reading.tiles_away import Holding, parse_exposure
from coach.rules.mahjong import pays_as, score
from tests.support.cards import CARD
from tests.support.cli import run_json

# 2026-5 "2026a 2026b 22c 6666c" is concealed.
CONCEALED_2026_5 = "2D WD 2D 6D 2B WD 2B 6B 2C 2C"


def test_H4_score_names_the_concealed_line_an_exposure_spoiled():
    holding = Holding.of(CONCEALED_2026_5.split(), [parse_exposure("6C 6C 6C 6C")])
    payment = score(CARD, holding, "self")
    assert payment.line is None and payment.total == 0
    assert payment.rules == ("H4",)
    assert "2026-5" in payment.explanation[0] and "concealed" in payment.explanation[0]
    assert "complete no line" not in payment.explanation[0]


def test_H1_tiles_that_fit_no_line_still_say_so():
    payment = score(CARD, Holding.of("1D 3D 5D 7D 9D 2B 4B 6B 8B N E W S RD".split()), "self")
    assert payment.rules == ("H1",) and "complete no line" in payment.explanation[0]


def test_H4_cli_score_gives_the_reason():
    data = run_json(["score", "--rack", CONCEALED_2026_5, "--exposed", "6C 6C 6C 6C", "--win", "self", "--json"])
    assert data["hand"] is None and data["rules"] == ["H4"]
    assert "concealed line" in data["explanation"][0]


# 2468-1 "222a 444a DDDa 666b 88b" with a joker for one 8 Bam of its pair.
JOKER_IN_PAIR = "2D 2D 2D 4D 4D 4D WD WD WD 6B 6B 6B 8B J"
# 2026-4 "EE 2026a WWWW FFFF" with a joker for the year's 2 Dot.
JOKER_IN_YEAR = "E E 2D WD J 6D W W W W F F F F"
# SP-2 "11a 22b 33c 44a 55b 66c 77a" with a joker for one 7 Dot.
JOKER_IN_SINGLES_AND_PAIRS = "1D 1D 2B 2B 3C 3C 4D 4D 5B 5B 6C 6C 7D J"


@pytest.mark.parametrize(
    ("rack", "line", "where"),
    [
        (JOKER_IN_PAIR, "2468-1", "in the pair of 8 Bams"),
        (JOKER_IN_YEAR, "2026-4", "as the 2 Dot of the year 2026"),
        (JOKER_IN_SINGLES_AND_PAIRS, "SP-2", "in a Singles & Pairs hand"),
    ],
)
def test_J2_a_joker_in_a_pair_or_the_year_is_why_it_is_not_mah_jongg(rack, line, where):
    payment = score(CARD, Holding.of(rack.split()), "self")
    assert payment.line is None and payment.total == 0
    assert payment.rules == ("J2",)
    said = payment.explanation[0]
    assert f"would complete {line} " in said and f"only with a joker {where}" in said
    assert "never stands as a single or in a pair" in said and said.endswith("(J2).")
    assert "complete no line" not in said


def test_J2_cli_score_says_why_a_joker_spoils_the_hand():
    for rack in (JOKER_IN_PAIR, JOKER_IN_YEAR):
        data = run_json(["score", "--rack", rack, "--win", "discard", "--json"])
        assert data["hand"] is None and data["total"] == 0 and data["rules"] == ["J2"]
        assert "a joker never stands as a single or in a pair" in data["explanation"][0]


def test_J1_a_joker_in_a_pung_is_still_mah_jongg_and_naturals_that_fit_nothing_still_say_H1():
    won = score(CARD, Holding.of("2D 2D J 4D 4D 4D WD WD WD 6B 6B 6B 8B 8B".split()), "self")
    assert won.line is not None and won.line.id == "2468-1"
    nothing = score(CARD, Holding.of("1D 3D 5D 7D 9D 2B 4B 6B 8B N E W S J".split()), "self")
    assert nothing.rules == ("H1",)


def test_P6_each_exchange_win_has_its_own_reason():
    other = pays_as("exchange")
    own = pays_as("own-exchange")
    assert (other.decision, other.rule) == ("self", "P6")
    assert (own.decision, own.rule) == ("discard", "P6")
    assert "another player's exposure" in other.facts["reason"]
    assert "no new tile" in own.facts["reason"] and "called discard" in own.facts["reason"]
    assert (pays_as("self").rule, pays_as("discard").rule) == ("P3", "P2")
    with pytest.raises(ValueError):
        pays_as("robbed")


def test_P6_payment_drill_level_3_seed_0_gives_the_own_exposure_reason():
    from drills import payment

    q = payment.generate(0, 3, CARD)
    assert q.key["situation"]["how"] == "own"
    text = " ".join(payment.grade(q, None).explanation)
    assert "brings no new tile" in text and "already complete" not in text
    value = q.key["situation"]["value"]  # the card's value of the line won; jokers in it: no P4 doubling
    assert not q.key["situation"]["jokerless"]
    assert q.key["best"] == f"Discarder {2 * value}, the others {value} each"


def test_P2_to_P6_each_doubling_is_named_and_makes_the_payment():
    """`doublings` names what `pay` multiplies by: the value times two for each."""
    from coach.notation.card import house_card
    from coach.rules.mahjong import doublings, pay

    for line in house_card().lines:
        for win in ("self", "discard", "exchange"):
            for jokerless in (False, True):
                discarder, other, _ = pay(line, win, jokerless)
                theirs, each = doublings(line, win, jokerless)
                assert other == line.value * 2 ** len(each)
                assert (discarder is None) == (win != "discard")
                if discarder is not None:
                    assert discarder == line.value * 2 ** len(theirs)
                named = {d.rule for d in (*theirs, *each)}
                assert ("P4" in named) == (jokerless and not line.singles_and_pairs)
                assert {"discard": "P2", "self": "P3", "exchange": "P6"}[win] in named
