"""Tile pictures: one well-formed, labelled SVG for each of the 36 tile codes."""

import xml.etree.ElementTree as ET

import pytest

from coach.notation import tiles
from coach.web.tiles import art as tileart
from coach.web.tiles import glyphs as tileglyphs

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


def drawn(code: str, char: str) -> bool:
    """The tile carries `char`'s outline (glyphs are paths, never text)."""
    return f'd="{tileglyphs.glyphs()[char].d}"' in tileart.svg(code)


@pytest.mark.parametrize("code", tiles.CODES)
def test_no_face_needs_a_font(code):
    # <text> would fall back to whatever font the machine has, or an empty box.
    root = parse(code)
    assert root.find(f".//{SVG_NS}text") is None
    assert "font" not in tileart.svg(code)


@pytest.mark.parametrize("code", [c for c in tiles.CODES if c[0].isdigit()])
def test_suit_tiles_print_their_arabic_index(code):
    assert drawn(code, code[0])


@pytest.mark.parametrize("code", ["N", "E", "W", "S"])
def test_winds_print_their_letter_index_and_character(code):
    assert drawn(code, code)
    assert drawn(code, {"N": "北", "E": "東", "W": "西", "S": "南"}[code])


@pytest.mark.parametrize("n", range(1, 10))
def test_craks_print_their_numeral_over_wan(n):
    assert drawn(f"{n}C", "一二三四五六七八九"[n - 1]) and drawn(f"{n}C", "萬")
    others = [c for c in "一二三四五六七八九" if c != "一二三四五六七八九"[n - 1]]
    assert not any(drawn(f"{n}C", c) for c in others)


def test_green_dragon_prints_fa():
    assert drawn("GD", "發") and drawn("GD", "G")


def test_joker_says_joker():
    assert all(drawn("J", letter) for letter in "JOKER")


def test_missing_glyph_file_says_how_to_build_it(monkeypatch, tmp_path):
    monkeypatch.setattr(tileglyphs, "asset_folder", lambda name: tmp_path)
    tileglyphs.glyphs.cache_clear()
    try:
        with pytest.raises(tileglyphs.GlyphsMissing, match="make assets"):
            tileglyphs.glyphs()
    finally:
        tileglyphs.glyphs.cache_clear()


def test_unbuilt_glyphs_give_a_clear_answer_not_a_crash(client, monkeypatch, tmp_path):
    from coach.web.tiles import routes as tile_route

    monkeypatch.setattr(tileglyphs, "asset_folder", lambda name: tmp_path)
    tileglyphs.glyphs.cache_clear()
    tile_route._face.cache_clear()
    try:
        response = client.get("/tiles/1C.svg")
        assert response.status_code == 503 and b"make assets" in response.data
    finally:
        monkeypatch.undo()
        tileglyphs.glyphs.cache_clear()
        tile_route._face.cache_clear()
    assert client.get("/tiles/1C.svg").status_code == 200
