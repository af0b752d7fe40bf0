"""What a player holds: concealed counts and exposures, as values.

Kept apart from `tiles_away` (which re-exports them) so that the lean
`analyze` batch can read racks and exposures without importing the card
module (issue 26: a command's start-up is most of a batch's CPU).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from coach.common.errors import CoachError
from coach.notation import tiles

HAND_SIZE = 14
OUT_OF_REACH = 99  # a distance no reading can have; shown as None at the edges


class HoldingError(CoachError, ValueError):
    """A rack or exposure that no real player could hold."""


@dataclass(frozen=True)
class Exposure:
    """An exposed group: `size` tiles of `tile`, `jokers` of them jokers."""

    tile: int
    size: int
    jokers: int = 0

    @property
    def tiles(self) -> tuple[int, ...]:
        return (self.tile,) * (self.size - self.jokers) + (tiles.JOKER,) * self.jokers

    @property
    def codes(self) -> list[str]:
        return [tiles.CODES[t] for t in self.tiles]

    def describe(self) -> str:
        from coach.notation.card import Group  # only to say it: the batch never does

        group = Group(self.tile, self.size).describe()
        if self.jokers:
            return f"{group} ({self.jokers} as joker{'s' if self.jokers > 1 else ''})"
        return group


@dataclass(frozen=True)
class Holding:
    """What a player holds: concealed counts (36 kinds) and exposures."""

    rack: tuple[int, ...]
    exposures: tuple[Exposure, ...] = ()

    @classmethod
    def of(cls, rack: Iterable[int | str], exposures: Iterable[Exposure] = ()) -> Holding:
        counts = tiles.counts(rack)
        if any(c > cap for c, cap in zip(counts, tiles.COPIES)):
            raise HoldingError("a rack cannot hold more copies of a tile than the set has")
        return cls(tuple(counts), tuple(exposures))

    @property
    def jokers(self) -> int:
        return self.rack[tiles.JOKER]

    @property
    def size(self) -> int:
        return sum(self.rack) + sum(e.size for e in self.exposures)

    @property
    def exposed_tiles(self) -> int:
        return sum(e.size for e in self.exposures)

    def rack_tiles(self) -> list[int]:
        return [t for t, c in enumerate(self.rack) for _ in range(c)]

    def all_tiles(self) -> list[int]:
        return self.rack_tiles() + [t for e in self.exposures for t in e.tiles]
