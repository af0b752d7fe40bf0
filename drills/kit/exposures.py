"""Exposed groups for a drill's table, as a real set can make them."""

from __future__ import annotations

import random

from coach.notation import tiles
from coach.reading.tiles_away import Exposure


def exposure_for(rng: random.Random, tile: int, size: int, jokers: bool = True) -> Exposure:
    """An exposed group as a real set can make it: jokers fill what four naturals cannot (J1)."""
    wild = 1 if jokers and rng.random() < 0.3 else 0
    return Exposure(tile, size, max(size - tiles.COPIES[tile], wild))
