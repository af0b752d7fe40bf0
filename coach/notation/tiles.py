"""Tiles: codes, names, aliases and the 152-tile set (rules T1-T4).

Inside the core a tile is a small integer, so that racks become count
vectors the analysis can add up quickly; at every boundary (parsing,
JSON, explanations) it is the canonical code of `docs/card-format.md`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from coach.common.errors import CoachError
from coach.notation.yamlfile import elide, show

SUITS: tuple[str, ...] = ("D", "B", "C")
SUIT_NAMES = {"D": "Dot", "B": "Bam", "C": "Crak"}
SUIT_PLURALS = {"D": "Dots", "B": "Bams", "C": "Craks"}
WINDS: tuple[str, ...] = ("N", "E", "W", "S")
WIND_NAMES = {"N": "North", "E": "East", "W": "West", "S": "South"}
# T2: each dragon goes with one suit.
DRAGON_OF_SUIT = {"C": "RD", "B": "GD", "D": "WD"}
SUIT_OF_DRAGON = {dragon: suit for suit, dragon in DRAGON_OF_SUIT.items()}
DRAGON_NAMES = {"RD": "Red Dragon", "GD": "Green Dragon", "WD": "Soap"}
# S5: play passes to the right, so each seat's right-hand neighbour comes next.
SEATS: tuple[str, ...] = ("East", "South", "West", "North")

CODES: tuple[str, ...] = (
    tuple(f"{n}{s}" for s in SUITS for n in range(1, 10))
    + WINDS
    + ("RD", "GD", "WD", "F", "J")
)
INDEX: dict[str, int] = {code: i for i, code in enumerate(CODES)}
NATURALS = 35  # every tile but the joker: 27 suit tiles, 4 winds, 3 dragons, flower
FLOWER = INDEX["F"]
JOKER = INDEX["J"]
KINDS = len(CODES)  # 36

# T1 and T3: four of each suit, wind and dragon tile; eight flowers (all one
# tile); eight jokers.
COPIES: tuple[int, ...] = tuple(8 if code in ("F", "J") else 4 for code in CODES)
SET_SIZE = sum(COPIES)
assert SET_SIZE == 152
# The whole set, one entry a tile: what a wall is shuffled from.
WALL: tuple[int, ...] = tuple(t for t, copies in enumerate(COPIES) for _ in range(copies))

# TR1 (a table rule): a blank tile. It is none of the 36 kinds, on purpose:
# a blank is never part of a hand, so it never enters a count vector, a
# card reading or a parsed rack (`code_of` and `parse` refuse it). Only the
# practice table (coach.play) holds blanks, by this index and code.
BLANK = KINDS
BLANK_CODE = "BL"
TABLE_CODES: tuple[str, ...] = CODES + (BLANK_CODE,)  # every tile a table may hold
TABLE_INDEX: dict[str, int] = {code: i for i, code in enumerate(TABLE_CODES)}


class TileError(CoachError, ValueError):
    """Bad tile input; the message names the token and where it stands."""


def suited(number: int, suit: str) -> int:
    """Index of a number tile, e.g. suited(5, "D") is 5 Dot."""
    return INDEX[f"{number}{suit}"]


def suit_of(tile: int) -> str | None:
    """The suit letter of a number tile, None for honours, flowers, jokers."""
    return SUITS[tile // 9] if tile < 27 else None


def number_of(tile: int) -> int | None:
    return tile % 9 + 1 if tile < 27 else None


def name(tile: int | str) -> str:
    """The name a player says: "5 Dot", "North", "Red Dragon", "Soap" (and "Blank", TR1)."""
    code = TABLE_CODES[tile] if isinstance(tile, int) else tile
    if code[0].isdigit():
        return f"{code[0]} {SUIT_NAMES[code[1]]}"
    if code in WIND_NAMES:
        return WIND_NAMES[code]
    if code in DRAGON_NAMES:
        return DRAGON_NAMES[code]
    return {"F": "Flower", "J": "Joker", BLANK_CODE: "Blank"}[code]


def label(tile: int | str) -> str:
    """The name with its kind where the bare name is short: "North Wind"."""
    code = CODES[tile] if isinstance(tile, int) else tile
    return f"{WIND_NAMES[code]} Wind" if code in WIND_NAMES else name(code)


# Small counts as words; larger ones stay figures ("11 tiles").
NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")
# Said with "an": a vowel sound ("an East Wind", "an Odd hand"), "8" and "11"/"18"
# read aloud ("an 8 Crak", "an 11"), the letter X ("an X line"). "one" and "uni..."
# start with a consonant sound ("a one-tile wait", "a unit").
_AN = re.compile(r"(?:[aeiou](?!ne\b|ni|se\b|su)|8|1[18](?!\d)|x\b)", re.IGNORECASE)


def article(words: str) -> str:
    """ "a" or "an", as the words that follow are said aloud."""
    return "an" if _AN.match(words) else "a"


def say(thing: int | str, count: int = 1, plural: str | None = None, *, figures: bool = False, the_one: str = "") -> str:
    """The one way a count of things is written, articles and plurals alike.

    `thing` is a tile (its index or code: its name and plural are the tile's)
    or a noun ("tile", "line", "joker"). One is "a"/"an" ("an East", "an 8 Crak",
    "a joker"), more are "three 5 Dots", "two Soaps", "11 tiles" past eight;
    `figures` writes every count as a figure ("1 tile", "3 tiles"), and
    `the_one` replaces the article of a single one ("one tile")."""
    if isinstance(thing, int) or thing in TABLE_INDEX:
        single = name(thing)
        many = {"Soap": "Soaps"}.get(single, single + "s")
    else:
        single, many = thing, plural or thing + "s"
    noun = single if count == 1 else many
    if figures:
        return f"{count} {noun}"
    if count == 1:
        return f"{the_one or article(single)} {single}"
    if 0 <= count < len(NUMBER_WORDS):
        return f"{NUMBER_WORDS[count]} {noun}"
    # Past eight a figure: never two figures in a row ("11 of the 5 Dots", not "11 5 Dots").
    return f"{count} of the {noun}" if noun[:1].isdigit() else f"{count} {noun}"


def plural(tile: int | str, count: int) -> str:
    """ "two 5 Dots", "one Flower"; counts of tiles read naturally."""
    return say(tile, count, the_one="one")


def kind(tile: int) -> str:
    """The tile's kind, as the explanations say it (T1-T3)."""
    code = CODES[tile]
    if tile < 27:
        return f"a number tile of the {SUIT_PLURALS[code[1]]} suit"
    if code in WIND_NAMES:
        return "a Wind"
    if code == "WD":
        return "the White Dragon, called Soap; it goes with Dots and is also zero"
    if code in DRAGON_NAMES:
        return f"a Dragon; it goes with {SUIT_PLURALS[SUIT_OF_DRAGON[code]]}"
    if code == "F":
        return "a Flower; all eight Flowers are the same tile"
    return "a Joker; it stands in for a tile in a group of three or more"


def _aliases() -> dict[str, str]:
    table: dict[str, str] = {code.lower(): code for code in CODES}
    number_words = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    suit_words = {
        "D": ["dot", "dots", "circle", "circles"],
        "B": ["bam", "bams", "bamboo", "bamboos"],
        "C": ["crak", "craks", "crack", "cracks", "character", "characters"],
    }
    for suit, words in suit_words.items():
        for n in range(1, 10):
            code = f"{n}{suit}"
            for word in words:
                for number in (str(n), number_words[n - 1]):
                    table[f"{number} {word}"] = code
                table[f"{n}{word}"] = code
    for code, wind in WIND_NAMES.items():
        for word in (wind.lower(), f"{wind.lower()} wind"):
            table[word] = table[word + "s"] = code
    table.update(
        {
            "red": "RD", "red dragon": "RD", "red dragons": "RD",
            "green": "GD", "green dragon": "GD", "green dragons": "GD",
            "white": "WD", "white dragon": "WD", "white dragons": "WD", "soap": "WD", "soaps": "WD", "0": "WD",
            "flower": "F", "flowers": "F",
            "joker": "J", "jokers": "J",
            "bird": "1B",  # the 1 Bam shows a bird, and players call it so
        }
    )
    # Every name the app shows for a tile reads back as that tile, whatever the case.
    for code in CODES:
        for shown in display_names(code):
            table.setdefault(_normal(shown), code)
    return table


def display_names(code: str) -> tuple[str, ...]:
    """Every name the app shows for a tile: in verdicts, alt text, choices
    and charts ("North", "North Wind", "Norths", "Soap (White Dragon)")."""
    names = [name(code), label(code), plural(code, 2).split(" ", 1)[1]]
    if code in WIND_NAMES:
        names.append(f"{WIND_NAMES[code]} Winds")
    if code == "WD":
        names += ["White Dragon", "Soap (White Dragon)", "White Dragon (Soap)", "Soap, the White Dragon"]
    return tuple(dict.fromkeys(names))


def _normal(text: str) -> str:
    """How a typed tile name is looked up: lower case, single spaces, no
    leading article ("the North Wind" reads as "north wind")."""
    words = text.lower().split()
    if len(words) > 1 and words[0] in ("the", "a", "an"):
        words = words[1:]
    return " ".join(words)


ALIASES: dict[str, str] = _aliases()
_WORD = re.compile(r"[^\s,]+")


def table_code_of(text: str) -> str:
    """`code_of` for a tile at the practice table: a blank too ("BL", "blank", TR1)."""
    if isinstance(text, str) and _normal(text) in ("bl", "blank", "blanks"):
        return BLANK_CODE
    return code_of(text)


def code_of(text: str) -> str:
    """The canonical code of one tile written any accepted way."""
    if not isinstance(text, str):
        raise TileError(f"{show(text)} is not a tile: write tiles as text codes such as 5D, N, RD")
    key = _normal(text)
    if key not in ALIASES:
        raise TileError(f'"{elide(text)}" is not a tile. Use codes like 5D, 7B, 3C, N, RD, WD, F, J.')  # a long text in part (issue 26)
    return ALIASES[key]


def parse(text: str, what: str = "rack") -> list[str]:
    """Parse tiles separated by spaces or commas into canonical codes.

    Two-word aliases ("5 dot", "red dragon") are read as one tile; the
    first word that is no tile is reported with its position.
    """
    if not isinstance(text, str):
        raise TileError(f"{what}: expected tiles as text, got {type(text).__name__}")
    words = [(m.group(), m.start()) for m in _WORD.finditer(text)]
    codes: list[str] = []
    i = 0
    while i < len(words):
        word, start = words[i]
        if i + 1 < len(words):
            nxt, nxt_start = words[i + 1]
            between = text[start + len(word):nxt_start]
            pair = f"{word} {nxt}".lower()
            if "," not in between and pair in ALIASES:
                codes.append(ALIASES[pair])
                i += 2
                continue
        code = ALIASES.get(word.lower())
        if code is None:
            raise TileError(
                f'{what}: "{elide(word)}" is not a tile (tile {len(codes) + 1}, '
                f"character {start + 1}). Use codes like 5D, 7B, 3C, N, RD, WD, F, J."
            )
        codes.append(code)
        i += 1
    return codes


def counts(codes: Iterable[str | int]) -> list[int]:
    """A count vector over the 36 kinds (index JOKER holds the jokers)."""
    vector = [0] * KINDS
    for tile in codes:
        vector[INDEX[tile] if isinstance(tile, str) else tile] += 1
    return vector


def check_supply(parts: Sequence[tuple[str, Iterable[str | int]]]) -> None:
    """Reject tiles that need more copies than a 152-tile set holds (T1).

    `parts` names each source ("rack", "exposure 1", "seen") so the message
    can say where the extra copies come from.
    """
    per_part = [(label, counts(tiles)) for label, tiles in parts]
    for i in range(KINDS):
        total = sum(vector[i] for _, vector in per_part)
        if total > COPIES[i]:
            holders = [label for label, vector in per_part if vector[i]]
            where = " and ".join(holders)
            verb = "holds" if len(holders) == 1 else "hold"
            raise TileError(
                f"{where} {verb} {total} × {name(i)}, but a set has only {COPIES[i]}"
            )


def format_tiles(tiles: Iterable[int | str]) -> str:
    return " ".join(CODES[t] if isinstance(t, int) else t for t in tiles)


def sort_key(code: str) -> int:
    """Table order: the card's order of kinds, a blank last (TR1)."""
    return TABLE_INDEX[code]
