"""A small thread-safe store of the last results worked out (issue 13).

Several pure functions keep their last few results: a rack's analysis, a
pass's exact expectation, a question's pass evaluation, a set of
exposures' danger. Each is keyed by content or by a Card object's id();
an id() can come back for another object once the first is freed, so an
entry can carry its owner, and is used only while that very object is the
one asked about. Work is done outside the lock: two threads asking for the
same missing entry at once both work it out (the same value), rather than
one waiting on the other.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class Kept(Generic[V]):
    """The last `size` values by key, the least recently used going first."""

    def __init__(self, size: int):
        self.size = size
        self._entries: OrderedDict[Hashable, tuple[object, V]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, make: Callable[[], V], owner: object = None) -> V:
        """The value kept for `key` (and `owner`, compared by identity), else `make()` kept."""
        with self._lock:
            hit = self._entries.get(key)
            if hit is not None and hit[0] is owner:
                self._entries.move_to_end(key)
                return hit[1]
        value = make()
        self.put(key, value, owner)
        return value

    def peek(self, key: Hashable, owner: object = None) -> V | None:
        """The value kept for `key` (and `owner`), or None: nothing is worked out."""
        with self._lock:
            hit = self._entries.get(key)
            if hit is None or hit[0] is not owner:
                return None
            self._entries.move_to_end(key)
            return hit[1]

    def put(self, key: Hashable, value: V, owner: object = None) -> None:
        """Keep `value` for `key`, the least recently used going if there is no room."""
        with self._lock:
            self._entries[key] = (owner, value)
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self):  # the keys, oldest first, as they stand now
        with self._lock:
            return iter(list(self._entries))

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
