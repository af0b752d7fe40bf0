"""Blank tiles (TR1, a table rule): what a blank is, where it may go, and the swap.

Under the League's rules a blank only replaces a lost tile and the set is
152 tiles (T1). A table that plays TR1 shuffles 2 to 8 blanks into the wall
(`coach.rules.table_rules.TableRules.blanks`). A blank is never part of a
hand: no line of the card reads it, so the core's readings never see one
(`split` takes the blanks off a rack before anything reads it). What a
blank is good for is the swap: on your own turn, after you pick or call and
before you discard, one blank from your rack for any tile in the discards
but a joker or a blank; the blank goes to the discards, where nobody may
take or call it. A swap is not a call (no one else may claim that tile, and
a cold wall, TR2, does not stop it), and a hand a swap completes is paid as
self-picked: nobody threw that tile to the winner (P3).

Inside the core a blank is the small integer `tiles.BLANK`, one past every
tile kind: no count vector, card table or reading has a place for it, so a
rack holding one must be `split` first. At every boundary it is the code
`tiles.BLANK_CODE`. Every decision comes back as a Ruling citing TR1. The
practice table's own checks of a swap are in `coach.rules.table_play`
(`may_take_with_blank`, `may_swap_now`); `may_swap` here asks them, and
adds what a question about a swap names (whose turn, the latest discard).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from coach.notation import tiles
from coach.rules.ruling import Ruling
from coach.rules.table_play import may_swap_now, may_take_with_blank
from coach.rules.table_rules import LEAGUE, TableRules

BLANK = tiles.BLANK  # one past every tile kind: never a place in a count or a reading
CODE = tiles.BLANK_CODE  # how a blank is written at the boundaries (racks shown, answers, records)
RULE = "TR1"


def code(tile: int) -> str:
    """A tile's code, a blank's included."""
    return tiles.TABLE_CODES[tile]


def name(tile: int | str) -> str:
    """A tile's name as players say it, "Blank" for a blank."""
    return tiles.name(tile)


def index(text: str) -> int:
    """The tile a code or name stands for, a blank's included (TileError otherwise)."""
    return tiles.TABLE_INDEX[tiles.table_code_of(text)]


def split(rack: Iterable[int]) -> tuple[list[int], int]:
    """The rack's tiles without its blanks, and how many blanks it holds:
    what the readings see, and what they never do."""
    held: list[int] = []
    blanks = 0
    for t in rack:
        if t == BLANK:
            blanks += 1
        else:
            held.append(t)
    return held, blanks


def in_set(rules: TableRules = LEAGUE) -> int:
    """Blanks in play at this table: none by the League's rules (TR1)."""
    return rules.blanks


def set_size(rules: TableRules = LEAGUE) -> int:
    """Tiles in the set at this table: the League's 152 (T1), and the blanks (TR1)."""
    return tiles.SET_SIZE + rules.blanks


def wall(rules: TableRules = LEAGUE) -> tuple[int, ...]:
    """The whole set at this table, one entry a tile: what a wall is shuffled from.
    By the League's rules exactly `tiles.WALL`."""
    return tiles.WALL + (BLANK,) * rules.blanks


def set_ruling(rules: TableRules = LEAGUE) -> Ruling:
    """How many tiles the set holds at this table, and how many are blanks (T1, TR1)."""
    return Ruling(set_size(rules), RULE if rules.blanks else "T1", {"blanks": rules.blanks, "league": tiles.SET_SIZE})


# Why a swap is refused, as `facts["why"]` names it.
NO_BLANKS, NOT_YOUR_TURN, NOT_DRAWN, A_JOKER, A_BLANK, STILL_CALLABLE, NO_BLANK_HELD = (
    "no blanks", "not your turn", "before you pick", "a joker", "a blank", "still callable", "no blank held",
)


def may_swap(
    taken: int,
    rules: TableRules = LEAGUE,
    *,
    your_turn: bool = True,
    acquired: bool = True,
    callable_now: bool = False,
    blanks_held: int = 1,
) -> Ruling:
    """May this player swap a blank from the rack for the discarded tile
    `taken` (TR1)? Only at a table that plays blanks, on your own turn after
    you pick or call and before you discard, with a blank on your rack, for
    a tile in the discards that is no joker and no blank; the latest discard,
    while it may still be called, is not yet in the discards (call it or wait)."""
    why = None
    now = may_swap_now("draw" if acquired else None, False, blanks_held > 0)
    take = may_take_with_blank(taken)
    if not rules.blanks:
        why = NO_BLANKS
    elif not your_turn:
        why = NOT_YOUR_TURN
    elif not now:
        why = NO_BLANK_HELD if blanks_held < 1 else NOT_DRAWN
    elif not take:
        why = A_JOKER if taken == tiles.JOKER else A_BLANK
    elif callable_now:
        why = STILL_CALLABLE
    return Ruling(why is None, RULE, {"why": why, "taken": taken})


def swap_is_call() -> Ruling:
    """A blank swap is not a call (TR1): it is made on your own turn from the
    discards, so nobody else may claim the tile, and a cold wall (TR2), which
    forbids calls, does not forbid it."""
    return Ruling(False, RULE, {"own_turn": True})


def swap_win_pays_as() -> Ruling:
    """How a Mah Jongg a blank swap completes is paid (TR1): as self-picked
    (P3), since nobody threw that tile to the winner."""
    return Ruling("self", RULE, {"reason": "nobody threw the tile: it was taken from the discards on your own turn", "pays": "P3"})


def may_declare(blanks_held: int) -> Ruling:
    """May a player declare Mah Jongg holding `blanks_held` blanks? Never with
    one: a blank is never part of a hand (TR1)."""
    return Ruling(blanks_held == 0, RULE, {"blanks": blanks_held})


def discarded_blank_callable() -> Ruling:
    """A blank in the discards can never be called or taken back (TR1)."""
    return Ruling(False, RULE, {})


def may_pass(rules: TableRules = LEAGUE) -> Ruling:
    """May a blank be passed in the Charleston and the courtesy pass? Yes, at a
    table that plays blanks (TR1); elsewhere there are none to pass."""
    return Ruling(bool(rules.blanks), RULE, {"blanks": rules.blanks})


def counts_with_blanks(rack: Sequence[int]) -> tuple[list[int], int]:
    """`tiles.counts` of the rack's tiles, and its blanks beside them."""
    held, blanks = split(rack)
    return tiles.counts(held), blanks
