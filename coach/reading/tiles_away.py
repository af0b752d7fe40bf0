"""Tiles away: how many tiles a player still needs for a hand (docs/card-format.md).

The definition, for concealed tiles R and exposures E against a concrete
hand H:

1. a concealed line (H4) is out of reach once anything is exposed;
2. each exposure sits on its own group of H with the same tile and size,
   or H is out of reach;
3. the groups left are filled from R: naturals fill slots of their own
   tile, singles and pairs first; jokers fill any empty slot of a group of
   three or more, never a single or a pair (J1, J2);
4. distance = 14 - tiles in E - tiles of R placed.

`fill` follows those steps literally, slot by slot, and says which tiles
went where. `CardTables` computes the same number for every reading of a
card at once: because naturals go to singles and pairs first, the count
placed for one tile depends only on how many of it the rack holds, so a
rack becomes a 0/1 "at least k copies" vector and the whole card one
matrix product. Tests hold the two to the same answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from coach.notation import tiles
from coach.notation.card import Card, Group, Reading
from coach.reading.holding import HAND_SIZE, OUT_OF_REACH, Exposure, Holding, HoldingError
from coach.reading.ranking import (
    FEATURE_LEVEL,
    FEATURE_START,
    FEATURE_TILE,
    BatchRanking,
    FitCache,
    RankTables,
    batch_rank_exposed,
    exposure_signature,
)

__all__ = [  # what callers import from here, the values and the batch ranking included
    "HAND_SIZE", "OUT_OF_REACH", "BatchRanking", "CardTables", "Exposure", "Fill", "FitCache", "Holding",
    "HoldingError", "Missing", "RankTables", "assign_exposures", "batch_rank_exposed", "drop_tables",
    "exposure_signature", "fill", "keep_tables", "parse_exposure", "read_holding", "tables_for",
]


def parse_exposure(text: str | Sequence[str], number: int = 1) -> Exposure:
    """One exposure from tile text ("5D 5D J") or a list of codes (K2)."""
    label = f"exposure {number}"
    if isinstance(text, str):
        codes = tiles.parse(text, what=label)
    elif isinstance(text, (list, tuple)):
        codes = [tiles.code_of(c) if isinstance(c, str) else _bad(label) for c in text]
    else:
        raise HoldingError(f"{label}: expected tiles such as \"5D 5D J\"")
    naturals = sorted(set(c for c in codes if c != "J"), key=tiles.sort_key)
    if not naturals:
        raise HoldingError(f"{label} has no natural tile: an exposed group shows at least one real tile")
    if len(naturals) > 1:
        names = " and ".join(tiles.name(c) for c in naturals)
        raise HoldingError(
            f"{label} mixes {names}: an exposure is one group of identical tiles, jokers allowed (H2)"
        )
    if not 3 <= len(codes) <= 6:
        raise HoldingError(
            f"{label} has {len(codes)} tiles: an exposure is a pung, kong, quint or sextet, 3 to 6 tiles (K2)"
        )
    return Exposure(tiles.INDEX[naturals[0]], len(codes), codes.count("J"))


def _bad(label: str) -> str:
    raise HoldingError(f"{label}: tiles must be text codes such as \"5D\"")


def read_holding(
    rack: str | Sequence[str],
    exposed: Sequence[str | Sequence[str]] = (),
    seen: str | Sequence[str] = "",
    sizes: tuple[int, ...] = (13, 14),
) -> tuple[Holding, tuple[int, ...]]:
    """Parse user input into a holding and the seen-tile counts.

    Checks everything a typed rack can get wrong: unknown tiles, bad
    exposures, more copies than a set holds (T1), and a tile count a
    player cannot have (`sizes`, counting exposures, H1).
    """
    if isinstance(rack, str):
        rack_codes = tiles.parse(rack, what="rack")
    else:
        rack_codes = [tiles.code_of(c) for c in rack]
    exposures = tuple(parse_exposure(e, n) for n, e in enumerate(exposed, start=1))
    seen_codes = tiles.parse(seen, what="seen") if isinstance(seen, str) else [tiles.code_of(c) for c in seen]
    parts: list[tuple[str, list[str]]] = [("the rack", rack_codes)]
    parts += [(f"exposure {n}", e.codes) for n, e in enumerate(exposures, start=1)]
    parts.append(("the seen tiles", seen_codes))
    tiles.check_supply(parts)
    holding = Holding.of(rack_codes, exposures)
    if sizes and holding.size not in sizes:
        allowed = " or ".join(str(s) for s in sizes)
        exposed_note = f" ({sum(holding.rack)} on the rack, {holding.exposed_tiles} exposed)" if exposures else ""
        raise HoldingError(f"a hand holds {allowed} tiles, this one has {holding.size}{exposed_note}")
    return holding, tuple(tiles.counts(seen_codes))


# ---------------------------------------------------------------------------
# The definition, slot by slot.


@dataclass(frozen=True)
class Missing:
    """Tiles a reading still lacks for one of its groups."""

    tile: int
    count: int
    group: Group
    joker_ok: bool  # J1/J2: only a group of three or more takes a joker


@dataclass(frozen=True)
class Fill:
    """How a holding fills one reading, and what it lacks."""

    reading: Reading
    distance: int
    used: tuple[int, ...]  # rack tiles placed (jokers included)
    missing: tuple[Missing, ...]
    unused: tuple[int, ...]  # rack tiles the reading has no place for
    exposed_groups: tuple[int, ...]  # index in reading.groups of each exposure

    @property
    def reachable(self) -> bool:
        return self.distance != OUT_OF_REACH


def assign_exposures(groups: Sequence[Group], exposures: Sequence[Exposure]) -> list[int] | None:
    """Each exposure onto its own group of the same tile and size, or None."""
    taken: list[int] = []
    for e in exposures:
        for i, g in enumerate(groups):
            if i not in taken and g.tile == e.tile and g.size == e.size:
                taken.append(i)
                break
        else:
            return None
    return taken


def fill(reading: Reading, holding: Holding, concealed: bool = False) -> Fill:
    """Fill one reading from a holding, following the definition step by step."""
    groups = reading.groups
    if concealed and holding.exposures:  # step 1 (H4)
        exposed = None
    else:
        exposed = assign_exposures(groups, holding.exposures)  # step 2
    if exposed is None:
        return Fill(reading, OUT_OF_REACH, (), (), tuple(holding.rack_tiles()), ())
    open_groups = [i for i in range(len(groups)) if i not in exposed]
    filled = [0] * len(groups)
    left = list(holding.rack)
    used: list[int] = []
    # Step 3: naturals, singles and pairs first, then the groups of 3+ (J1, J2).
    small = [i for i in open_groups if groups[i].size < 3]
    big = [i for i in open_groups if groups[i].size >= 3]
    for i in small + big:
        tile, size = groups[i].tile, groups[i].size
        placed = min(left[tile], size)
        if placed:
            filled[i] = placed
            left[tile] -= placed
            used += [tile] * placed
    # Jokers fill the empty slots of groups of three or more, never a single or pair.
    for i in big:
        placed = min(left[tiles.JOKER], groups[i].size - filled[i])
        if placed:
            filled[i] += placed
            left[tiles.JOKER] -= placed
            used += [tiles.JOKER] * placed
    missing = []
    for i in open_groups:
        g = groups[i]
        if filled[i] < g.size:
            missing.append(Missing(g.tile, g.size - filled[i], g, g.size >= 3))
    distance = HAND_SIZE - holding.exposed_tiles - len(used)  # step 4
    unused = [t for t, c in enumerate(left) if c for _ in range(c)]
    return Fill(reading, distance, tuple(used), tuple(missing), tuple(unused), tuple(exposed))


@dataclass(frozen=True)
class Slots:
    """One reading's slots counted by tile, to fill a bare rack (no
    exposures) from its count vector: `fill`'s distance and unused tiles
    without its slot-by-slot walk or its Fill. A drill that draws tile after
    tile toward one reading (nearest-hand) asks this dozens of times a
    question. Naturals fill singles and pairs first, so of `count` copies
    of a tile min(count, need) are placed, and of those all past the tile's
    single and pair slots go to its groups of three or more; jokers fill
    what those groups have left (J1, J2). Tests hold it to `fill`."""

    tiles: tuple[tuple[int, int, int], ...]  # (tile, slots, slots in singles and pairs), each tile once
    big_total: int  # slots in groups of three or more

    @classmethod
    def of(cls, reading: Reading) -> Slots:
        need: dict[int, list[int]] = {}
        for g in reading.groups:
            slots = need.setdefault(g.tile, [0, 0])
            slots[0] += g.size
            if not g.takes_jokers:
                slots[1] += g.size
        return cls(tuple((t, n, s) for t, (n, s) in need.items()), sum(g.size for g in reading.groups if g.takes_jokers))

    def takes(self, tile: int) -> int:
        """Copies of `tile` the reading has a slot for."""
        return next((n for t, n, _ in self.tiles if t == tile), 0)

    def _placed(self, counts: Sequence[int]) -> tuple[int, int]:
        """Naturals placed, and jokers placed."""
        naturals = room_taken = 0
        for tile, need, small in self.tiles:
            held = counts[tile]
            placed = held if held < need else need
            naturals += placed
            if placed > small:
                room_taken += placed - small
        jokers = counts[tiles.JOKER]
        room = self.big_total - room_taken
        return naturals, jokers if jokers < room else room

    def distance(self, counts: Sequence[int]) -> int:
        """`fill(reading, Holding(counts)).distance` for a bare rack's counts."""
        naturals, jokers = self._placed(counts)
        return HAND_SIZE - naturals - jokers

    def unused(self, counts: Sequence[int]) -> list[int]:
        """`fill(reading, Holding(counts)).unused`: the rack's tiles it has no slot for, in tile order."""
        left = list(counts)
        for tile, need, _ in self.tiles:
            left[tile] -= min(left[tile], need)
        left[tiles.JOKER] -= self._placed(counts)[1]
        return [t for t, c in enumerate(left) if c for _ in range(c)]


# ---------------------------------------------------------------------------
# The same numbers for every reading of a card at once.


_FEATURE_FIRST: list[int] = FEATURE_START.tolist()  # as Python ints: a rack's rows listed without numpy scalars
# v = naturals placed + SPILL * naturals placed in groups of 3+ (both <= 14)
SPILL = 32


class CardTables(RankTables):
    """A card compiled for fast tiles-away over all its readings: the rank
    tables of `ranking` built from the card, with the card and its readings."""

    def __init__(self, card: Card):
        self.card = card
        self.lines = card.lines
        readings: list[Reading] = []
        line_of: list[int] = []
        starts: list[int] = []
        for n, line in enumerate(self.lines):
            starts.append(len(readings))
            readings.extend(line.readings)
            line_of.extend([n] * len(line.readings))
        self.readings = readings
        count = len(readings)
        need = np.zeros((count, tiles.NATURALS), dtype=np.int16)
        small = np.zeros((count, tiles.NATURALS), dtype=np.int16)
        big_sizes: dict[tuple[int, int], int] = {}
        for h, reading in enumerate(readings):
            for g in reading.groups:
                need[h, g.tile] += g.size
                if not g.takes_jokers:
                    small[h, g.tile] += g.size
                else:
                    big_sizes.setdefault((g.tile, g.size), len(big_sizes))
        # How many of each (tile, size) group of 3+ every reading has, for
        # matching exposures (step 2) without a Python loop per reading.
        group_counts = np.zeros((count, max(1, len(big_sizes))), dtype=np.int8)
        for h, reading in enumerate(readings):
            for g in reading.groups:
                if g.takes_jokers:
                    group_counts[h, big_sizes[(g.tile, g.size)]] += 1
        super().__init__(
            card.name,
            [{"id": ln.id, "section": ln.section, "value": ln.value, "concealed": ln.concealed, "note": ln.note,
              "pattern": ln.pattern} for ln in self.lines],
            need,
            small,
            line_of=np.array(line_of, dtype=np.intp),
            starts=np.array(starts, dtype=np.intp),
            concealed=np.array([self.lines[n].concealed for n in line_of], dtype=bool),
            values=np.array([line.value for line in self.lines], dtype=np.int64),
            group_counts=group_counts,
            group_columns=big_sizes,
        )
        level = FEATURE_LEVEL[:, None]
        need_f = need.T[FEATURE_TILE]  # (features, readings)
        small_f = small.T[FEATURE_TILE]
        placed = level <= need_f
        spill = placed & (level > small_f)
        table = placed.astype(np.int16) + SPILL * spill.astype(np.int16)
        self.table = np.ascontiguousarray(table)
        self.table_f32 = self.table.astype(np.float32)

    # -- one holding -------------------------------------------------------

    def reading_distances(self, holding: Holding) -> np.ndarray:
        """Distance of every reading (OUT_OF_REACH where it cannot be reached)."""
        if holding.exposures:
            return self._with_exposures(holding)
        rack = holding.rack
        rows = [_FEATURE_FIRST[t] + k for t in range(tiles.NATURALS) for k in range(rack[t])]
        if rows:
            v = self.table[rows].sum(axis=0, dtype=np.int16)
        else:
            v = np.zeros(len(self.readings), dtype=np.int16)
        return self._decode(v, holding.jokers, 0)

    def _decode(self, v: np.ndarray, jokers: np.ndarray | int, exposed: int) -> np.ndarray:
        naturals = v & (SPILL - 1)
        room = self.big_total - (v >> 5)
        placed = naturals + np.minimum(jokers, room)
        return (HAND_SIZE - exposed) - placed

    def _with_exposures(self, holding: Holding) -> np.ndarray:
        out = np.full(len(self.readings), OUT_OF_REACH, dtype=np.int16)
        fit = self.exposure_fit(holding.exposures)
        if fit is None:
            return out
        idx, need = fit
        rack = np.array(holding.rack[: tiles.NATURALS], dtype=np.int16)
        small = self.small[idx]
        naturals = np.minimum(rack, need)
        spill = np.maximum(naturals - small, 0)
        room = (need - small).sum(axis=1) - spill.sum(axis=1)
        placed = naturals.sum(axis=1) + np.minimum(holding.jokers, room)
        out[idx] = HAND_SIZE - holding.exposed_tiles - placed
        return out

    def line_distances(self, holding: Holding) -> np.ndarray:
        return np.minimum.reduceat(self.reading_distances(holding), self.starts)

    # -- many racks at once -------------------------------------------------

    def batch_reading_distances(self, racks: np.ndarray, exposures: Sequence[Exposure] = ()) -> np.ndarray:
        """Distances for many racks that share the same exposures: `racks` is (n, 36) counts."""
        racks = np.asarray(racks)
        if exposures:
            return self._batch_with_exposures(racks, exposures)
        features = (racks[:, FEATURE_TILE] >= FEATURE_LEVEL).astype(np.float32)
        v = (features @ self.table_f32).astype(np.int16)
        return self._decode(v, racks[:, tiles.JOKER : tiles.JOKER + 1].astype(np.int16), 0)

    def _batch_with_exposures(self, racks: np.ndarray, exposures: Sequence[Exposure]) -> np.ndarray:
        """`_with_exposures` for every rack at once: the readings the exposures
        fit are the same for all, so the racks become one more array axis."""
        out = np.full((len(racks), len(self.readings)), OUT_OF_REACH, dtype=np.int16)
        fit = self.exposure_fit(exposures)
        if fit is None or not len(racks):
            return out
        idx, need = fit
        small = self.small[idx]
        naturals = np.minimum(racks[:, None, : tiles.NATURALS].astype(np.int16), need[None])  # (racks, readings, tiles)
        spill = np.maximum(naturals - small[None], 0).sum(axis=2)
        room = (need - small).sum(axis=1)[None] - spill
        jokers = racks[:, tiles.JOKER : tiles.JOKER + 1].astype(np.int16)
        placed = naturals.sum(axis=2) + np.minimum(jokers, room)
        out[:, idx] = HAND_SIZE - sum(e.size for e in exposures) - placed
        return out

    def batch_line_distances(self, racks: np.ndarray, exposures: Sequence[Exposure] = ()) -> np.ndarray:
        return np.minimum.reduceat(self.batch_reading_distances(racks, exposures), self.starts, axis=1)


_TABLES: dict[int, CardTables] = {}


def tables_for(card: Card) -> CardTables:
    """Compiled tables, built once per card object."""
    key = id(card)
    cached = _TABLES.get(key)
    if cached is None or cached.card is not card:
        cached = CardTables(card)
        _TABLES[key] = cached
    return cached


def keep_tables(tables: CardTables) -> None:
    """Use these tables for their card from now on (read from the disk cache)."""
    _TABLES[id(tables.card)] = tables


def drop_tables(card: Card) -> None:
    """Forget a card's tables: for a card used once and thrown away (timed
    at upload), whose tables would otherwise stay in memory for good."""
    cached = _TABLES.get(id(card))
    if cached is not None and cached.card is card:
        _TABLES.pop(id(card), None)
