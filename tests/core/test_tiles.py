"""Tile codes, aliases and the 152-tile set (docs/card-format.md "Tile codes", T1-T4)."""

import pytest

from coach.notation import tiles
from coach.notation.tiles import TileError


def test_T1_the_set_holds_152_tiles():
    assert tiles.SET_SIZE == 152
    assert sum(tiles.COPIES[tiles.suited(n, s)] for s in "DBC" for n in range(1, 10)) == 108
    assert sum(tiles.COPIES[tiles.INDEX[w]] for w in "NEWS") == 16
    assert sum(tiles.COPIES[tiles.INDEX[d]] for d in ("RD", "GD", "WD")) == 12
    assert tiles.COPIES[tiles.FLOWER] == 8
    assert tiles.COPIES[tiles.JOKER] == 8


def test_T2_dragons_go_with_their_suits():
    assert tiles.DRAGON_OF_SUIT == {"C": "RD", "B": "GD", "D": "WD"}
    assert "Craks" in tiles.kind(tiles.INDEX["RD"])
    assert "Bams" in tiles.kind(tiles.INDEX["GD"])
    assert "Dots" in tiles.kind(tiles.INDEX["WD"])


def test_T3_all_flowers_are_one_tile():
    assert tiles.parse("F flower Flowers FLOWER") == ["F"] * 4
    assert tiles.counts(["F"] * 8)[tiles.FLOWER] == 8


def test_T4_soap_is_zero_and_white_dragon():
    assert tiles.parse("0 soap white WD white dragon") == ["WD"] * 5
    assert tiles.name("WD") == "Soap"


CANONICAL = ["1D", "9D", "1B", "5B", "9C", "N", "E", "W", "S", "RD", "GD", "WD", "F", "J"]


@pytest.mark.parametrize("code", CANONICAL)
def test_canonical_codes_parse_in_any_case(code):
    assert tiles.parse(code) == [code]
    assert tiles.parse(code.lower()) == [code]


@pytest.mark.parametrize(
    "text, code",
    [
        ("1 dot", "1D"), ("1dots", "1D"), ("one dot", "1D"), ("1 circle", "1D"), ("Seven Dots", "7D"),
        ("1 bam", "1B"), ("1 bamboo", "1B"), ("one bam", "1B"), ("9 bams", "9B"),
        ("1 crak", "1C"), ("1 crack", "1C"), ("1 character", "1C"), ("one crak", "1C"), ("3 craks", "3C"),
        ("north", "N"), ("East", "E"), ("WEST", "W"), ("south", "S"),
        ("red", "RD"), ("red dragon", "RD"), ("green", "GD"), ("Green Dragon", "GD"),
        ("soap", "WD"), ("white", "WD"), ("white dragon", "WD"), ("0", "WD"),
        ("flower", "F"), ("joker", "J"),
    ],
)
def test_every_alias_of_the_table(text, code):
    assert tiles.parse(text) == [code]
    assert tiles.code_of(text) == code


def test_rack_separated_by_spaces_or_commas():
    assert tiles.parse("1D 1D 2B WD F F J N") == ["1D", "1D", "2B", "WD", "F", "F", "J", "N"]
    assert tiles.parse("1d,1D ,  2b,wd") == ["1D", "1D", "2B", "WD"]
    assert tiles.parse("one dot, red dragon, 5 bam") == ["1D", "RD", "5B"]


def test_a_comma_splits_two_word_aliases():
    # "5, dot" is not "5 dot": the 5 alone is no tile.
    with pytest.raises(TileError, match='"5"'):
        tiles.parse("5, dot")


def test_bad_token_is_named_with_its_position():
    with pytest.raises(TileError) as error:
        tiles.parse("1D 2B 7X 3C")
    message = str(error.value)
    assert '"7X"' in message and "tile 3" in message and "character 7" in message


def test_position_counts_two_word_aliases_as_one_tile():
    with pytest.raises(TileError, match=r'"10D" is not a tile \(tile 3'):
        tiles.parse("red dragon 5 dot 10D")


def test_empty_rack_parses_to_nothing():
    assert tiles.parse("") == []
    assert tiles.parse(" , ") == []


def test_non_text_is_rejected():
    with pytest.raises(TileError):
        tiles.parse(5)  # type: ignore[arg-type]


def test_more_copies_than_the_set_holds_is_rejected():
    with pytest.raises(TileError, match=r"5 × 3 Dot, but a set has only 4"):
        tiles.check_supply([("the rack", ["3D"] * 5)])
    with pytest.raises(TileError, match=r"9 × Joker, but a set has only 8"):
        tiles.check_supply([("the rack", ["J"] * 9)])
    tiles.check_supply([("the rack", ["F"] * 8 + ["J"] * 6)])  # 8 flowers are fine


def test_supply_is_counted_across_rack_exposures_and_seen():
    with pytest.raises(TileError, match="the rack and exposure 1 hold 5 × North"):
        tiles.check_supply([("the rack", ["N", "N"]), ("exposure 1", ["N", "N", "N"]), ("seen", [])])


def test_names_a_player_uses():
    assert tiles.name("5D") == "5 Dot"
    assert tiles.name("7B") == "7 Bam"
    assert tiles.name("2C") == "2 Crak"
    assert tiles.name("N") == "North"
    assert tiles.name("RD") == "Red Dragon"
    assert tiles.plural("5D", 2) == "two 5 Dots"
    assert tiles.plural("WD", 3) == "three Soaps"
