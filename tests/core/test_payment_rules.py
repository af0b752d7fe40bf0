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
