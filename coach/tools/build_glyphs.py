"""Build step: the tile faces' characters as SVG outlines, from Noto Serif TC.

Craks, winds and the Green Dragon carry Chinese characters; a tile drawn
with <text> shows an empty box on a machine without a CJK font, and an SVG
shown through <img> cannot use the page's web fonts anyway. So `make assets`
runs this once: it reads the few glyphs the tiles use from the font that npm
fetched (@fontsource/noto-serif-tc, pinned in package-lock.json, SIL Open
Font License) and writes their outlines as path data to
static/vendor/tile-glyphs.json, with the font's licence beside it. The tiles
then need no font at all. Run as `python -m coach.tools.build_glyphs`.

Needs fontTools (the `assets` extra); the app itself only reads the JSON.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

from coach.web.infra.places import CHECKOUT, asset_folder
from coach.web.tiles.glyphs import CHARACTERS, GLYPH_FILE, LICENCE_FILE

FONT_PACKAGE = CHECKOUT / "node_modules" / "@fontsource" / "noto-serif-tc"
WEIGHT = 700  # bold: the strokes stay legible at rack size


def _font_files(package: Path, weight: int) -> list[tuple[Path, set[int]]]:
    """Each subset file of the weight with the code points it covers (from the package's CSS)."""
    css = (package / f"{weight}.css").read_text(encoding="utf-8")
    found = []
    for block in css.split("@font-face")[1:]:
        src = re.search(r"url\(\./files/([^)]+\.woff)\) format\('woff'\)", block)
        ranges = re.search(r"unicode-range:\s*([^;]+);", block)
        if not src or not ranges:
            continue
        points: set[int] = set()
        for part in ranges.group(1).split(","):
            first, _, last = part.strip().removeprefix("U+").partition("-")
            points.update(range(int(first, 16), int(last or first, 16) + 1))
        found.append((package / "files" / src.group(1), points))
    return found


def _outline(font, char: str) -> dict[str, object]:
    """One glyph as y-down path data in font units, with its ink box and advance."""
    from fontTools.pens.boundsPen import BoundsPen
    from fontTools.pens.svgPathPen import SVGPathPen
    from fontTools.pens.transformPen import TransformPen

    glyph_set = font.getGlyphSet()
    name = font.getBestCmap()[ord(char)]
    path_pen = SVGPathPen(glyph_set, ntos=lambda v: str(round(v)))
    bounds_pen = BoundsPen(glyph_set)
    flip = (1, 0, 0, -1, 0, 0)  # fonts point y up, SVG down
    glyph_set[name].draw(TransformPen(path_pen, flip))
    glyph_set[name].draw(TransformPen(bounds_pen, flip))
    x0, y0, x1, y1 = bounds_pen.bounds
    return {"d": path_pen.getCommands(), "box": [round(x0), round(y0), round(x1), round(y1)],
            "advance": glyph_set[name].width}


def build(package: Path = FONT_PACKAGE, out_dir: Path | None = None) -> Path:
    from fontTools.ttLib import TTFont

    out_dir = out_dir or asset_folder("static") / "vendor"
    files = _font_files(package, WEIGHT)
    glyphs: dict[str, dict[str, object]] = {}
    for char in CHARACTERS:
        path = next((p for p, points in files if ord(char) in points), None)
        if path is None:
            raise SystemExit(f"{char!r} is in no subset of {package.name} {WEIGHT}")
        with TTFont(path) as font:
            glyphs[char] = _outline(font, char)
    out_dir.mkdir(parents=True, exist_ok=True)
    data = {"font": f"Noto Serif TC {WEIGHT} (@fontsource/noto-serif-tc, SIL OFL 1.1: {LICENCE_FILE})",
            "units_per_em": 1000, "glyphs": glyphs}
    target = out_dir / GLYPH_FILE
    target.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    shutil.copyfile(package / "LICENSE", out_dir / LICENCE_FILE)
    return target


if __name__ == "__main__":
    print(f"wrote {build(Path(sys.argv[1]) if len(sys.argv) > 1 else FONT_PACKAGE)}")
