"""The wall shuffled as `random.Random.shuffle` shuffles it, at about a third of its cost (issue 26).

Dealing drills (nearest-hand, first-pass) shuffle the 152-tile wall several
times a question, and every question must stay the one its seed always
gave (the frozen questions, tests/drills/test_frozen.py). `shuffle` is the
standard library's own Fisher-Yates (CPython 3.11+: for i from the end,
`j = _randbelow(i + 1)`, where `_randbelow(n)` draws `n.bit_length()` bits
until the number is below n) with the per-step function call and
`bit_length` taken out: the same calls to `getrandbits`, in the same order,
so the same list and the same state of the random source afterwards
(tests/drills/test_shuffle.py holds it to `random.Random.shuffle` over many seeds).
A source whose `random` or `getrandbits` is overridden (a subclass) may draw
differently: it is shuffled by its own `shuffle`.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any


@lru_cache(maxsize=64)
def _steps(length: int) -> tuple[tuple[int, int], ...]:
    """Each step of the shuffle: the place i filled, and the bits drawn for a number up to i."""
    return tuple((i, (i + 1).bit_length()) for i in range(length - 1, 0, -1))


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """Shuffle `items` in place exactly as `rng.shuffle(items)` would."""
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i, bits in _steps(len(items)):
        j = getrandbits(bits)
        while j > i:  # rejected, as _randbelow rejects a number >= i + 1
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]
