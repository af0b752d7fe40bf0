"""Tile pictures: one well-formed, labelled SVG for each of the 36 tile codes."""

import xml.etree.ElementTree as ET

import pytest

from coach import tiles
from coach.web import tileart

SVG_NS = "{http://www.w3.org/2000/svg}"


def parse(code: str) -> ET.Element:
    return ET.fromstring(tileart.svg(code))


def test_it_draws_every_tile_code_once():
    assert tileart.CODES == tiles.CODES
    assert len(set(tileart.CODES)) == 36


@pytest.mark.parametrize("code", tiles.CODES)
def test_each_tile_is_a_well_formed_svg_document(code):
    root = parse(code)
    assert root.tag == f"{SVG_NS}svg"
    assert tileart.svg(code).startswith("<svg ")


@pytest.mark.parametrize("code", tiles.CODES)
def test_each_tile_is_labelled_with_the_name_a_player_says(code):
    root = parse(code)
    title = root.find(f"{SVG_NS}title")
    assert title is not None and title.text == tiles.name(code)
    assert root.get("role") == "img"
    assert root.get("aria-label") == tiles.name(code)


@pytest.mark.parametrize("code, label", [
    ("5D", "5 Dot"), ("1B", "1 Bam"), ("9C", "9 Crak"), ("N", "North"),
    ("RD", "Red Dragon"), ("GD", "Green Dragon"), ("WD", "Soap"),
    ("F", "Flower"), ("J", "Joker"),
])
def test_labels_read_naturally(code, label):
    assert parse(code).get("aria-label") == label


def test_all_tiles_share_one_size_so_a_rack_lines_up():
    sizes = {(r.get("viewBox"), r.get("width"), r.get("height")) for r in map(parse, tiles.CODES)}
    assert sizes == {(tileart.VIEWBOX, str(tileart.WIDTH), str(tileart.HEIGHT))}
    assert tileart.HEIGHT > tileart.WIDTH


@pytest.mark.parametrize("code", ["", "0D", "10B", "X", "wd", "5d", "Soap"])
def test_an_unknown_code_raises_key_error(code):
    with pytest.raises(KeyError):
        tileart.svg(code)


def test_output_is_deterministic():
    first = [tileart.svg(code) for code in tiles.CODES]
    assert [tileart.svg(code) for code in tiles.CODES] == first


@pytest.mark.parametrize("code", tiles.CODES)
def test_each_tile_stays_small(code):
    assert len(tileart.svg(code).encode()) <= 6 * 1024


@pytest.mark.parametrize("code", tiles.CODES)
def test_tiles_are_self_contained(code):
    text = tileart.svg(code)
    root = parse(code)
    assert root.find(f".//{SVG_NS}script") is None
    assert "http" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "href" not in text and "@import" not in text and "on" + "load" not in text


def test_ids_are_unique_to_each_tile_so_tiles_can_share_a_page():
    seen: dict[str, str] = {}
    for code in tiles.CODES:
        for element in parse(code).iter():
            if element.get("id"):
                assert element.get("id") not in seen, (code, seen.get(element.get("id")))
                seen[element.get("id")] = code


@pytest.mark.parametrize("code", [c for c in tiles.CODES if c[0].isdigit()])
def test_suit_tiles_print_their_arabic_index(code):
    texts = [t.text for t in parse(code).iter(f"{SVG_NS}text")]
    assert code[0] in texts


@pytest.mark.parametrize("code", ["N", "E", "W", "S"])
def test_winds_print_their_letter_index(code):
    texts = [t.text for t in parse(code).iter(f"{SVG_NS}text")]
    assert code in texts


def test_joker_says_joker():
    texts = [t.text for t in parse("J").iter(f"{SVG_NS}text")]
    assert "JOKER" in texts
