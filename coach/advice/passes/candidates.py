"""The legal passes from a rack (C1, C3-C5) and the tiles a player cannot see.

At a table of its own (coach.rules.table_rules) a rack may hold blanks,
`coach.rules.blanks.BLANK`, which may be passed like any tile (TR1), and a
joker may go in the courtesy pass (TR3); by the League's rules neither."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from coach.notation import tiles
from coach.rules.blanks import BLANK, split
from coach.rules.charleston import BLIND_PASSES, may_pass_joker
from coach.rules.table_rules import LEAGUE, TableRules


def candidate_passes(rack: Sequence[int], which: str, rules: TableRules = LEAGUE) -> list[tuple[tuple[int, ...], int]]:
    """Every legal pass as (own tiles, blind count), identical tiles counted once."""
    naturals = sorted(t for t in rack if t != tiles.JOKER or may_pass_joker(which, rules.joker_in_courtesy))  # C4; TR3 in the courtesy pass
    sizes: list[tuple[int, int]]
    if which == "courtesy":
        sizes = [(n, 0) for n in range(4)]
    elif which in BLIND_PASSES:
        sizes = [(3 - b, b) for b in range(4)]
    else:
        sizes = [(3, 0)]
    out: list[tuple[tuple[int, ...], int]] = []
    for own, blind in sizes:
        for combo in sorted(set(itertools.combinations(naturals, own))):
            out.append((combo, blind))
    return out


def unseen_pool(rack: Sequence[int], seen: Sequence[int] | None = None, rules: TableRules = LEAGUE) -> list[int]:
    """The tiles that can come back in a pass, one entry a tile: those the
    player cannot see, less every joker. No player may pass a joker (C4),
    so none ever arrives in a Charleston or courtesy pass; the eight jokers
    in the pool were about a tenth of a tile of bias, the grading margin.
    (At a table that lets a joker go in the courtesy pass, TR3, a joker
    coming back is rare enough to leave out the same way.) The rack's own
    jokers stay on the rack (they are not in the pool). At a table that
    plays blanks the blanks not on the rack may come back (TR1), each as
    `BLANK`: a tile that changes nothing."""
    held, blanks = split(rack)
    left = list(tiles.COPIES)
    for t in held:
        left[t] -= 1
    for t, c in enumerate(seen or ()):
        left[t] -= c
    left[tiles.JOKER] = 0  # C4: jokers never pass
    pool = [t for t, c in enumerate(left) for _ in range(max(c, 0))]
    return pool + [BLANK] * max(rules.blanks - blanks, 0)
