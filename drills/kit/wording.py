"""Words the rules drills share when they explain: lists, counts, seats and
groups of tiles, said the same way in every drill.

Only wording lives here; what a rule decides is in the core (`coach/`).
"""

from __future__ import annotations

from collections.abc import Sequence

from coach.notation import tiles
from coach.notation.card import GROUP_NAMES, Line, Reading

# Small counts as words; larger ones stay figures ("11 tiles"). Counts, articles
# and plurals are all made by `coach.notation.tiles.say`.
NUMBER_WORDS = tiles.NUMBER_WORDS


def join(words: Sequence[str]) -> str:
    """ "a, b and c"; one word alone; nothing for no words."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def capitalised(text: str) -> str:
    """The text with its first letter upper case (the rest kept as is)."""
    return text[:1].upper() + text[1:]


def number(n: int) -> str:
    """ "three", or "11" past eight."""
    return NUMBER_WORDS[n] if n < len(NUMBER_WORDS) else str(n)


def many(tile: int) -> str:
    """The tile's name for a group of it: "5 Dots", "Norths", "Soaps", "Flowers"."""
    return tiles.plural(tile, 2).split(" ", 1)[1]


def count(tile: int, n: int) -> str:
    """ "three 5 Dots", "one Flower", or "11 of the 5 Dots" past eight."""
    return tiles.plural(tile, n)


def tiles_word(n: int) -> str:
    """ "1 tile", "3 tiles". """
    return tiles.say("tile", n, figures=True)


def jokers_word(n: int) -> str:
    """ "a joker", "2 jokers". """
    return "a joker" if n == 1 else tiles.say("joker", n, figures=True)


def group(tile: int, size: int) -> str:
    """ "pung of 5 Dots", "pair of Soaps". """
    return f"{GROUP_NAMES[size]} of {many(tile)}"


def naturals_and_jokers(tile: int, naturals: int, jokers: int) -> str:
    """ "three 6 Bams and one Joker", counted apart; "none" for nothing."""
    words = []
    if naturals:
        words.append(tiles.plural(tile, naturals))
    if jokers:
        words.append(tiles.plural(tiles.JOKER, jokers))
    return " and ".join(words) or "none"


def seats(names: Sequence[str]) -> str:
    """ "East, South and West", or "Nobody"."""
    return join(names) if names else "Nobody"


def tile_label(tile: int) -> str:
    """The tile as choices and facts name it: "East Wind", so it never reads as a seat."""
    return tiles.label(tiles.CODES[tile])


def line_text(line: Line, reading: Reading) -> str:
    """The line as read with actual suits: "2468-1, exposed (X): three 2 Dots; ..."."""
    kind = "concealed (C)" if line.concealed else "exposed (X)"
    parts = []
    for part in reading.parts:
        if part.is_group:
            parts.append(tiles.plural(part.tiles[0], len(part.tiles)))
        else:
            parts.append(", ".join(tiles.name(t) for t in part.tiles))
    return f"{line.id}, {kind}: {'; '.join(parts)}"
