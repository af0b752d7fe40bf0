"""Why a tile matters: short sentences a beginner can act on.

Shared by the pass and discard advice: each tile of a rack is explained
against the rack's nearest lines ("7 Crak is in none of your five nearest
lines", "this 5 Bam is one of three for the pung of 5 Bams in line
2468-3") and against the whole card ("14 of the card's lines use
Flowers").
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from coach.notation import tiles
from coach.notation.card import Card, Line, Reading
from coach.reading.analysis import Analysis, LineResult

NEAREST = 5
COUNT_WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight"]


@lru_cache(maxsize=8)
def _lines_using(card: Card) -> dict[int, int]:
    """How many of the card's lines use each tile in some reading."""
    uses: Counter[int] = Counter()
    for line in card.lines:
        kinds = {g.tile for r in line.readings for g in r.groups}
        uses.update(kinds)
    return dict(uses)


# By card object first: hashing a whole frozen card on every call costs more
# than the count itself (issue 13); the lru_cache above keeps equal cards shared.
_USES_BY_OBJECT: dict[int, tuple[Card, dict[int, int]]] = {}


def lines_using(card: Card, tile: int) -> int:
    hit = _USES_BY_OBJECT.get(id(card))
    if hit is None or hit[0] is not card:
        hit = (card, _lines_using(card))
        if len(_USES_BY_OBJECT) > 8:
            _USES_BY_OBJECT.clear()
        _USES_BY_OBJECT[id(card)] = hit
    return hit[1].get(tile, 0)


def singles_and_pairs_words(lines: list[Line], cite: bool = True) -> str:
    """What a beginner must know of the Singles and Pairs lines named
    (J2, K3), or "" when none is: such a line has no group of three, so
    it takes no joker, and its tiles are never called but the last one,
    for Mah Jongg. Said of every such line a reason names."""
    ids = list(dict.fromkeys(line.id for line in lines if line.singles_and_pairs))
    if not ids:
        return ""
    named = " and ".join(ids)
    what = "a Singles and Pairs line" if len(ids) == 1 else "Singles and Pairs lines"
    rules = " (J2, K3)" if cite else ""  # a hint cites no rule: it must not give the answer away
    return f"{named} {'is' if len(ids) == 1 else 'are'} {what}: no jokers, and no calls except the last tile, for Mah Jongg{rules}."


def with_line_words(sentence: str, lines: list[Line], cite: bool = True) -> str:
    """`sentence`, followed by `singles_and_pairs_words` for the lines it names."""
    extra = singles_and_pairs_words(lines, cite)
    return f"{sentence} {extra}" if extra else sentence


_SP_NOTE = re.compile(r" ?[\w-]+(?: and [\w-]+)* (?:is a Singles and Pairs line|are Singles and Pairs lines): no jokers, "
                      r"and no calls except the last tile, for Mah Jongg(?: \(J2, K3\))?\.")


def said_once(sentences: list[str]) -> list[str]:
    """The sentences with a Singles and Pairs note (`singles_and_pairs_words`)
    kept only where it is first said: a verdict that names SP-5 for two tiles
    tells the learner about SP-5 once."""
    said: set[str] = set()
    out = []
    for sentence in sentences:
        for note in _SP_NOTE.findall(sentence):
            if note.strip() in said:
                sentence = sentence.replace(note, "", 1)
            said.add(note.strip())
        out.append(sentence)
    return out


def _plural_name(tile: int) -> str:
    return tiles.plural(tile, 2).split(" ", 1)[1]


def _role(result: LineResult, tile: int) -> str | None:
    """What `tile` does in this line's best reading, or None when it has no place."""
    f = result.fill
    if f is None or tile not in f.used:
        return None
    held = f.used.count(tile)
    groups = [g for g in result.reading.groups if g.tile == tile] if result.reading else []
    group = max(groups, key=lambda g: g.size)
    line = result.line.id
    name = tiles.name(tile)
    if group.size == 1:
        return f"This {name} is a single that line {line} needs."  # (tile_note adds the Singles and Pairs words)
    if held == 1:
        return f"This {name} is your only one for the {group.kind} of {_plural_name(tile)} in line {line}."
    return f"This {name} is one of {COUNT_WORDS[held]} for the {group.kind} of {_plural_name(tile)} in line {line}."


def _places(result: LineResult, tile: int) -> bool:
    """Whether this line's best reading places `tile`: exactly when `_role` says
    what it does there, without making the sentence (a verdict asks this of
    the nearest lines for every tile of the rack)."""
    f = result.fill
    return f is not None and tile in f.used


def nearest_users(analysis: Analysis, tile: int) -> list[LineResult]:
    """The rack's NEAREST nearest lines whose best reading places `tile`."""
    return [r for r in analysis.lines[:NEAREST] if _places(r, tile)]


def tile_note(card: Card, analysis: Analysis, tile: int, passing: bool = False, worth_it: bool = False) -> str:
    """One sentence on why this tile of the rack matters, or does not.

    For a tile being given away (`passing`), a tile that only lines further
    down the list use is said so; otherwise the note names its part in the
    nearest line that uses it. `worth_it` says the tile goes in a pass as good
    as the best: the note then reads as the right call it is, not as a loss.
    """
    if tile == tiles.JOKER:
        return "Keep the joker: jokers are never passed in the Charleston (C4)."
    name = tiles.name(tile)
    nearest = analysis.lines[:NEAREST]
    users = [r for r in nearest if _places(r, tile)]
    if not users:
        if not lines_using(card, tile):
            return f"{name} is in no line of this card."
        return f"{name} is in none of your {COUNT_WORDS[NEAREST]} nearest lines."
    if passing and users[0] is not nearest[0] and len(users) <= 2:
        ids = " and ".join(r.line.id for r in users)
        named = [r.line for r in users] + [nearest[0].line]
        return with_line_words(f"{name} helps only {ids}, not your nearest line {nearest[0].line.id}.", named)
    role = _role(users[0], tile)
    assert role is not None
    if passing and worth_it:
        role = role[:-1] + "; letting it go still leaves you as near on average as any pass."
    elif passing:
        role = role[:-1] + ", so passing it costs a tile there."
    return with_line_words(role, [users[0].line])


def keep_note(card: Card, analysis: Analysis, tile: int) -> str | None:
    """A reason to keep a tile held two or more times, if the card gives one."""
    held = analysis.holding.rack[tile]
    if tile == tiles.JOKER or held < 2:
        return None
    used_by = lines_using(card, tile)
    if not used_by:
        return None
    group = {2: "pair", 3: "pung", 4: "kong"}.get(held, "group")
    total = len(card.lines)
    return (
        f"Keep the {group} of {_plural_name(tile)}: {used_by} of the card's {total} lines use "
        f"{_plural_name(tile)}."
    )


def reading_words(reading: Reading) -> str:
    """The concrete hand a line was read as, group by group, in tile names:
    "pair of 6 Dots, kong of 7 Craks, kong of 8 Bams, pair of 9 Dots, pair of Flowers"."""
    return ", ".join(g.describe() for g in reading.groups)
