"""Tiles away, clause by clause (docs/card-format.md "Tiles away"), J1, J2, H4,
and the regressions other American mahjong engines got wrong."""

import numpy as np
import pytest

from coach.notation import tiles
from coach.notation.card import house_card
from coach.reading.analysis import analyze
from coach.reading.tiles_away import (
    OUT_OF_REACH,
    CardTables,
    Exposure,
    HoldingError,
    fill,
    parse_exposure,
    read_holding,
    tables_for,
)
from tests.support.cards import holding, make_card


def line_distance(card, line_id, h):
    tables = tables_for(card)
    n = [line.id for line in tables.lines].index(line_id)
    return int(tables.line_distances(h)[n])


def slow_distance(card, line_id, h):
    line = card.line(line_id)
    return min(fill(r, h, line.concealed).distance for r in line.readings)


# -- clause 1: concealed lines (H4) -------------------------------------------------


def test_H4_concealed_line_out_of_reach_after_an_exposure():
    card = make_card(("C1", "NNN EEE WWW SSS FF", 40, True), ("X1", "NNN EEE WWW SSS FF", 25, False))
    exposed = holding("EEE WWW SSS F F".replace("EEE", "E E E").replace("WWW", "W W W").replace("SSS", "S S S"), "N N N")
    assert line_distance(card, "C1", exposed) == OUT_OF_REACH
    assert line_distance(card, "X1", exposed) == 0
    concealed = holding("N N N E E E W W W S S S F F")
    assert line_distance(card, "C1", concealed) == 0


def test_regression_concealed_line_not_offered_after_an_exposure():
    card = house_card()
    h, seen = read_holding("2D 2D 2D 4D 4D 6D 6D F F N", ["8B 8B 8B"])
    result = analyze(card, h, seen)
    for r in result.lines:
        if r.line.concealed:
            assert r.distance is None and r.reading is None
            assert "concealed" in r.reason
    assert result.lines[-1].distance is None  # out of reach lines rank last


# -- clause 2: exposures sit on their own group -------------------------------------


def test_exposure_must_match_tile_and_size():
    card = make_card(("L", "NNN EEEE WWW SSSS", 25))
    assert line_distance(card, "L", holding("E E E E W W W S S S S", "N N N")) == 0
    # A kong of North fits no group (North is a pung here).
    assert line_distance(card, "L", holding("E E E E W W W S S S", "N N N N")) == OUT_OF_REACH
    # A pung of East fits no group (East is a kong).
    assert line_distance(card, "L", holding("N N N W W W S S S S F", "E E E")) == OUT_OF_REACH


def test_each_exposure_needs_its_own_group():
    card = make_card(("TWO", "111a 111b 2222a FFFF", 25), ("ONE", "111a 222b 3333a FFFF", 25))
    h = holding("F F F F 2D 2D 2D 2D", "1D 1D 1D", "1B 1B J")
    assert line_distance(card, "TWO", h) == 0
    assert line_distance(card, "ONE", h) == OUT_OF_REACH


def test_exposures_count_their_jokers_as_tiles():
    card = make_card(("L", "NNNN EEEE WWW SSS", 25))
    h = holding("E E E E W W W S S S", "N J J J")
    assert line_distance(card, "L", h) == 0


# -- clause 3: filling from the rack (J1, J2) ----------------------------------------


def test_naturals_fill_singles_and_pairs_first():
    # 1 Dot is both a pair and a pung: the two naturals must go to the pair,
    # leaving the pung to the three jokers.
    card = make_card(("L", "11a 111a NNNN EEEE W", 25))
    h = holding("1D 1D J J J N N N N E E E E")
    assert line_distance(card, "L", h) == 1
    f = fill(card.line("L").readings[0], h)
    assert [(tiles.CODES[m.tile], m.count, m.joker_ok) for m in f.missing] == [("W", 1, False)]


@pytest.mark.parametrize("size", [3, 4, 5, 6])
def test_J1_jokers_fill_pungs_kongs_quints_and_sextets(size):
    rest = {3: "NNNN EEEE WWW", 4: "NNNN EEEE WW", 5: "NNNN EEEEE", 6: "NNNN EEEE"}[size]
    card = make_card(("L", f"{'1' * size}a {rest}", 25))
    h = holding("1D " + "J " * (size - 1))
    assert line_distance(card, "L", h) == 14 - size


def test_J2_jokers_never_fill_singles_or_pairs():
    card = make_card(("SP", "NEWS 11a 22a 33b 44b FF", 50, True))
    assert line_distance(card, "SP", holding("N E J J J J J J")) == 12
    assert line_distance(card, "SP", holding("N E")) == 12


def test_J2_flower_pung_takes_a_joker_flower_pair_does_not():
    card = make_card(("PUNG", "FFF NNNN EEEE WWW", 25), ("PAIR", "FF NNNN EEEE SSSS", 25))
    assert line_distance(card, "PUNG", holding("F J N N N N")) == 14 - 6
    # Every kong is full, so the joker's only empty slot is in the Flower pair: it may not go there.
    h = holding("F J N N N N E E E E S S S S")
    assert line_distance(card, "PAIR", h) == 1
    f = fill(card.line("PAIR").readings[0], h)
    assert [(tiles.CODES[m.tile], m.joker_ok) for m in f.missing] == [("F", False)]
    assert tiles.CODES[f.unused[0]] == "J"


def test_regression_kong_of_flowers_filled_with_jokers():
    card = make_card(("L", "FFFF NNNN EEEE WW", 25))
    h = holding("F J J J N N N N E E E E W W")
    assert line_distance(card, "L", h) == 0


def test_regression_joker_in_a_pair_or_single():
    card = make_card(("L", "NN EE 1111a 2222a WW", 25))
    h = holding("N J E J 1D 1D 1D 1D 2D 2D 2D 2D W W")
    assert line_distance(card, "L", h) == 2


def test_regression_double_pair_is_not_a_kong():
    card = make_card(("PAIRS", "11a 11a 2222b 3333c FF", 25), ("KONG", "1111a 2222b 3333c FF", 25))
    h = holding("1D 1D J J 2B 2B 2B 2B 3C 3C 3C 3C F F")
    assert line_distance(card, "PAIRS", h) == 2
    assert line_distance(card, "KONG", h) == 0


def test_regression_2026_is_singles_not_a_group():
    card = make_card(("Y", "FF 2026a 3333b 3333c", 25))
    # Jokers cannot stand in for the year's digits (J2).
    h = holding("2D J J J F F 3B 3B 3B 3B 3C 3C 3C 3C")
    assert line_distance(card, "Y", h) == 3
    h = holding("2D 0 2D 6D F F 3B 3B 3B J 3C 3C J 3C")
    assert line_distance(card, "Y", h) == 0


def test_regression_the_tile_just_drawn_counts():
    card = make_card(("L", "NNN EEE WWW SSS FF", 25))
    assert line_distance(card, "L", holding("N N N E E E W W W S S S F")) == 1
    assert line_distance(card, "L", holding("N N N E E E W W W S S S F F")) == 0


# -- clause 4 and the line's distance -------------------------------------------------


def test_distance_is_14_less_exposed_less_placed():
    card = make_card(("L", "1111a 2222a 3333a FF", 25))
    h = holding("1D 2D 2D F 9C N", "3D 3D 3D J")
    f = fill(card.line("L").readings[0], h)
    assert f.distance == 14 - 4 - 4
    assert sorted(tiles.CODES[t] for t in f.unused) == ["9C", "N"]


def test_a_line_is_as_near_as_its_nearest_reading():
    card = make_card(("L", "111a 222b 3333c FFFF", 25))
    h = holding("1C 1C 1C 2D 2D 2D 3B 3B")
    line = card.line("L")
    per_reading = [fill(r, h).distance for r in line.readings]
    assert min(per_reading) == line_distance(card, "L", h) == 14 - 8
    assert max(per_reading) > min(per_reading)


def test_fast_tables_agree_with_the_definition_on_the_house_card():
    card = house_card()
    rng = np.random.default_rng(7)
    wall = [t for t in range(tiles.KINDS) for _ in range(tiles.COPIES[t])]
    tables = CardTables(card)
    for _ in range(60):
        rack = [int(t) for t in rng.permutation(wall)[:14]]
        h = holding(tiles.format_tiles(rack))
        fast = tables.reading_distances(h)
        slow = [fill(r, h, tables.lines[tables.line_of[i]].concealed).distance for i, r in enumerate(tables.readings)]
        assert list(fast) == slow
        batch = tables.batch_reading_distances(np.array([h.rack]))
        assert list(batch[0]) == slow


def test_fast_tables_agree_with_exposures():
    card = house_card()
    for rack, exposed in [
        ("2D 2D 4D 4D 6D 6D 8D F F N E", ["J 8B 8B"]),
        ("1D 1D 1B 1B 1C 1C N E W S", ["F F F F"]),
        ("3D 3D 6B 6B 9C 9C", ["N N N", "S S S J"]),
    ]:
        h, _ = read_holding(rack, exposed, sizes=())
        tables = tables_for(card)
        fast = tables.reading_distances(h)
        slow = [fill(r, h, tables.lines[tables.line_of[i]].concealed).distance for i, r in enumerate(tables.readings)]
        assert list(fast) == slow


# -- reading what users type ---------------------------------------------------------


def test_exposure_parsing():
    assert parse_exposure("5D 5D J") == Exposure(tiles.INDEX["5D"], 3, 1)
    assert parse_exposure(["F", "F", "F", "F"]) == Exposure(tiles.INDEX["F"], 4, 0)
    with pytest.raises(HoldingError, match="mixes 5 Dot and 6 Dot"):
        parse_exposure("5D 6D 5D")
    with pytest.raises(HoldingError, match="has 2 tiles"):
        parse_exposure("5D 5D")
    with pytest.raises(HoldingError, match="no natural tile"):
        parse_exposure("J J J")
    with pytest.raises(HoldingError, match="has 7 tiles"):
        parse_exposure("F F F F F F F")


def test_holding_size_and_supply_are_checked():
    with pytest.raises(HoldingError, match="holds 13 or 14 tiles, this one has 12"):
        read_holding("1D 2D 3D 4D 5D 6D 7D 8D 9D N E W")
    with pytest.raises(HoldingError, match=r"this one has 15 \(12 on the rack, 3 exposed\)"):
        read_holding("1D 2D 3D 4D 5D 6D 7D 8D 9D N E W", ["S S S"])
    with pytest.raises(tiles.TileError, match="the rack and exposure 1 hold 5 × 5 Dot"):
        read_holding("5D 5D 1D 2D 3D 4D 6D 7D 8D 9D", ["5D 5D 5D"])
    with pytest.raises(tiles.TileError, match="the rack and the seen tiles hold 5 × North"):
        read_holding("N N 1D 2D 3D 4D 5D 6D 7D 8D 9D E W", seen="N N N")
    h, seen = read_holding("N N 1D 2D 3D 4D 5D 6D 7D 8D 9D E W", seen="N N")
    assert seen[tiles.INDEX["N"]] == 2 and h.size == 13
