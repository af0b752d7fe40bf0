"""Which tile to throw: the discard advisor, with a defensive note (D1).

Every distinct tile of a 14-tile holding is tried as the discard. Offence
ranks them by the tiles-away left (nearest first), then by the live outs
of the nearest line once that tile is thrown and seen. Defence (D1) marks
tiles that plainly help another player, judged from their exposures, as
hot, and tiles thrown twice already without a call, or that fit no line
the exposures on the table allow, as safe. Late in a hand, defence comes
first: hot tiles rank after every other discard.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from coach import tiles
from coach.analysis import analyze
from coach.card import Card
from coach.tiles_away import HAND_SIZE, Exposure, Holding, HoldingError, tables_for

HOT_SHARE = 0.5  # a tile wanted by at least half the lines an opponent's exposures allow


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


def wanted_share(card: Card, exposures: Sequence[Exposure]) -> np.ndarray:
    """For each tile, the share of the lines these exposures allow that still need it."""
    tables = tables_for(card)
    share = np.zeros(tiles.NATURALS)
    if not exposures:
        return share
    wanted = np.zeros(tables.group_counts.shape[1], dtype=np.int8)
    less = np.zeros(tiles.NATURALS, dtype=np.int16)
    for e in exposures:
        column = tables.group_columns.get((e.tile, e.size))
        if column is None:
            return share
        wanted[column] += 1
        less[e.tile] += e.size
    fits = ~tables.concealed & np.all(tables.group_counts >= wanted, axis=1)  # H4: no concealed lines
    idx = np.flatnonzero(fits)
    if not len(idx):
        return share
    needs = (tables.need[idx] - less) > 0
    lines = tables.line_of[idx]
    per_line: dict[int, np.ndarray] = {}
    for row, line in zip(needs, lines.tolist()):
        per_line[line] = per_line[line] | row if line in per_line else row
    stacked = np.array(list(per_line.values()))
    return stacked.mean(axis=0)


def advise_discard(
    card: Card,
    holding: Holding,
    seen: Sequence[int] | None = None,
    others: Sequence[Sequence[Exposure]] = (),
    late: bool = False,
) -> DiscardAdvice:
    """Rank every discard from a holding of 14 tiles (rack plus exposures)."""
    if holding.size != HAND_SIZE:
        raise HoldingError(f"a discard is made from 14 tiles, this hand has {holding.size}")
    seen = list(seen or [0] * tiles.KINDS)
    for exposures in others:  # what other players show is seen too
        for e in exposures:
            for t in e.tiles:
                seen[t] += 1
    shares = [wanted_share(card, e) for e in others if e]
    options = []
    for tile in sorted({t for t in holding.rack_tiles()}):
        rack = list(holding.rack)
        rack[tile] -= 1
        after = Holding(tuple(rack), holding.exposures)
        now_seen = list(seen)
        now_seen[tile] += 1
        nearest = analyze(card, after, tuple(now_seen)).lines[0]
        distance = nearest.distance if nearest.distance is not None else HAND_SIZE
        hot = tile < tiles.NATURALS and any(s[tile] >= HOT_SHARE for s in shares)
        thrown_twice = seen[tile] >= 2
        fits_nothing = bool(shares) and tile < tiles.NATURALS and all(s[tile] == 0 for s in shares)
        safe = not hot and (thrown_twice or fits_nothing)
        options.append(DiscardOption(tile, distance, nearest.live_outs, hot, safe, _note(tile, hot, thrown_twice, fits_nothing)))
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
        lines.append(f"Hot: {names} plainly help{'s' if len(hot) == 1 else ''} another player's exposures (D1).")
    if late:
        lines.append("Late in the hand, defence matters more than your own rack: hot tiles come last (D1).")
    return DiscardAdvice(tuple(options), tuple(lines), late)


def _note(tile: int, hot: bool, thrown_twice: bool, fits_nothing: bool) -> str:
    name = tiles.name(tile)
    if hot:
        return f"{name} is hot: most lines another player's exposures allow still need it (D1)."
    if thrown_twice:
        return f"{name} is safe: it was thrown twice already and nobody called it (D1)."
    if fits_nothing:
        return f"{name} is safe: it fits no line the exposures on the table allow (D1)."
    return ""
