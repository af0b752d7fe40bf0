"""Rulings of the table rules in play (docs/table-rules.md): the blank swap
(TR1), the last wall, cold or hot (TR2), and picking ahead (TR5).

Each is a pure function over a few facts of the table and returns a Ruling
with the rule id that decides it; `coach.play.hand` asks them and refuses a
move with the same id. The Charleston's table rules (TR3, TR4) are in
`coach.rules.charleston`, the seats of a three-player table in
`coach.rules.table`, who speaks first (TR6) in `coach.rules.calls` and the
payments (TR2, TR4) in `coach.rules.mahjong`.
"""

from __future__ import annotations

from collections.abc import Sequence

from coach.notation import tiles
from coach.rules.ruling import Ruling
from coach.rules.table import next_seat

# -- TR1: blank tiles -------------------------------------------------------------------


def may_take_with_blank(tile: int) -> Ruling:
    """May a blank be swapped for this discarded tile (TR1)? Any tile of the
    discards but a joker; a blank in the discards is never taken back."""
    if tile == tiles.JOKER:
        return Ruling(False, "TR1", {"why": "a joker is never taken with a blank"})
    if tile == tiles.BLANK:
        return Ruling(False, "TR1", {"why": "a blank in the discards is never taken back"})
    return Ruling(True, "TR1", {"tile": tile})


def may_swap_now(acquired: str | None, swapped: bool, holds_blank: bool) -> Ruling:
    """May the player on turn swap a blank now (TR1)? After a draw or a call and
    before the discard (when a joker exchange would be allowed, J4), one swap a
    turn, with a blank in the rack."""
    if not holds_blank:
        return Ruling(False, "TR1", {"why": "you hold no blank"})
    if acquired not in ("draw", "call"):
        return Ruling(False, "TR1", {"why": "a blank swap comes after you pick or call a tile, before you discard"})
    if swapped:
        return Ruling(False, "TR1", {"why": "one blank swap a turn"})
    return Ruling(True, "TR1", {})


# -- TR2: the last wall ------------------------------------------------------------------


def last_wall(dice: Sequence[int]) -> Ruling:
    """How many tiles the last wall holds: those left behind at the break, the
    dice total in stacks of two (S2), which are the last tiles drawn (TR2)."""
    total = sum(dice)
    return Ruling(2 * total, "TR2", {"stacks": total})


def in_last_wall(wall_left: int, dice: Sequence[int]) -> Ruling:
    """Has play come to the last wall: is every tile still to be drawn one of
    those left behind at the break (TR2)? From then on, to the end of the wall,
    a cold wall allows no call and a hot wall makes the thrower pay."""
    size = last_wall(dice).decision
    return Ruling(wall_left <= size, "TR2", {"last_wall": size, "left": wall_left})


def cold_wall_call(wall_end: str, in_last: bool) -> Ruling:
    """May a discard be called at all now? Not in a cold wall's last tiles (TR2);
    otherwise the calls' own rules decide (K1)."""
    if wall_end == "cold" and in_last:
        return Ruling(False, "TR2", {"why": "the wall is cold: no discard may be called in its last tiles"})
    return Ruling(True, "K1", {})


def hot_wall_excused(tile: int, in_sight: int) -> Ruling:
    """At a hot wall, is the thrower of the winning tile excused from paying for
    the whole table (TR2)? Only when every other copy of the tile was in sight
    when it was thrown (the discards, the exposures, the thrower's own rack):
    three for a suit tile, Wind or Dragon, seven for a Flower."""
    others = tiles.COPIES[tile] - 1
    return Ruling(in_sight >= others, "TR2", {"in_sight": in_sight, "others": others})


def hot_wall_pays(wall_end: str, in_last: bool, excused: bool = False) -> Ruling:
    """Does the thrower of the winning tile pay for the whole table
    (`coach.rules.mahjong.thrower_pays_all`)? Only at a hot wall, thrown in its
    last tiles, unless excused (`hot_wall_excused`, TR2); otherwise the
    League's payment stands (P2)."""
    hot = wall_end == "hot"
    return Ruling(hot and in_last and not excused, "TR2" if hot else "P2", {"hot": hot, "late": in_last, "excused": excused})


# -- TR5: picking ahead ------------------------------------------------------------------


def may_pick_ahead(picking_ahead: bool = False) -> Ruling:
    """May the player whose turn comes next pick the next wall tile and look
    at it while the latest discard may still be called? Only at a table that
    plays picking ahead (TR5); by the League's rules you pick only on your
    turn, once the discard can no longer be called (K1)."""
    return Ruling(picking_ahead, "TR5" if picking_ahead else "K1", {})


def picked_ahead(called: bool) -> Ruling:
    """What becomes of a tile picked ahead (TR5): if the discard is called, it
    goes back on the wall, unracked and unseen by the others, and the caller
    plays on; if nobody calls, it is that player's draw."""
    return Ruling("wall" if called else "draw", "TR5", {"called": called})


def picks_ahead(discarder: str, players: int = 4) -> Ruling:
    """Who may look at the next wall tile while the discard may be called: the
    player whose turn comes next (TR5). If the discard is called the tile goes
    back on the wall; if not, it is that player's draw."""
    return Ruling(next_seat(discarder, 1, players), "TR5", {"after": discarder})
