"""Mah Jongg or not: fourteen tiles, rack and exposures, checked against the card
(H1, H2, H4, H5, J2).

Every hand is dealt from a real reading of a card line, then either left
complete or given one fault: a tile the line has no place for, 13 or 15
tiles, a joker in a pair, a single, the year's digits or a Singles & Pairs
line, a group of the wrong size, a run read as a pung, or an exposure on a
concealed line. The truth always comes from the core: a hand is Mah Jongg
on a line when `coach.rules.mahjong.winning_lines` says so, and a faulty hand must
complete no line at all.

Levels 1 and 2 name the line the player declares and offer "Mah Jongg on
<line>" beside statements about what is wrong; each statement is checked
against the tiles, so exactly one choice is true. Level 3 names no line:
which line do the tiles complete, if any? When they read as two lines, the
one that pays most is the answer (H5) and the other earns half.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from coach.notation import tiles
from coach.notation.card import Card, Line, Reading, parse_pattern
from coach.reading.tiles_away import OUT_OF_REACH, Exposure, Holding, fill, tables_for
from coach.rules.catalog import cite
from coach.rules.mahjong import pay, score, winning_lines
from drills.kit import choice
from drills.kit.base import Level, Question, check_level, per_card, rng_for
from drills.kit.deal import by_jokers, joker_budget
from drills.kit.two_lines import multi_reading_hands
from drills.kit.wording import count, join, many, number

# A citation at the end of an explanation line: "(J2)", "(S3, T1)".

NAME = "mahjong-or-not"
TITLE = "Mah Jongg or not?"
TEMPLATE = "choice"
LEVELS: tuple[Level, ...] = (
    Level(1, "Count the tiles, check the jokers", "A player declares Mah Jongg on a line: fourteen tiles, every tile on the line, no joker in a single or pair?"),
    Level(2, "Groups, years and concealed lines", "Groups of the wrong size, runs, jokers in the year or a Singles & Pairs line, exposures on a concealed line."),
    Level(3, "Which line, if any?", "No line is named: which line do these tiles complete, and which pays when they read as two?"),
)

NOT_MJ = "Not Mah Jongg"
WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")
LEVEL_FAULTS = {
    1: ("complete", "complete", "count-13", "count-15", "foreign", "joker-small"),
    2: ("complete", "size", "run", "concealed", "joker-year", "joker-sp"),
    3: ("count-13", "foreign", "joker-small", "size", "run", "concealed", "joker-year", "joker-sp"),
}
CHOICE_COUNT = {1: 4, 2: 5}


# -- hands ---------------------------------------------------------------------


@dataclass
class LaidDown:
    """Tiles as a player lays them down: a rack (tile indices) and exposures."""

    rack: list[int]
    exposures: list[Exposure] = field(default_factory=list)

    @property
    def size(self) -> int:
        return len(self.rack) + sum(e.size for e in self.exposures)

    def holding(self) -> Holding:
        return Holding.of(self.rack, self.exposures)

    def have(self, tile: int) -> int:
        """Tiles standing for `tile`: real ones on the rack, and whole exposures
        of it (a joker in an exposure plainly stands for its tile)."""
        return self.rack.count(tile) + sum(e.size for e in self.exposures if e.tile == tile)

    def supplied(self) -> bool:
        """No more copies of any tile than a 152-tile set holds (T1)."""
        every = self.rack + [t for e in self.exposures for t in e.tiles]
        return all(every.count(t) <= tiles.COPIES[t] for t in set(every))

    def copy(self) -> LaidDown:
        return LaidDown(list(self.rack), list(self.exposures))


def _deal(rng: random.Random, line: Line, reading: Reading, jokers: bool, expose: bool, rack_jokers: bool = True) -> LaidDown | None:
    """The reading's tiles laid out: jokers where a set is short of a tile, a
    few more at random when `jokers`, and some groups exposed on an X line.
    With `rack_jokers` False every joker must sit in an exposure (None when
    that cannot be done)."""
    groups = reading.groups
    placed = [0] * len(groups)
    short: dict[int, int] = {}
    for g in groups:
        short[g.tile] = short.get(g.tile, 0) + g.size
    for tile, total in short.items():
        over = total - tiles.COPIES[tile]
        for i, g in enumerate(groups):
            if over > 0 and g.tile == tile and g.size >= 3:
                take = min(over, g.size - 1)
                placed[i] += take
                over -= take
    if jokers:
        # As many jokers as a real hand holds (drills.kit.deal), spread over its groups.
        budget = joker_budget(rng, sum(placed))
        for i in rng.sample(range(len(groups)), len(groups)):
            room = min(groups[i].size - 1 - placed[i], budget - sum(placed))
            if groups[i].size >= 3 and room > 0:
                placed[i] += rng.randint(1, room)
    if sum(placed) > tiles.COPIES[tiles.JOKER]:
        return None
    big = [i for i, g in enumerate(groups) if g.size >= 3]
    shown: set[int] = set()
    if expose and not line.concealed and big:
        shown = set(rng.sample(big, rng.randint(1, min(2, len(big)))))
    if not rack_jokers:
        if any(placed[i] for i in big if i not in shown) and line.concealed:
            return None
        shown |= {i for i in big if placed[i]}
    hand = LaidDown([])
    for i, g in enumerate(groups):
        if i in shown:
            hand.exposures.append(Exposure(g.tile, g.size, placed[i]))
        else:
            hand.rack += [g.tile] * (g.size - placed[i]) + [tiles.JOKER] * placed[i]
    return hand if hand.supplied() else None


def _lines_on(line: Line) -> set[int]:
    """Every tile some reading of the line uses."""
    return {g.tile for r in line.readings for g in r.groups}


def _year_part(card: Card, line: Line, reading: Reading) -> int | None:
    """The index of the year token in the form `reading` reads, if it has one."""
    if not card.year:
        return None
    for p, token in enumerate(parse_pattern(line.form_of(reading))):
        if token.symbols == str(card.year):
            return p
    return None


def _need(reading: Reading, tile: int, small_only: bool = False) -> int:
    return sum(g.size for g in reading.groups if g.tile == tile and (g.size < 3 or not small_only))


# -- statements about a hand ---------------------------------------------------


@dataclass(frozen=True)
class Claim:
    """One answer choice: a statement about the hand, whether it is true, and
    the sentence (ending in its rule ids) that says why."""

    kind: str
    text: str
    true: bool
    why: str
    rules: tuple[str, ...]


@dataclass(frozen=True)
class Setting:
    card: Card
    line: Line
    reading: Reading
    hand: LaidDown
    wins: tuple[str, ...]  # ids of every line the hand completes


def _mj_claim(s: Setting) -> Claim:
    line = s.line
    text = f"Mah Jongg on {line.id}"
    if line.id in s.wins:
        return Claim("mj", text, True, f"These {s.hand.size} tiles complete {line.id} ({line.pattern}){_read(line, s.reading)} (H1).", ("H1",))
    return Claim("mj", text, False, f"These tiles do not complete {line.id} ({line.pattern}) (H1).", ("H1",))


def _read(line: Line, reading: Reading) -> str:
    """ ", read as a = Dots, b = Bams, with the numbers 2, 3, 4": how the printed
    line was read, so a statement about its tiles can be checked."""
    words = [reading.describe()] if reading.suits else []
    numbers = sorted({n for t in reading.tiles if (n := tiles.number_of(t)) is not None})
    if line.numbers != "fixed" and numbers:
        label = "the number" if len(numbers) == 1 else "the numbers"
        words.append(f"with {label} {', '.join(map(str, numbers))}")
    form = line.read_as(reading)  # a line of several forms: which one
    if form:
        return f", {form}" + (f" with {', '.join(words)}" if words else "")
    return f", read as {', '.join(words)}" if words else ""


def _count_claims(s: Setting) -> list[Claim]:
    hand = s.hand
    on_rack, shown = len(hand.rack), hand.size - len(hand.rack)
    where = f"{on_rack} on the rack and {shown} exposed" if shown else f"all {on_rack} on the rack"
    if hand.size != 14:
        return [Claim("count", f"Not Mah Jongg: {hand.size} tiles, not 14", True,
                      f"The hand has {hand.size} tiles, {where}; a winning hand is exactly 14, exposed groups included (H1).", ("H1",))]
    return [Claim("count", f"Not Mah Jongg: {n} tiles, not 14", False,
                  f"Count again: there are 14 tiles, {where}, and exposed groups count toward the 14 (H1).", ("H1",))
            for n in (13, 15)]


def _joker_claims(s: Setting) -> list[Claim]:
    """Statements that a joker stands where none may (J2). Real tiles go to
    singles and pairs first, so a joker stands in one exactly when the rack
    has a joker and fewer real tiles of that kind than the singles and
    pairs need."""
    hand, reading, line = s.hand, s.reading, s.line
    jokers = hand.rack.count(tiles.JOKER)
    claims: list[Claim] = []
    if line.singles_and_pairs:
        any_joker = jokers + sum(e.jokers for e in hand.exposures)
        text = "Not Mah Jongg: a joker in a Singles & Pairs hand"
        if any_joker:
            claims.append(Claim("joker", text, True, f"{line.id} is a Singles & Pairs line, and such a hand never holds a joker (J2).", ("J2",)))
        else:
            claims.append(Claim("joker", text, False, "There is no joker in this hand at all (J2).", ("J2",)))
        return claims
    year = _year_part(s.card, line, reading)
    kinds: dict[int, set[str]] = {}
    for p, part in enumerate(reading.parts):
        for g in part.groups:
            if g.size < 3:
                kinds.setdefault(g.tile, set()).add("year" if p == year else "small")
    year_tiles = [t for t, k in kinds.items() if k == {"year"}]
    if year_tiles:
        short = jokers and any(hand.rack.count(t) < _need(reading, t, True) for t in year_tiles)
        text = f"Not Mah Jongg: a joker as a digit of {s.card.year}"
        if short:
            claims.append(Claim("joker", text, True, "The year's four digits are singles, and a joker never stands as a single (J2).", ("J2",)))
        else:
            claims.append(Claim("joker", text, False, f"Every digit of {s.card.year} is there as a real tile (J2).", ("J2",)))
    for part in reading.parts:
        for g in part.groups:
            if g.size >= 3 or kinds.get(g.tile) != {"small"}:
                continue
            what = f"the single {tiles.name(g.tile)}" if g.size == 1 else f"the pair of {many(g.tile)}"
            text = f"Not Mah Jongg: a joker stands for {what}"
            if jokers and hand.rack.count(g.tile) < _need(reading, g.tile, True):
                claims.append(Claim("joker", text, True, f"A joker may never stand as a single or in a pair, so it cannot be {what} (J2).", ("J2",)))
            else:
                claims.append(Claim("joker", text, False, f"{what[0].upper()}{what[1:]} is there in real tiles; jokers stand only in groups of three or more (J2).", ("J2",)))
    return claims


def _concealed_claim(s: Setting) -> Claim:
    line, hand = s.line, s.hand
    text = f"Not Mah Jongg: {line.id} is concealed, and this hand has an exposure"
    if line.concealed and hand.exposures:
        return Claim("concealed", text, True, f"{line.id} is a concealed (C) line: it allows no exposure before the winning tile (H4).", ("H4",))
    if not line.concealed:
        return Claim("concealed", text, False, f"{line.id} is an exposed (X) line, so exposures are allowed on it (H4).", ("H4",))
    return Claim("concealed", text, False, "Nothing in this hand is exposed, so a concealed line is fine (H4).", ("H4",))


def _foreign_claims(s: Setting) -> list[Claim]:
    """ "the 7 Crak has no place on X": said only of a tile on the reading the
    hand was dealt from (false) or on no reading of the line at all (true);
    a tile that fits another reading only would leave the learner guessing."""
    used = _lines_on(s.line)
    here = {g.tile for g in s.reading.groups}
    claims = []
    for tile in sorted({t for t in s.hand.rack if t != tiles.JOKER}):
        text = f"Not Mah Jongg: the {tiles.name(tile)} has no place on {s.line.id}"
        if tile in here:
            claims.append(Claim("foreign", text, False, f"The {tiles.name(tile)} is on {s.line.id}{_read(s.line, s.reading)} (H1).", ("H1",)))
        elif tile not in used:
            claims.append(Claim("foreign", text, True, f"No hand of {s.line.id}, in any suits or numbers, uses the {tiles.name(tile)}, and a winning hand matches its line tile for tile (H1).", ("H1",)))
    return claims


def _size_claims(s: Setting) -> list[Claim]:
    """ "three 5 Dots where X needs four": only said of hands with no joker on
    the rack, where how many of a tile the hand has is plain to see. Real
    tiles and the jokers of exposures are counted apart: "four Souths and
    two jokers", never six Souths."""
    hand, reading, line = s.hand, s.reading, s.line
    if tiles.JOKER in hand.rack:
        return []
    claims = []
    for tile in sorted({g.tile for g in reading.groups}):
        need, (naturals, jokers) = _need(reading, tile), _tally(hand, tile)
        if need < 2:
            continue
        needs = f"{line.id} needs {number(need)}"
        has, tally = _has(tile, naturals, jokers), _has(tile, naturals, jokers, total=True)
        if naturals + jokers != need:
            read = _read(line, reading)
            claims.append(Claim("size", f"Not Mah Jongg: {has} where {needs}", True,
                                f"{line.id}{read}{',' if read else ''} needs {count(tile, need)}; the hand has {tally}; "
                                f"groups are exact, so that will not do (H2).", ("H2",)))
        else:
            # One real tile fewer than the hand shows: plainly false to whoever counts.
            said = _has(tile, naturals - 1, jokers) if naturals else count(tile, need - 1)
            claims.append(Claim("size", f"Not Mah Jongg: {said} where {needs}", False,
                                f"Count again: the hand has {tally}, just what {line.id} needs (H2).", ("H2",)))
    return claims


def _tally(hand: LaidDown, tile: int) -> tuple[int, int]:
    """Real tiles of `tile` in the hand, and jokers standing for it in its exposures."""
    naturals = hand.rack.count(tile) + sum(e.size - e.jokers for e in hand.exposures if e.tile == tile)
    return naturals, sum(e.jokers for e in hand.exposures if e.tile == tile)


def _has(tile: int, naturals: int, jokers: int, total: bool = False) -> str:
    """ "four Souths and two jokers" (", six in all" with `total`), "three 5 Dots":
    real tiles and jokers apart."""
    if not jokers:
        return count(tile, naturals)
    extra = "a joker" if jokers == 1 else f"{number(jokers)} jokers"
    return f"{count(tile, naturals)} and {extra}" + (f", {number(naturals + jokers)} in all" if total else "")


def _claims(s: Setting) -> list[Claim]:
    return [_mj_claim(s), *_count_claims(s), *_joker_claims(s), _concealed_claim(s), *_foreign_claims(s), *_size_claims(s)]


# -- faults --------------------------------------------------------------------


def _rack_natural(rng: random.Random, hand: LaidDown) -> int | None:
    naturals = [t for t in hand.rack if t != tiles.JOKER]
    return rng.choice(naturals) if naturals else None


def _fault(rng: random.Random, card: Card, fault: str, line: Line, reading: Reading) -> tuple[LaidDown, Claim | None] | None:
    """A hand from this reading with the fault, and the one true statement
    of what is wrong (None for a complete hand); None when the reading
    cannot carry the fault."""
    expose = rng.random() < 0.5
    if fault == "complete":
        hand = _deal(rng, line, reading, jokers=True, expose=expose)
        return (hand, None) if hand else None
    if fault == "size":
        return _size_fault(rng, line, reading, expose)
    if fault == "run":
        return _run_fault(rng, line, reading, expose)
    if fault == "concealed":
        if not line.concealed or line.singles_and_pairs:
            return None
        hand = _deal(rng, line, reading, jokers=True, expose=False)
        if hand is None:
            return None
        return _expose_one(rng, hand, reading)
    hand = _deal(rng, line, reading, jokers=fault not in ("joker-sp",), expose=expose)
    if hand is None:
        return None
    if fault == "count-13":
        hand.rack.remove(rng.choice(hand.rack))
    elif fault == "count-15":
        extra = rng.choice([g.tile for g in reading.groups])
        hand.rack.append(extra)
    elif fault == "foreign":
        strangers = [t for t in range(tiles.NATURALS) if t not in _lines_on(line)]
        out = _rack_natural(rng, hand)
        if not strangers or out is None:
            return None
        hand.rack.remove(out)
        hand.rack.append(rng.choice(strangers))
    elif fault in ("joker-small", "joker-year", "joker-sp"):
        target = _joker_target(rng, card, fault, line, reading, hand)
        if target is None:
            return None
        hand.rack.remove(target)
        hand.rack.append(tiles.JOKER)
    return (hand, None) if hand.supplied() else None


def _joker_target(rng: random.Random, card: Card, fault: str, line: Line, reading: Reading, hand: LaidDown) -> int | None:
    """The real tile of a single, pair or year digit to swap for a joker."""
    if fault == "joker-sp":
        return _rack_natural(rng, hand) if line.singles_and_pairs else None
    if line.singles_and_pairs:
        return None
    year = _year_part(card, line, reading)
    if fault == "joker-year":
        if year is None:
            return None
        return rng.choice(reading.parts[year].tiles)
    smalls = [g.tile for p, part in enumerate(reading.parts) if p != year for g in part.groups if g.size < 3]
    return rng.choice(smalls) if smalls else None


def _expose_one(rng: random.Random, hand: LaidDown, reading: Reading) -> tuple[LaidDown, None] | None:
    """Move one group of three or more from the rack to an exposure."""
    big = [g for g in reading.groups if g.size >= 3 and hand.rack.count(g.tile) >= 1]
    if not big:
        return None
    g = rng.choice(big)
    naturals = min(hand.rack.count(g.tile), g.size)
    jokers = g.size - naturals
    if hand.rack.count(tiles.JOKER) < jokers:
        return None
    for _ in range(naturals):
        hand.rack.remove(g.tile)
    for _ in range(jokers):
        hand.rack.remove(tiles.JOKER)
    hand.exposures.append(Exposure(g.tile, g.size, jokers))
    return hand, None


def _size_fault(rng: random.Random, line: Line, reading: Reading, expose: bool) -> tuple[LaidDown, None] | None:
    """One tile moved from a group to another: a kong left a pung, a pair
    grown to a pung. No joker on the rack, so the counts are plain."""
    hand = _deal(rng, line, reading, jokers=False, expose=expose, rack_jokers=False)
    if hand is None:
        return None
    tiles_of = sorted({g.tile for g in reading.groups})
    shrink = [t for t in tiles_of if _need(reading, t) >= 2 and (hand.rack.count(t) or _shrinkable(hand, t))]
    if not shrink:
        return None
    out = rng.choice(shrink)
    grow = [t for t in tiles_of if t != out and hand.have(t) < tiles.COPIES[t] and hand.rack.count(t)]
    if not grow:
        return None
    if hand.rack.count(out):
        hand.rack.remove(out)
    else:
        e = _shrinkable(hand, out)
        assert e is not None
        hand.exposures[hand.exposures.index(e)] = Exposure(e.tile, e.size - 1, e.jokers)
    hand.rack.append(rng.choice(grow))
    return hand, None


def _shrinkable(hand: LaidDown, tile: int) -> Exposure | None:
    """An exposure of `tile` that stays a real exposure one tile smaller."""
    for e in hand.exposures:
        if e.tile == tile and e.size >= 4 and e.size - 1 - e.jokers >= 1:
            return e
    return None


def _run_fault(rng: random.Random, line: Line, reading: Reading, expose: bool) -> tuple[LaidDown, Claim] | None:
    """A pung of a number tile laid down as a run of three: 4-5-6 for 5-5-5."""
    hand = _deal(rng, line, reading, jokers=True, expose=expose)
    if hand is None:
        return None
    # Only a pung whose tile stands nowhere else on the line, still on the rack.
    pungs = [g for g in reading.groups if g.size == 3 and g.tile < 27 and 2 <= (tiles.number_of(g.tile) or 0) <= 8
             and _need(reading, g.tile) == 3 and hand.rack.count(g.tile)]
    if not pungs:
        return None
    g = rng.choice(pungs)
    number, suit = tiles.number_of(g.tile), tiles.suit_of(g.tile)
    assert number is not None and suit is not None
    naturals = hand.rack.count(g.tile)
    if hand.rack.count(tiles.JOKER) < 3 - naturals:
        return None
    for _ in range(naturals):
        hand.rack.remove(g.tile)
    for _ in range(3 - naturals):
        hand.rack.remove(tiles.JOKER)
    hand.rack += [tiles.suited(number - 1, suit), g.tile, tiles.suited(number + 1, suit)]
    if not hand.supplied():
        return None
    run = f"{number - 1}-{number}-{number + 1} {tiles.SUIT_NAMES[suit]}"
    claim = Claim("run", f"Not Mah Jongg: {run} is a run, not a pung of {many(g.tile)}", True,
                  f"There are no runs: different tiles standing together are singles, so {run} is no pung of {many(g.tile)} (H2).", ("H2",))
    return hand, claim


# -- levels 1 and 2: a declared line -------------------------------------------


def _declared(rng: random.Random, card: Card, level: int) -> tuple[Setting, Claim, list[Claim]]:
    """A declared hand, its one true statement and the false ones to offer."""
    def deal() -> tuple[Setting, Claim, list[Claim]] | None:
        fault = rng.choice(LEVEL_FAULTS[level])
        line = rng.choice(card.lines)
        reading = rng.choice(line.readings)
        made = _fault(rng, card, fault, line, reading)
        if made is None:
            return None
        hand, special = made
        wins = tuple(w.line.id for w in winning_lines(card, hand.holding()))
        if fault == "complete" and wins != (line.id,):
            return None  # a second reading would need H5: that is level 3's question
        if fault != "complete" and wins:
            return None  # the fault happened to make another line: not a clean question
        s = Setting(card, line, reading, hand, wins)
        claims = _claims(s)
        true = [c for c in claims if c.true] + ([special] if special else [])
        best = _fault_claim(fault, true)
        if best is None or (fault == "complete" and len(true) != 1):
            return None
        return s, best, [c for c in claims if not c.true]

    return choice.dealt(f"hand for {NAME} level {level} on {card.name}", deal)


FAULT_KIND = {
    "complete": "mj", "count-13": "count", "count-15": "count", "foreign": "foreign",
    "joker-small": "joker", "joker-year": "joker", "joker-sp": "joker",
    "size": "size", "run": "run", "concealed": "concealed",
}


def _fault_claim(fault: str, true: list[Claim]) -> Claim | None:
    """The true statement that names this fault (there may be other true
    statements, which are then never offered)."""
    found = [c for c in true if c.kind == FAULT_KIND[fault]]
    return found[0] if found else None


def _pick_false(rng: random.Random, false: list[Claim], count: int, keep: list[Claim]) -> list[Claim]:
    """`count` false statements, of as many different kinds as there are."""
    by_kind: dict[str, list[Claim]] = {}
    for c in false:
        if c.text not in {k.text for k in keep}:
            by_kind.setdefault(c.kind, []).append(c)
    kinds = list(by_kind)
    rng.shuffle(kinds)
    picked: list[Claim] = []
    while len(picked) < count and kinds:
        for kind in list(kinds):
            options = [c for c in by_kind[kind] if c not in picked]
            if not options:
                kinds.remove(kind)
                continue
            if len(picked) < count:
                picked.append(rng.choice(options))
    return picked


def _declared_question(rng: random.Random, card: Card, level: int, common: dict[str, Any]) -> Question:
    s, best, false = _declared(rng, card, level)
    keep = [best]
    mj = next(c for c in false if c.kind == "mj") if best.kind != "mj" else None
    if mj:
        keep.append(mj)  # "Mah Jongg on <line>" is always offered: it is the question
    offered = keep + _pick_false(rng, [c for c in false if c.kind != "mj"], CHOICE_COUNT[level] - len(keep), keep)
    line = s.line
    reason = _truth(s, best)
    wrong = {c.text: (c.why, list(c.rules)) for c in offered if c is not best}
    rules = list(dict.fromkeys(r for line_ in reason for r in _ids(line_)))
    facts = [
        f"A player declares Mah Jongg on {line.id}: {line.pattern}, {'concealed (C)' if line.concealed else 'exposed (X)'}.",
        _tile_fact(s.hand),
    ]
    return _asked(
        rng, common, "Is it Mah Jongg? If not, what is wrong?", facts, s.hand, best.text, reason, rules, wrong,
        order=tuple(c.text for c in offered), choice_rules={c.text: tuple(c.rules) for c in offered}, kind="named-line",
        # One nudge whatever is wrong: the rule of the fault (H1, H2, H4, J2) would name it.
        hint="Check against the line named: count every tile, look at each group, where the jokers stand and what is exposed.",
    )


def _tile_fact(hand: LaidDown) -> str:
    if hand.exposures:
        return f"The hand: {len(hand.rack)} tiles on the rack and {len(hand.exposures)} exposed group{'s' if len(hand.exposures) > 1 else ''}."
    return f"The hand: {len(hand.rack)} tiles on the rack, nothing exposed."


def _truth(s: Setting, best: Claim) -> list[str]:
    """The lines that explain the right answer, each ending in its rule ids."""
    if best.kind == "mj":
        lines = [best.why]
        if s.hand.exposures:
            lines.append("The exposed groups count toward the 14 tiles (H1).")
        if tiles.JOKER in s.hand.rack or any(e.jokers for e in s.hand.exposures):
            lines.append("Every joker stands in a group of three or more, where jokers may go (J1).")
        lines.append(cite("H1"))
        return lines
    return [best.why, f"So this is not Mah Jongg on {s.line.id} ({s.line.pattern}), nor on any other line (H1)."] + [cite(r) for r in best.rules]


# -- level 3: which line? ------------------------------------------------------


def _which(rng: random.Random, card: Card) -> tuple[Setting, str, Claim | None]:
    """A hand for level 3 and its kind: "one" line, "two" (or more) lines, or "none"."""
    kind = rng.choice(("one", "two", "none"))
    if kind == "two":
        found = _two_lines(rng, card)
        if found is not None:
            return found, "two", None
        kind = "one"  # a card whose lines never overlap

    def deal() -> tuple[Setting, str, Claim | None] | None:
        line = rng.choice(card.lines)
        reading = rng.choice(line.readings)
        if kind == "one":
            hand = _deal(rng, line, reading, jokers=True, expose=rng.random() < 0.5)
            if hand is None:
                return None
            wins = tuple(w.line.id for w in winning_lines(card, hand.holding()))
            return (Setting(card, line, reading, hand, wins), "one", None) if wins == (line.id,) else None
        fault = rng.choice(LEVEL_FAULTS[3])
        made = _fault(rng, card, fault, line, reading)
        if made is None:
            return None
        hand, special = made
        if winning_lines(card, hand.holding()):
            return None
        s = Setting(card, line, reading, hand, ())
        claims = [c for c in _claims(s) if c.true] + ([special] if special else [])
        claim = _fault_claim(fault, claims)
        return None if claim is None else (s, "none", claim)

    return choice.dealt(f"hand for {NAME} level 3 on {card.name}", deal)


def _two_lines(rng: random.Random, card: Card) -> Setting | None:
    """A hand that completes two lines or more, one paying most (H5): one of
    the card's such hands (drills.kit.two_lines), holding as many jokers as a
    real table sees (drills.kit.deal), read as the line that pays most."""
    hands = multi_reading_hands(card)
    if not hands:
        return None
    row = by_jokers(rng, hands, lambda row: row[tiles.JOKER])
    hand = LaidDown([t for t, n in enumerate(row) for _ in range(n)])
    wins = winning_lines(card, hand.holding())
    top = max(wins, key=lambda w: (_total(w.line, hand), w.line.value))
    return Setting(card, top.line, top.reading, hand, tuple(w.line.id for w in wins))


def _total(line: Line, hand: LaidDown) -> int:
    """What the three losers pay in all for a self-picked win on this line (P1-P5):
    the order of lines is the same for any way of winning."""
    jokerless = tiles.JOKER not in hand.rack and not any(e.jokers for e in hand.exposures)
    return pay(line, "self", jokerless)[2]


@per_card
def _line_starts(card: Card) -> dict[str, int]:
    """Where each line's readings start among the card tables' readings."""
    tables = tables_for(card)
    starts: dict[str, int] = {}
    for line, start in zip(tables.lines, tables.starts.tolist()):
        starts.setdefault(line.id, start)  # the first line of an id, as Card.line finds it
    return starts


def _why_not_line(card: Card, line: Line, hand: LaidDown) -> tuple[str, list[str]]:
    """Why the hand is not Mah Jongg on a line it does not complete."""
    holding = hand.holding()
    if hand.size != 14:
        return f"A hand is Mah Jongg with exactly 14 tiles, and this one has {hand.size} (H1).", ["H1"]
    if line.concealed and hand.exposures:
        return f"{line.id} is concealed (C), and this hand has an exposure (H4).", ["H4"]
    # The line's nearest reading, the first of them as the card lists its
    # readings, found by the card's tables; only that one is filled to say
    # what it lacks (a line may have dozens of readings).
    tables = tables_for(card)
    start = _line_starts(card)[line.id]
    distances = tables.reading_distances(holding)[start : start + len(line.readings)]
    first = int(np.argmin(distances))
    if distances[first] == OUT_OF_REACH:
        return f"The exposures fit no group of {line.id} (H1).", ["H1"]
    best = fill(line.readings[first], holding, line.concealed)
    lacks = join([count(m.tile, m.count) for m in best.missing])
    return f"{line.id} ({line.pattern}) is not complete: read as closely as it can be, it still lacks {lacks} (H1).", ["H1"]


def _which_question(rng: random.Random, card: Card, common: dict[str, Any]) -> Question:
    s, kind, claim = _which(rng, card)
    hand, holding = s.hand, s.hand.holding()
    wins = list(s.wins)
    tables = tables_for(card)
    distances = tables.line_distances(holding)
    order = sorted(range(len(tables.lines)), key=lambda n: (int(distances[n]), tables.lines[n].id))
    near = [tables.lines[n].id for n in order if tables.lines[n].id not in wins]
    payment = score(card, holding, "self") if wins else None
    top = payment.line if payment else None
    # The best-paying line first, so it is offered however many lines the hand completes.
    offered_lines = sorted(wins, key=lambda w: w != (top.id if top else None))[:3]
    if kind == "none" and s.line.id not in offered_lines:
        offered_lines.append(s.line.id)  # the line the hand was meant for is the tempting one
    for line_id in near:
        if len(offered_lines) >= 4:
            break
        if line_id not in offered_lines:
            offered_lines.append(line_id)
    choices = [f"Mah Jongg on {line_id}" for line_id in offered_lines] + [NOT_MJ]
    partial: dict[str, float] = {}
    wrong: dict[str, tuple[str, list[str]]] = {}
    if kind == "none":
        best = NOT_MJ
        assert claim is not None
        reason = ["These tiles complete no line of the card (H1).", f"Compare these tiles with {s.line.id} ({s.line.pattern}) to see why: {claim.why}"]
        reason += [cite(r) for r in dict.fromkeys(["H1", *claim.rules])]
    else:
        assert payment is not None and top is not None and payment.reading is not None  # a win has its line and reading
        best = f"Mah Jongg on {top.id}"
        reason = [f"These 14 tiles complete {top.id} ({top.pattern}){_read(top, payment.reading)} (H1)."]
        if kind == "two":
            others = [w for w in offered_lines if w in wins and w != top.id]
            reason.append(
                f"They also complete {', '.join(others)}; a hand that reads as two lines is paid as the one that pays most, "
                f"{top.id} at {top.value} (H5)."
            )
            for other in others:
                value = card.line(other).value
                text = f"Mah Jongg on {other}"
                partial[text] = 0.5
                wrong[text] = (f"It is Mah Jongg on {other} too, but {other} is worth {value} and {top.id} {top.value}: the hand is paid as the line that pays most (H5).", ["H5"])
        if hand.exposures:
            reason.append("The exposed groups count toward the 14 tiles (H1).")
        reason += [cite("H1")] + ([cite("H5")] if kind == "two" else [])
        wrong[NOT_MJ] = (f"It is Mah Jongg: {top.id} is complete (H1).", ["H1"])
    for option in choices:
        if option == best or option in wrong:
            continue
        line = card.line(option.removeprefix("Mah Jongg on "))
        wrong[option] = _why_not_line(card, line, hand)
    rules = list(dict.fromkeys(r for text in reason for r in _ids(text)))
    facts = (_tile_fact(hand), "Nobody has named a line.")
    return _asked(
        rng, common, "Is this Mah Jongg, and on which line?", facts, hand, best, reason, rules, wrong,
        order=tuple(choices), choice_rules={c: tuple(ids) for c, (_, ids) in wrong.items()}, partial=partial,
        kind="which-line", hint="Read the tiles group by group: which lines of the card could they be, and does one fit every tile?",
    )


# -- asking and grading --------------------------------------------------------


def _codes(rack: list[int]) -> tuple[str, ...]:
    return tuple(tiles.CODES[t] for t in sorted(rack))


def _ids(text: str) -> list[str]:
    """The rule ids a sentence cites, as in "(H1)" or "(S3, T1)"."""
    return [rule_id for group in choice.CITED.findall(text) for rule_id in group.split(", ")]


def _asked(rng: random.Random, common: dict[str, Any], prompt: str, facts: list[str] | tuple[str, ...], hand: LaidDown, best: str,
           reason: list[str], rules: list[str], wrong: dict[str, tuple[str, list[str]]], **fields: Any) -> Question:
    """The question: the right choice and its explanation; for every other
    choice, why it is wrong with the rules that says (`choice_rules`)."""
    draft = choice.Draft(
        prompt=prompt, facts=tuple(facts), best=best, why=tuple(reason), wrong={c: why for c, (why, _) in wrong.items()},
        rules=tuple(rules), rack=_codes(hand.rack), exposed=tuple(tuple(e.codes) for e in hand.exposures), **fields,
    )
    return choice.question(rng, common["drill"], common["seed"], common["level"], common["card"], draft, choice.COLON, stated_rules=True)


def generate(seed: int, level: int, card: Card) -> Question:
    check_level(LEVELS, level)
    rng = rng_for(NAME, seed, level)
    common = {"drill": NAME, "seed": seed, "level": level, "card": card.name}
    if level == 3:
        return _which_question(rng, card, common)
    return _declared_question(rng, card, level, common)


grade = choice.grade
hint = choice.hint

