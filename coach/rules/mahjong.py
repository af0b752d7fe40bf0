"""Mah Jongg and payment (H1, H4, H5, P1-P6).

Fourteen tiles, rack plus exposures, are Mah Jongg on a line when one of
its readings is 0 tiles away (H1). When they read as more than one line,
the win is paid as the line that pays most (H5).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from coach.notation import tiles
from coach.notation.card import Card, Group, Line, Part, Reading
from coach.reading.tiles_away import HAND_SIZE, Holding, assign_exposures, tables_for
from coach.rules.ruling import Ruling

WINS = ("self", "discard", "exchange")


# How a winning tile came, in the words of the table; `pays_as` turns each into one of WINS.
HOW_WON = ("self", "discard", "exchange", "own-exchange")


def pays_as(how: str) -> Ruling:
    """How a win is paid, by the way its last tile came (P2, P3, P6). The
    decision is one of WINS; the facts carry the reason each way has."""
    if how not in HOW_WON:
        raise ValueError(f"a win comes one of {', '.join(HOW_WON)} ways, not {how!r}")
    if how == "self":
        return Ruling("self", "P3", {"reason": "drawn from the wall: nobody threw the winning tile"})
    if how == "discard":
        return Ruling("discard", "P2", {"reason": "another player threw the winning tile"})
    if how == "exchange":
        # The joker comes from outside the hand on the winner's own turn, as a drawn tile would.
        return Ruling("self", "P6", {"reason": "the joker came from another player's exposure, not from a discard"})
    # Swapping with one's own exposure brings no new tile into the hand: the
    # last tile taken from outside was the called discard, so the win is on it.
    return Ruling("discard", "P6", {"reason": "no new tile came in: the last tile taken from outside was the called discard"})


@dataclass(frozen=True)
class Win:
    line: Line
    reading: Reading


@dataclass(frozen=True)
class Payment:
    """Who pays what for one win. `discarder` is None when nobody threw the tile."""

    win: str
    line: Line | None
    reading: Reading | None
    jokerless: bool
    discarder: int | None
    other: int
    total: int
    rules: tuple[str, ...]
    explanation: tuple[str, ...]

    @property
    def value(self) -> int:
        return self.line.value if self.line else 0

    def to_json(self) -> dict:
        return {
            "hand": self.line.id if self.line else None,
            "value": self.value,
            "jokerless": self.jokerless,
            "discarder": self.discarder,
            "other": self.other,
            "total": self.total,
            "win": self.win,
            "rules": list(self.rules),
            "explanation": list(self.explanation),
        }


def winning_lines(card: Card, holding: Holding) -> list[Win]:
    """Every line the 14 tiles complete, with the reading that completes it (H1)."""
    if holding.size != HAND_SIZE:
        return []
    tables = tables_for(card)
    distances = tables.reading_distances(holding)
    wins: list[Win] = []
    for h in np.flatnonzero(distances == 0):
        line = tables.lines[tables.line_of[h]]
        if not wins or wins[-1].line is not line:
            wins.append(Win(line, tables.readings[h]))
    return wins


def is_jokerless(holding: Holding) -> bool:
    return holding.jokers == 0 and all(e.jokers == 0 for e in holding.exposures)


def pay(line: Line, win: str, jokerless: bool) -> tuple[int | None, int, int]:
    """(discarder, each other loser, total) for a win on `line` (P1-P6)."""
    if win not in WINS:
        raise ValueError(f"a win is one of {', '.join(WINS)}, not {win!r}")
    value = line.value  # P1
    if jokerless and not line.singles_and_pairs:  # P4, P5
        value *= 2
    if win == "discard":  # P2
        return 2 * value, value, 4 * value
    # P3 self-picked; P6 a joker exchange from another's exposure pays the same.
    return None, 2 * value, 6 * value


@dataclass(frozen=True)
class Doubling:
    """One doubling of a payment, as a beginner names it, with its rule."""

    why: str  # "the discard", "self-picked", "no jokers"
    rule: str


def doublings(line: Line, win: str, jokerless: bool) -> tuple[tuple[Doubling, ...], tuple[Doubling, ...]]:
    """Each doubling of the discarder's payment and of each other loser's
    (P2-P6): the value times two for each is what `pay` asks. The discarder's
    are empty when nobody threw the tile (the others' then hold self-picked)."""
    if win not in WINS:
        raise ValueError(f"a win is one of {', '.join(WINS)}, not {win!r}")
    both = (Doubling("no jokers", "P4"),) if jokerless and not line.singles_and_pairs else ()
    if win == "discard":
        return (Doubling("the discard", "P2"), *both), both
    # P6: a joker taken from another's exposure pays as self-picked (P3).
    return (), (Doubling("self-picked", "P6" if win == "exchange" else "P3"), *both)


def score(card: Card, holding: Holding, win: str, players: int = 4) -> Payment:
    """The payment for these 14 tiles won this way, read as the best-paying line (H5);
    at a three-player table (`players=3`) two losers pay (TR4)."""
    if win not in WINS:
        raise ValueError(f"a win is one of {', '.join(WINS)}, not {win!r}")
    if players not in (3, 4):
        raise ValueError(f"a table seats 4 players, or 3 (TR4), not {players!r}")
    jokerless = is_jokerless(holding)
    wins = winning_lines(card, holding)
    if not wins:
        broken, why = not_mah_jongg(card, holding)
        return Payment(win, None, None, jokerless, 0 if win == "discard" else None, 0, 0, broken, (why,))
    best = max(wins, key=lambda w: (pay(w.line, win, jokerless)[2], w.line.value))
    discarder, other, total = pay(best.line, win, jokerless)
    if players == 3:  # TR4: one loser fewer, each paying what it would at four
        total = (other if discarder is None else discarder) + other
    rules = ["H1", "P1"]
    form = best.line.read_as(best.reading)  # names the form of a line of several
    lines = [
        f"The tiles complete {best.line.id} ({best.line.note or best.line.pattern}){', ' + form if form else ''},"
        f" worth {best.line.value} (H1, P1)."
    ]
    if len(wins) > 1:
        others = ", ".join(w.line.id for w in wins if w is not best)
        lines.append(f"They also read as {others}; a win is paid as the line that pays most (H5).")
        rules.append("H5")
    others, losers = ("the other two", "all three") if players == 4 else ("the other", "both")
    if win == "discard":
        lines.append(f"Won on a discard: the discarder pays double, {others} the value (P2).")
        rules.append("P2")
    else:
        if win == "exchange":
            lines.append("A win by a joker exchange from another player's exposure pays as self-picked (P6).")
            rules.append("P6")
        lines.append(f"Self-picked: {losers} pay double (P3).")
        rules.append("P3")
    if jokerless and best.line.singles_and_pairs:
        lines.append("No jokers, but Singles & Pairs lines never hold jokers, so no jokerless bonus (P4).")
        rules.append("P4")
    elif jokerless:
        lines.append("No jokers in the hand: every payment doubles again (P4).")
        rules.append("P4")
        if win != "discard":
            lines.append("Self-picked and jokerless stack: each pays four times the value (P5).")
            rules.append("P5")
    if players == 3:
        lines.append("Three players: the two losers pay (TR4).")
        rules.append("TR4")
        if discarder is not None:
            lines.append(f"The discarder pays {discarder}, the other {other}: {total} in all.")
        else:
            lines.append(f"Each of the two pays {other}: {total} in all.")
    elif discarder is not None:
        lines.append(f"The discarder pays {discarder}, the other two {other} each: {total} in all.")
    else:
        lines.append(f"Each of the three pays {other}: {total} in all.")
    return Payment(
        win, best.line, best.reading, jokerless, discarder, other, total,
        tuple(dict.fromkeys(rules)), tuple(lines),
    )



def thrower_pays_all(payment: Payment) -> Payment:
    """A hot wall's payment (TR2): the thrower of the winning tile pays the whole
    table's share, the double a discarder pays and each other loser's too, and
    the others pay nothing; the winner's total is unchanged."""
    if payment.discarder is None or payment.line is None:
        raise ValueError("only a win on a discard has a thrower to pay for the table")
    said = f"Hot wall: the thrower pays for the whole table, {payment.total} in all; the others pay nothing (TR2)."
    return Payment(
        payment.win, payment.line, payment.reading, payment.jokerless, payment.total, 0, payment.total,
        tuple(dict.fromkeys(payment.rules + ("TR2",))), payment.explanation + (said,),
    )


def not_mah_jongg(card: Card, holding: Holding) -> tuple[tuple[str, ...], str]:
    """Why these tiles are not Mah Jongg, with the rule that decides: a
    concealed line they would complete but for the exposures (H4), or no
    line at all (H1)."""
    if holding.size == HAND_SIZE and holding.exposures:
        hidden = [w for w in winning_lines(card, Holding.of(holding.all_tiles())) if w.line.concealed]
        if hidden:
            line = hidden[0].line
            return ("H4",), (
                f"These tiles would complete {line.id}, but it is a concealed line (C) and this hand has exposed"
                f" tiles: a concealed line allows no exposure before the winning tile, so this is not Mah Jongg"
                f" and nobody pays (H4)."
            )
    misplaced = joker_misplaced(card, holding)
    if misplaced is not None:
        line, where = misplaced
        return ("J2",), (
            f"These tiles would complete {line.id} ({line.pattern}) only with a joker {where}: a joker never stands"
            f" as a single or in a pair, nor as a digit of the year, nor in a Singles & Pairs hand, so this is not"
            f" Mah Jongg and nobody pays (J2)."
        )
    return ("H1",), "These tiles complete no line on the card, so this is not Mah Jongg and nobody pays (H1)."


def _is_year(card: Card, part: Part) -> bool:
    """Whether a printed token of singles is the card's year (T4: Soap as zero)."""
    if not card.year or part.is_group:
        return False
    digits = ["0" if t == tiles.INDEX["WD"] else str(tiles.number_of(t) or "") for t in part.tiles]
    return "".join(digits) == str(card.year)


def joker_misplaced(card: Card, holding: Holding) -> tuple[Line, str] | None:
    """A line these 14 tiles would complete if a joker could stand anywhere,
    and where one would have to stand that J2 forbids ("in the pair of
    Norths", "as the 6 Dot of the year 2026", "in a Singles & Pairs hand");
    None when no line is missed only for that (J1, J2)."""
    have = tiles.counts(holding.all_tiles())
    jokers = have[tiles.JOKER]
    if not jokers or holding.size != HAND_SIZE:
        return None
    for line in card.lines:
        for reading in line.readings:
            need = tiles.counts(reading.tiles)
            if any(have[t] > need[t] for t in range(tiles.NATURALS)):
                continue
            # Every joker stands for a tile the reading lacks: the hand fits it but for where they stand.
            if line.singles_and_pairs:
                return line, "in a Singles & Pairs hand"
            for part in reading.parts:
                for group in part.groups:
                    small = sum(g.size for g in reading.groups if g.tile == group.tile and g.size < 3)
                    if group.size >= 3 or have[group.tile] >= small:
                        continue
                    name = tiles.name(group.tile)
                    if _is_year(card, part):
                        return line, f"as the {name} of the year {card.year}"
                    if group.size == 1:
                        return line, f"as the single {name}"
                    return line, f"in the {group.describe()}"
    return None


# -- the winning hand laid out as its line reads ------------------------------------------


@dataclass(frozen=True)
class LaidGroup:
    """One printed token of the winning line with the winner's tiles in it:
    a group (H2) with its jokers (J1) last, or a run of singles as printed
    (a year, NEWS). `exposed`: it was exposed on the table before the win."""

    tiles: tuple[int, ...]
    label: str
    exposed: bool
    rule: str  # the rule that lets these tiles stand together: H2, or J1 when jokers stand in
    stands_for: int | None  # a group's tile, which each of its jokers stands for; None for singles

    @property
    def jokers(self) -> int:
        return self.tiles.count(tiles.JOKER)

    @property
    def codes(self) -> list[str]:
        return [tiles.CODES[t] for t in self.tiles]


def _label(groups: tuple[Group, ...], jokers: int) -> str:
    if len(groups) == 1:
        words = groups[0].describe()
        words = words[0].upper() + words[1:]
    else:
        words = f"{len(groups)} singles"
    if jokers:
        words += f", {jokers} joker{'s' if jokers > 1 else ''}"
    return words


def lay_out(holding: Holding, reading: Reading) -> tuple[LaidGroup, ...]:
    """The 14 tiles of a win as `reading` reads them, token by token in the
    line's order: each exposure on its own group (jokers it holds kept, J7),
    the concealed naturals on singles and pairs first, then on the groups of
    three or more, and the jokers filling those groups only (J1, J2). A
    holding `reading` does not complete (H1) is a ValueError."""
    groups = reading.groups
    exposed = assign_exposures(groups, holding.exposures)
    if exposed is None:
        raise ValueError("the exposures fit no group of this reading (H1)")
    naturals, jokers = [0] * len(groups), [0] * len(groups)
    for index, exposure in zip(exposed, holding.exposures):
        naturals[index], jokers[index] = exposure.size - exposure.jokers, exposure.jokers
    left = list(holding.rack)
    open_groups = [i for i in range(len(groups)) if i not in exposed]
    small = [i for i in open_groups if not groups[i].takes_jokers]
    big = [i for i in open_groups if groups[i].takes_jokers]
    for i in small + big:  # naturals first where jokers may not stand (J2), as tiles away fills
        naturals[i] = min(left[groups[i].tile], groups[i].size)
        left[groups[i].tile] -= naturals[i]
    for i in big:  # J1: a joker stands for any tile of a pung, kong, quint or sextet
        jokers[i] = min(left[tiles.JOKER], groups[i].size - naturals[i])
        left[tiles.JOKER] -= jokers[i]
    if any(left) or any(naturals[i] + jokers[i] != g.size for i, g in enumerate(groups)):
        raise ValueError("these tiles do not complete this reading (H1)")
    laid: list[LaidGroup] = []
    start = 0
    for part in reading.parts:
        indices = range(start, start + len(part.groups))
        start += len(part.groups)
        placed = tuple(t for i in indices for t in (groups[i].tile,) * naturals[i] + (tiles.JOKER,) * jokers[i])
        joker_count = sum(jokers[i] for i in indices)
        shown = any(i in exposed for i in indices)
        label = _label(part.groups, joker_count)
        tile = part.groups[0].tile if part.is_group else None
        laid.append(LaidGroup(placed, label, shown, "J1" if joker_count else "H2", tile))
    return tuple(laid)
