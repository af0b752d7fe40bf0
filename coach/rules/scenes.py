"""Scenes a real set can make: the checker every drill question passes (T1, J1, J2, S5).

A scene is everything a question shows or names about the table: the
learner's rack (or the tiles the question says the learner holds), the
learner's exposures, the other players' exposures by seat, the discards,
and any tile offered, called or named on its own. `problems` lists what no
real game could show: more copies of a tile than the 152-tile set holds
(counted across all of these), an exposure that is no pung, kong, quint or
sextet of one tile with jokers only where J1 lets them stand, seats that
are no seats, and turns that do not follow one another to the right (S5).

Tiles are canonical codes (`docs/card-format.md`), as questions show them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from coach.notation import tiles

Group = tuple[str, ...]
HAND = 14  # the most tiles a player holds, exposures included (S3)


@dataclass(frozen=True)
class Scene:
    """What one question shows of a table, in tile codes."""

    rack: tuple[str, ...] = ()  # the learner's concealed tiles (or those the question says are held)
    exposures: tuple[Group, ...] = ()  # the learner's exposed groups
    others: tuple[tuple[str, tuple[Group, ...]], ...] = ()  # (seat, that player's exposures)
    discards: tuple[str, ...] = ()  # tiles thrown so far, the one being called included
    offered: tuple[str, ...] = ()  # tiles offered, passed or named apart from all the above
    seat: str | None = None  # the learner's seat, where the question gives one
    order: tuple[str, ...] = ()  # seats whose turns follow one another, with no call between

    def shown(self) -> list[tuple[str, Iterable[str]]]:
        """Every place tiles are shown, labelled for a message."""
        parts: list[tuple[str, Iterable[str]]] = [("the rack", self.rack)]
        parts += [(f"your exposure {n}", group) for n, group in enumerate(self.exposures, 1)]
        parts += [
            (f"{seat}'s exposure {n}", group)
            for seat, groups in self.others
            for n, group in enumerate(groups, 1)
        ]
        parts += [("the discards", self.discards), ("the tiles named", self.offered)]
        return parts


def of_question(rack: Iterable[str] = (), exposed: Iterable[Group] = (), tile: str | None = None) -> Scene:
    """The scene a question shows when it has nothing but a rack, exposures and one tile."""
    return Scene(rack=tuple(rack), exposures=tuple(tuple(g) for g in exposed), offered=(tile,) if tile else ())


def exposure_problem(group: Group) -> str | None:
    """Why a group cannot lie exposed on a table, or None (H2, J1, J2).

    An exposure is a pung, kong, quint or sextet of one tile; jokers may
    fill any of its places but one, since the tile itself must be shown.
    """
    naturals = {code for code in group if code != "J"}
    words = " ".join(group)
    if not 3 <= len(group) <= 6:
        return f"exposure {words}: an exposure is a pung, kong, quint or sextet (H2)"
    if len(naturals) != 1:
        return f"exposure {words}: an exposure is a group of one tile (H2)"
    return None


def supply_problems(scene: Scene) -> list[str]:
    """Tiles shown more often than the set holds, with where they are (T1)."""
    try:
        tiles.check_supply(scene.shown())
    except tiles.TileError as error:
        return [str(error)]
    return []


def seat_problems(scene: Scene) -> list[str]:
    """Seats that are no seats, a player counted twice, turns out of order (S5)."""
    problems = []
    named = [seat for seat, _ in scene.others] + ([scene.seat] if scene.seat else []) + list(scene.order)
    problems += [f"{seat!r} is not a seat" for seat in dict.fromkeys(named) if seat not in tiles.SEATS]
    owners = [seat for seat, _ in scene.others]
    if len(set(owners)) != len(owners) or (scene.seat and scene.seat in owners):
        problems.append("one player's exposures are shown as two players'")
    for before, after in zip(scene.order, scene.order[1:]):
        if before in tiles.SEATS and after in tiles.SEATS:
            if tiles.SEATS.index(after) != (tiles.SEATS.index(before) + 1) % 4:
                problems.append(f"{after} does not play right after {before} (S5)")
    for seat, groups in scene.others:
        if sum(len(g) for g in groups) > HAND:
            problems.append(f"{seat} shows more than {HAND} tiles exposed")
    if sum(len(g) for g in scene.exposures) > HAND:
        problems.append(f"you show more than {HAND} tiles exposed")
    return problems


def problems(scene: Scene) -> list[str]:
    """Everything no real game could show in this scene; empty when it is possible."""
    found = [f"{code!r} is not a tile" for part in scene.shown() for code in part[1] if code not in tiles.INDEX]
    if found:
        return found
    groups = list(scene.exposures) + [g for _, groups in scene.others for g in groups]
    found += [p for g in groups if (p := exposure_problem(g))]
    return found + supply_problems(scene) + seat_problems(scene)
