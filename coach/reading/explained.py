"""Every line of a card explained for a bare rack, as `LineResult.to_json` says it, with less work (issue 26).

`analyze --json` with every line explained writes, for each rack, each
line's reading with the tiles it uses, misses and has no place for. That is
`fill`, the definition (coach.reading.tiles_away), once a line: most of its
cost was building its frozen `Fill` and `Missing` records, and the reading's
own words (its suits, form and printed tiles), which no rack changes, were
made again for every rack. Here a reading's groups are sorted once into the
order `fill` fills them (singles and pairs, then groups of three or more,
then jokers into those, J1, J2), and its words are made once (`Explainer`
keeps both, a reading at a time); a rack then only counts what goes where.

Only a bare rack (no exposures) is explained here: with exposures, `fill`'s
steps 1 and 2 (H4, each exposure onto a group of its own) decide first, and
`LineResult.to_json` does it all. Nothing is rounded or reordered: the same
dict, key for key, as `to_json` (tests/core/test_explained.py holds it to
`to_json` on random racks, every line and every reading).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from coach.notation import tiles
from coach.notation.card import Line, Reading

_CODES = tiles.CODES
_JOKER = tiles.JOKER


class _Plan:
    """One reading's groups in `fill`'s order, and its words for a reader."""

    __slots__ = ("naturals", "jokers", "groups", "words")

    def __init__(self, line: Line, reading: Reading):
        groups = reading.groups
        small = [(i, g.tile, g.size) for i, g in enumerate(groups) if g.size < 3]
        big = [(i, g.tile, g.size) for i, g in enumerate(groups) if g.size >= 3]
        self.naturals = tuple(small + big)  # step 3: naturals, singles and pairs first
        self.jokers = tuple((i, size) for i, _, size in big)  # then jokers, only in groups of 3+ (J1, J2)
        # Each group as a missing entry names it, in the reading's own order.
        self.groups = tuple((g.size, _CODES[g.tile], g.kind, g.size >= 3) for g in groups)
        # Shared by every rack's answer: read only.
        self.words = {
            "suits": dict(reading.suits),
            "shift": reading.shift,
            "form": line.form_of(reading),
            "tiles": reading.printed(),
        }


class Explainer:
    """`LineResult.to_json` for bare racks, each reading's plan made once and kept."""

    def __init__(self) -> None:
        self._plans: dict[int, _Plan] = {}  # by id(reading): the readings live as long as their card's tables
        self._last: tuple[Sequence[int], tuple[tuple[int, int, str], ...]] | None = None

    def _held(self, rack: Sequence[int]) -> tuple[tuple[int, int, str], ...]:
        """The kinds the rack holds, in tile order, with their counts and codes (the last rack's kept: every line asks)."""
        last = self._last
        if last is not None and last[0] is rack:
            return last[1]
        held = tuple((t, c, _CODES[t]) for t, c in enumerate(rack) if c)
        self._last = (rack, held)
        return held

    def line(self, line: Line, reading: Reading, rack: Sequence[int], distance: int, dead: Any, live_outs: Any) -> dict:
        """The line's JSON object for a bare rack (`rack`: counts of the 36
        kinds) whose best reading of it is `reading`, `distance` away."""
        plan = self._plans.get(id(reading))
        if plan is None:
            plan = self._plans[id(reading)] = _Plan(line, reading)
        left = list(rack)
        filled = [0] * len(plan.groups)
        for i, tile, size in plan.naturals:
            have = left[tile]
            if have:
                placed = have if have < size else size
                filled[i] = placed
                left[tile] = have - placed
        jokers = left[_JOKER]
        if jokers:
            for i, size in plan.jokers:
                room = size - filled[i]
                placed = jokers if jokers < room else room
                if placed:
                    filled[i] += placed
                    jokers -= placed
            left[_JOKER] = jokers
        # The tiles placed, in tile order (`sorted(fill.used)`: the rack less
        # what is left), and those left (`fill.unused`), walking the kinds held only.
        uses: list[str] = []
        unused: list[str] = []
        for tile, count, code in self._held(rack):
            kept = left[tile]
            if kept:
                unused += [code] * kept
            if kept < count:
                uses += [code] * (count - kept)
        data: dict = {
            "id": line.id,
            "section": line.section,
            "distance": distance,
            "value": line.value,
            "concealed": line.concealed,
            "note": line.note,
            "pattern": line.pattern,
            "dead": dead,
            "live_outs": live_outs,
            "reading": plan.words,
            "uses": uses,
            "missing": [
                {"tile": code, "count": size - got, "group": kind, "joker_ok": joker_ok}
                for (size, code, kind, joker_ok), got in zip(plan.groups, filled)
                if got < size
            ],
            "unused": unused,
        }
        return data
