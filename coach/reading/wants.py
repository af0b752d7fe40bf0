"""What lines of a card want, read from their readings: the tiles some
hand of theirs uses, and the one hand of a line in given suits. Lessons
state these facts about the card, so they are read from it here, never
written by hand (issue 25)."""

from __future__ import annotations

from collections.abc import Iterable

from coach.notation import tiles
from coach.notation.card import Line, Reading


def in_suits(reading: Reading, suits: Iterable[str] | None) -> bool:
    """Every suit letter of the reading is read as one of `suits` (None: any)."""
    return suits is None or {suit for _, suit in reading.suits} <= set(suits)


def wanted(lines: Iterable[Line], suits: Iterable[str] | None = None) -> frozenset[int]:
    """Every tile some hand of these lines uses, counting only the hands
    whose suit letters are all read as `suits` (None: every hand). A tile
    outside it is one no such hand wants (H1: a hand is one line's tiles)."""
    allowed = None if suits is None else frozenset(suits)
    return frozenset(t for line in lines for r in line.readings if in_suits(r, allowed) for t in r.tiles)


def reading_with(line: Line, suits: dict[str, str], first_number: int | None = None) -> Reading | None:
    """The hand of `line` whose letters are read as `suits` ({"a": "D", ...})
    and, for a line of any numbers, whose first number is `first_number`;
    None when the line has no such hand."""
    for reading in line.readings:
        if dict(reading.suits) != suits:
            continue
        numbers = [n for t in reading.tiles if (n := tiles.number_of(t)) is not None]
        if first_number is None or (numbers and numbers[0] == first_number):
            return reading
    return None
