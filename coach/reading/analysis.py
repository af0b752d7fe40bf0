"""Analysis of a holding against a card: every line ranked, with its reading.

For each line: its distance (tiles away), the best reading (actual suits
and numbers), which tiles it uses, which are missing and whether a joker
may fill each (J1, J2), which tiles it leaves unused, and, given the
tiles already seen, whether the reading is dead and how many live outs it
has. Lines rank by distance, then live outs, then value.

Live outs: the unseen tiles (not on the player's rack, not in their
exposures, not seen) that would bring the reading one tile closer if
drawn. A reading is dead when its missing tiles can no longer all come
from the unseen tiles: a missing single or pair tile needs a natural, a
missing slot in a group of three or more a natural or a joker. A dead
reading has no live outs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from coach.common.kept import Kept
from coach.notation import tiles
from coach.notation.card import Card, Line, Reading
from coach.reading.tiles_away import OUT_OF_REACH, CardTables, Fill, Holding, fill, tables_for


@dataclass
class LineResult:
    line: Line
    distance: int | None  # None: out of reach
    reading: Reading | None
    dead: bool
    live_outs: int
    holding: Holding
    order: int  # position of the line on the card

    @cached_property
    def fill(self) -> Fill | None:
        if self.reading is None:
            return None
        return fill(self.reading, self.holding, self.line.concealed)

    @property
    def reason(self) -> str | None:
        """Why an out-of-reach line is out of reach, in plain words."""
        if self.distance is not None:
            return None
        if self.line.concealed and self.holding.exposures:
            return "a concealed line allows no exposures before Mah Jongg (H4)"
        return "your exposures fit no group of this line (H1, H2)"

    def to_json(self) -> dict:
        line = self.line
        data: dict = {
            "id": line.id,
            "section": line.section,
            "distance": self.distance,
            "value": line.value,
            "concealed": line.concealed,
            "note": line.note,
            "pattern": line.pattern,
            "dead": self.dead,
            "live_outs": self.live_outs,
        }
        f = self.fill
        if f is None or self.reading is None:
            data.update(reading=None, uses=[], missing=[], unused=[], reason=self.reason)
            return data
        data["reading"] = {
            "suits": dict(self.reading.suits),
            "shift": self.reading.shift,
            "form": line.form_of(self.reading),
            "tiles": self.reading.printed(),
        }
        data["uses"] = [tiles.CODES[t] for t in sorted(f.used)]
        data["missing"] = [
            {"tile": tiles.CODES[m.tile], "count": m.count, "group": m.group.kind, "joker_ok": m.joker_ok}
            for m in f.missing
        ]
        data["unused"] = [tiles.CODES[t] for t in f.unused]
        return data


@dataclass(frozen=True)
class Analysis:
    card: Card
    holding: Holding
    seen: tuple[int, ...]
    lines: tuple[LineResult, ...]  # ranked, nearest first

    @property
    def nearest(self) -> LineResult:
        return self.lines[0]

    def result(self, line_id: str) -> LineResult:
        for r in self.lines:
            if r.line.id == line_id:
                return r
        raise KeyError(line_id)

    def to_json(self) -> dict:
        return {"card": self.card.name, "hands": [r.to_json() for r in self.lines]}


COPIES = np.array(tiles.COPIES, dtype=np.int16)


def unseen(holding: Holding, seen: tuple[int, ...] | None = None) -> np.ndarray:
    """Copies of each kind the player has not seen: the set less own tiles and seen tiles."""
    pool = COPIES - np.array(holding.rack, dtype=np.int16)
    for e in holding.exposures:
        pool[e.tile] -= e.size - e.jokers
        pool[tiles.JOKER] -= e.jokers
    if seen:
        pool -= np.array(seen, dtype=np.int16)
    return np.maximum(pool, 0)


def outs_and_dead(
    tables: CardTables, holding: Holding, pool: np.ndarray, idx: np.ndarray, distances: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Live outs and deadness of the reachable readings `idx` (see module doc)."""
    need = tables.need[idx]
    if holding.exposures:
        less = np.zeros(tiles.NATURALS, dtype=np.int16)
        for e in holding.exposures:
            less[e.tile] += e.size
        need = need - less
    small = tables.small[idx]
    rack = np.array(holding.rack[: tiles.NATURALS], dtype=np.int16)
    jokers = holding.jokers
    pool_naturals = pool[: tiles.NATURALS]
    pool_jokers = int(pool[tiles.JOKER])
    naturals = np.minimum(rack, need)
    # Empty slots in groups of 3+ once naturals are placed: where jokers may go.
    room = (need - small).sum(axis=1) - np.maximum(naturals - small, 0).sum(axis=1)
    joker_short = jokers < room  # a drawn joker (or a natural for a group of 3+) still has a place
    helps = (rack < small) | ((rack < need) & joker_short[:, None])
    outs = helps.view(np.int8) @ pool_naturals + joker_short * pool_jokers
    # Dead: a single or pair short of naturals, or more empty slots than jokers to fill them.
    reachable = rack + pool_naturals
    short_naturals = (small > reachable).any(axis=1)
    jokers_needed = (need - np.minimum(need, reachable)).sum(axis=1)
    dead = (short_naturals | (jokers_needed > jokers + pool_jokers)) & (distances > 0)
    return np.where(dead, 0, outs), dead


def analyze(card: Card, holding: Holding, seen: tuple[int, ...] | None = None, within: int | None = None) -> Analysis:
    """Rank every line of the card for this holding; with `within`, only the
    lines at most that many tiles further than the nearest, each worked out
    and ranked exactly as in the full analysis (a deal that reads only the
    near lines skips the outs of all the others). A bare rack with nothing
    seen is ranked by the card's batch tables when they are built
    (`RankTables.rank_rack`, batch_rank's own ranking of one rack, the same numbers: tests hold it to `ranked`)."""
    tables = tables_for(card)
    if not holding.exposures and not any(seen or ()) and tables.batch_ready:
        found = tables.rank_rack(holding.rack)
        order = found.order
        if within is not None:
            order = order[found.distance[order] <= found.distance.min() + within]
        lines = (found.best.tolist(), found.distance.tolist(), found.dead.tolist(), found.live_outs.tolist(), order.tolist())
    else:
        lines = ranked(tables, holding, seen, within)
    best_list, distance_list, dead_list, outs_list, order_list = lines
    results = []
    for n in order_list:
        h, d = best_list[n], distance_list[n]
        reachable = d != OUT_OF_REACH
        results.append(
            LineResult(
                tables.lines[n],
                d if reachable else None,
                tables.readings[h] if reachable else None,
                dead_list[n],
                outs_list[n],
                holding,
                n,
            )
        )
    return Analysis(card, holding, tuple(seen or (0,) * tiles.KINDS), tuple(results))


def ranked(
    tables: CardTables, holding: Holding, seen: tuple[int, ...] | None = None, within: int | None = None
) -> tuple[list[int], list[int], list[bool], list[int], list[int]]:
    """`analyze`'s numbers for any holding, by line in card order: each line's
    best reading (an index into `tables.readings`), its distance, deadness and
    live outs; then the lines ranked (only those `within` of the nearest)."""
    distances = tables.reading_distances(holding).astype(np.int64)
    pool = unseen(holding, seen)
    count = len(tables.readings)
    # Outs and deadness only matter among each line's nearest readings.
    line_nearest = np.minimum.reduceat(distances, tables.starts)
    nearest = line_nearest[tables.line_of]
    wanted = (distances == nearest) & (distances != OUT_OF_REACH)
    if within is not None:
        wanted &= nearest <= line_nearest.min() + within
    idx = np.flatnonzero(wanted)
    outs = np.zeros(count, dtype=np.int64)
    dead = np.zeros(count, dtype=bool)
    outs[idx], dead[idx] = outs_and_dead(tables, holding, pool, idx, distances[idx])
    # Best reading of each line: nearest, then alive, then most outs, then card order.
    key = ((distances * 2 + dead) * 1024 + (1023 - np.minimum(outs, 1023))) * count + np.arange(count)
    best = np.minimum.reduceat(key, tables.starts) % count
    line_distance = distances[best]
    line_outs = outs[best]
    # Rank: nearest first, then most live outs, then highest value, then card order.
    order = np.lexsort((np.arange(len(best)), -tables.values, -line_outs, line_distance))
    if within is not None:
        order = order[line_distance[order] <= line_distance.min() + within]
    return best.tolist(), line_distance.tolist(), dead[best].tolist(), line_outs.tolist(), order.tolist()


_RACKS: Kept[Analysis] = Kept(256)
RACKS_KEPT = _RACKS.size


def analyze_rack(card: Card, rack: Sequence[int]) -> Analysis:
    """`analyze` of a bare rack (no exposures, nothing seen), kept for the
    last RACKS_KEPT racks: a first-pass question, its hint and its grade
    all read the same rack's analysis (issue 13). Keyed by the Card object
    (see coach.common.kept); an Analysis is frozen."""
    return _RACKS.get((id(card), tuple(sorted(rack))), lambda: analyze(card, Holding.of(list(rack))), owner=card)
