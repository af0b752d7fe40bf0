"""A card's lines ranked for many racks at once: the arrays `analyze`'s
ranking needs, and nothing of the card but its lines' own fields.

`RankTables` holds, for every reading of a card, what it needs of each tile
(`need`, and `small`: the singles and pairs, which take no joker, J1/J2)
and the byte tables built from them; `batch_rank` ranks racks with no
exposure, `batch_rank_exposed` racks with exposures, each rack's lines in
`analysis.analyze`'s order with the same distance, best reading, live outs
and deadness (tests hold them equal to `fill`, the readable definition in
`tiles_away`). `tiles_away.CardTables` is these tables built from a card,
with the card; the lean `analyze` batch reads them alone from the disk
cache (`RankTables.bare`), with no card module to import and no reading
to unpickle (issue 26: a command's start-up is most of a batch's CPU).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import count

import numpy as np

from coach.notation import tiles
from coach.reading.holding import HAND_SIZE, OUT_OF_REACH, Exposure


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
# v = naturals placed + BYTE_SPILL * naturals placed in groups of 3+ (both <= 14), in one byte
BYTE_SPILL = 16


@dataclass(frozen=True)
class BatchRanking:
    """`RankTables.batch_rank` for n racks over a card's L lines: (n, L) arrays
    indexed by line in card order, and `order`, each rack's lines ranked."""

    distance: np.ndarray  # tiles away of each line
    best: np.ndarray  # the line's best reading (its index among the card's readings)
    live_outs: np.ndarray
    dead: np.ndarray
    order: np.ndarray  # line numbers, nearest first (analysis.analyze's order)


class RankTables:
    """A card's readings as arrays, for ranking its lines for many racks at once.

    `need` and `small` are (readings, naturals) counts; `line_of` each
    reading's line, `starts` each line's first reading (a line's readings
    are consecutive); `concealed` each reading's line's (H4), `values` each
    line's; `group_counts` how many groups of 3+ of each (tile, size) in
    `group_columns` a reading has (exposures sit on those, step 2).
    `card_name` and `line_fields` (each line's id, section, value,
    concealed, note and pattern) are what an answer shows of the card."""

    def __init__(
        self, card_name: str, line_fields: Sequence[dict], need: np.ndarray, small: np.ndarray, line_of: np.ndarray,
        starts: np.ndarray, concealed: np.ndarray, values: np.ndarray, group_counts: np.ndarray,
        group_columns: dict[tuple[int, int], int],
    ):
        self.card_name = card_name
        self.line_fields = tuple(line_fields)
        self.need = need
        self.small = small
        self.big = need - small
        self.big_total = self.big.sum(axis=1).astype(np.int16)
        self.line_of = line_of
        self.starts = starts
        self.concealed = concealed
        self.values = values
        self.group_counts = group_counts
        self.group_columns = group_columns
        self.reading_count = len(need)
        self.line_count = len(starts)

    # What `warm_batch` builds (cached properties), and what `bare` keeps: those and the arrays.
    _WARM = ("_batch_sums", "_big_total_bytes", "_value_rank", "_within_line")
    _KEPT = frozenset({
        "card_name", "line_fields", "need", "small", "big", "big_total", "line_of", "starts", "concealed", "values",
        "group_counts", "group_columns", "reading_count", "line_count", *_WARM,
    })

    def warm_batch(self) -> None:
        """Build what `batch_rank` needs now, so that the disk cache
        (coach.reading.disk_cache) keeps it and a batch command starts without it."""
        for name in self._WARM:
            getattr(self, name)  # cached on first read

    @property
    def batch_ready(self) -> bool:
        """Whether `warm_batch`'s tables are built: `analysis.analyze` ranks a
        bare rack with them (`rank_rack`) only then, so that a card read for
        one rack (the card editor's preview) is not made to build them."""
        return all(name in self.__dict__ for name in self._WARM)

    def bare(self) -> RankTables:
        """These tables alone, warmed (for a subclass, without what it adds:
        the card, its readings): what the lean batch reads from the disk cache."""
        self.warm_batch()
        bare = object.__new__(RankTables)
        bare.__dict__.update({k: v for k, v in vars(self).items() if k in self._KEPT})
        return bare

    def exposure_fit(self, exposures: Sequence[Exposure]) -> tuple[np.ndarray, np.ndarray] | None:
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
        """Lines tie-broken by value, then card order: a rank that is one number.
        In 32 bits when every rank key fits ((distance * 1024 + outs) * lines +
        rank): int32 rows sort twice as fast as int64 ones (issue 26)."""
        by_value = np.lexsort((np.arange(self.line_count), -self.values))
        wide = (OUT_OF_REACH + 1) * 1024 * self.line_count >= 2**31
        value_rank = np.empty(self.line_count, dtype=np.int64 if wide else np.int32)
        value_rank[by_value] = np.arange(self.line_count)
        return value_rank

    @cached_property
    def _batch_sums(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """What `batch_rank` adds up: one row per (tile, count held), the base
        row, and the card's own deadness.

        A rack's sums are the base row plus one row a kind it holds: the row
        at COUNT_START[t] + k is what holding exactly k copies of tile t adds
        (k = 0 adds nothing; the padding row last, zeros), about 11 rows for
        13 tiles (issue 26). Each row says, for every reading, what the
        copies held add to `v` (naturals placed + 16 * those spilled into
        groups of 3+, both <= 14: a reading has 14 tiles) and what they
        change in the two live-out sums: over the tiles, the copies not held
        times "the reading takes more than held" (its singles and pairs,
        `small`; or any group, `need`), holding none being the base.

        One byte a cell, half the memory to stream as int16 (issue 13): the
        live-out rows are differences kept modulo 256, since every final sum
        (the base row plus the held rows) is a count of unseen copies,
        0..152: unsigned bytes wrap back to it exactly."""
        copies = np.array(tiles.COPIES[: tiles.NATURALS], dtype=np.int16)
        c = copies[FEATURE_TILE][:, None]
        k = FEATURE_LEVEL[:, None]
        need, small = self.need.T[FEATURE_TILE], self.small.T[FEATURE_TILE]  # (features, readings)

        def unseen_taken(held: np.ndarray, wanted: np.ndarray) -> np.ndarray:
            return (c - held) * (held < wanted)

        # One row per copy held (feature f: "at least LEVEL[f] of TILE[f]").
        placed = k <= need
        spilled = placed & (k > small)
        d_small = unseen_taken(k, small) - unseen_taken(k - 1, small)
        d_need = unseen_taken(k, need) - unseen_taken(k - 1, need)
        copy_rows = (np.concatenate([placed + BYTE_SPILL * spilled, d_small, d_need], axis=1) % 256).astype(np.uint8)
        # ... summed a tile at a time.
        rows = np.zeros((len(COUNT_TILE) + 1, copy_rows.shape[1]), dtype=np.uint8)
        for t in range(tiles.NATURALS):
            for held in range(1, _cap(t) + 1):
                rows[COUNT_START[t] + held] = rows[COUNT_START[t] + held - 1] + copy_rows[FEATURE_START[t] + held - 1]
        base_small = (copies * (self.small > 0)).sum(axis=1)
        base_need = (copies * (self.need > 0)).sum(axis=1)
        base = np.concatenate([np.zeros(self.reading_count, dtype=np.int64), base_small, base_need])
        # With nothing seen every copy not held is still to come: deadness is the card's own.
        short = np.asarray((self.small > copies).any(axis=1))  # an array already (axis=1): asarray tells mypy so
        jokers_needed = np.maximum(self.need - copies, 0).sum(axis=1)
        # ... and with nothing seen, a rack's jokers and the pool's are all 8: the card's own too.
        card_dead = short | (jokers_needed > tiles.COPIES[tiles.JOKER])
        return rows, (base % 256).astype(np.uint8), card_dead

    @cached_property
    def _big_total_bytes(self) -> np.ndarray:
        return self.big_total.astype(np.uint8)  # <= 14: a reading has 14 tiles

    @cached_property
    def _within_line(self) -> tuple[int, np.ndarray]:
        """Each reading's place in its line, and the bits that place takes: a
        line's best reading is found by its key's low bits (no division)."""
        sizes = np.diff(np.append(self.starts, self.reading_count))
        shift = max(1, int(sizes.max(initial=1) - 1).bit_length())
        return shift, (np.arange(self.reading_count) - self.starts[self.line_of]).astype(np.int32)

    def batch_rank(self, racks: np.ndarray, seen: np.ndarray | None = None) -> BatchRanking:
        """Every line of the card for many concealed racks at once, as
        `analysis.analyze` ranks them: distance, best reading, live outs and
        deadness of each line, and the ranked order. `racks` and `seen` are
        (n, 36) counts; no exposures (those go through `analyze`)."""
        racks = np.asarray(racks, dtype=np.int16)
        n, count = len(racks), self.reading_count
        rows, base, card_dead = self._batch_sums
        naturals_held = racks[:, : tiles.NATURALS]
        # Each rack's kinds held (as rows of _batch_sums) side by side, the padding row after them.
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
        jokers = racks[:, tiles.JOKER : tiles.JOKER + 1].astype(np.uint8)
        outs_small = total[:, count : 2 * count]
        outs_need = total[:, 2 * count :]
        seen = None if seen is None or not np.any(seen) else np.asarray(seen, dtype=np.int16)
        pool = np.maximum(np.array(tiles.COPIES, dtype=np.int16) - racks - (0 if seen is None else seen), 0)
        pool_jokers = pool[:, tiles.JOKER : tiles.JOKER + 1].astype(np.uint8)
        if seen is not None:  # seen tiles are copies no longer to come: correct both sums, and deadness
            below_small, below_need, needed_with, _ = self._count_tables
            naturals = slice(0, tiles.NATURALS)
            held_count = racks[:, naturals][:, COUNT_TILE] == COUNT_LEVEL  # one-hot of the count held
            less = (pool - (np.array(tiles.COPIES, dtype=np.int16) - racks))[:, naturals]
            weighted = held_count * less[:, COUNT_TILE].astype(np.float32)
            # Each sum is a count of unseen copies, 0..152: a byte again.
            outs_small = (outs_small + (weighted @ below_small).astype(np.int16)).astype(np.uint8)
            outs_need = (outs_need + (weighted @ below_need).astype(np.int16)).astype(np.uint8)
            reach = racks[:, naturals] + pool[:, naturals]
            reach_hot = (reach[:, COUNT_TILE] == COUNT_LEVEL).astype(np.float32)
            short = reach_hot @ below_small > 0  # fewer copies left than a single or pair needs
            dead_jokers = (reach_hot @ needed_with) > jokers + pool_jokers
            dead_anyway = short | dead_jokers
        else:  # every copy is still to come: deadness is the card's own
            dead_anyway = card_dead
        return self._rank_sums(total[:, :count], outs_small, outs_need, jokers, pool_jokers, dead_anyway)

    def rank_rack(self, rack: Sequence[int]) -> BatchRanking:
        """`batch_rank` of one bare rack (36 counts) with nothing seen, its row
        as 1-D arrays: the same byte sums, one row a kind held, without the
        batch's indexing of (racks, width) arrays, which costs a single rack
        more than the sums (issue 26: the nearest-hand question's analyses).
        The lines are then ranked by the very same code (`_rank_sums`)."""
        count = self.reading_count
        rows, base, card_dead = self._batch_sums
        held = [COUNT_START[t] + rack[t] for t in range(tiles.NATURALS) if rack[t]]
        total = rows[held].sum(axis=0, dtype=np.uint8)  # wraps modulo 256, as batch_rank's sums
        total += base
        jokers = np.uint8(rack[tiles.JOKER])
        pool_jokers = np.uint8(max(tiles.COPIES[tiles.JOKER] - int(jokers), 0))
        return self._rank_sums(total[:count], total[count : 2 * count], total[2 * count :], jokers, pool_jokers, card_dead)

    def _rank_sums(
        self, v: np.ndarray, outs_small: np.ndarray, outs_need: np.ndarray, jokers: np.ndarray | np.uint8,
        pool_jokers: np.ndarray | np.uint8, dead_anyway: np.ndarray,
    ) -> BatchRanking:
        """The lines ranked from a rack's byte sums (the last axis runs over
        the readings; one rack or many): `v` (naturals placed + 16 * those in
        groups of 3+), the two live-out sums, the rack's jokers and the pool's,
        and the deadness that holds whatever the distance."""
        # Small integers throughout (bytes, then 16 bits for keys): the arrays
        # stay in the cache. Room (<= the big slots) and distance (<= 14) never
        # go below 0, so they stay bytes too.
        room = self._big_total_bytes - (v >> 4)
        distances = HAND_SIZE - (v & (BYTE_SPILL - 1)) - np.minimum(jokers, room)
        # Live outs: the unseen copies of each tile the reading still takes,
        # with `need`'s sum where a joker (or a natural for a group of 3+)
        # still has a place, else `small`'s. Picked with a byte mask (255 or
        # 0) rather than np.where, which has no vector loop: a third of the
        # whole ranking before (issue 26).
        pick = np.negative((jokers < room).view(np.uint8))
        outs = outs_need ^ outs_small
        outs &= pick
        outs ^= outs_small
        outs += pick & pool_jokers  # <= 152 + 8: still a byte
        # Dead: a single or pair short of naturals, or more empty slots than jokers left.
        dead = dead_anyway & (distances > 0)
        # As analyze: outs and deadness count only for each line's nearest
        # readings, and a dead reading has none. The key below ranks by distance
        # first, so the reading it picks is always one of the nearest: the
        # others' outs and deadness never show and need no masking.
        # distance (<= 14) and 1023 - outs (outs <= 160), or 2047 for a dead
        # reading (it counts no outs), pack into 15 bits; the reading's place
        # in its line goes below them, so the line's smallest key says its
        # distance, deadness, outs and best reading at once.
        low = np.subtract(np.uint16(1023), outs, dtype=np.uint16)
        low |= dead * np.uint16(2047)
        shift, within = self._within_line
        key = distances.astype(np.int32 if shift <= 16 else np.int64)  # 15 bits and the place: 31 bits at most
        key <<= 11
        key |= low
        key <<= shift
        key |= within
        line_key = np.minimum.reduceat(key, self.starts, axis=-1)
        best = (line_key & ((1 << shift) - 1)) + self.starts.astype(np.int32)
        line_key >>= shift
        line_distance = (line_key >> 11).astype(np.uint8)
        low_key = line_key & 2047
        line_dead = low_key == 2047
        line_outs = (1023 - low_key).astype(np.int16)
        line_outs[line_dead] = 0
        value_rank = self._value_rank
        rank_key = (line_distance.astype(value_rank.dtype) * 1024 + (1023 - line_outs)) * self.line_count + value_rank
        # Every key of a row differs (value_rank is a permutation), so any sort
        # gives the stable order; the default one is 5x faster on rows this short.
        order = np.argsort(rank_key, axis=-1)
        return BatchRanking(line_distance, best, line_outs, line_dead, order)


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


@dataclass(frozen=True)
class Fit:
    """The readings a set of exposures fits (steps 1-2), ascending, and what
    each still needs beyond them, kept sparse: one entry per (reading, tile)
    the reading takes, as `entries` rows (the reading's place in `readings`,
    the tile, the count needed beyond the exposures, the count for singles
    and pairs). A tile a reading does not take adds nothing to any sum below."""

    readings: np.ndarray  # (k,) indices into the card's readings
    entries: np.ndarray  # (e, 4) int16: reading's place, tile, need, small


FitCache = dict[tuple[tuple[int, int], ...], Fit]
_NO_FIT = Fit(np.zeros(0, dtype=np.intp), np.zeros((0, 4), dtype=np.int16))
_FITS_KEPT = 4096  # signatures a FitCache holds before it starts afresh


def _fit_of(tables: RankTables, exposures: Sequence[Exposure], fits: FitCache) -> Fit:
    """`RankTables.exposure_fit`, kept by signature, sparse (none: empty arrays)."""
    signature = ((exposures[0].tile, exposures[0].size),) if len(exposures) == 1 else exposure_signature(exposures)
    fit = fits.get(signature)
    if fit is None:
        if len(fits) >= _FITS_KEPT:
            fits.clear()
        if not exposures:  # nothing exposed: every reading, concealed lines' too (step 1)
            found: tuple[np.ndarray, np.ndarray] | None = (np.arange(tables.reading_count, dtype=np.intp), tables.need)
        else:
            found = tables.exposure_fit(exposures)
        if found is None:
            fit = _NO_FIT
        else:
            idx, need = found
            small = tables.small[idx]
            place, tile = np.nonzero((need > 0) | (small > 0))  # reading by reading, tiles ascending
            entries = np.stack([place, tile, need[place, tile], small[place, tile]], axis=1).astype(np.int16)
            fit = Fit(idx, entries)
        fits[signature] = fit
    return fit


def shown_by_rack(exposures: Sequence[Sequence[Exposure]]) -> tuple[np.ndarray, list[int], np.ndarray]:
    """The tiles each rack's exposures show, (n, 36) counts (their naturals
    and jokers); the first rack of each distinct set; and each rack's first.
    A set of exposures held by many racks in the very same tuple (the lean
    batch's reader gives the lines of one list one tuple) is counted once,
    at its first rack, and taken for the others (issue 26)."""
    n = len(exposures)
    first: dict[int, int] = {}  # a tuple's id() -> its first rack (every tuple is alive here)
    row_of = np.fromiter(map(first.setdefault, map(id, exposures), count()), dtype=np.intp, count=n)
    shown_at: list[int] = []  # rack * KINDS + tile
    shown_count: list[int] = []
    for i in first.values():
        for e in exposures[i]:
            shown_at += (i * tiles.KINDS + e.tile, i * tiles.KINDS + tiles.JOKER)
            shown_count += (e.size - e.jokers, e.jokers)
    shown = np.bincount(shown_at, shown_count, minlength=n * tiles.KINDS).astype(np.int16).reshape(n, tiles.KINDS)
    return shown[row_of], list(first.values()), row_of


def batch_rank_exposed(
    tables: RankTables,
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
    n, lines = len(racks), tables.line_count
    fits = {} if fits is None else fits
    # The pool of unseen tiles, as analysis.unseen: the set less the rack,
    # the exposures' naturals and jokers, and the seen tiles.
    shown, firsts, row_of = shown_by_rack(exposures)
    fit_at = {i: _fit_of(tables, exposures[i], fits) for i in firsts}
    found = list(map(fit_at.__getitem__, row_of.tolist()))
    exposed_tiles = shown.sum(axis=1, dtype=np.int16)
    pool = np.array(tiles.COPIES, dtype=np.int16) - racks - shown
    if seen is not None:
        pool -= np.asarray(seen, dtype=np.int16)
    np.maximum(pool, 0, out=pool)
    # One pair per (rack, fitting reading), one entry per (pair, tile the
    # reading takes): `_with_exposures` and `analysis.outs_and_dead`, the same
    # arithmetic on every pair at once, its sums over tiles as sums over the
    # pair's entries (np.bincount: one pass, where a sum over a short row of
    # tiles is one call of the inner loop a pair, issue 26).
    sizes = np.array([len(fit.readings) for fit in found], dtype=np.intp)
    reading = np.concatenate([fit.readings for fit in found]) if n else _NO_FIT.readings
    pairs = len(reading)
    owner = np.repeat(np.arange(n, dtype=np.intp), sizes)
    entries = np.concatenate([fit.entries for fit in found]) if n else _NO_FIT.entries
    spread = np.array([len(fit.entries) for fit in found], dtype=np.intp)
    first_pair = np.cumsum(sizes) - sizes  # each rack's first pair
    pair = entries[:, 0] + np.repeat(first_pair, spread)
    at = np.repeat(np.arange(0, n * tiles.KINDS, tiles.KINDS, dtype=np.intp), spread) + entries[:, 1]
    need, small = entries[:, 2], entries[:, 3]
    rack = racks.ravel().take(at)
    pool_naturals = pool.ravel().take(at)
    jokers = racks[owner, tiles.JOKER]
    pool_jokers = pool[owner, tiles.JOKER]

    def per_pair(values: np.ndarray) -> np.ndarray:
        return np.bincount(pair, values, minlength=pairs).astype(np.int16)  # counts, at most 152: exact

    naturals = np.minimum(rack, need)
    # Room: the empty slots of groups of 3+, all but the exposures' own (sat on groups of 3+).
    room = tables.big_total[reading] - exposed_tiles[owner] - per_pair(np.maximum(naturals - small, 0))
    distance = HAND_SIZE - exposed_tiles[owner] - per_pair(naturals) - np.minimum(jokers, room)
    joker_short = jokers < room  # a drawn joker (or a natural for a group of 3+) still has a place
    helps = (rack < small) | ((rack < need) & joker_short[pair])
    outs = per_pair(helps * pool_naturals) + joker_short * pool_jokers
    reachable = rack + pool_naturals
    short_naturals = per_pair(small > reachable) > 0
    jokers_needed = per_pair(need - np.minimum(need, reachable))
    dead = (short_naturals | (jokers_needed > jokers + pool_jokers)) & (distance > 0)
    # The best reading of each line by batch_rank's key (distance, then alive,
    # then most outs, then card order). A rack's pairs come in reading order,
    # so the pairs of one (rack, line) are consecutive: each one's smallest
    # key is its best. A line with no fitting reading stays out of reach at
    # its first reading with no outs, as analyze leaves it.
    # The key packs as batch_rank's: distance, 1023 - outs (2047 if dead), the
    # reading's place in its line in the low bits (no division to undo it).
    shift, within = tables._within_line
    low = (1023 - outs).astype(np.int64)
    low[dead] = 2047
    pair_key = (((distance.astype(np.int64) << 11) | low) << shift) | within[reading]
    cell = owner * lines + tables.line_of[reading]  # (rack, line), flattened: ascending
    flat_key = np.full(n * lines, ((OUT_OF_REACH << 11) | 1023) << shift, dtype=np.int64)
    if pairs:
        starts = np.flatnonzero(np.diff(cell, prepend=-1))
        flat_key[cell[starts]] = np.minimum.reduceat(pair_key, starts)
    best_key = flat_key.reshape(n, lines)
    best = (best_key & ((1 << shift) - 1)) + tables.starts
    packed = best_key >> shift
    line_distance = (packed >> 11).astype(np.int16)
    low_key = packed & 2047
    line_dead = low_key == 2047
    line_outs = (1023 - low_key).astype(np.int16)
    line_outs[line_dead] = 0
    value_rank = tables._value_rank
    rank_key = (line_distance.astype(value_rank.dtype) * 1024 + (1023 - line_outs)) * lines + value_rank
    order = np.argsort(rank_key, axis=1)  # the keys of a row all differ: see batch_rank
    return BatchRanking(line_distance, best, line_outs, line_dead, order)
