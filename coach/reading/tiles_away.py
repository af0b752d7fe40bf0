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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from coach.common.errors import CoachError
from coach.notation import tiles
from coach.notation.card import Card, Group, Reading

HAND_SIZE = 14
OUT_OF_REACH = 99  # a distance no reading can have; shown as None at the edges


class HoldingError(CoachError, ValueError):
    """A rack or exposure that no real player could hold."""


@dataclass(frozen=True)
class Exposure:
    """An exposed group: `size` tiles of `tile`, `jokers` of them jokers."""

    tile: int
    size: int
    jokers: int = 0

    @property
    def tiles(self) -> tuple[int, ...]:
        return (self.tile,) * (self.size - self.jokers) + (tiles.JOKER,) * self.jokers

    @property
    def codes(self) -> list[str]:
        return [tiles.CODES[t] for t in self.tiles]

    def describe(self) -> str:
        group = Group(self.tile, self.size).describe()
        if self.jokers:
            return f"{group} ({self.jokers} as joker{'s' if self.jokers > 1 else ''})"
        return group


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


@dataclass(frozen=True)
class Holding:
    """What a player holds: concealed counts (36 kinds) and exposures."""

    rack: tuple[int, ...]
    exposures: tuple[Exposure, ...] = ()

    @classmethod
    def of(cls, rack: Iterable[int | str], exposures: Iterable[Exposure] = ()) -> Holding:
        counts = tiles.counts(rack)
        if any(c > cap for c, cap in zip(counts, tiles.COPIES)):
            raise HoldingError("a rack cannot hold more copies of a tile than the set has")
        return cls(tuple(counts), tuple(exposures))

    @property
    def jokers(self) -> int:
        return self.rack[tiles.JOKER]

    @property
    def size(self) -> int:
        return sum(self.rack) + sum(e.size for e in self.exposures)

    @property
    def exposed_tiles(self) -> int:
        return sum(e.size for e in self.exposures)

    def rack_tiles(self) -> list[int]:
        return [t for t, c in enumerate(self.rack) for _ in range(c)]

    def all_tiles(self) -> list[int]:
        return self.rack_tiles() + [t for e in self.exposures for t in e.tiles]


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


def _cap(tile: int) -> int:
    return tiles.COPIES[tile]


# Feature f stands for "the rack holds at least LEVEL[f] copies of TILE[f]".
FEATURE_TILE = np.array([t for t in range(tiles.NATURALS) for _ in range(_cap(t))], dtype=np.intp)
FEATURE_LEVEL = np.array([k for t in range(tiles.NATURALS) for k in range(1, _cap(t) + 1)], dtype=np.int16)
FEATURE_START = np.concatenate(([0], np.cumsum([_cap(t) for t in range(tiles.NATURALS)])))
# Count c stands for "the rack holds exactly COUNT_LEVEL[c] copies of COUNT_TILE[c]" (0..copies).
COUNT_TILE = np.array([t for t in range(tiles.NATURALS) for _ in range(_cap(t) + 1)], dtype=np.intp)
COUNT_LEVEL = np.array([k for t in range(tiles.NATURALS) for k in range(_cap(t) + 1)], dtype=np.int16)
COUNT_START = np.concatenate(([0], np.cumsum([_cap(t) + 1 for t in range(tiles.NATURALS)])))
_FEATURE_FIRST: list[int] = FEATURE_START.tolist()  # as Python ints: a rack's rows listed without numpy scalars
# v = naturals placed + SPILL * naturals placed in groups of 3+ (both <= 14)
SPILL = 32
BYTE_SPILL = 16  # the same packing in one byte (batch_rank): naturals + 16 * spilled


@dataclass(frozen=True)
class BatchRanking:
    """`CardTables.batch_rank` for n racks over a card's L lines: (n, L) arrays
    indexed by line in card order, and `order`, each rack's lines ranked."""

    distance: np.ndarray  # tiles away of each line
    best: np.ndarray  # index into CardTables.readings of the line's best reading
    live_outs: np.ndarray
    dead: np.ndarray
    order: np.ndarray  # line numbers, nearest first (analysis.analyze's order)


class CardTables:
    """A card compiled for fast tiles-away over all its readings."""

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
        self.line_of = np.array(line_of, dtype=np.intp)
        self.starts = np.array(starts, dtype=np.intp)
        self.concealed = np.array([self.lines[n].concealed for n in line_of], dtype=bool)
        self.values = np.array([line.value for line in self.lines], dtype=np.int64)
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
        self.need = need
        self.small = small
        self.big = need - small
        self.big_total = self.big.sum(axis=1).astype(np.int16)
        # How many of each (tile, size) group of 3+ every reading has, for
        # matching exposures (step 2) without a Python loop per reading.
        self.group_columns = big_sizes
        self.group_counts = np.zeros((count, max(1, len(big_sizes))), dtype=np.int8)
        for h, reading in enumerate(readings):
            for g in reading.groups:
                if g.takes_jokers:
                    self.group_counts[h, big_sizes[(g.tile, g.size)]] += 1
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

    def _exposure_fit(self, exposures: Sequence[Exposure]) -> tuple[np.ndarray, np.ndarray] | None:
        """The readings these exposures fit (steps 1-2), and what each still needs beyond them."""
        wanted = np.zeros(self.group_counts.shape[1], dtype=np.int8)
        need_less = np.zeros(tiles.NATURALS, dtype=np.int16)
        for e in exposures:
            column = self.group_columns.get((e.tile, e.size))
            if column is None:  # no reading has such a group
                return None
            wanted[column] += 1
            need_less[e.tile] += e.size
        columns = np.flatnonzero(wanted)  # only the exposures' own groups can fall short
        fits = ~self.concealed & np.all(self.group_counts[:, columns] >= wanted[columns], axis=1)
        idx = np.flatnonzero(fits)
        return (idx, self.need[idx] - need_less) if len(idx) else None

    def _with_exposures(self, holding: Holding) -> np.ndarray:
        out = np.full(len(self.readings), OUT_OF_REACH, dtype=np.int16)
        fit = self._exposure_fit(holding.exposures)
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
        fit = self._exposure_fit(exposures)
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

    # -- many racks, ranked with best readings and live outs ---------------

    @cached_property
    def _count_tables(self) -> tuple[np.ndarray, ...]:
        """Tables over "holds exactly k of tile t" (k = 0..copies): live outs and
        deadness (analysis.outs_and_dead) become matrix products too."""
        tile = COUNT_TILE
        k = COUNT_LEVEL[:, None].astype(np.int16)
        need = self.need.T[tile]  # (counts, readings)
        small = self.small.T[tile]
        below_small = (k < small).astype(np.float32)  # a drawn copy fills a single or pair
        below_need = (k < need).astype(np.float32)  # ... or a slot of a group of 3+
        jokers_needed = np.maximum(need - k, 0).astype(np.float32)  # with k copies left to find
        return below_small, below_need, jokers_needed, self._value_rank

    @cached_property
    def _value_rank(self) -> np.ndarray:
        """Lines tie-broken by value, then card order: a rank that is one number."""
        by_value = np.lexsort((np.arange(len(self.lines)), -self.values))
        value_rank = np.empty(len(self.lines), dtype=np.int64)
        value_rank[by_value] = np.arange(len(self.lines))
        return value_rank

    @cached_property
    def _copy_table(self) -> tuple[np.ndarray, ...]:
        """One row per held copy (feature f: "at least LEVEL[f] of TILE[f]"):
        what it adds to `v`, and what it changes in the two live-out sums of
        every reading, so a rack of 14 tiles is 14 rows added, not a matrix
        product over all 144 features. A live-out sum is, over the tiles, the
        copies not held times "the reading takes more than held"; holding one
        more copy changes it by a difference, and holding none is the base.

        One byte a cell, half the memory to stream as int16 (issue 13): `v` is
        packed as naturals + 16 * spilled (both <= 14, a reading has 14
        tiles), and the live-out rows are differences kept modulo 256, since
        every final sum (the base row plus the held rows) is a count of
        unseen copies, 0..152: unsigned bytes wrap back to it exactly."""
        copies = np.array(tiles.COPIES[: tiles.NATURALS], dtype=np.int16)
        c = copies[FEATURE_TILE][:, None]
        k = FEATURE_LEVEL[:, None]
        need, small = self.need.T[FEATURE_TILE], self.small.T[FEATURE_TILE]

        def unseen_taken(held: np.ndarray, wanted: np.ndarray) -> np.ndarray:
            return (c - held) * (held < wanted)

        d_small = unseen_taken(k, small) - unseen_taken(k - 1, small)
        d_need = unseen_taken(k, need) - unseen_taken(k - 1, need)
        packed_v = (self.table & (SPILL - 1)) + BYTE_SPILL * (self.table >> 5)
        rows = np.concatenate([packed_v, d_small, d_need], axis=1)
        rows = np.vstack([rows, np.zeros((1, rows.shape[1]), dtype=rows.dtype)])  # the padding row
        base_small = (copies * (self.small > 0)).sum(axis=1)
        base_need = (copies * (self.need > 0)).sum(axis=1)
        base = np.concatenate([np.zeros(len(self.readings), dtype=np.int64), base_small, base_need])
        # With nothing seen every copy not held is still to come: deadness is the card's own.
        short = np.asarray((self.small > copies).any(axis=1))  # an array already (axis=1): asarray tells mypy so
        jokers_needed = np.maximum(self.need - copies, 0).sum(axis=1)
        # ... and with nothing seen, a rack's jokers and the pool's are all 8: the card's own too.
        card_dead = short | (jokers_needed > tiles.COPIES[tiles.JOKER])
        return (rows % 256).astype(np.uint8), (base % 256).astype(np.uint8), short, jokers_needed, card_dead

    @cached_property
    def _big_total_bytes(self) -> np.ndarray:
        return self.big_total.astype(np.uint8)  # <= 14: a reading has 14 tiles

    @cached_property
    def _count_rows(self) -> np.ndarray:
        """`_copy_table`'s rows summed a tile at a time: the row at COUNT_START[t] + k
        is what holding exactly k copies of tile t adds (k = 0 adds nothing; the
        padding row last, zeros). A rack is then one row a kind it holds, not one
        a copy: about 11 rows for 13 tiles instead of 13-14 (issue 26). Sums wrap
        modulo 256 as the rows do, so the totals are the same bytes."""
        rows = self._copy_table[0]
        out = np.zeros((len(COUNT_TILE) + 1, rows.shape[1]), dtype=np.uint8)
        for t in range(tiles.NATURALS):
            for k in range(1, _cap(t) + 1):
                out[COUNT_START[t] + k] = out[COUNT_START[t] + k - 1] + rows[FEATURE_START[t] + k - 1]
        return out

    @cached_property
    def _reading_numbers(self) -> np.ndarray:
        return np.arange(len(self.readings), dtype=np.int32)

    def warm_batch(self) -> None:
        """Build what `batch_rank` needs now, so that the disk cache
        (coach.reading.disk_cache) keeps it and a batch command starts without it."""
        self._copy_table, self._count_rows, self._big_total_bytes, self._value_rank, self._reading_numbers  # noqa: B018 (cached on first read)

    @property
    def batch_ready(self) -> bool:
        """Whether `warm_batch`'s tables are built: `analysis.analyze` ranks a
        bare rack with them (`rank_rack`) only then, so that a card read for
        one rack (the card editor's preview) is not made to build them."""
        return all(name in self.__dict__ for name in ("_copy_table", "_count_rows", "_big_total_bytes", "_value_rank", "_reading_numbers"))

    def rank_rack(self, rack: Sequence[int]) -> BatchRanking:
        """`batch_rank` of one bare rack (36 counts) with nothing seen, its row
        as 1-D arrays: the same byte sums, one row a kind held, without the
        batch's indexing of (racks, width) arrays, which costs a single rack
        more than the sums (issue 26: the nearest-hand question's analyses)."""
        count = len(self.readings)
        _, base, _, _, card_dead = self._copy_table
        held = [COUNT_START[t] + rack[t] for t in range(tiles.NATURALS) if rack[t]]
        total = self._count_rows[held].sum(axis=0, dtype=np.uint8)  # wraps modulo 256, as batch_rank's sums
        total += base
        v = total[:count]
        room = self._big_total_bytes - (v >> 4)
        jokers = np.uint8(rack[tiles.JOKER])
        distances = HAND_SIZE - (v & (BYTE_SPILL - 1)) - np.minimum(jokers, room)
        joker_short = jokers < room
        outs = np.where(joker_short, total[2 * count :], total[count : 2 * count])
        outs += joker_short * np.uint8(max(tiles.COPIES[tiles.JOKER] - int(jokers), 0))
        dead = card_dead & (distances > 0)
        key = distances.astype(np.int32)
        key <<= 11
        key += 1023
        key -= np.where(dead, np.int16(-1024), outs)
        key *= count
        key += self._reading_numbers
        best = np.minimum.reduceat(key, self.starts) % count
        line_distance, line_dead = distances[best], dead[best]
        line_outs = np.where(line_dead, np.int16(0), outs[best].astype(np.int16))
        rank_key = (line_distance.astype(np.int32) * 1024 + (1023 - line_outs)) * len(self.lines) + self._value_rank
        return BatchRanking(line_distance, best, line_outs, line_dead, np.argsort(rank_key))

    def batch_rank(self, racks: np.ndarray, seen: np.ndarray | None = None) -> BatchRanking:
        """Every line of the card for many concealed racks at once, as
        `analysis.analyze` ranks them: distance, best reading, live outs and
        deadness of each line, and the ranked order. `racks` and `seen` are
        (n, 36) counts; no exposures (those go through `analyze`)."""
        racks = np.asarray(racks, dtype=np.int16)
        n, count = len(racks), len(self.readings)
        seen = np.zeros_like(racks) if seen is None else np.asarray(seen, dtype=np.int16)
        _, base, short_naturals, jokers_needed, card_dead = self._copy_table
        rows = self._count_rows
        naturals_held = racks[:, : tiles.NATURALS]
        # Each rack's kinds held (as rows of _count_rows) side by side, the padding row after them.
        kinds_held = np.count_nonzero(naturals_held, axis=1)
        width = int(kinds_held.max()) if n else 0
        slots = np.full((n, width), len(COUNT_TILE), dtype=np.intp)
        rack_of, kind = np.nonzero(naturals_held)  # rack by rack, in tile order
        first = np.cumsum(kinds_held) - kinds_held  # where each rack's run starts
        slots[rack_of, np.arange(len(rack_of)) - first[rack_of]] = COUNT_START[kind] + naturals_held[rack_of, kind]
        # Indexing, not np.take(..., out=): numpy's take along axis 0 into a
        # given array copies byte by byte here, four times slower (issue 26).
        if width:
            total = rows[slots[:, 0]] + base
        else:  # no natural tile on any rack
            total = np.empty((n, rows.shape[1]), dtype=np.uint8)
            total[:] = base
        for j in range(1, width):
            total += rows[slots[:, j]]
        v = total[:, :count]
        jokers = racks[:, tiles.JOKER : tiles.JOKER + 1].astype(np.uint8)
        # Small integers throughout (bytes, int16, int32 for keys): the arrays
        # stay in the cache. Room (<= the big slots) and distance (<= 14) never
        # go below 0, so they stay bytes too.
        room = self._big_total_bytes - (v >> 4)
        distances = HAND_SIZE - (v & (BYTE_SPILL - 1)) - np.minimum(jokers, room)
        outs_small = total[:, count : 2 * count]
        outs_need = total[:, 2 * count :]
        pool = np.maximum(np.array(tiles.COPIES, dtype=np.int16) - racks - seen, 0)
        pool_jokers = pool[:, tiles.JOKER : tiles.JOKER + 1].astype(np.uint8)
        if seen.any():  # seen tiles are copies no longer to come: correct both sums, and deadness
            below_small, below_need, needed_with, _ = self._count_tables
            naturals = slice(0, tiles.NATURALS)
            held_count = racks[:, naturals][:, COUNT_TILE] == COUNT_LEVEL  # one-hot of the count held
            less = (pool - (np.array(tiles.COPIES, dtype=np.int16) - racks))[:, naturals]
            weighted = held_count * less[:, COUNT_TILE].astype(np.float32)
            outs_small = outs_small + (weighted @ below_small).astype(np.int16)
            outs_need = outs_need + (weighted @ below_need).astype(np.int16)
            reach = racks[:, naturals] + pool[:, naturals]
            reach_hot = (reach[:, COUNT_TILE] == COUNT_LEVEL).astype(np.float32)
            short = reach_hot @ below_small > 0  # fewer copies left than a single or pair needs
            dead_jokers = (reach_hot @ needed_with) > jokers + pool_jokers
            dead_anyway = short | dead_jokers
        else:  # every copy is still to come: deadness is the card's own
            dead_anyway = card_dead
        # Live outs: the unseen copies of each tile the reading still takes.
        joker_short = jokers < room  # a joker, or a natural for a group of 3+, still has a place
        outs = np.where(joker_short, outs_need, outs_small)
        outs += joker_short * pool_jokers  # <= 152 + 8: still a byte with nothing seen
        # Dead: a single or pair short of naturals, or more empty slots than jokers left.
        dead = dead_anyway & (distances > 0)
        # As analyze: outs and deadness count only for each line's nearest
        # readings, and a dead reading has none. The key below ranks by distance
        # first, so the reading it picks is always one of the nearest: the
        # others' outs and deadness never show and need no masking.
        # outs <= 160 and distance <= 99: (d, dead, 1023 - outs, reading) packs
        # into one int32 key; a dead reading counts 0 outs (1023).
        key = distances.astype(np.int32)
        key <<= 11
        key += 1023
        key -= np.where(dead, np.int16(-1024), outs)
        key *= count
        key += self._reading_numbers
        best = np.minimum.reduceat(key, self.starts, axis=1) % count
        index = np.arange(n)[:, None]
        line_distance, line_dead = distances[index, best], dead[index, best]
        line_outs = np.where(line_dead, np.int16(0), outs[index, best].astype(np.int16))
        value_rank = self._value_rank
        rank_key = (line_distance.astype(np.int32) * 1024 + (1023 - line_outs)) * len(self.lines) + value_rank
        # Every key of a row differs (value_rank is a permutation), so any sort
        # gives the stable order; the default one is 5x faster on rows this short.
        order = np.argsort(rank_key, axis=1)
        return BatchRanking(line_distance, best, line_outs, line_dead, order)


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


# ---------------------------------------------------------------------------
# Many racks with exposures, ranked (issue 26: the bar's mix, half the racks
# exposed). Kept apart from `batch_rank`, whose one-byte tables hold the whole
# card: exposures leave only the few readings with a group for each of them
# (a pung of one tile fits 10-21 of the house card's 979), so here every rack
# is worked out directly on its own fitting readings, all racks in one pass.


def exposure_signature(exposures: Sequence[Exposure]) -> tuple[tuple[int, int], ...]:
    """What decides the readings exposures fit (steps 1-2) and what those
    readings still need: the groups' tiles and sizes, in any order (any group
    of the same tile and size takes an exposure: the assignment's order never
    changes whether one exists). Jokers in an exposure only leave the pool."""
    return tuple(sorted((e.tile, e.size) for e in exposures))


FitCache = dict[tuple[tuple[int, int], ...], tuple[np.ndarray, np.ndarray]]
_NO_FIT = (np.zeros(0, dtype=np.intp), np.zeros((0, tiles.NATURALS), dtype=np.int16))
_FITS_KEPT = 4096  # signatures a FitCache holds before it starts afresh


def _fit_of(tables: CardTables, exposures: Sequence[Exposure], fits: FitCache) -> tuple[np.ndarray, np.ndarray]:
    """`CardTables._exposure_fit`, kept by signature: the readings these
    exposures fit and what each still needs beyond them (none: empty arrays)."""
    signature = exposure_signature(exposures)
    fit = fits.get(signature)
    if fit is None:
        if len(fits) >= _FITS_KEPT:
            fits.clear()
        if not exposures:  # nothing exposed: every reading, concealed lines' too (step 1)
            fit = (np.arange(len(tables.readings), dtype=np.intp), tables.need)
        else:
            fit = tables._exposure_fit(exposures) or _NO_FIT
        fits[signature] = fit
    return fit


def batch_rank_exposed(
    tables: CardTables,
    racks: np.ndarray,
    exposures: Sequence[Sequence[Exposure]],
    seen: np.ndarray | None = None,
    fits: FitCache | None = None,
) -> BatchRanking:
    """`batch_rank` for racks that have exposures, each its own (a rack with
    none is worked out over every reading, slowly): every line as
    `analysis.analyze` ranks it (distance, best reading, live outs, deadness,
    order). `racks` and `seen` are (n, 36) concealed counts; `fits` keeps the
    readings each set of exposures fits from one call to the next."""
    racks = np.asarray(racks, dtype=np.int16)
    n, count, lines = len(racks), len(tables.readings), len(tables.lines)
    seen = np.zeros_like(racks) if seen is None else np.asarray(seen, dtype=np.int16)
    fits = {} if fits is None else fits
    # The pool of unseen tiles, as analysis.unseen: the set less the rack,
    # the exposures' naturals and jokers, and the seen tiles.
    shown_rack: list[int] = []
    shown_tile: list[int] = []
    shown_count: list[int] = []
    readings: list[np.ndarray] = []
    needs: list[np.ndarray] = []
    for i, own in enumerate(exposures):
        for e in own:
            shown_rack += (i, i)
            shown_tile += (e.tile, tiles.JOKER)
            shown_count += (e.size - e.jokers, e.jokers)
        idx, need = _fit_of(tables, own, fits)
        readings.append(idx)
        needs.append(need)
    shown = np.zeros((n, tiles.KINDS), dtype=np.int16)
    np.add.at(shown, (np.array(shown_rack, dtype=np.intp), np.array(shown_tile, dtype=np.intp)), shown_count)
    exposed_tiles = shown.sum(axis=1, dtype=np.int16)
    pool = np.maximum(np.array(tiles.COPIES, dtype=np.int16) - racks - shown - seen, 0)
    # One row per (rack, fitting reading): `_with_exposures` and
    # `analysis.outs_and_dead`, the same arithmetic on every pair at once.
    reading = np.concatenate(readings) if n else _NO_FIT[0]
    owner = np.repeat(np.arange(n, dtype=np.intp), [len(idx) for idx in readings])
    need = np.concatenate(needs) if n else _NO_FIT[1]
    small = tables.small[reading]
    rack = racks[owner, : tiles.NATURALS]
    jokers = racks[owner, tiles.JOKER]
    pool_naturals = pool[owner, : tiles.NATURALS]
    pool_jokers = pool[owner, tiles.JOKER]
    # Sums in int16 (every one is a count of at most 152): int64 sums cost twice the time.
    naturals = np.minimum(rack, need)
    room = (need - small).sum(axis=1, dtype=np.int16) - np.maximum(naturals - small, 0).sum(axis=1, dtype=np.int16)
    distance = HAND_SIZE - exposed_tiles[owner] - naturals.sum(axis=1, dtype=np.int16) - np.minimum(jokers, room)
    joker_short = jokers < room  # a drawn joker (or a natural for a group of 3+) still has a place
    helps = (rack < small) | ((rack < need) & joker_short[:, None])
    outs = (helps * pool_naturals).sum(axis=1, dtype=np.int16) + joker_short * pool_jokers
    reachable = rack + pool_naturals
    short_naturals = (small > reachable).any(axis=1)
    jokers_needed = (need - np.minimum(need, reachable)).sum(axis=1, dtype=np.int16)
    dead = (short_naturals | (jokers_needed > jokers + pool_jokers)) & (distance > 0)
    # The best reading of each line by batch_rank's key (distance, then alive,
    # then most outs, then card order): the pairs sorted by rack and line, then
    # key, and each (rack, line)'s first taken. A line with no fitting reading
    # stays out of reach at its first reading with no outs, as analyze leaves it.
    pair_key = ((distance.astype(np.int64) << 11) + np.where(dead, 2047, 1023 - outs)) * count + reading
    cell = owner * lines + tables.line_of[reading]  # (rack, line), flattened
    ranked = np.argsort(cell * (1 << 32) + pair_key)  # all differ (a reading once a rack): any sort will do
    cell, pair_key = cell[ranked], pair_key[ranked]
    first = np.ones(len(cell), dtype=bool)
    first[1:] = cell[1:] != cell[:-1]
    flat_key = np.empty(n * lines, dtype=np.int64)
    flat_key.reshape(n, lines)[:] = ((OUT_OF_REACH << 11) + 1023) * count + tables.starts
    flat_key[cell[first]] = pair_key[first]
    best_key = flat_key.reshape(n, lines)
    best = best_key % count
    packed = best_key // count
    line_distance = (packed >> 11).astype(np.int16)
    low = packed & 2047
    line_dead = low == 2047
    line_outs = np.where(line_dead, 0, 1023 - low).astype(np.int16)
    rank_key = (line_distance.astype(np.int64) * 1024 + (1023 - line_outs)) * lines + tables._value_rank
    order = np.argsort(rank_key, axis=1)  # the keys of a row all differ: see batch_rank
    return BatchRanking(line_distance, best, line_outs, line_dead, order)
