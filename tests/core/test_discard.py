"""The discard advisor: offence by tiles away and outs, defence by D1; J3."""

import pytest

from coach.advice.discard import Danger, advise_discard, danger, defend, wanted_share
from coach.notation import tiles
from coach.reading.tiles_away import HoldingError, parse_exposure
from tests.support.cards import CARD, holding, make_card


def test_throws_the_tile_the_hand_does_not_need():
    h = holding("F F F N N N N GD GD GD S S S 9C")  # WD-2 is FFF NNNN GGG SSSS
    advice = advise_discard(CARD, h)
    assert tiles.CODES[advice.best.tile] == "9C"
    assert advice.best.distance == 1
    assert "9 Crak" in advice.explanation[0]


def test_every_distinct_tile_is_an_option():
    h = holding("F F F N N N N GD GD GD S S S 9C")
    options = {tiles.CODES[o.tile] for o in advise_discard(CARD, h).options}
    assert options == {"F", "N", "GD", "S", "9C"}


def test_needs_fourteen_tiles():
    with pytest.raises(HoldingError, match="14 tiles"):
        advise_discard(CARD, holding("F F F N N N N GD GD GD S S S"))


def test_J3_a_joker_may_be_thrown_when_it_has_no_place():
    # A Singles & Pairs line never takes a joker: with it one away, the joker is dead weight.
    card = make_card(("SP", "NN EE WW SS 11a 22a 33a", 50, True))
    h = holding("N N E E W W S S 1D 1D 2D 2D 3D J")
    advice = advise_discard(card, h)
    assert advice.best.tile == tiles.JOKER
    assert any("J3" in line for line in advice.explanation)


def test_D1_safe_when_thrown_twice_without_a_call():
    h = holding("F F F N N N N GD GD GD S S 9C 1B")
    seen = tiles.counts(["1B", "1B"])
    by_tile = {tiles.CODES[o.tile]: o for o in advise_discard(CARD, h, seen).options}
    assert by_tile["1B"].safe and "thrown twice" in by_tile["1B"].note
    assert not by_tile["9C"].safe


def test_D1_hot_tile_from_another_players_exposures():
    card = make_card(
        ("A", "1111a 2222a 333a FFF", 25),
        ("B", "1111a 2222a 333a NNN", 25),
        ("C", "1111a 5555b 666c FFF", 25),
    )
    # The kong of 1 Dots fixes a = Dots: four possible hands, A, B and C twice
    # (b, c = Bams, Craks or Craks, Bams); shares count hands, not lines.
    share = wanted_share(card, [parse_exposure("1D 1D 1D 1D")])
    assert share[tiles.INDEX["2D"]] == pytest.approx(2 / 4)
    assert share[tiles.INDEX["N"]] == pytest.approx(1 / 4)
    h = holding("2D N 9C 9C 9C 8B 8B 8B 7C 7C 7C 6B 6B 6B")
    others = [[parse_exposure("1D 1D 1D 1D")]]
    early = advise_discard(card, h, None, others)
    late = advise_discard(card, h, None, others, late=True)
    hot = [o for o in early.options if o.hot]
    assert [tiles.CODES[o.tile] for o in hot] == ["2D"]
    assert late.options[-1].tile == tiles.INDEX["2D"]  # defence first late in the hand
    assert any("D1" in line for line in late.explanation)
    safe = {tiles.CODES[o.tile] for o in early.options if o.safe}
    assert "9C" in safe  # no line the 1 Dot kong allows uses 9 Crak


def test_other_players_exposures_count_as_seen_for_outs():
    h = holding("F F F N N N N GD GD GD S S S 9C")
    alone = advise_discard(CARD, h).best.live_outs
    shown = advise_discard(CARD, h, None, [[parse_exposure("F F F J")]]).best.live_outs
    assert shown == alone - 1  # the joker in their exposure can no longer be drawn


def test_D1_defend_marks_hot_and_safe_as_the_advisor_does():
    h = holding("2D 1B 1B 9C 9C F N N GD GD S S 6B 7C")
    seen = tiles.counts(["1B", "1B", "9C"])
    for others in ([], [[parse_exposure("1D 1D 1D 1D")]], [[parse_exposure("F F F J")], [parse_exposure("6B 6B 6B")]]):
        advice = advise_discard(CARD, h, seen, others)
        judged = defend(CARD, [o.tile for o in advice.options], seen, others)
        assert {o.tile: (o.hot, o.safe) for o in advice.options} == {t: (d.hot, d.safe) for t, d in judged.items()}


def test_D1_danger_is_the_same_whatever_the_exposures_order_or_jokers():
    a, b = parse_exposure("WD WD WD J"), parse_exposure("F F F F")
    first, again = danger(CARD, [a, b]), danger(CARD, [b, parse_exposure("WD WD WD WD")])
    assert first.hands == again.hands and (first.needing == again.needing).all()
    assert not first.needing.flags.writeable  # shared between callers: nobody may change it


def test_D1_danger_counts_the_possible_hands_that_need_a_tile():
    card = make_card(
        ("Q", "FFFFF DDDDDa 1111b", 25, False, "any"),
        ("C", "FFFFF DDDDDa 2222b", 25, True, "any"),  # concealed: no exposure allows it (H4)
    )
    found = danger(card, [parse_exposure("WD WD WD WD J")])
    assert found.hands == 18  # a = Dots for the Soaps; b = Bams or Craks; nine numbers
    assert int(found.needing[tiles.INDEX["1B"]]) == 1
    assert found.share(tiles.INDEX["F"]) == 1.0
    assert found.words(tiles.INDEX["1B"], "North") == "1 in 18 of North's possible hands needs it"
    assert found.words(tiles.INDEX["F"], "North") == "all 18 of North's possible hands need it"
    assert found.words(tiles.INDEX["N"], "North") == "none of North's possible hands needs it"
    assert danger(card, [parse_exposure("N N N")]).hands == 0


def test_D1_danger_words_round_to_a_share_a_beginner_reads():
    import numpy as np

    needing = np.zeros(tiles.NATURALS, dtype=np.int64)
    needing[0], needing[1], needing[2] = 5, 70, 99
    found = Danger(100, needing)
    assert found.words(0, "West") == "1 in 20 of West's possible hands needs it"
    assert found.words(1, "West") == "7 in 10 of West's possible hands need it"
    assert found.words(2, "West") == "nearly all of West's possible hands need it"
    found = Danger(101, needing)
    assert found.words(0, "West") == "about 1 in 20 of West's possible hands needs it"
    assert found.words(1, "West") == "about 7 in 10 of West's possible hands need it"
    assert Danger(5, needing).words(0, "East") == "all five of East's possible hands need it"
    needing[0] = 2
    assert Danger(2, needing).words(0, "East") == "both of East's possible hands need it"
    needing[0] = 1
    assert Danger(1, needing).words(0, "East") == "East's only possible hand needs it"
