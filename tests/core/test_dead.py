"""Dead hands in the core (coach/rules/dead_hands.py), one test per rule id."""

from __future__ import annotations

import pytest

from coach.reading.tiles_away import Holding, parse_exposure
from coach.rules import dead_hands as dead
from tests.support.cards import CARD


def exposures(*texts: str):
    return tuple(parse_exposure(t, n) for n, t in enumerate(texts, 1))


def test_E1_a_mah_jongg_laid_down_is_checked_right_or_wrong():
    right = Holding.of("2D 2D 2D 4D 4D 4D WD WD WD 6B 6B 6B 8B 8B".split())
    ruling = dead.dead_by_mah_jongg(CARD, right)
    assert not ruling and ruling.facts["wins"][0].line.id == "2468-1"
    wrong = Holding.of("2D 2D 2D 4D 4D 4D WD WD WD 6B 6B 6B 8B 9C".split())
    ruling = dead.dead_by_mah_jongg(CARD, wrong)
    assert ruling and ruling.rule == "E3" and ruling.facts["cause"] == dead.FALSE_MAH_JONGG


def test_E2_a_wall_game_pays_nobody_and_is_dealt_again():
    ruling = dead.wall_game(winner=None)
    assert ruling.decision == 0 and ruling.rule == "E2" and ruling.facts["redeal"]
    with pytest.raises(ValueError):
        dead.wall_game(winner="East")
    assert not dead.who_calls_it_dead(own=False, proven=False)  # and nobody's hand is dead for it


def test_E3_exposures_that_fit_no_line_or_only_a_concealed_one_are_dead():
    fits = dead.dead_by_exposures(CARD, exposures("6B 6B 6B"))
    assert not fits and "2468-1" in [line.id for line in fits.facts["lines"]]
    only_concealed = dead.dead_by_exposures(CARD, exposures("E E E E"))
    assert only_concealed and only_concealed.facts["cause"] == dead.CONCEALED_ONLY
    assert [line.id for line in only_concealed.facts["concealed"]] == ["369-2"]
    none = dead.dead_by_exposures(CARD, exposures("E E E E E", "9D 9D 9D"))
    assert none and none.facts["cause"] == dead.NO_LINE


def test_E3_wrong_counts_and_turn_faults_make_a_hand_dead():
    assert dead.dead_by_count(12, "between").facts["cause"] == dead.COUNT
    assert not dead.dead_by_count(13, "between") and not dead.dead_by_count(14, "drawn")
    assert dead.dead_by_count(13, "drawn")
    assert not dead.dead_by_count(14, "east").facts["checked"]  # before East's first discard (S3)
    assert dead.dead_by_turn("drew-out-of-turn").facts["cause"] == dead.DREW
    assert dead.dead_by_turn("discarded-before-drawing").facts["cause"] == dead.EARLY
    swap = dead.dead_by_turn("exchanged-before-drawing")
    assert swap.facts["cause"] == dead.SWAP and swap.facts["also"] == "J4"
    assert not dead.dead_by_turn("called") and dead.dead_by_turn("called").facts["also"] == "K5"
    assert not dead.dead_by_turn("exchanged-after-drawing")
    with pytest.raises(ValueError):
        dead.dead_by_turn("sneezed")


def test_E4_a_dead_hand_stops_playing_still_pays_and_is_called_dead_by_another():
    for action in ("draw", "discard", "call", "call for Mah Jongg"):
        assert not dead.dead_hand_may(action) and dead.dead_hand_may(action).rule == "E4"
    assert dead.dead_hand_may("pay the winner")
    assert not dead.who_calls_it_dead(own=True, proven=True)
    assert dead.who_calls_it_dead(own=False, proven=True)
    with pytest.raises(ValueError):
        dead.dead_hand_may("fly")
