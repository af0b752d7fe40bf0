"""The Charleston (C1-C6): which way each pass goes, in what order, and what
may be passed. Written once here; the hand, the advice, the drills and the
tools read it from here.

- C1: the first Charleston is compulsory: three tiles right, across, left.
- C2: the second is optional (any one player stops it): left, across, right.
- C3: the courtesy pass goes across, 0 to 3 tiles, the smaller offer moves.
- C4: a joker is never passed.
- C5: on the last pass of each Charleston, some or all of the three tiles may
  be ones coming in that same pass, sent straight on unseen.
- C6: (a table rule) everyone passing all three blind ends the Charleston.

Two table rules change it (docs/table-rules.md): TR3 lets a joker go in the
courtesy pass (`may_pass_joker`), and TR4 seats three players, East, South
and West, with no across pass and no courtesy pass: right then left (first),
the vote, left then right (second), the last pass of each may be blind
(`steps`, `receiver`, `sender` with `players=3`).

"Right" is the next seat in turn order (S5), so a direction is a number of
seats moved along `coach.rules.table.SEATS` (or the three seats in play, TR4).
"""

from __future__ import annotations

from collections.abc import Sequence

from coach.common.errors import CoachError
from coach.notation import tiles
from coach.rules.blanks import split
from coach.rules.ruling import Ruling
from coach.rules.table import next_seat, seats_in_play
from coach.rules.table_rules import LEAGUE, TableRules

# S5 with C1-C3: how many seats along the turn order each direction moves.
SEATS_MOVED = {"right": 1, "across": 2, "left": 3}
FIRST_CHARLESTON = ("right", "across", "left")  # C1
SECOND_CHARLESTON = ("left", "across", "right")  # C2
COURTESY = "across"  # C3
CHARLESTONS: dict[str, tuple[str, ...]] = {"first": FIRST_CHARLESTON, "second": SECOND_CHARLESTON}
# Every pass by its name: (which Charleston, direction).
PASSES = {
    "first-right": ("first", "right"),
    "first-across": ("first", "across"),
    "first-left": ("first", "left"),
    "second-left": ("second", "left"),
    "second-across": ("second", "across"),
    "second-right": ("second", "right"),
    "courtesy": ("courtesy", COURTESY),
}
RULE_OF = {"first": "C1", "second": "C2", "courtesy": "C3"}  # the rule id that orders each Charleston
BLIND_PASSES = ("first-left", "second-right")  # C5: the last pass of each Charleston
# The steps of a whole Charleston at the table, in order: the vote on the
# second Charleston (C2) and the courtesy offers (C3) between the passes.
STEPS = (
    tuple(f"first-{d}" for d in FIRST_CHARLESTON)
    + ("vote",)
    + tuple(f"second-{d}" for d in SECOND_CHARLESTON)
    + ("offer",)
)


# TR4: a three-player Charleston has no across pass and no courtesy pass.
THREE_PLAYER_FIRST = ("right", "left")
THREE_PLAYER_SECOND = ("left", "right")
THREE_PLAYER_STEPS = (
    tuple(f"first-{d}" for d in THREE_PLAYER_FIRST) + ("vote",) + tuple(f"second-{d}" for d in THREE_PLAYER_SECOND)
)


def steps(players: int = 4) -> tuple[str, ...]:
    """The steps of the Charleston at a table of `players` (C1-C3; TR4 for three):
    every pass, the vote and the courtesy offer, in order. The last pass of
    each Charleston is still the one that may be blind (`BLIND_PASSES`, C5)."""
    seats_in_play(players)  # a table of 4, or 3
    return STEPS if players == 4 else THREE_PLAYER_STEPS


def charlestons(players: int = 4) -> dict[str, tuple[str, ...]]:
    """Each Charleston's directions in order at a table of `players` (C1, C2; TR4 for three)."""
    seats_in_play(players)
    return CHARLESTONS if players == 4 else {"first": THREE_PLAYER_FIRST, "second": THREE_PLAYER_SECOND}


def passes(players: int = 4) -> dict[str, tuple[str, str]]:
    """Every pass played at a table of `players`, by name: all of PASSES, or
    with three only the right and left passes of each Charleston (TR4)."""
    seats_in_play(players)
    if players == 3:
        return {name: where for name, where in PASSES.items() if where[1] != "across"}
    return PASSES


def all_blind_ends(air_mahjong: bool = False) -> Ruling:
    """When every player sends all three tiles on unseen on a blind pass, does
    the Charleston end there? Only at a table that plays C6; by the League's
    rules nothing is left to move and the Charleston goes on (C5)."""
    return Ruling(air_mahjong, "C6", {"league": "goes on"})


def pass_steps(players: int = 4) -> tuple[str, ...]:
    """The passes every seat makes, in order (the courtesy pass aside): a seat's
    n-th pass is the n-th of these (C1, C2; TR4)."""
    return tuple(step for step in steps(players) if step in PASSES and step != "courtesy")


def has_courtesy(players: int = 4) -> Ruling:
    """Is there a courtesy pass (C3)? Not at a three-player table: across
    from South sits nobody (TR4)."""
    return Ruling(players == 4, "C3" if players == 4 else "TR4", {"players": players})


def may_pass_joker(which: str, joker_in_courtesy: bool = False) -> Ruling:
    """May a joker go in this pass? Never by the League's rules (C4); with the
    table rule TR3 in the courtesy pass only."""
    if which == "courtesy" and joker_in_courtesy:
        return Ruling(True, "TR3", {"which": which})
    return Ruling(False, "C4", {"which": which})


def forwarded(blind: int) -> str:
    """A blind pass's forwarded tiles in words (C5): "2 of the tiles coming to you, unseen"."""
    if blind == 3:
        return "all three tiles coming to you, unseen"
    return f"{blind} of the tiles coming to you, unseen"


def pass_words(names: Sequence[str], blind: int, verb: str = "pass") -> str:
    """A pass in words: "pass 5 Dot, Soap and send on 1 of the tiles coming to you, unseen"."""
    own = ", ".join(names)
    if not blind:
        return f"{verb} {own or 'nothing'}"
    send = {"pass": "send on", "passed": "sent on"}.get(verb, "send on")
    return f"{verb} {own} and {send} {forwarded(blind)}" if own else f"{send} {forwarded(blind)}"


class PassError(CoachError, ValueError):
    """A pass no player may make: a joker (C4), the wrong number of tiles, tiles not held."""


def _moved(direction: str, players: int) -> int:
    if players == 4:
        return SEATS_MOVED[direction]
    if direction == "across":
        raise PassError("three players pass right and left only: across from South sits nobody (TR4)")
    return {"right": 1, "left": players - 1}[direction]


def receiver(seat: str, direction: str, players: int = 4) -> str:
    """The seat that gets what `seat` passes `direction` (C1-C3, S5; around three seats, TR4)."""
    return next_seat(seat, _moved(direction, players), players)


def sender(seat: str, direction: str, players: int = 4) -> str:
    """The seat whose pass `direction` comes to `seat` (C1-C3, S5; around three seats, TR4)."""
    return next_seat(seat, -_moved(direction, players), players)


def check_pass(
    rack: Sequence[int], passed: Sequence[int], which: str = "first-right", blind: int = 0, rules: TableRules = LEAGUE
) -> None:
    """Raise PassError unless `passed` (+ `blind` unseen) is a legal pass from
    `rack` at this table. By the League's rules (`rules` left out) a rack and a
    pass hold tiles only; at a table that plays blanks (TR1) they may hold
    `tiles.BLANK`, which may be passed like any tile; a joker may go in the
    courtesy pass at a table that plays TR3; with three players there is no
    across and no courtesy pass (TR4)."""
    table = passes(rules.players)
    if which not in table:
        if which in PASSES:
            raise PassError(f"with three players there is no {which.replace('-', ' ')} pass: nobody sits across (TR4)")
        raise PassError(f"unknown pass {which!r}: one of {', '.join(table)}")
    if blind and which not in BLIND_PASSES:
        raise PassError("only the last pass of each Charleston may be blind (C5)")
    if tiles.JOKER in passed and not may_pass_joker(which, rules.joker_in_courtesy):
        if rules.joker_in_courtesy:
            raise PassError("a joker may go only in the courtesy pass at this table, never in the Charleston (TR3, C4)")
        raise PassError("a joker may never be passed in the Charleston (C4)")
    count = len(passed) + blind
    if which == "courtesy":
        if not 0 <= count <= 3:
            raise PassError(f"a courtesy pass moves 0 to 3 tiles, not {count} (C3)")
    elif count != 3:
        raise PassError(f"a Charleston pass moves exactly three tiles, not {count} (C1)")
    own, blanks = split(passed)
    if blanks:
        held_blanks = split(rack)[1]
        if not rules.blanks:
            raise PassError("there are no blanks in play: the League's set has none (TR1)")
        if blanks > held_blanks:
            raise PassError(f"you cannot pass {blanks} blanks: your rack holds {held_blanks} (TR1)")
    if blanks or rules.blanks:
        rack = split(rack)[0]
    held = tiles.counts(rack)
    for t, c in enumerate(tiles.counts(own)):
        if c > held[t]:
            raise PassError(f"you cannot pass {tiles.plural(t, c)}: your rack holds {held[t]}")
