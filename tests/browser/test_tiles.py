"""Every tile rendered by Chromium with no font at all: no empty boxes (issue 15).

A second Chromium is started with a fontconfig that lists no font folder,
so it has no Chinese font (nor any other): whatever a tile needed from a
font would come out as an empty box or nothing. Each face is read back
through a canvas as an ink mask (the pixels that are not the ivory face,
below the corner index), and

- every pair of tiles differs: tofu would make 1 Crak to 9 Crak, or the four
  winds, the same boxes;
- each tile comes out pixel for pixel as in the ordinary browser with the
  machine's fonts, so no font is involved anywhere;
- the check is shown to catch tofu: tiles whose characters are typed as
  <text> (as before) come out alike in the fontless browser.
"""

from __future__ import annotations

import itertools
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Playwright

from coach.notation import tiles
from coach.web.tiles import art as tileart
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS

SCALE = 2  # canvas pixels per viewBox unit
# Below the corner index and inside the tile's rim, in canvas pixels.
FACE = (4 * SCALE, 14 * SCALE, 55 * SCALE, 74 * SCALE)
MIN_DIFFERENT_PIXELS = 40

READ_TILES = """
async ([sources, scale, face]) => {
  const [x0, y0, x1, y1] = face;
  const out = [];
  for (const source of sources) {
    const url = source.startsWith("<")
      ? URL.createObjectURL(new Blob([source], {type: "image/svg+xml"})) : source;
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement("canvas");
    canvas.width = 60 * scale; canvas.height = 80 * scale;
    const ctx = canvas.getContext("2d");
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    const px = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    let mask = "";
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) {
      const i = (y * canvas.width + x) * 4;
      const [r, g, b] = [px[i], px[i + 1], px[i + 2]];
      const lum = 0.299 * r + 0.587 * g + 0.114 * b;
      // ink: coloured or dark; the ivory face and its gradient are neither
      mask += (Math.max(r, g, b) - Math.min(r, g, b) > 70 || lum < 170) ? "1" : "0";
    }
    out.push({mask, png: canvas.toDataURL("image/png")});
  }
  return out;
}
"""


@pytest.fixture(scope="module")
def fontless(playwright: Playwright, tmp_path_factory) -> Browser:
    folder: Path = tmp_path_factory.mktemp("no-fonts")
    (folder / "fonts").mkdir()
    conf = folder / "fonts.conf"
    conf.write_text(
        "<?xml version='1.0'?><!DOCTYPE fontconfig SYSTEM 'fonts.dtd'>"
        f"<fontconfig><dir>{folder / 'fonts'}</dir><cachedir>{folder / 'cache'}</cachedir></fontconfig>",
        encoding="utf-8")
    env = {**os.environ, "FONTCONFIG_FILE": str(conf)}
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, env=env)
    yield browser
    browser.close()


def read(page: Page, base_url: str, sources: list[str]) -> list[dict[str, str]]:
    page.goto(base_url + "/healthz")  # any page of the app's origin, so the canvas is not tainted
    return page.evaluate(READ_TILES, [sources, SCALE, list(FACE)])


def different_pixels(a: str, b: str) -> int:
    return sum(x != y for x, y in zip(a, b, strict=True))


def typed(code: str) -> str:
    """The tile as it was drawn before: its characters typed as <text> in a CJK font stack."""
    drawn = tileart.svg(code)
    text = {"1C": "一萬", "2C": "二萬", "N": "北", "E": "東"}[code]
    return re.sub(r"<path transform=\"matrix[^>]*>", "", drawn).replace(
        "</svg>", f'<text x="28" y="55" font-size="22" font-family="Noto Serif CJK SC, serif">{text}</text></svg>')


@pytest.fixture(scope="module")
def fontless_tiles(fontless: Browser, base_url: str) -> dict[str, dict[str, str]]:
    page = fontless.new_page()
    try:
        return dict(zip(tiles.CODES, read(page, base_url, [f"/tiles/{c}.svg" for c in tiles.CODES]), strict=True))
    finally:
        page.close()


def test_every_tile_differs_from_every_other_with_no_font_at_all(fontless_tiles):
    alike = []
    for a, b in itertools.combinations(tiles.CODES, 2):
        if different_pixels(fontless_tiles[a]["mask"], fontless_tiles[b]["mask"]) < MIN_DIFFERENT_PIXELS:
            alike.append((a, b))
    assert alike == []
    for code, seen in fontless_tiles.items():
        assert seen["mask"].count("1") > 150, f"{code} has almost no ink"


def test_tiles_look_the_same_with_and_without_the_machines_fonts(fontless_tiles, page: Page, base_url):
    with_fonts = dict(zip(tiles.CODES, read(page, base_url, [f"/tiles/{c}.svg" for c in tiles.CODES]), strict=True))
    changed = [c for c in tiles.CODES if with_fonts[c]["mask"] != fontless_tiles[c]["mask"]]
    assert changed == []


def test_the_check_catches_typed_characters_without_a_font(fontless: Browser, base_url):
    page = fontless.new_page()
    try:
        one, two, north, east = read(page, base_url, [typed(c) for c in ("1C", "2C", "N", "E")])
    finally:
        page.close()
    # With no font, typed characters come out alike (boxes or nothing): the
    # check above would flag them, while the drawn tiles pass it.
    assert different_pixels(one["mask"], two["mask"]) < MIN_DIFFERENT_PIXELS
    assert different_pixels(north["mask"], east["mask"]) < MIN_DIFFERENT_PIXELS
