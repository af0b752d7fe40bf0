"""Joker exchange (J4-J8): is this swap of a natural tile for an exposed joker legal?

On your own turn, after you have acquired a tile (a draw or a legal call)
and before you discard, you may give the exact natural tile a joker stands
for and take the joker, from any player's exposure, your own included (J4).
Exchanging before acquiring a tile makes the hand dead (E3). A discard may
not be called only to redeem a joker: the call must complete its exposure
with tiles already held (J5). Once an exchange starts, the exposure just
made can no longer be rearranged (J6). One joker goes out for one exact tile,
so the exposure keeps its size and identity (J7). A concealed hand may hold
jokers and redeem them from other racks (J8).
"""

from __future__ import annotations

from dataclasses import dataclass

from coach.rules.ruling import Ruling

# Causes of an illegal exchange, as `facts["cause"]` names them.
TIME, CALL, TILE, SIZE, FIXED = "time", "call", "tile", "size", "fixed"
ACQUIRED = ("draw", "call")


@dataclass(frozen=True)
class Exchange:
    """A joker exchange as it happened at the table."""

    stands_for: int  # the tile the joker stands for in its exposure
    offered: int  # the tile given for it
    your_turn: bool = True
    acquired: str | None = "draw"  # how the turn's tile came: "draw", "call", or None (not yet)
    given: int = 1  # natural tiles put into the exposure
    taken: int = 1  # jokers taken out of it
    call_stands_alone: bool = True  # with a call: it completed its exposure with tiles already held (J5)
    rearranged_after: bool = False  # the exposure just made was rearranged once the swap began (J6)
    own_exposure: bool = False  # the joker came from the player's own exposure (allowed, J4)
    concealed_hand: bool = False  # the player keeps a concealed line (allowed, J8)


def exchange_ruling(x: Exchange) -> Ruling:
    """Legal or not, and the rule that decides. On an illegal exchange the
    facts name the cause, and `dead` says whether it also kills the hand (E3)."""
    if x.acquired is not None and x.acquired not in ACQUIRED:
        raise ValueError(f"a tile is acquired by one of {', '.join(ACQUIRED)}, or None, not {x.acquired!r}")
    if not x.your_turn or x.acquired is None:
        # On one's own turn before the draw, the exchange also makes the hand dead (E3).
        return Ruling(False, "J4", {"cause": TIME, "dead": x.your_turn})
    if x.acquired == "call" and not x.call_stands_alone:
        return Ruling(False, "J5", {"cause": CALL, "dead": False})
    if x.offered != x.stands_for:
        return Ruling(False, "J4", {"cause": TILE, "dead": False})
    if x.given != x.taken:
        return Ruling(False, "J7", {"cause": SIZE, "dead": False, "size_change": x.given - x.taken})
    if x.rearranged_after:
        return Ruling(False, "J6", {"cause": FIXED, "dead": False})
    rule = "J8" if x.concealed_hand else "J4"
    return Ruling(True, rule, {"cause": None, "dead": False, "own": x.own_exposure, "concealed": x.concealed_hand})
