"""Dead hands (E1-E4): what makes a hand dead, and what a dead hand may still do.

A hand is dead when the tiles or the play prove it (E3): a wrong tile count
after East's first discard, exposures no line holds, exposures that only a
concealed line holds (H4), a draw out of turn, a discard before the draw, a
joker exchange before a tile was acquired (J4), or a wrong Mah Jongg laid
down (E1 says the others check it). A dead hand stops drawing, discarding
and calling, still pays the winner, and is called dead by another player,
proven by the tiles; nobody declares their own hand dead (E4).

Every decision is a Ruling; a dead verdict names its cause in `facts["cause"]`.
"""

from __future__ import annotations

from collections.abc import Sequence

from coach.notation.card import Card, Line
from coach.reading.tiles_away import OUT_OF_REACH, Exposure, Holding, assign_exposures, tables_for
from coach.rules.mahjong import winning_lines
from coach.rules.ruling import Ruling

# The causes of E3, as `facts["cause"]` names them.
COUNT, NO_LINE, CONCEALED_ONLY = "count", "no-line", "concealed-only"
DREW, EARLY, SWAP, FALSE_MAH_JONGG = "drew", "early", "swap", "false-mah-jongg"
# Moments a tile count is checked at: between turns 13, after a draw 14 (E3);
# before East's first discard East holds 14 and nothing is checked yet (S3).
HELD = {"between": 13, "drawn": 14}
# Turn events: a fault makes the hand dead (E3); a call is no fault (K5), nor
# a joker exchange after the draw (J4).
FAULTS = {"drew-out-of-turn": DREW, "discarded-before-drawing": EARLY, "exchanged-before-drawing": SWAP}
NO_FAULT = {"called": "K5", "exchanged-after-drawing": "J4"}
# What a dead hand may still do (E4).
DEAD_HAND_MAY = {"draw": False, "discard": False, "call": False, "call for Mah Jongg": False, "pay the winner": True}


def exposed_lines(card: Card, exposures: Sequence[Exposure]) -> list[Line]:
    """Exposed (X) lines with a group for every exposure (E3, H4)."""
    tables = tables_for(card)
    distances = tables.line_distances(Holding.of([], tuple(exposures)))
    return [tables.lines[n] for n, d in enumerate(distances.tolist()) if d != OUT_OF_REACH]


def concealed_lines(card: Card, exposures: Sequence[Exposure]) -> list[Line]:
    """Concealed (C) lines whose groups would hold these exposures, were exposing allowed."""
    return [
        line for line in card.lines
        if line.concealed and any(assign_exposures(r.groups, exposures) is not None for r in line.readings)
    ]


def dead_by_exposures(card: Card, exposures: Sequence[Exposure]) -> Ruling:
    """Do the exposures prove the hand dead (E3)? Dead when no exposed line
    holds them all; the cause is CONCEALED_ONLY when only concealed lines do
    (H4). The facts list the lines that fit."""
    fits = exposed_lines(card, exposures) if exposures else list(card.lines)
    hidden = concealed_lines(card, exposures) if exposures and not fits else []
    cause = None if fits else CONCEALED_ONLY if hidden else NO_LINE
    return Ruling(cause is not None, "E3", {"cause": cause, "lines": tuple(fits), "concealed": tuple(hidden)})


def dead_by_count(size: int, moment: str) -> Ruling:
    """Does the tile count prove the hand dead (E3)? `moment` is "between"
    turns (13 held), "drawn" (14, before the discard) or "east" (before East's
    first discard, when the count is not checked yet; East then holds 14, S3)."""
    if moment == "east":
        return Ruling(False, "E3", {"cause": None, "expected": 14, "checked": False})
    expected = HELD[moment]
    return Ruling(size != expected, "E3", {"cause": COUNT if size != expected else None, "expected": expected, "checked": True})


def dead_by_turn(event: str) -> Ruling:
    """Does this turn event make the hand dead (E3)? Drawing out of turn,
    discarding before drawing and a joker exchange before acquiring a tile
    (J4) do; a call in place of the draw (K5) and an exchange after the draw do not."""
    if event in FAULTS:
        return Ruling(True, "E3", {"cause": FAULTS[event], "also": "J4" if event.startswith("exchanged") else None})
    if event in NO_FAULT:
        return Ruling(False, "E3", {"cause": None, "also": NO_FAULT[event]})
    raise ValueError(f"a turn event is one of {', '.join([*FAULTS, *NO_FAULT])}, not {event!r}")


def dead_by_mah_jongg(card: Card, holding: Holding) -> Ruling:
    """A Mah Jongg laid down, checked by the others (E1): a right one wins, a
    wrong one makes the hand dead (E3). The facts list the lines it completes."""
    wins = winning_lines(card, holding)
    return Ruling(not wins, "E3", {"cause": None if wins else FALSE_MAH_JONGG, "wins": tuple(wins)})


def dead_hand_may(action: str) -> Ruling:
    """What a dead hand may still do (E4): it stops drawing, discarding and
    calling, even for Mah Jongg, and still pays the winner."""
    if action not in DEAD_HAND_MAY:
        raise ValueError(f"an action is one of {', '.join(DEAD_HAND_MAY)}, not {action!r}")
    return Ruling(DEAD_HAND_MAY[action], "E4", {"action": action})


def who_calls_it_dead(own: bool, proven: bool) -> Ruling:
    """Is the hand called dead now (E4)? Only another player calls a hand dead,
    and only when the tiles prove it; nobody declares their own hand dead."""
    return Ruling(proven and not own, "E4", {"own": own, "proven": proven})


def wall_game(winner: str | None) -> Ruling:
    """The wall ran out: with no winner it is a wall game, nobody pays and the
    tiles are dealt again (E2). The decision is what each player pays."""
    if winner is not None:
        raise ValueError("a hand with a winner is no wall game: it is paid by P1-P6")
    return Ruling(0, "E2", {"redeal": True})
