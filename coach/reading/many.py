"""`analysis.analyze` for many racks that share their exposures, in one call (issue 26).

The practice table asks the same question of a dozen racks at once: every
discard a player could make leaves a rack one tile short of the same
14-tile holding, with the same exposures. `analyze` works each out alone
(a few hundred microseconds, most of it numpy's per-call overhead on small
arrays); `analyze_many` does the very same arithmetic with the racks as
one more array axis, and returns per line what `analyze` puts in its
`LineResult`s: distance, best reading, deadness, live outs, and the
ranked order. Every number is an integer worked out by the same formula,
so the results are identical (tests/core/test_many_analyses.py holds them
to `analyze`, rack by rack). New module, added beside `analysis` and
`tiles_away` without changing either.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from coach.notation import tiles
from coach.notation.card import Card
from coach.reading.analysis import COPIES
from coach.reading.tiles_away import OUT_OF_REACH, CardTables, Exposure, tables_for


@dataclass(frozen=True)
class ManyAnalyses:
    """For n racks over a card's L lines, (n, L) arrays indexed by line in card
    order, as `analyze` gives them line by line; `order` ranks each rack's lines."""

    distance: np.ndarray  # tiles away, OUT_OF_REACH where out of reach
    best: np.ndarray  # index into CardTables.readings of each line's best reading
    dead: np.ndarray
    live_outs: np.ndarray  # 0 for a dead line
    order: np.ndarray  # line numbers, nearest first (analyze's order)


def analyze_many(
    card: Card, racks: np.ndarray, exposures: Sequence[Exposure] = (), seen: np.ndarray | None = None,
) -> ManyAnalyses:
    """`analyze(card, Holding(rack, exposures), seen)` for every row of `racks`
    ((n, 36) counts), all sharing `exposures`; `seen` is one (36,) count for all
    or (n, 36), one a rack."""
    tables = tables_for(card)
    racks = np.asarray(racks, dtype=np.int16)
    n, count = len(racks), len(tables.readings)
    distances = tables.batch_reading_distances(racks, exposures).astype(np.int64)
    # The unseen pool, as analysis.unseen: copies less own tiles, exposed tiles and seen, then clipped.
    shown = np.zeros(tiles.KINDS, dtype=np.int16)
    for e in exposures:
        shown[e.tile] += e.size - e.jokers
        shown[tiles.JOKER] += e.jokers
    pool = COPIES - racks - shown
    if seen is not None:
        pool = pool - np.asarray(seen, dtype=np.int16)
    pool = np.maximum(pool, 0)
    # Outs and deadness only matter among each line's nearest readings (as analyze).
    line_nearest = np.minimum.reduceat(distances, tables.starts, axis=1)
    wanted = (distances == line_nearest[:, tables.line_of]) & (distances != OUT_OF_REACH)
    rows, idx = np.nonzero(wanted)
    outs = np.zeros((n, count), dtype=np.int64)
    dead = np.zeros((n, count), dtype=bool)
    outs[rows, idx], dead[rows, idx] = _outs_and_dead(tables, idx, rows, racks, pool, exposures, distances[rows, idx])
    # Best reading of each line: nearest, then alive, then most outs, then card order.
    key = ((distances * 2 + dead) * 1024 + (1023 - np.minimum(outs, 1023))) * count + np.arange(count)
    best = np.minimum.reduceat(key, tables.starts, axis=1) % count
    at = np.arange(n)[:, None]
    line_distance, line_outs, line_dead = distances[at, best], outs[at, best], dead[at, best]
    # Rank: nearest first, then most live outs, then highest value, then card order.
    lines = len(tables.lines)
    shape = (n, lines)
    order = np.lexsort(
        (np.broadcast_to(np.arange(lines), shape), np.broadcast_to(-tables.values, shape), -line_outs, line_distance), axis=1,
    )
    return ManyAnalyses(line_distance, best, line_dead, line_outs, order)


@dataclass(frozen=True)
class _Sparse:
    """Each reading's tiles (naturals it needs) side by side, padded to the widest:
    a reading takes 3-12 kinds of 35, so its outs are summed over those alone.
    A padding slot names the joker and needs nothing, so it adds nothing to any sum."""

    tile: np.ndarray  # (readings, width) tile numbers, tiles.JOKER where padded
    need: np.ndarray  # (readings, width) copies needed
    small: np.ndarray  # (readings, width) of them in singles and pairs


# By the tables themselves, weakly: a card's tables dropped (an upload timed once) take theirs along.
_SPARSE: weakref.WeakKeyDictionary[CardTables, _Sparse] = weakref.WeakKeyDictionary()


def _sparse(tables: CardTables) -> _Sparse:
    kept = _SPARSE.get(tables)
    if kept is not None:
        return kept
    used = tables.need > 0
    width = int(used.sum(axis=1).max()) if len(used) else 0
    # Each row's tiles first (in tile order), then the padding: a stable sort on "not used".
    order = np.argsort(~used, axis=1, kind="stable")[:, :width]
    taken = np.take_along_axis(used, order, axis=1)
    tile = np.where(taken, order, tiles.JOKER).astype(np.intp)
    need = np.where(taken, np.take_along_axis(tables.need, order, axis=1), 0).astype(np.int16)
    small = np.where(taken, np.take_along_axis(tables.small, order, axis=1), 0).astype(np.int16)
    found = _Sparse(tile, need, small)
    _SPARSE[tables] = found  # two threads building it at once build the same
    return found


def _outs_and_dead(
    tables: CardTables, idx: np.ndarray, rows: np.ndarray, racks: np.ndarray, pool: np.ndarray,
    exposures: Sequence[Exposure], distances: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """`analysis.outs_and_dead` for pairs of (rack `rows[k]`, reading `idx[k]`), each
    with its own rack and pool, summed over the tiles each reading needs: every
    term of those sums is 0 for a tile a reading does not need (as analyze adds them)."""
    sparse = _sparse(tables)
    tile = sparse.tile[idx]
    need = sparse.need[idx]
    if exposures:
        less = np.zeros(tiles.KINDS, dtype=np.int16)  # nothing less at the padding's joker
        for e in exposures:
            less[e.tile] += e.size
        need = need - less[tile]
    small = sparse.small[idx]
    at = rows[:, None]
    rack = racks[at, tile]
    jokers = racks[rows, tiles.JOKER].astype(np.int64)
    pool_naturals = pool[at, tile]
    pool_jokers = pool[rows, tiles.JOKER].astype(np.int64)
    naturals = np.minimum(rack, need)
    # Empty slots in groups of 3+ once naturals are placed: where jokers may go.
    room = (need - small).sum(axis=1) - np.maximum(naturals - small, 0).sum(axis=1)
    joker_short = jokers < room  # a drawn joker (or a natural for a group of 3+) still has a place
    helps = (rack < small) | ((rack < need) & joker_short[:, None])
    outs = (helps * pool_naturals).sum(axis=1) + joker_short * pool_jokers
    # Dead: a single or pair short of naturals, or more empty slots than jokers to fill them.
    reachable = rack + pool_naturals
    short_naturals = (small > reachable).any(axis=1)
    jokers_needed = (need - np.minimum(need, reachable)).sum(axis=1)
    dead = (short_naturals | (jokers_needed > jokers + pool_jokers)) & (distances > 0)
    return np.where(dead, 0, outs), dead
