"""The numpy work of the pass evaluation: drawing the tiles that come back,
and scoring many passes on many draws at once, sampled or summed exactly.

Scoring adds the received tiles' rows of the card table to the pass's
own row, over only the readings that three tiles could make nearest,
instead of a full matrix product per sample (`scores_by_matrix` is that
slow definition, kept to check against). Sums of whole numbers: the same
in any order, so equal passes come out exactly equal.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from coach.notation import tiles
from coach.notation.card import Card
from coach.reading.tiles_away import (
    FEATURE_START,
    HAND_SIZE,
    SPILL,
    CardTables,
    tables_for,
)

REACH_MARGIN = 2  # a line "within reach": at most this many tiles behind the best line
CHUNK = 512  # draws scored at once for a pass: its kept readings' rows stay in cache
# (draw, reading) cells scored at once for many passes, a byte each: 8 MB
# (this machine's L3 holds 16). Fewer, longer blocks (every pass's first
# draws in one) beat 1 MB ones, whose rows were short inner loops; a block
# is a few temporaries of this size per evaluation running.
FLAT_CELLS = 1 << 23


def sample_draws(pool: list[int], samples: int, rng: np.random.Generator) -> np.ndarray:
    """(samples, 3) tile indices: three tiles drawn without replacement from
    `pool`: the tiles with the three smallest random keys, smallest first
    (three passes of argmin: several times quicker than argpartition on rows
    this short, and the same three tiles)."""
    pool_arr = np.array(pool, dtype=np.intp)
    keys = rng.random((samples, len(pool_arr)))
    rows = np.arange(samples)
    picked = np.empty((samples, 3), dtype=np.intp)
    for j in range(3):
        picked[:, j] = keys.argmin(axis=1)
        keys[rows, picked[:, j]] = 2.0  # past every key: not picked again
    return pool_arr[picked]


def _received_rows(after: np.ndarray, draws: np.ndarray, take: int) -> tuple[np.ndarray, np.ndarray]:
    """Table rows the received tiles switch on, and the jokers received.

    `after`: the rack's counts once the pass is given, (36,); `draws`: (n,
    3) tiles, of which the first `take` arrive (OTHER: a tile that changes
    nothing). A received tile that is the k-th copy on the rack switches
    on the feature "at least k copies", one row of the card table; a joker
    or a tile not received switches on the empty row past the last feature.
    """
    nothing = FEATURE_START[tiles.NATURALS]
    row = np.full(OTHER + 1, nothing, dtype=np.intp)  # each kind's next copy's row; joker, OTHER: the empty row
    row[: tiles.NATURALS] = FEATURE_START[: tiles.NATURALS] + after[: tiles.NATURALS]
    natural = np.zeros(OTHER + 1, dtype=np.intp)
    natural[: tiles.NATURALS] = 1
    a, b, c = draws[:, 0], draws[:, 1], draws[:, 2]
    rows = np.full((len(draws), 3), nothing, dtype=np.intp)
    if take > 0:
        rows[:, 0] = row[a]
    if take > 1:
        rows[:, 1] = row[b] + (a == b) * natural[b]
    if take > 2:
        before = (a == c).astype(np.intp) + (b == c)  # copies of c received before it (bools would or, not add)
        rows[:, 2] = row[c] + before * natural[c]
    jokers = (draws[:, :take] == tiles.JOKER).sum(axis=1, dtype=np.int16)
    return rows, jokers


_PADDED: dict[int, tuple[CardTables, np.ndarray]] = {}


def _padded(tables: CardTables) -> np.ndarray:
    """The card table with one row of zeros after it: the row of "nothing"."""
    hit = _PADDED.get(id(tables))
    if hit is None or hit[0] is not tables:
        table = tables.table
        hit = (tables, np.vstack([table, np.zeros((1, table.shape[1]), dtype=table.dtype)]))
        _PADDED[id(tables)] = hit
    return hit[1]


_COMPACT: dict[int, tuple[CardTables, np.ndarray]] = {}
COMPACT_ROOM = 16  # in one byte: naturals placed (<= 14) + 16 * room left for jokers (<= 14): at most 238
COMPACT_SHIFT = 4  # v >> COMPACT_SHIFT: the room left


def _compact(tables: CardTables) -> np.ndarray:
    """`_padded` in one byte a cell: naturals - COMPACT_ROOM * spilled, so
    that a rack's sum started from COMPACT_ROOM * the reading's room for
    jokers (as `Scorer` does) ends on naturals + COMPACT_ROOM * room left:
    below 256, so byte arithmetic, wrapping on the way, ends on exactly the
    same counts, and jokers placed are min(jokers, v >> COMPACT_SHIFT). One more
    column of zeros after the readings: a reading that places nothing, to
    pad layouts with."""
    hit = _COMPACT.get(id(tables))
    if hit is None or hit[0] is not tables:
        padded = _padded(tables)
        compact = np.zeros((padded.shape[0], padded.shape[1] + 1), dtype=np.uint8)
        compact[:, :-1] = ((padded & (SPILL - 1)) - COMPACT_ROOM * (padded >> 5)) & 0xFF
        hit = (tables, compact)
        _COMPACT[id(tables)] = hit
    return hit[1]


@dataclass(frozen=True)
class _Layout:
    """`Scorer._layout`: kept readings of many passes, a row each, in
    segments (a pass, or a pass's line) padded to a few widths and ordered
    by width, so that the segments of one width reduce as one reshape."""

    owner: np.ndarray  # each segment's pass, an index into the passes laid out
    rows: int  # rows in all, padding included
    base: np.ndarray  # (rows, 1): each row's pass's own row of the table, one byte a cell (see _compact)
    fixes: _Fixes  # where a draw bringing back a kind a pass gave away is corrected
    reading: np.ndarray  # each row's reading (the empty column after them for padding)
    widths: list[tuple[int, int, int]]  # (first row, segments, rows a segment) for each width
    rank: np.ndarray  # each segment's place in width order
    first_row: np.ndarray  # each segment's first row
    width: np.ndarray  # each segment's rows

    def maxima(self, placed: np.ndarray) -> np.ndarray:
        """The largest value of each segment, for each column of `placed`
        (rows, draws); reduceat along rows, the obvious way, is several times slower."""
        n = placed.shape[1]
        parts = [_halving_max(placed[a : a + count * width].reshape(count, width, n)) for a, count, width in self.widths]
        return np.take(np.concatenate(parts), self.rank, axis=0)

    def segments(self, picked: np.ndarray) -> _Layout:
        """For a layout of a segment a pass: the layout of only the passes
        (segments) `picked`, numbered in that order afresh: their
        rows copied as they are, in width order still. The same rows, so
        the same maxima, as laying those passes out afresh, in a fraction
        of the array operations (the refined and the open passes are
        subsets of the passes scored first)."""
        order = np.sort(self.rank[picked])  # places in width order, kept in width order
        by_place = np.empty(len(self.rank), dtype=np.intp)
        by_place[self.rank] = np.arange(len(self.rank))
        chosen = by_place[order]  # the picked segments, in width order
        width = self.width[chosen]
        ends = np.cumsum(width)
        rows = int(ends[-1])
        # Each new row's old row: every chosen segment's run of rows, one after another.
        old = np.repeat(self.first_row[chosen] - (ends - width), width) + np.arange(rows)
        new_of_old = np.full(self.rows, -1, dtype=np.intp)
        new_of_old[old] = np.arange(rows)
        rank = np.empty(len(self.rank), dtype=np.intp)
        rank[chosen] = np.arange(len(chosen))
        bounds = np.flatnonzero(np.diff(width, prepend=0))
        counts = np.diff(bounds, append=len(chosen))
        widths = list(zip((ends[bounds] - width[bounds]).tolist(), counts.tolist(), width[bounds].tolist()))
        return _Layout(
            np.arange(len(picked)), rows, self.base[old], self.fixes.moved(new_of_old), self.reading[old], widths,
            rank[picked], (ends - width)[rank[picked]], self.width[picked],
        )


@dataclass(frozen=True)
class _Fixes:
    """`_Layout.fixes`: the rows (`at`) a draw bringing back kind `kinds[k]`
    corrects, entries `start[k]` to `start[k + 1]`, with the correction by
    copies brought back (`corr`, (entries, 4), see `Scorer._corrections`)."""

    kinds: np.ndarray
    start: np.ndarray
    at: np.ndarray
    corr: np.ndarray

    def moved(self, new_of_old: np.ndarray) -> _Fixes:
        """The entries whose rows are kept (`new_of_old` not -1), at their new rows."""
        at = new_of_old[self.at]
        kept = at >= 0
        before = np.concatenate(([0], np.cumsum(kept)))  # entries kept before each
        return _Fixes(self.kinds, before[self.start], at[kept], self.corr[kept])

    def apply(self, cells: np.ndarray, count: np.ndarray, n: int) -> None:
        """Add to `cells` ((rows, n) flat, one byte a cell) every correction
        the draws (`count`: (kinds, n) copies of each kind a draw brings)
        call for: the (kind, draw) pairs of draws that bring a corrected kind,
        each spread to its kind's entries, in one scatter. Two kinds can
        correct one cell (a reading needing both), so it adds with add.at."""
        lengths_of_kind = np.diff(self.start)
        brought = count[self.kinds]  # (kinds with entries, n)
        k, d = np.nonzero(brought)
        if not len(k):
            return
        lengths = lengths_of_kind[k]
        total = int(lengths.sum())
        if not total:
            return
        pair = np.repeat(np.arange(len(k)), lengths)
        entry = np.arange(total) + np.repeat(self.start[k] - (np.cumsum(lengths) - lengths), lengths)
        copies = brought[k, d][pair]
        np.add.at(cells, self.at[entry] * n + d[pair], self.corr.reshape(-1)[entry * 4 + copies])


def _halving_max(block: np.ndarray) -> np.ndarray:
    """block.max(axis=1) for (segments, width, n), by halving the width:
    whole rows at a time, about twice as quick."""
    width = block.shape[1]
    while width > 1:
        half = width // 2
        top = np.maximum(block[:, :half], block[:, half : 2 * half])
        if width % 2:
            np.maximum(top[:, 0], block[:, -1], out=top[:, 0])
        block, width = top, half
    return block[:, 0]


def _widths(sizes: np.ndarray) -> np.ndarray:
    """Each size rounded up to a power of two or three quarters of one: at
    most a third more rows, and few distinct widths."""
    power = 1 << np.ceil(np.log2(np.maximum(sizes, 1))).astype(np.intp)
    return np.where((power >= 4) & (sizes <= power * 3 // 4), power * 3 // 4, power)


class Scorer:
    """Best distance after a pass, for many (pass, sample) pairs.

    Each pass's kept tiles are summed into one table row once; a sample
    then only adds the rows of the (at most three) tiles it brings, instead
    of a full matrix product over every feature. Many passes are scored at
    once (`best_on`, `reach_on`): a block of draws has its rows summed once,
    at the levels of the whole rack, over the readings any of them keeps,
    and a small table corrects the levels where a draw brings back a kind
    the pass gave away. A pass looks only at the readings that can still be
    its nearest, in one byte a cell, a block of draws at a time.
    """

    def __init__(self, card: Card, rack: Sequence[int], candidates: Sequence[tuple[tuple[int, ...], int]], after: np.ndarray,
                 takes: np.ndarray | None = None):
        self.tables = tables_for(card)
        held = tiles.counts(rack)
        compact = _compact(self.tables)[:, :-1]  # the card's readings, without the empty column
        room = (COMPACT_ROOM * self.tables.big_total).astype(np.uint8)
        whole = room + compact[[FEATURE_START[t] + k for t in range(tiles.NATURALS) for k in range(held[t])]].sum(axis=0, dtype=np.uint8)
        # Each pass takes its tiles' top feature rows off the whole rack's row.
        own = _own_tiles(candidates)  # (candidates, 3), sorted, OTHER where fewer than three
        copies = np.array(held + [0], dtype=np.intp)
        starts = np.append(FEATURE_START[: tiles.KINDS], FEATURE_START[tiles.NATURALS])
        earlier = np.zeros_like(own)  # copies of the same tile before it in the pass (sorted: next to it)
        earlier[:, 1] = own[:, 1] == own[:, 0]
        earlier[:, 2] = (own[:, 2] == own[:, 1]).astype(np.intp) + (own[:, 2] == own[:, 0])  # bools would or
        # A joker given (only ever in a courtesy pass at a table that allows it, TR3) has no feature
        # rows: the jokers count through `after`, like an OTHER here.
        featureless = (own == OTHER) | (own == tiles.JOKER)
        gone = np.where(featureless, FEATURE_START[tiles.NATURALS], starts[np.where(featureless, OTHER, own)] + copies[own] - 1 - earlier)
        # (candidates, readings) in _compact's bytes, room for jokers included.
        # Three row gathers: a sum over a middle axis of three took far longer.
        self.base = whole - np.take(compact, gone[:, 0], axis=0)
        self.base -= np.take(compact, gone[:, 1], axis=0)
        self.base -= np.take(compact, gone[:, 2], axis=0)
        self.after = after
        # Tiles each pass gives, as many as come back. A blank given (TR1) is an OTHER in `own`, a tile
        # that changes no reading, yet one comes back for it: then the caller says how many (`takes`).
        self.takes = np.count_nonzero(own != OTHER, axis=1).astype(np.intp) if takes is None else np.asarray(takes, dtype=np.intp)
        jokers = after[:, tiles.JOKER : tiles.JOKER + 1].astype(np.uint8)
        placed = np.minimum(jokers, self.base >> COMPACT_SHIFT)
        placed += self.base & (COMPACT_ROOM - 1)
        self.base_distance = np.subtract(HAND_SIZE, placed, out=placed)  # 0-14, bytes like the rest
        self.held = np.array(held, dtype=np.int16)
        # The kinds each pass gives away, up to three a pass (NO_KIND: none), and how many of each.
        self.give_kind = np.full((len(candidates), 3), NO_KIND, dtype=np.intp)
        self.give_count = np.zeros((len(candidates), 3), dtype=np.int16)
        fresh = ~featureless & (earlier == 0)  # a kind's first copy in the pass opens its slot
        slot = np.cumsum(fresh, axis=1) - 1
        for j in range(3):
            real = np.flatnonzero(~featureless[:, j])
            self.give_kind[real, slot[real, j]] = own[real, j]
            self.give_count[real, slot[real, j]] += 1
        self._kept_cache: dict[tuple[int, int], tuple] = {}
        self._sub_cache: dict[tuple[int, int], np.ndarray] = {}
        self._layouts: list[tuple[np.ndarray, _Layout]] = []  # (each pass's segment or -1, a layout of passes)

    def subset(self, picked: Sequence[int]) -> Scorer:
        """The same scorer for the candidates `picked` only (numbered afresh)."""
        other = object.__new__(Scorer)
        other.__dict__.update(self.__dict__)
        for name in ("base", "after", "takes", "base_distance", "give_kind", "give_count"):
            setattr(other, name, getattr(self, name)[picked])
        other._kept_cache, other._sub_cache, other._layouts = {}, {}, []
        return other

    def _kept(self, i: int, slack: int) -> tuple[np.ndarray, np.ndarray]:
        """Readings that can still matter for pass i, and the pass's own row
        there (`_compact`'s bytes, room for jokers included). Receiving tiles
        never takes a reading further away, so the nearest stays at most the
        pass's own nearest, d; three tiles move any reading at most three
        closer, so one at d + 3 or more can never be nearer than d: `slack` 2
        keeps all that decide the nearest (more keeps those that may stand
        within reach of it)."""
        key = (i, slack)
        kept = self._kept_cache.get(key)
        if kept is None:
            d = self.base_distance[i]
            index = np.flatnonzero(d <= d.min() + slack)
            kept = self._kept_cache[key] = (index, self.base[i, index])
        return kept

    def relevant(self, i: int) -> list[int]:
        """Tiles that could change pass i's nearest reading: any a reading
        still in play uses, and the joker where one has a group it could fill."""
        kept = self._kept(i, 2)[0]
        # A tile no reading needs more of than the pass keeps adds to none.
        used = np.flatnonzero((self.tables.need[kept] > self.after[i, : tiles.NATURALS]).any(axis=0)).tolist()
        return used + ([tiles.JOKER] if (self.tables.big_total[kept] > 0).any() else [])

    def _pairs(self, i: int, first: np.ndarray, second: np.ndarray, jokers: np.ndarray) -> tuple:
        """Pass i after two tiles (their rows `first`, `second`; jokers then
        on the rack): the nearest reading's tiles placed, bit masks of the
        readings at that top and of those with room the jokers do not fill,
        and, for every row of the table (one more for a joker), bit masks of
        the readings a third tile of that row raises by one. A tile raises
        a reading by at most one and never lowers one, so the third tile
        takes the nearest one further exactly when it raises a reading at
        the top: a natural tile one it completes a small group of; a tile of
        a group of 3+, or a joker, one at the top with room left."""
        index, base = self._kept(i, 2)
        sub = self._sub(i)  # (rows, kept readings)
        v = np.take(sub, first, axis=0)
        v += base
        v += np.take(sub, second, axis=0)  # (pairs, kept readings)
        room = v >> COMPACT_SHIFT
        jokers = jokers.astype(np.uint8)[:, None]
        placed = v & (COMPACT_ROOM - 1)
        placed += np.minimum(jokers, room)
        top = placed.max(axis=1)
        # Both pairs' masks packed at once, and both rows' masks (cached a pass).
        masks = np.empty((2, len(v), len(index)), dtype=bool)
        np.equal(placed, top[:, None], out=masks[0])
        np.less(jokers, room, out=masks[1])
        masks[1] &= masks[0]
        tops, open_tops = _bits(masks)
        small, grows = self._row_bits(i)
        return top.astype(np.int64), tops, open_tops, small, grows

    def _sub(self, i: int) -> np.ndarray:
        """`_compact`'s rows at pass i's kept readings, contiguous, kept."""
        key = (i, 2)
        sub = self._sub_cache.get(key)
        if sub is None:
            sub = self._sub_cache[key] = np.ascontiguousarray(_compact(self.tables)[:, self._kept(i, 2)[0]])
        return sub

    def _row_bits(self, i: int) -> np.ndarray:
        """For every row of the table and one more (a joker), bit masks over
        pass i's kept readings: those a tile of that row completes a small
        group of, and those it adds to a group of 3+ (the joker: every one)."""
        sub = self._sub(i)
        masks = np.zeros((2, len(sub) + 1, sub.shape[1]), dtype=bool)
        np.equal(sub, 1, out=masks[0, :-1])
        np.equal(sub, (1 - COMPACT_ROOM) & 0xFF, out=masks[1, :-1])
        masks[1, -1] = True
        return _bits(masks)

    def exact_sum(self, i: int, threes: np.ndarray, ways: np.ndarray) -> int:
        """Sum of ways x best distance over the sets of three `threes` (sorted
        triples, as _every_three gives them), triple by triple: the
        definition `exact_mean` must agree with (the tests)."""
        first, second, third = _received_rows(self.after[i], threes, 3)[0].T
        key = threes[:, 0] * (OTHER + 1) + threes[:, 1]
        starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])  # each pair's first triple, in order
        pair_of = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, len(threes)]))
        jokers = self.after[i, tiles.JOKER] + (threes[starts, 0] == tiles.JOKER) + (threes[starts, 1] == tiles.JOKER)
        top, tops, open_tops, small, grows = self._pairs(i, first[starts], second[starts], jokers)
        third = np.where(threes[:, 2] == tiles.JOKER, len(small) - 1, third)
        raised = np.zeros(len(threes), dtype=bool)
        for w in range(tops.shape[1]):
            word = np.take(tops[:, w], pair_of) & np.take(small[:, w], third)
            word |= np.take(open_tops[:, w], pair_of) & np.take(grows[:, w], third)
            raised |= word != 0
        return int((HAND_SIZE - (top[pair_of] + raised)) @ ways)

    def exact_mean(self, i: int, left: np.ndarray) -> float:
        """The expected best distance of pass i over every three tiles that
        could come back (`left`: the pool's count of each kind), exactly:
        the same number as `exact_sum` over `_every_three`, worked out by
        kind instead of by triple. Tiles no reading in play uses count as
        one kind, OTHER. For a pair of first tiles (a <= b), every third
        kind c > b lands on the row its count on the rack gives, the same
        for every pair, so the pairs' tops meet the kinds' masks in one
        (pairs, kinds) table; c == b is one more row a pair."""
        kinds = [t for t in self.relevant(i) if left[t]]
        pool = int(left.sum())
        counts = left[kinds].astype(np.int64)
        other = pool - int(counts.sum())
        kind = np.array(kinds + ([OTHER] if other else []), dtype=np.intp)
        m = np.append(counts, other) if other else counts
        after = self.after[i]
        nothing = FEATURE_START[tiles.NATURALS]
        natural = (kind < tiles.NATURALS).astype(np.intp)
        row = np.where(natural, FEATURE_START[np.minimum(kind, tiles.NATURALS)] + after[np.minimum(kind, tiles.JOKER)], nothing)
        a, b = _pairs_of(len(kind))  # every pair a <= b, some that cannot come (no ways: never counted)
        same = (a == b).astype(np.intp)
        is_joker = kind == tiles.JOKER
        jokers = after[tiles.JOKER] + is_joker[a] + is_joker[b]
        top, tops, open_tops, small, grows = self._pairs(i, row[a], np.minimum(row[b] + same * natural[b], nothing), jokers)
        # A joker's row: the one past the table, whose mask is "room left".
        third = np.where(is_joker, len(small) - 1, row)
        again = np.where(is_joker[b], len(small) - 1, np.minimum(row[b] + (1 + same) * natural[b], nothing))
        later = np.zeros((len(a), len(kind)), dtype=bool)  # (pairs, kinds): the kind raises the pair's top
        raised_again = np.zeros(len(a), dtype=bool)  # the pair's b once more raises it
        for w in range(tops.shape[1]):
            later |= ((tops[:, w, None] & small[third, w]) | (open_tops[:, w, None] & grows[third, w])) != 0
            raised_again |= ((tops[:, w] & small[again, w]) | (open_tops[:, w] & grows[again, w])) != 0
        ma, mb = m[a], m[b]
        ways_c = np.where(same, ma * (ma - 1) // 2, ma * mb)  # ways for (a, b, c) per copy of c > b
        ways_b = np.where(same, ma * (ma - 1) * (ma - 2) // 6, ma * (mb * (mb - 1) // 2))  # ways for (a, b, b)
        beyond = (m.sum() - np.cumsum(m))[b]  # copies of kinds after b
        raised_later = (later & (np.arange(len(kind)) > b[:, None])).astype(np.int64) @ m
        total = (HAND_SIZE - top) @ (ways_c * beyond + ways_b) - ways_c @ raised_later - ways_b @ raised_again
        return int(total) / math.comb(pool, 3)

    # -- any pairs (the exact enumeration, the tests) -------------------------

    def best(self, cands: np.ndarray, draws: np.ndarray) -> np.ndarray:
        """Best distance for each (pass, draw) pair."""
        out = np.empty(len(cands), dtype=np.int16)
        order = np.argsort(cands, kind="stable")
        bounds = np.flatnonzero(np.diff(cands[order])) + 1
        for where in np.split(order, bounds) if len(order) else ():
            i = int(cands[where[0]])
            index, base = self._kept(i, 2)
            sub = self._sub(i)
            for start in range(0, len(where), CHUNK):
                part = where[start : start + CHUNK]
                rows, got = _received_rows(self.after[i], draws[part], int(self.takes[i]))
                v = base + sub[rows[:, 0]] + sub[rows[:, 1]] + sub[rows[:, 2]]  # (draws, kept readings)
                jokers = (self.after[i, tiles.JOKER] + got).astype(np.uint8)[:, None]
                placed = (v & (COMPACT_ROOM - 1)) + np.minimum(jokers, v >> COMPACT_SHIFT)
                out[part] = HAND_SIZE - placed.max(axis=1)
        return out

    # -- many passes on the draws evaluate_pass shares between them -------------

    def _corrections(self, kind: np.ndarray, given: np.ndarray, reading: np.ndarray) -> np.ndarray:
        """What a draw adds to `base + shared` in `reading` where it brings m
        copies of a tile `kind` the pass gave `given` of: (n, 4) by m = 0-3.
        Summing at the whole rack's h copies, the shared rows added the
        features h+1 .. h+m of the tile, while the pass, holding h - g, really
        gains h-g+1 .. h-g+m: the difference, feature by feature. Whole
        numbers, so the sums are exactly those of summing the pass's own rows;
        negative ones wrap (see _compact)."""
        compact = _compact(self.tables)
        cells, width = compact.ravel(), compact.shape[1]  # 1-D takes: quicker than 2-D indexing
        nothing = FEATURE_START[tiles.NATURALS]  # the row of zeros, past every tile's features
        start = FEATURE_START[kind]
        held = self.held[kind].astype(np.intp)
        copies = FEATURE_START[kind + 1] - start
        table = np.zeros((len(kind), 4), dtype=np.uint8)
        for k in range(3):  # no draw brings more than the pool holds: rows past those are never read
            mine = np.take(cells, np.minimum(start + held - given + k, nothing) * width + reading)
            shared = np.take(cells, np.where(held + k < copies, start + held + k, nothing) * width + reading)
            table[:, k + 1] = table[:, k] + mine - shared
        return table

    def _layout(self, which: Sequence[int] | np.ndarray, slack: int = 2, by_line: bool = False) -> _Layout:
        """The kept readings of every pass in `which` one after another (a
        flat layout, so a block of draws is scored for all passes in a few
        array operations), with, for each kind some pass gives away, the
        positions a draw bringing that kind corrects and how many the pass gave.

        Readings are reduced by segment (a pass, or with `by_line` each line
        of a pass), each padded with rows that place nothing to one of a few
        widths (see _Layout)."""
        which = np.asarray(which, dtype=np.intp)
        d = self.base_distance[which]
        keep = d <= d.min(axis=1, keepdims=True) + slack  # _kept(i, slack), every pass at once
        if by_line:
            # Within a line, a reading three or more behind the line's nearest never decides its best.
            nearest_in_line = np.minimum.reduceat(d, self.tables.starts, axis=1)
            keep &= d <= np.take(nearest_in_line, self.tables.line_of, axis=1) + 2
        sizes = keep.sum(axis=1)
        flat = np.flatnonzero(keep) % d.shape[1]  # several times quicker than np.nonzero in two dimensions
        owner = np.repeat(np.arange(len(which)), sizes)
        if by_line:
            line = self.tables.line_of[flat]
            cut = np.empty(len(flat), dtype=bool)
            cut[0] = True
            np.not_equal(owner[1:], owner[:-1], out=cut[1:])
            cut[1:] |= line[1:] != line[:-1]
            first = np.flatnonzero(cut)  # each segment's first entry
            lengths = np.diff(first, append=len(flat))
        else:
            first, lengths = np.cumsum(sizes) - sizes, sizes
        width = _widths(lengths)
        order = np.argsort(width, kind="stable")
        sorted_width = width[order]
        rank = np.empty(len(order), dtype=np.intp)
        rank[order] = np.arange(len(order))
        ends = np.cumsum(sorted_width)
        rows = int(ends[-1])
        position = np.repeat((ends - sorted_width)[rank] - first, lengths) + np.arange(len(flat))
        bounds = np.flatnonzero(np.diff(sorted_width, prepend=0))  # widths are at least 1
        counts = np.diff(bounds, append=len(order))
        widths = list(zip((ends[bounds] - sorted_width[bounds]).tolist(), counts.tolist(), sorted_width[bounds].tolist()))
        reading = np.full(rows, len(self.tables.readings), dtype=np.intp)  # padding: the empty column of _compact
        reading[position] = flat
        base = np.zeros((rows, 1), dtype=np.uint8)
        base[position, 0] = np.take(self.base, np.repeat(which * d.shape[1], sizes) + flat)
        # A draw bringing back a kind the pass gave away is corrected (see
        # _corrections) only in the readings that need more of it than the
        # pass keeps: every entry and slot of a kind given away at once.
        kind = np.repeat(self.give_kind[which], sizes, axis=0)  # (entries, 3)
        given = np.repeat(self.give_count[which], sizes, axis=0)
        t = np.minimum(kind, tiles.NATURALS - 1)
        needed = np.take(self.tables.need, flat[:, None] * tiles.NATURALS + t)
        entry, slot = np.nonzero((kind != NO_KIND) & (needed > self.held[t] - given))
        kind, given = kind[entry, slot], given[entry, slot]
        order = np.argsort(kind, kind="stable")
        entry, kind, given = entry[order], kind[order], given[order]
        table = self._corrections(kind, given, flat[entry])
        cuts = np.flatnonzero(np.diff(kind, prepend=-1))
        fixes = _Fixes(kind[cuts], np.append(cuts, len(kind)), position[entry], table)
        first_row = (ends - sorted_width)[rank]
        return _Layout(owner[first], rows, base, fixes, reading, widths, rank, first_row, width)

    def _pass_layout(self, which: list[int]) -> _Layout:
        """`_layout(which)`, cut from an earlier one that holds every pass
        of `which` where there is one (evaluate_pass scores every pass
        first, then ever fewer of them), else laid out and kept for later."""
        for segment_of, layout in self._layouts:
            picked = segment_of[which]
            if (picked >= 0).all():
                return layout.segments(picked)
        layout = self._layout(which)
        segment_of = np.full(len(self.base), -1, dtype=np.intp)
        segment_of[which] = np.arange(len(which))
        self._layouts.append((segment_of, layout))
        return layout

    def best_on(self, which: Sequence[int], draws: np.ndarray, start: int, stop: int) -> list[np.ndarray]:
        """Best distance of each pass in `which` on draws[start:stop]."""
        return self._by_take(which, lambda group, take: self._best_flat(group, draws[start:stop], take))

    def _blocks(self, layout: _Layout, draws: np.ndarray, take: int) -> Iterator[tuple[np.ndarray | slice, np.ndarray]]:
        """Tiles placed in every kept reading of every pass of `layout`
        (`_layout`, passes that all receive `take` tiles), a block of draws at
        a time: (which draws, (kept readings, draws)), a reading a row so
        that a pass's or a line's readings reduce as whole rows.

        A block of draws gets its received rows summed once over the readings
        any of the passes keeps (at the whole rack's levels), spread to every
        pass's kept readings with the pass's own row added; where a draw
        brings a kind the pass gave away, `_corrections` puts right the levels.
        Draws that bring a joker come last in a block (when the rack has
        none), so that only they take the jokers' arithmetic."""
        sub = _compact(self.tables)
        base = layout.base
        held_jokers = int(self.held[tiles.JOKER])
        step = max(8, min(CHUNK, FLAT_CELLS // layout.rows))
        for a in range(0, len(draws), step):
            block = draws[a : a + step]
            n = len(block)
            rows, got = _received_rows(self.held, block, take)
            columns: np.ndarray | slice = slice(a, a + n)
            jokers_from = 0 if held_jokers else n - int(np.count_nonzero(got))
            if 0 < jokers_from < n:
                order = np.argsort(got > 0, kind="stable")
                block, rows, got, columns = block[order], rows[order], got[order], a + order
            summed = np.ascontiguousarray((sub[rows[:, 0]] + sub[rows[:, 1]] + sub[rows[:, 2]]).T)  # (readings, draws)
            # (kept readings of every pass, draws); take: several times quicker than indexing here
            v = np.take(summed, layout.reading, axis=0)
            v += base
            if len(layout.fixes.at):
                count = np.zeros((NO_KIND + 1, n), dtype=np.intp)  # copies of each kind a draw brings
                index = np.arange(n)
                for j in range(take):
                    count[block[:, j], index] += 1
                layout.fixes.apply(v.reshape(-1), count, n)
            placed = v & (COMPACT_ROOM - 1)  # naturals, then jokers in the room left in groups of 3+
            if jokers_from < n:
                room = v[:, jokers_from:]
                np.right_shift(room, COMPACT_SHIFT, out=room)  # in place: v is not read again
                np.minimum(room, (held_jokers + got[jokers_from:]).astype(np.uint8), out=room)
                placed[:, jokers_from:] += room
            yield columns, placed

    def _best_flat(self, which: list[int], draws: np.ndarray, take: int) -> np.ndarray:
        """`best_on` for passes that all receive `take` tiles: (passes, draws)."""
        layout = self._pass_layout(which)
        out = np.empty((len(which), len(draws)), dtype=np.int16)
        for columns, placed in self._blocks(layout, draws, take):
            out[:, columns] = HAND_SIZE - layout.maxima(placed)
        return out

    def _by_take(self, which: Sequence[int], score: Callable[[list[int], int], np.ndarray]) -> list[np.ndarray]:
        """`score(passes, take)` a row a pass, for the passes of each take, in `which`'s order."""
        which = [int(i) for i in which]
        out: list[np.ndarray] = [np.empty(0, dtype=np.int16)] * len(which)
        for take in sorted({int(self.takes[i]) for i in which}):
            members = [k for k, i in enumerate(which) if self.takes[i] == take]
            for k, row in zip(members, score([which[k] for k in members], take)):
                out[k] = row
        return out

    def reach_on(self, which: Sequence[int], draws: np.ndarray, stop: int) -> list[np.ndarray]:
        """Lines within REACH_MARGIN of the nearest, for each pass in `which` on draws[:stop]."""
        return self._by_take(which, lambda group, take: self._reach_flat(group, draws[:stop], take))

    def _reach_flat(self, which: list[int], draws: np.ndarray, take: int) -> np.ndarray:
        layout = self._layout(which, 3 + REACH_MARGIN, by_line=True)
        first_line = np.searchsorted(layout.owner, np.arange(len(which)))  # each pass's first line
        out = np.empty((len(which), len(draws)), dtype=np.intp)
        for columns, placed in self._blocks(layout, draws, take):
            per_line = layout.maxima(placed).astype(np.int16)  # (lines, draws)
            nearest = np.maximum.reduceat(per_line, first_line, axis=0)  # (passes, draws)
            within = per_line >= nearest[layout.owner] - REACH_MARGIN
            out[:, columns] = np.add.reduceat(within, first_line, axis=0, dtype=np.intp)
        return out

    def reach(self, cands: np.ndarray, draws: np.ndarray) -> np.ndarray:
        """`reach_on` for any pairs (the tests)."""
        out = np.empty(len(cands), dtype=np.intp)
        for i in np.unique(cands):
            where = np.flatnonzero(cands == i)
            out[where] = self.reach_on([int(i)], np.ascontiguousarray(draws[where]), len(where))[0]
        return out


def _own_tiles(candidates: Sequence[tuple[tuple[int, ...], int]]) -> np.ndarray:
    """Each pass's own tiles as a row of three, sorted, OTHER where it passes fewer."""
    try:
        # Every pass of three tiles (all but the blind and courtesy passes): one
        # flat read, several times quicker than a row a pass. A pass of fewer
        # leaves the iterator short of 3 a pass, and fromiter says so.
        flat = itertools.chain.from_iterable([own for own, _ in candidates])
        return np.fromiter(flat, dtype=np.intp, count=3 * len(candidates)).reshape(-1, 3)
    except ValueError:
        return np.array([own + (OTHER,) * (3 - len(own)) for own, _ in candidates], dtype=np.intp).reshape(-1, 3)


def racks_after(rack: Sequence[int], candidates: Sequence[tuple[tuple[int, ...], int]]) -> np.ndarray:
    """(candidates, kinds): the rack's counts once each pass is given."""
    own = _own_tiles(candidates)
    given = np.zeros((len(own), OTHER + 1), dtype=np.int16)
    rows = np.arange(len(own))
    for j in range(3):
        given[rows, own[:, j]] += 1  # one tile a row each time: no index repeats
    return np.array(tiles.counts(rack), dtype=np.int16) - given[:, :OTHER]


def screen_candidates(
    scorer: Scorer,
    candidates: list[tuple[tuple[int, ...], int]],
    keep: int,
    include: Sequence[Sequence[int]],
) -> list[int]:
    """The `keep` candidates whose kept tiles stand nearest a line, and `include`."""
    lines = np.minimum.reduceat(scorer.base_distance, scorer.tables.starts, axis=1)
    low = lines.min(axis=1)
    close = (lines <= (low + REACH_MARGIN)[:, None]).sum(axis=1)
    order = np.lexsort((np.arange(len(candidates)), -close, low))
    chosen = set(order[:keep].tolist())
    wanted = {tuple(sorted(p)) for p in include}
    if wanted:  # a question's own evaluation includes none: no pass to look for
        chosen |= {i for i, (own, blind) in enumerate(candidates) if blind == 0 and own in wanted}
    return sorted(chosen)


def scores_by_matrix(card: Card, after: np.ndarray, takes: np.ndarray, cands: np.ndarray, draws: np.ndarray) -> np.ndarray:
    """The slow definition `Scorer.best` must agree with (and the bench's
    baseline): build every (pass, draw) rack and take a full matrix product
    over every feature, in the 4,096-row chunks evaluate_pass once used."""
    rows = after[cands].copy()
    for j in range(3):
        arrives = np.flatnonzero(j < takes[cands])
        np.add.at(rows, (arrives, draws[arrives, j]), 1)
    tables = tables_for(card)
    return np.concatenate(
        [tables.batch_reading_distances(rows[k : k + 4096]).min(axis=1) for k in range(0, len(rows), 4096)]
    )
OTHER = tiles.KINDS  # in an enumeration: any tile that cannot matter to the pass
NO_KIND = OTHER + 1  # a pass's slot for a kind given away, left empty


@lru_cache(maxsize=64)
def _pairs_of(kinds: int) -> tuple[np.ndarray, np.ndarray]:
    """np.triu_indices(kinds), kept: every pair of kinds a <= b."""
    a, b = np.triu_indices(kinds)
    a.flags.writeable = b.flags.writeable = False
    return a, b


@lru_cache(maxsize=64)
def _threes(kinds: int) -> np.ndarray:
    """Every multiset of three of `kinds` kinds, as sorted index triples."""
    out = np.array(list(itertools.combinations_with_replacement(range(kinds), 3)), dtype=np.intp).reshape(-1, 3)
    out.flags.writeable = False
    return out


def _every_three(pool: Sequence[int], relevant: Sequence[int]) -> tuple[np.ndarray, np.ndarray, int]:
    """Every set of three tiles the pool can give, as (sets, 3), the number
    of ways each can come, and the number of ways in all; tiles outside
    `relevant` all count as one kind, OTHER. Whole numbers, so that an
    expectation is one exact sum however the kinds were merged: equal
    passes come out exactly equal."""
    left = Counter(pool)
    kinds = [t for t in sorted(set(relevant)) if left[t]]
    other = len(pool) - sum(left[t] for t in kinds)
    if other:
        kinds.append(OTHER)
    m = np.array([left[t] if t != OTHER else other for t in kinds], dtype=np.int64)
    idx = _threes(len(kinds))
    a, b, c = m[idx[:, 0]], m[idx[:, 1]], m[idx[:, 2]]
    same_ab, same_bc = idx[:, 0] == idx[:, 1], idx[:, 1] == idx[:, 2]
    ways = np.where(
        same_ab & same_bc, a * (a - 1) * (a - 2) // 6,
        np.where(same_ab, a * (a - 1) // 2 * c, np.where(same_bc, a * b * (b - 1) // 2, a * b * c)),
    )
    keep = ways > 0
    return np.array(kinds, dtype=np.intp)[idx[keep]], ways[keep], math.comb(len(pool), 3)



def _bits(mask: np.ndarray) -> np.ndarray:
    """A (..., n) boolean mask as (..., words) 64-bit words, for `&` between rows."""
    words = -(-mask.shape[-1] // 64)
    packed = np.zeros(mask.shape[:-1] + (words * 8,), dtype=np.uint8)
    packed[..., : -(-mask.shape[-1] // 8)] = np.packbits(mask, axis=-1)
    return packed.view(np.uint64)
