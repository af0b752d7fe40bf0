"""How a position is likely to end: the model behind the coach's values.

Two estimates, each a logistic model over a few facts a player at the
table can see, fitted on self-play hands by `python -m coach calibrate`
(coefficients in `outlook.json`, with the hands they came from and how
well they predict held-out hands):

- `win_chance`: the share of hands a 13-tile holding goes on to win, from
  its nearest live line (dead lines are out, E3): tiles away, live outs,
  how many live lines are as near or one more, whether that line takes no
  jokers (Singles and Pairs, J2) or is concealed (K7), the jokers on the
  rack, the exposures and the jokers in them, and the tiles left in the
  wall.
- `deal_in_chance`: the chance that throwing a tile hands one opponent
  Mah Jongg (K3), from the share of the hands their exposures still allow
  that need it (the danger figure of `coach.advice.discard`, D1), how
  many exposures they have, how often the tile was already thrown, and
  the wall. A joker can never be called (J3), and a tile that no hand an
  opponent's exposures allow needs cannot complete it: both are 0.

The coach's value of a move (`coach.play.evaluation`) is built from these
in points a player wins or pays (P1-P6).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

import numpy as np

from coach.advice.discard import danger
from coach.notation import tiles
from coach.notation.card import Card
from coach.play.hand import SEATS, Hand
from coach.reading.analysis import analyze
from coach.reading.many import analyze_many
from coach.reading.tiles_away import HAND_SIZE, OUT_OF_REACH, Exposure, Holding, tables_for

MODEL_FILE = Path(__file__).with_name("outlook.json")
FAR = 9  # tiles away counted as at most this: further is as good as lost
WALL = 100.0  # the wall's tiles are counted in hundreds in the models
WALL_AFTER_DEAL = 99  # 152 tiles less 53 dealt (S3): no wall of a real hand is longer


def seen_tiles(hand: Hand, seat: str) -> np.ndarray:
    """What `seat` has seen: the discards and the other players' exposures (a
    blank on the floor is no tile any line needs, TR1)."""
    seen = np.zeros(tiles.KINDS, dtype=np.int16)
    for _, tile in hand.discards:
        if tile != tiles.BLANK:
            seen[tile] += 1
    for other in SEATS:
        if other != seat:
            for group in hand.exposed[other]:
                for tile in group.as_exposure().tiles:
                    seen[tile] += 1
    return seen


@dataclass(frozen=True)
class Prospect:
    """A holding's nearest live line as the models read it."""

    distance: int  # tiles away from the nearest live line (FAR+ when every line is dead)
    outs: int  # live outs of that line
    close: int  # live lines at most one tile further
    value: int  # that line's value on the card (P1)
    line: str  # its id, "" when every line is dead
    exposures: int = 0  # groups this player has exposed
    exposed_jokers: int = 0  # jokers in them: others may take them (J4)
    jokers: int = 0  # jokers on the rack: any line may use them (J1)
    no_jokers: bool = False  # the line is Singles and Pairs: no joker may fill it (J2)
    concealed: bool = False  # the line is concealed: no call but for Mah Jongg (K7)


def prospects(card: Card, holding: Holding, seen: Sequence[int] | np.ndarray, most: int = 6) -> list[Prospect]:
    """The live lines nearest a holding, given the tiles seen (E3): those at most
    one tile further than the nearest, `most` of them, nearest first; one with
    distance HAND_SIZE when every line is dead."""
    analysis = analyze(card, holding, tuple(int(x) for x in seen))
    live = [line for line in analysis.lines if line.distance is not None and not line.dead]
    shown = len(holding.exposures), sum(e.jokers for e in holding.exposures), holding.jokers
    if not live:
        return [Prospect(HAND_SIZE, 0, 0, 0, "", *shown)]
    low = live[0].distance
    assert low is not None
    near = [line for line in live if line.distance is not None and line.distance <= low + 1]
    close = sum(1 for line in near)
    return [
        Prospect(
            int(line.distance or 0), line.live_outs, close, line.line.value, line.line.id, *shown, line.line.singles_and_pairs,
            line.line.concealed,
        )
        for line in near[:most]
    ]


def prospects_many(
    card: Card, racks: np.ndarray, exposures: Sequence[Exposure], seen: np.ndarray, most: int = 6,
) -> list[list[Prospect]]:
    """`prospects` of many racks sharing their exposures, in one analysis
    (`analyze_many`): a turn's or a call's every discard at once (issue 26).
    `racks` is (n, 36) counts, `seen` (36,) or (n, 36); the same Prospects,
    in the same order, as `prospects_each`, the readable reference."""
    found = analyze_many(card, racks, exposures, seen)
    lines = tables_for(card).lines
    jokers_exposed = sum(e.jokers for e in exposures)
    live = (found.distance != OUT_OF_REACH) & ~found.dead
    out = []
    for n, order in enumerate(found.order):
        shown = len(exposures), jokers_exposed, int(racks[n][tiles.JOKER])
        ranked = order[live[n, order]]  # the live lines, nearest first
        if not len(ranked):
            out.append([Prospect(HAND_SIZE, 0, 0, 0, "", *shown)])
            continue
        distance = found.distance[n, ranked]
        near = ranked[distance <= distance[0] + 1]
        close = len(near)
        row = []
        for line_number, d, outs in zip(near[:most].tolist(), distance[:most].tolist(), found.live_outs[n, near[:most]].tolist()):
            line = lines[line_number]
            row.append(Prospect(d, outs, close, line.value, line.id, *shown, line.singles_and_pairs, line.concealed))
        out.append(row)
    return out


def prospects_each(
    card: Card, racks: np.ndarray, exposures: Sequence[Exposure], seen: np.ndarray, most: int = 6,
) -> list[list[Prospect]]:
    """`prospects_many` one analysis a rack: the reference it is held to, and
    the path it replaced (coach.tools.benchmarks.practice_table times both)."""
    seens = np.broadcast_to(np.asarray(seen), np.shape(racks))
    return [
        prospects(card, Holding(tuple(int(x) for x in rack), tuple(exposures)), row, most)
        for rack, row in zip(racks, seens)
    ]


def prospect(card: Card, holding: Holding, seen: Sequence[int] | np.ndarray) -> Prospect:
    """The nearest line still alive for a holding, given the tiles seen (E3)."""
    return prospects(card, holding, seen)[0]


def win_features(found: Prospect, wall: int, distance: int | None = None) -> np.ndarray:
    d = min(found.distance if distance is None else distance, FAR)
    w = min(wall, WALL_AFTER_DEAL) / WALL
    return np.array([
        1.0, d, d * d / 10, w, d * w, math.log1p(found.outs), math.log1p(found.close), found.exposures, found.exposed_jokers,
        found.jokers, float(found.no_jokers), float(found.concealed),
    ])


def danger_features(share: float, exposures: int, thrown: int, wall: int) -> np.ndarray:
    late = 1.0 - min(wall, WALL_AFTER_DEAL) / WALL
    return np.array([1.0, share, min(exposures, 4), share * min(exposures, 4), min(thrown, 3), late, late * min(exposures, 4)])


@dataclass(frozen=True)
class Model:
    win: np.ndarray  # coefficients over win_features
    deal_in: np.ndarray  # coefficients over danger_features
    gain_per_value: float  # what a winner collects, in multiples of the line's value (P1-P5)
    mean_value: float  # a line's value on the card played, on average
    hands: int  # self-play hands fitted
    note: str  # how well it predicts held-out hands


def _logistic(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


# The win model's weights for the exposures and the jokers in them (see win_features).
EXPOSURES, EXPOSED_JOKERS = 7, 8


@cache
def model() -> Model:
    data = json.loads(MODEL_FILE.read_text())
    win = np.array(data["win"])
    # An exposure never counts as a gain in itself: the computer players in the
    # data call when a call helps, which a fit reads as exposing (jokers too)
    # helping. Held at zero or below, a call is worth what it brings nearer,
    # less what it gives away: jokers others may take (J4), lines given up.
    win[[EXPOSURES, EXPOSED_JOKERS]] = np.minimum(win[[EXPOSURES, EXPOSED_JOKERS]], 0.0)
    return Model(
        win, np.array(data["deal_in"]), float(data["gain_per_value"]), float(data["mean_value"]), int(data["hands"]),
        str(data["note"]),
    )


@lru_cache(maxsize=8192)  # a turn's discards and a call's options share most prospects (issue 26)
def win_chance(found: Prospect, wall: int) -> float:
    """The share of hands this holding goes on to win (see the module doc)."""
    if found.distance >= HAND_SIZE:
        return 0.0
    # Never more for being further away, whatever the fitted curve does between its points.
    weights = model().win
    return min(_logistic(float(weights @ win_features(found, wall, d))) for d in range(min(found.distance, FAR) + 1))


def deal_in_chance(card: Card, tile: int, exposures: Sequence[Exposure], thrown: int, wall: int) -> float:
    """The chance that throwing `tile` hands the player with these exposures Mah Jongg."""
    if tile >= tiles.NATURALS:
        return 0.0  # J3: a joker is never called
    share = 0.0
    if exposures:
        found = danger(card, exposures)
        share = found.share(tile)
        if share == 0.0:
            return 0.0  # no hand their exposures allow needs it
    return _deal_in(share, len(exposures), thrown, wall)


@lru_cache(maxsize=8192)  # every discard a turn or a call weighs asks it of three opponents (issue 26)
def _deal_in(share: float, exposures: int, thrown: int, wall: int) -> float:
    return _logistic(float(model().deal_in @ danger_features(share, exposures, thrown, wall)))
