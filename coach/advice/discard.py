"""Which tile to throw: the discard advisor, with a defensive note (D1).

Every distinct tile of a 14-tile holding is tried as the discard. Offence
ranks them by the tiles-away left (nearest first), then by the live outs
of the nearest line once that tile is thrown and seen. Defence (D1) marks
tiles that at least half the hands another player's exposures still
allow need as hot (`danger`: the card's readings consistent with those
exposures, each a possible hand), and tiles thrown twice already without a call, or that fit no line
the exposures on the table allow, as safe. Late in a hand, defence comes
first: hot tiles rank after every other discard.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from coach.common.kept import Kept
from coach.notation import tiles
from coach.notation.card import Card
from coach.reading.analysis import analyze
from coach.reading.tiles_away import HAND_SIZE, CardTables, Exposure, Holding, HoldingError, tables_for

HOT_SHARE = 0.5  # a tile needed by at least half the hands an opponent's exposures allow


@dataclass(frozen=True)
class DiscardOption:
    tile: int
    distance: int  # best tiles-away after throwing it
    live_outs: int
    hot: bool
    safe: bool
    note: str


@dataclass(frozen=True)
class DiscardAdvice:
    options: tuple[DiscardOption, ...]  # best first
    explanation: tuple[str, ...]
    late: bool

    @property
    def best(self) -> DiscardOption:
        return self.options[0]


@dataclass(frozen=True)
class Danger:
    """How many of the hands one player's exposures still allow need each tile.

    A possible hand is a reading of an exposed (X) card line with a group
    for every exposure (H4); readings that name the same tiles count once.
    """

    hands: int  # possible hands; 0 when the exposures fit no line
    needing: np.ndarray  # per natural tile: how many of those hands still need it

    def share(self, tile: int) -> float:
        return float(self.needing[tile]) / self.hands if self.hands and tile < tiles.NATURALS else 0.0

    def words(self, tile: int, seat: str) -> str:
        """The share said as a beginner reads it: "about 1 in 18 of North's
        possible hands need it", "all three of North's possible hands need it"."""
        k, n = int(self.needing[tile]) if tile < tiles.NATURALS else 0, self.hands
        if k == 0:
            return f"none of {seat}'s possible hands needs it"
        if k == n:
            if n <= 2:
                return f"{seat}'s only possible hand needs it" if n == 1 else f"both of {seat}'s possible hands need it"
            # Small counts as words: "all five of", never "all 5 of".
            return f"all {n if n > 8 else tiles.NUMBER_WORDS[n]} of {seat}'s possible hands need it"
        exact = Fraction(k, n)
        if exact == Fraction(1, 2):
            return f"half of {seat}'s possible hands need it"
        if exact.denominator <= 20:
            return f"{exact.numerator} in {exact.denominator} of {seat}'s possible hands {_need_verb(exact.numerator)} it"
        near = Fraction(1, round(n / k)) if k / n < 0.5 else Fraction(k, n).limit_denominator(10)
        if near == 1:
            return f"nearly all of {seat}'s possible hands need it"
        return f"about {near.numerator} in {near.denominator} of {seat}'s possible hands {_need_verb(near.numerator)} it"


def _need_verb(count: int) -> str:
    return "needs" if count == 1 else "need"


def danger(card: Card, exposures: Sequence[Exposure]) -> Danger:
    """The possible hands of a player with these exposures, and how many need each tile."""
    tables = tables_for(card)
    # Only each exposure's tile and size matter (not its jokers, nor the
    # order): a drill dealing tables asks the same few sets again and again.
    key = tuple(sorted((e.tile, e.size) for e in exposures))
    with _DANGERS_LOCK:
        kept = _DANGERS.get(tables)
        if kept is None:
            kept = _DANGERS[tables] = Kept(DANGERS_KEPT)
    return kept.get(key, lambda: _danger(tables, key))


def _danger(tables: CardTables, groups: tuple[tuple[int, int], ...]) -> Danger:
    """`danger` of exposures given as (tile, size) groups; the Danger is shared, so read-only."""
    none = Danger(0, _read_only(np.zeros(tiles.NATURALS, dtype=np.int64)))
    if not groups:
        return none
    wanted = np.zeros(tables.group_counts.shape[1], dtype=np.int8)
    less = np.zeros(tiles.NATURALS, dtype=np.int16)
    for tile, size in groups:
        column = tables.group_columns.get((tile, size))
        if column is None:
            return none
        wanted[column] += 1
        less[tile] += size
    columns = np.flatnonzero(wanted)  # only the exposures' own groups can fall short
    has_groups = np.all(tables.group_counts[:, columns] >= wanted[columns], axis=1)
    fits = ~tables.concealed & has_groups  # H4: no concealed lines
    idx = np.flatnonzero(fits)
    if not len(idx):
        return none
    _, first = np.unique(_hand_ids(tables)[idx], return_index=True)  # readings with the same tiles: one hand
    needs = (tables.need[idx[first]] - less) > 0
    return Danger(len(first), _read_only(needs.sum(axis=0).astype(np.int64)))


def _read_only(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


# Dangers worked out, per card's tables (held weakly: a card's go with it), a few hundred bytes each.
_DANGERS: weakref.WeakKeyDictionary[CardTables, Kept[Danger]] = weakref.WeakKeyDictionary()
_DANGERS_LOCK = threading.Lock()
DANGERS_KEPT = 4096


_HAND_IDS: weakref.WeakKeyDictionary[CardTables, np.ndarray] = weakref.WeakKeyDictionary()


def _hand_ids(tables: CardTables) -> np.ndarray:
    """One number per reading, the same for readings that name the same tiles."""
    if tables not in _HAND_IDS:
        _HAND_IDS[tables] = np.unique(tables.need, axis=0, return_inverse=True)[1].ravel()
    return _HAND_IDS[tables]


def wanted_share(card: Card, exposures: Sequence[Exposure]) -> np.ndarray:
    """For each natural tile, the share of the possible hands these exposures allow that need it."""
    found = danger(card, exposures)
    return found.needing / found.hands if found.hands else np.zeros(tiles.NATURALS)


def advise_discard(
    card: Card,
    holding: Holding,
    seen: Sequence[int] | None = None,
    others: Sequence[Sequence[Exposure]] = (),
    late: bool = False,
    only: Collection[int] | None = None,
) -> DiscardAdvice:
    """Rank every discard from a holding of 14 tiles (rack plus exposures),
    or only the tiles in `only` (each is judged on its own, so the ranks
    among them are the same as in the full advice)."""
    if holding.size != HAND_SIZE:
        raise HoldingError(f"a discard is made from 14 tiles, this hand has {holding.size}")
    seen = _table_seen(seen, others)
    shares = [wanted_share(card, e) for e in others if e]
    options = []
    for tile in sorted({t for t in holding.rack_tiles() if only is None or t in only}):
        rack = list(holding.rack)
        rack[tile] -= 1
        after = Holding(tuple(rack), holding.exposures)
        now_seen = list(seen)
        now_seen[tile] += 1
        nearest = analyze(card, after, tuple(now_seen)).lines[0]
        distance = nearest.distance if nearest.distance is not None else HAND_SIZE
        d = _defence(tile, seen, shares)
        note = _note(tile, d.hot, d.thrown_twice, d.fits_nothing)
        options.append(DiscardOption(tile, distance, nearest.live_outs, d.hot, d.safe, note))
    options.sort(key=lambda o: ((o.hot if late else False), o.distance, -o.live_outs, not o.safe, o.tile == tiles.JOKER, o.tile))
    best = options[0]
    lines = [
        f"Throw the {tiles.name(best.tile)}: you stay {best.distance} tiles away"
        f" with {best.live_outs} live outs for your nearest line."
    ]
    if best.tile == tiles.JOKER:
        lines.append("You may throw a joker, and nobody can call it (J3).")
    if best.note:
        lines.append(best.note)
    hot = [o for o in options if o.hot]
    if hot:
        names = ", ".join(tiles.name(o.tile) for o in hot)
        lines.append(f"Hot: at least half the hands another player's exposures allow need {names} (D1).")
    if late:
        lines.append("Late in the hand, defence matters more than your own rack: hot tiles come last (D1).")
    return DiscardAdvice(tuple(options), tuple(lines), late)


@dataclass(frozen=True)
class Defence:
    """One tile against the other players' exposures and the discards (D1)."""

    hot: bool  # at least half the hands one player's exposures allow need it
    safe: bool  # not hot, and thrown twice without a call or fitting no exposure's hands
    thrown_twice: bool
    fits_nothing: bool


def defend(
    card: Card, tiles_judged: Collection[int], seen: Sequence[int] | None = None,
    others: Sequence[Sequence[Exposure]] = (),
) -> dict[int, Defence]:
    """Hot and safe for each tile, as `advise_discard` marks them, without
    its offence (an analysis per tile): what a defence question needs."""
    seen = _table_seen(seen, others)
    shares = [wanted_share(card, e) for e in others if e]
    return {tile: _defence(tile, seen, shares) for tile in tiles_judged}


def _table_seen(seen: Sequence[int] | None, others: Sequence[Sequence[Exposure]]) -> list[int]:
    """The tiles seen, with what other players show (their exposures are seen too)."""
    seen = list(seen or [0] * tiles.KINDS)
    for exposures in others:
        for e in exposures:
            for t in e.tiles:
                seen[t] += 1
    return seen


def _defence(tile: int, seen: Sequence[int], shares: Sequence[np.ndarray]) -> Defence:
    hot = tile < tiles.NATURALS and any(s[tile] >= HOT_SHARE for s in shares)
    thrown_twice = seen[tile] >= 2
    fits_nothing = bool(shares) and tile < tiles.NATURALS and all(s[tile] == 0 for s in shares)
    return Defence(hot, not hot and (thrown_twice or fits_nothing), thrown_twice, fits_nothing)


def _note(tile: int, hot: bool, thrown_twice: bool, fits_nothing: bool) -> str:
    name = tiles.name(tile)
    if hot:
        return f"{name} is hot: at least half the hands another player's exposures allow need it (D1)."
    if thrown_twice:
        return f"{name} is safe: it was thrown twice already and nobody called it (D1)."
    if fits_nothing:
        return f"{name} is safe: it fits no line the exposures on the table allow (D1)."
    return ""
