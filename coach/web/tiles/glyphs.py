"""The characters on the tile faces, as outlines: no font needed to show them.

`make assets` writes static/vendor/tile-glyphs.json from Noto Serif TC
(see `tileglyphs_build`); this module reads it once and places a glyph in a
box of the tile. Placing by the ink box, not by font metrics, centres each
character the same way whatever its shape.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import cast

from coach.web.infra.places import asset_folder

GLYPH_FILE = "tile-glyphs.json"
LICENCE_FILE = "tile-glyphs-OFL.txt"
# Craks' numerals and the wan sign, the four winds, the Green Dragon (fa),
# and the Latin letters of the corner index and the joker's word.
CHARACTERS = "一二三四五六七八九萬北東西南發" + "0123456789NEWSRGJOK"


class GlyphsMissing(RuntimeError):
    """The glyph file was not built (a checkout where `make assets` has not run)."""


@dataclass(frozen=True)
class Glyph:
    d: str  # path data, font units, y down, baseline at 0
    x0: float
    y0: float
    x1: float
    y1: float
    advance: float


@cache
def glyphs() -> dict[str, Glyph]:
    path = asset_folder("static") / "vendor" / GLYPH_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise GlyphsMissing(f"{path} is missing: run `make assets` to build the tile glyphs") from None
    # The box is x0, y0, x1, y1: four numbers, which mypy cannot know of a JSON list.
    return {char: Glyph(g["d"], *cast("tuple[float, float, float, float]", g["box"]), g["advance"]) for char, g in data["glyphs"].items()}


# Noto's ideographic em box runs from 880 above the baseline to 120 below.
_EM_MIDDLE = 380


def short_number(value: float, places: int = 3) -> str:
    """Short, stable number text for SVG: the output must be byte-identical each call."""
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


_n = short_number


def ideograph(char: str, cx: float, cy: float, em: float, fill: str) -> str:
    """`char` as a <path> set `em` units high, its em square centred on (cx, cy).

    The em square, not the ink, is centred vertically, so 一 sits in the middle
    as in type rather than being blown up to the size of 九.
    """
    g = glyphs()[char]
    scale = em / 1000
    tx = cx - (g.x0 + g.x1) / 2 * scale
    ty = cy + _EM_MIDDLE * scale
    return (f'<path transform="matrix({_n(scale)} 0 0 {_n(scale)} {_n(tx)} {_n(ty)})"'
            f' fill="{fill}" d="{g.d}"/>')


def line(text: str, x: float, baseline: float, cap_height: float, fill: str,
         anchor: str = "start", width: float | None = None) -> str:
    """A short word set from the glyphs on one baseline, like <text> but font-free.

    Letters keep the font's advances; `cap_height` is the height of a capital
    (taken from the tallest letter), and `width` stretches the word to a set width.
    """
    gs = glyphs()
    scale = cap_height / max(-gs[c].y0 for c in text)
    advance = sum(gs[c].advance for c in text) * scale
    sx = scale if width is None else width / sum(gs[c].advance for c in text)
    total = advance if width is None else width
    start = {"start": x, "middle": x - total / 2, "end": x - total}[anchor]
    parts, pen = [], 0.0
    for c in text:
        parts.append(f'<path transform="matrix({_n(sx)} 0 0 {_n(scale)} {_n(start + pen * sx)} {_n(baseline)})"'
                     f' d="{gs[c].d}"/>')
        pen += gs[c].advance
    return f'<g fill="{fill}">{"".join(parts)}</g>'
