"""The pass evaluation's shortcuts held to the slow definitions they stand for
(issue 26: a first-pass answer no longer lists every legal pass, nor reads
the passes' tiles a row at a time)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from coach.advice.passes.candidates import candidate_passes
from coach.advice.passes.evaluation import listed_order
from coach.advice.passes.kernel import OTHER, _own_tiles
from coach.notation import tiles
from coach.rules.charleston import PASSES


def _racks(n: int) -> list[list[int]]:
    rng = random.Random(26)
    wall = list(tiles.WALL)
    out = []
    for k in range(n):
        rng.shuffle(wall)
        out.append(sorted(wall[: 13 + k % 2]))
    return out


@pytest.mark.parametrize("which", list(PASSES))
def test_listed_order_is_the_order_candidate_passes_lists(which: str) -> None:
    for rack in _racks(6):
        listed = candidate_passes(rack, which)
        assert sorted(listed, key=lambda c: listed_order(*c)) == listed


@pytest.mark.parametrize("which", list(PASSES))
def test_own_tiles_read_flat_are_the_rows_padded_one_by_one(which: str) -> None:
    for rack in _racks(4):
        candidates = candidate_passes(rack, which)
        slow = np.array([own + (OTHER,) * (3 - len(own)) for own, _ in candidates], dtype=np.intp).reshape(-1, 3)
        fast = _own_tiles(candidates)
        assert fast.dtype == slow.dtype and np.array_equal(fast, slow)

