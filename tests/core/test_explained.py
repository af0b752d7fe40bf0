"""Every line explained for a bare rack (coach.reading.explained) says what
`LineResult.to_json` says, key for key and in the same order, for every
reading of every line, on random racks (issue 26: the batch's quick path)."""

from __future__ import annotations

import random

from coach.notation import tiles
from coach.reading.analysis import LineResult
from coach.reading.explained import Explainer
from coach.reading.holding import Holding
from coach.reading.tiles_away import fill
from tests.support.cards import CARD


def _racks(count: int) -> list[list[int]]:
    """Racks of 13 and 14 tiles from the wall, and shorter ones (as after calls), some joker-heavy."""
    rng = random.Random(26)
    wall = list(tiles.WALL)
    racks = []
    for n in range(count):
        rng.shuffle(wall)
        size = (13, 14, 10, 7)[n % 4]
        rack = wall[:size]
        if n % 5 == 0:  # more jokers than a deal gives: their slots are the hard part (J1, J2)
            rack = rack[:-3] + [tiles.JOKER] * 3
        racks.append(rack)
    return racks


def test_every_reading_of_every_line_is_explained_as_to_json_says() -> None:
    explainer = Explainer()
    readings = [(line, reading) for line in CARD.lines for reading in line.readings]
    rng = random.Random(5)
    checked = 0
    for rack in _racks(40):
        holding = Holding.of(rack)
        for line, reading in rng.sample(readings, 150) + [(line, line.readings[0]) for line in CARD.lines]:
            distance = fill(reading, holding, line.concealed).distance
            dead, outs = rng.random() < 0.3, rng.randrange(20)
            expected = LineResult(line, distance, reading, dead, outs, holding, 0).to_json()
            got = explainer.line(line, reading, holding.rack, distance, dead, outs)
            assert list(got) == list(expected)
            assert got == expected, (tiles.format_tiles(rack), line.id)
            checked += 1
    assert checked == 40 * (150 + len(CARD.lines))


def test_the_same_rack_object_again_and_a_new_one_with_the_same_counts() -> None:
    """The kinds held are kept for the last rack asked (by identity): a new rack is read afresh."""
    explainer = Explainer()
    line = CARD.lines[0]
    reading = line.readings[0]
    first, second = Holding.of(_racks(2)[0]), Holding.of(_racks(2)[1])
    for holding in (first, second, first):
        distance = fill(reading, holding, line.concealed).distance
        expected = LineResult(line, distance, reading, False, 0, holding, 0).to_json()
        assert explainer.line(line, reading, holding.rack, distance, False, 0) == expected
