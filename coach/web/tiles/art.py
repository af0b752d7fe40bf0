"""Tile faces as standalone SVG documents, one per tile code.

Every face is drawn from plain shapes and glyph outlines (`tileglyphs`: the
characters of Noto Serif TC as paths), never <text>, so the pictures need no
image files, fonts or scripts: they look the same on every machine, with or
without a Chinese font, and can be served, inlined or put in an <img> as they
are. All faces share one viewBox so a rack lines up.
"""

from __future__ import annotations

from html import escape
from math import cos, radians, sin

from coach.notation import tiles
from coach.web.tiles.glyphs import ideograph, line, short_number

CODES: tuple[str, ...] = tiles.CODES
WIDTH, HEIGHT = 60, 80
VIEWBOX = f"0 0 {WIDTH} {HEIGHT}"

BLUE, BLUE_DARK = "#1d5aa6", "#123b73"
RED, RED_DARK = "#c8232c", "#7c1116"
GREEN, GREEN_DARK = "#1d8047", "#0e4a27"
INK = "#1c2540"
IVORY = "#fffaf0"
GOLD = "#e8a317"

# Face centre and the box the designs keep to; the top-left corner above
# it is left free for the index.
CX = 28.5
TOP, BOTTOM = 13.0, 71.0
MID = (TOP + BOTTOM) / 2


def _n(value: float) -> str:
    return short_number(value, 2)


def _attrs(**attrs: float | str) -> str:
    parts = []
    for key, value in attrs.items():
        text = _n(value) if isinstance(value, (int, float)) else value
        parts.append(f'{key.replace("_", "-")}="{text}"')
    return " ".join(parts)


def _el(tag: str, **attrs: float | str) -> str:
    return f"<{tag} {_attrs(**attrs)}/>"


def _index(label: str, colour: str) -> str:
    return line(label, 3.8, 11.2, 7.4, colour)


# --- Dots -----------------------------------------------------------------

def _dot(x: float, y: float, r: float, colour: str) -> str:
    accent = RED if colour != RED else GREEN
    return "".join((
        _el("circle", cx=x, cy=y, r=r, fill=colour),
        _el("circle", cx=x, cy=y, r=r * 0.78, fill=IVORY),
        _el("circle", cx=x, cy=y, r=r * 0.62, fill=colour),
        _el("circle", cx=x, cy=y, r=r * 0.3, fill=IVORY),
        _el("circle", cx=x, cy=y, r=r * 0.15, fill=accent),
    ))


def _one_dot() -> str:
    r = 19.5
    out = [_el("circle", cx=CX, cy=MID, r=r, fill=BLUE),
           _el("circle", cx=CX, cy=MID, r=r - 1.6, fill=IVORY)]
    # A ring of petals makes the lone dot the ornate medallion players expect.
    for i in range(12):
        a = radians(i * 30)
        out.append(_el("circle", cx=CX + 14.6 * cos(a), cy=MID + 14.6 * sin(a), r=2.7, fill=GREEN))
    out += [
        _el("circle", cx=CX, cy=MID, r=10.8, fill=RED),
        _el("circle", cx=CX, cy=MID, r=9.0, fill=IVORY),
        _el("circle", cx=CX, cy=MID, r=7.6, fill=BLUE),
    ]
    for i in range(8):
        a = radians(i * 45 + 22.5)
        out.append(_el("circle", cx=CX + 5.2 * cos(a), cy=MID + 5.2 * sin(a), r=1.1, fill=IVORY))
    out += [_el("circle", cx=CX, cy=MID, r=3.0, fill=RED),
            _el("circle", cx=CX, cy=MID, r=1.2, fill=IVORY)]
    return "".join(out)


_L, _R = 18.0, 39.0          # two columns
_C3 = (14.5, 28.5, 42.5)     # three columns
_DOTS: dict[int, list[tuple[float, float, float, str]]] = {
    2: [(CX, 27.5, 10.5, GREEN), (CX, 57.5, 10.5, BLUE)],
    3: [(15.5, 23.5, 8.5, BLUE), (CX, MID, 8.5, RED), (41.5, 61, 8.5, GREEN)],
    4: [(_L, 28, 9, BLUE), (_R, 28, 9, GREEN), (_L, 57, 9, GREEN), (_R, 57, 9, BLUE)],
    5: [(15.5, 23.5, 8, BLUE), (41.5, 23.5, 8, GREEN), (CX, MID, 8, RED),
        (15.5, 61, 8, GREEN), (41.5, 61, 8, BLUE)],
    6: [(_L, 22, 8, GREEN), (_R, 22, 8, GREEN), (_L, 45, 8, RED), (_R, 45, 8, RED),
        (_L, 63, 8, RED), (_R, 63, 8, RED)],
    7: [(13.5, 19, 6.3, GREEN), (CX, 25.5, 6.3, GREEN), (43.5, 32, 6.3, GREEN),
        (_L, 49, 6.8, RED), (_R, 49, 6.8, RED), (_L, 64, 6.8, RED), (_R, 64, 6.8, RED)],
    8: [(x, y, 6.8, BLUE) for y in (20.5, 35.5, 50.5, 65.5) for x in (_L, _R)],
    9: [(x, y, 6.8, colour) for y, colour in ((22, BLUE), (MID, RED), (62, GREEN)) for x in _C3],
}


def _dots(n: int) -> str:
    return _one_dot() if n == 1 else "".join(_dot(*spec) for spec in _DOTS[n])


# --- Bams -----------------------------------------------------------------

_STICK = {GREEN: GREEN_DARK, BLUE: BLUE_DARK, RED: RED_DARK}


def _stick(x: float, y: float, h: float, colour: str, angle: float = 0) -> str:
    """One bamboo stick, top at y; angle tilts it about its own centre."""
    w = 6.8
    left = x - w / 2
    # Joints at the ends and middle are what make a bar read as bamboo;
    # one path each for joints and shine keeps the 9 Bam small.
    joints = "".join(f"M{_n(left - 0.6)} {_n(jy - 0.9)}h{_n(w + 1.2)}v1.8h{_n(-w - 1.2)}z"
                     for jy in (y + 2.4, y + h / 2, y + h - 2.4))
    shine = (f"M{_n(x - 1.4)} {_n(y + 4.2)}V{_n(y + h / 2 - 2)}"
             f"M{_n(x - 1.4)} {_n(y + h / 2 + 2)}V{_n(y + h - 4.2)}")
    body = (_el("rect", x=left, y=y, width=w, height=h, rx=2.6, fill=colour)
            + _el("path", d=joints, fill=_STICK[colour])
            + _el("path", d=shine, stroke="#fff", stroke_opacity=0.55, stroke_width=1.1,
                  stroke_linecap="round"))
    if angle:
        return f'<g transform="rotate({_n(angle)} {_n(x)} {_n(y + h / 2)})">{body}</g>'
    return body


def _bird() -> str:
    """The 1 Bam: a perched sparrow with a fanned tail, as on classic sets."""
    return "".join((
        # tail fan, drawn first so the body overlaps it
        '<g transform="translate(35 49)">',
        _el("ellipse", cx=9, cy=0, rx=11, ry=3.2, fill=BLUE, transform="rotate(8)"),
        _el("ellipse", cx=9, cy=0, rx=11, ry=3.2, fill=RED, transform="rotate(30)"),
        _el("ellipse", cx=8.5, cy=0, rx=10, ry=3, fill=GOLD, transform="rotate(52)"),
        "</g>",
        # branch and feet
        _el("path", d="M7 66 Q28 60 50 67", stroke="#7a4a22", stroke_width=2.4, fill="none",
            stroke_linecap="round"),
        _el("ellipse", cx=44, cy=63.5, rx=3.6, ry=1.6, fill=GREEN, transform="rotate(-25 44 63.5)"),
        _el("path", d="M24 55 L23 62.5 M30 55 L30 62", stroke="#d08a1a", stroke_width=1.4,
            stroke_linecap="round"),
        # body, breast, wing
        _el("path", d="M14 36 C14 28 26 27 33 34 C40 41 42 50 34 55 C26 59 14 52 14 36 Z", fill=GREEN),
        _el("path", d="M15 39 C16 50 24 56 31 55 C22 52 18 46 17 38 Z", fill=GOLD),
        _el("path", d="M21 38 C28 35 37 41 38 50 C32 50 25 46 21 38 Z", fill=GREEN_DARK),
        _el("path", d="M25 41 L34 47 M24 44 L32 49", stroke="#9ad1a8", stroke_width=0.8,
            stroke_linecap="round"),
        # head, crest, beak, eye
        _el("circle", cx=17.5, cy=27.5, r=7, fill=BLUE),
        _el("path", d="M15 21 L13 14.5 L17.5 19.5 L19 13.5 L20.5 20.5 Z", fill=RED),
        _el("path", d="M11 26 L4.5 29 L11 30.5 Z", fill=GOLD),
        _el("circle", cx=15.5, cy=26.5, r=2.1, fill=IVORY),
        _el("circle", cx=15.2, cy=26.6, r=1.1, fill="#111"),
    ))


def _bams(n: int) -> str:
    if n == 1:
        return _bird()
    tall, short = 25.0, 17.0
    top, low = 14.5, 45.5
    rows3 = (13.5, 33.5, 53.5)
    specs: list[tuple[float, float, float, str] | tuple[float, float, float, str, float]]
    if n == 2:
        specs = [(CX, top, tall, BLUE), (CX, low, tall, GREEN)]
    elif n == 3:
        specs = [(CX, top, tall, BLUE), (19, low, tall, GREEN), (38, low, tall, GREEN)]
    elif n == 4:
        specs = [(19, top, tall, BLUE), (38, top, tall, GREEN),
                 (19, low, tall, GREEN), (38, low, tall, BLUE)]
    elif n == 5:
        specs = [(14, top, tall, GREEN), (43, top, tall, BLUE), (CX, 30, tall, RED),
                 (14, low, tall, BLUE), (43, low, tall, GREEN)]
    elif n == 6:
        specs = [(x, top, tall, BLUE) for x in _C3]
        specs += [(x, low, tall, GREEN) for x in _C3]
    elif n == 7:
        specs = [(CX, rows3[0], short, RED)]
        specs += [(x, y, short, GREEN if x != CX else BLUE) for y in rows3[1:] for x in _C3]
    elif n == 8:
        # the classic "M over W": upright sticks at the sides, slanted ones meeting
        specs = [(10, top, tall, GREEN), (47, top, tall, GREEN),
                 (22, top, tall, BLUE, 17), (35, top, tall, BLUE, -17),
                 (10, low, tall, GREEN), (47, low, tall, GREEN),
                 (22, low, tall, BLUE, -17), (35, low, tall, BLUE, 17)]
    else:
        specs = [(x, y, short, colour) for y in rows3
                 for x, colour in zip(_C3, (GREEN, RED, BLUE))]
    return "".join(_stick(*spec) for spec in specs)


# --- Craks, winds, dragons --------------------------------------------------

_NUMERALS = "一二三四五六七八九"
_WIND_CHARS = {"N": "北", "E": "東", "W": "西", "S": "南"}


def _craks(n: int) -> str:
    return ideograph(_NUMERALS[n - 1], CX, 26, 25, INK) + ideograph("萬", CX, 57.5, 29, RED)


def _wind(code: str) -> str:
    return ideograph(_WIND_CHARS[code], CX, 45, 38, INK)


def _red_dragon() -> str:
    # Drawn, not typed: 中 is simple enough that no font is needed at all.
    return "".join((
        _el("path", d="M12 29 Q12 26 15 26 L42 26 Q45 26 45 29 L45 50 Q45 53 42 53 L15 53 Q12 53 12 50 Z",
            fill="none", stroke=RED, stroke_width=4.6, stroke_linejoin="round"),
        _el("path", d="M26 12 Q28.5 10 31 12 L31.2 66 Q28.5 73 25.8 66 Z", fill=RED),
    ))


def _green_dragon() -> str:
    return ideograph("發", CX, 44, 40, GREEN)


def _soap() -> str:
    """The White Dragon as American sets draw it: an empty blue frame (it also counts as 0)."""
    x0, y0, x1, y1 = 13, 17, 44, 69
    out = [
        _el("rect", x=x0, y=y0, width=x1 - x0, height=y1 - y0, rx=2.5, fill="none",
            stroke=BLUE, stroke_width=3.2),
        _el("rect", x=x0 + 4.2, y=y0 + 4.2, width=x1 - x0 - 8.4, height=y1 - y0 - 8.4, rx=4,
            fill="none", stroke=BLUE, stroke_width=1.1),
    ]
    # Corner diamonds dress the frame up from a bare box.
    for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
        out.append(_el("rect", x=x - 2.6, y=y - 2.6, width=5.2, height=5.2, fill=BLUE,
                       transform=f"rotate(45 {_n(x)} {_n(y)})"))
        out.append(_el("circle", cx=x, cy=y, r=1.1, fill=IVORY))
    return "".join(out)


# --- Flower and joker -------------------------------------------------------

def _flower() -> str:
    fx, fy = CX, 33.0
    out = [
        _el("path", d=f"M{_n(fx)} {_n(fy + 6)} C27 50 31 58 {_n(fx)} 71", stroke=GREEN,
            stroke_width=2.8, fill="none", stroke_linecap="round"),
        _el("path", d="M29.5 58 C36 52 44 53 46 56 C41 61 34 61 29.5 58 Z", fill=GREEN),
        _el("path", d="M28.5 50 C22 44 13 46 11.5 49 C17 54 24 53 28.5 50 Z", fill="#2f9a5a"),
    ]
    for i in range(6):
        angle = i * 60 - 90
        out.append(_el("ellipse", cx=fx, cy=fy - 9.2, rx=5.6, ry=9.2, fill="#d9366f",
                       transform=f"rotate({angle + 90} {_n(fx)} {_n(fy)})"))
        out.append(_el("ellipse", cx=fx, cy=fy - 8.5, rx=2.6, ry=5.8, fill="#f08fb0",
                       transform=f"rotate({angle + 90} {_n(fx)} {_n(fy)})"))
    out.append(_el("circle", cx=fx, cy=fy, r=5.2, fill=GOLD))
    for i in range(6):
        a = radians(i * 60 + 30)
        out.append(_el("circle", cx=fx + 2.9 * cos(a), cy=fy + 2.9 * sin(a), r=0.8, fill="#9a5b00"))
    return "".join(out)


def _star(x: float, y: float, r: float, fill: str) -> str:
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        a = radians(i * 36 - 90)
        points.append(f"{_n(x + radius * cos(a))},{_n(y + radius * sin(a))}")
    return _el("polygon", points=" ".join(points), fill=fill)


def _joker() -> str:
    return "".join((
        # jester's cap: three floppy points with bells
        _el("path", d="M15 38 Q10 24 6.5 17 Q17 20 22 30 Z", fill=RED),
        _el("path", d="M42 38 Q47 24 50.5 17 Q40 20 35 30 Z", fill=GREEN),
        _el("path", d="M17 38 Q20 20 28.5 11 Q37 20 40 38 Z", fill=BLUE),
        _el("rect", x=13, y=36, width=31, height=5.2, rx=2.6, fill=GOLD),
        _el("circle", cx=6.5, cy=17, r=2.4, fill=GOLD),
        _el("circle", cx=28.5, cy=11, r=2.4, fill=GOLD),
        _el("circle", cx=50.5, cy=17, r=2.4, fill=GOLD),
        _star(28.5, 28, 3.6, GOLD),
        line("JOKER", CX, 58, 10.5, RED_DARK, anchor="middle", width=47),
        _star(12, 67.5, 2.6, BLUE),
        _star(CX, 67.5, 2.6, RED),
        _star(45, 67.5, 2.6, GREEN),
    ))


# --- Tile body ----------------------------------------------------------------

_INDEX_COLOUR = {"D": BLUE, "B": GREEN, "C": RED}
_DRAGON_INDEX = {"RD": ("R", RED), "GD": ("G", GREEN), "WD": ("0", BLUE)}


def _face(code: str) -> str:
    if code == tiles.BLANK_CODE:
        return ""  # TR1: a blank is a tile with nothing on its face
    if code[0].isdigit():
        n, suit = int(code[0]), code[1]
        draw = {"D": _dots, "B": _bams, "C": _craks}[suit]
        return draw(n) + _index(code[0], _INDEX_COLOUR[suit])
    if code in _WIND_CHARS:
        return _wind(code) + _index(code, INK)
    if code in _DRAGON_INDEX:
        # Not on every real set, but a learner (or a machine without CJK
        # fonts) can tell the dragons apart by it, and Soap reads as zero.
        label, colour = _DRAGON_INDEX[code]
        paint = {"RD": _red_dragon, "GD": _green_dragon, "WD": _soap}[code]
        return paint() + _index(label, colour)
    return {"F": _flower, "J": _joker}[code]()


def _body(uid: str) -> str:
    # Ids carry the code so several tiles inlined in one page never clash.
    return (
        "<defs>"
        f'<linearGradient id="{uid}f" x1="0" y1="0" x2="1" y2="1">'
        '<stop offset="0" stop-color="#fffef9"/><stop offset="1" stop-color="#f2e8cf"/>'
        "</linearGradient>"
        f'<linearGradient id="{uid}e" x1="0" y1="0" x2="0" y2="1">'
        '<stop offset="0" stop-color="#e4d6b0"/><stop offset="1" stop-color="#b9a57a"/>'
        "</linearGradient>"
        "</defs>"
        # back layer: the coloured acrylic backing showing along the edge
        + _el("rect", x=1.5, y=2, width=58, height=77.5, rx=7, fill="#2e7a6a")
        # the ivory body's thickness
        + _el("rect", x=0.5, y=0.5, width=58, height=77.2, rx=6.8, fill=f"url(#{uid}e)",
              stroke="#9d8a60", stroke_width=0.5)
        # face, with a soft highlight rim
        + _el("rect", x=0.5, y=0.5, width=56, height=75, rx=6, fill=f"url(#{uid}f)",
              stroke="#cbbb92", stroke_width=0.5)
        + _el("rect", x=1.4, y=1.4, width=54.2, height=73.2, rx=5.2, fill="none",
              stroke="#fff", stroke_opacity=0.8, stroke_width=0.8)
    )


def svg(code: str) -> str:
    """A standalone SVG document for the tile `code` (KeyError if it is no tile; a blank is one, TR1)."""
    if code not in tiles.TABLE_INDEX:
        raise KeyError(code)
    label = escape(tiles.name(code))
    uid = f"mc{code}"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{VIEWBOX}" width="{WIDTH}" '
        f'height="{HEIGHT}" role="img" aria-label="{label}">'
        f"<title>{label}</title>{_body(uid)}{_face(code)}</svg>"
    )
