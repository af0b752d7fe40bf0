"""How heavy a card is for the drills: one first-pass evaluation, timed.

Grading a first-pass answer scores every pass of a rack against every
reading of the card (coach.advice.passes.evaluate_pass), the costliest work
any drill does on a card. A teacher's card is timed doing it once, on a
typical rack, when it is uploaded (and by `check-card`), and refused when
it takes longer than FIRST_PASS_BUDGET: no student ever waits on a heavy
card. The caps of coach.notation.card keep every card well inside the budget on
a quiet machine; the timing is the backstop that measures the real thing.
"""

from __future__ import annotations

import time

from coach.notation.card import Card
from coach.reading.tiles_away import drop_tables
from drills import first_pass

FIRST_PASS_BUDGET = 1.0  # seconds for one first-pass evaluation
RACK_SEED = 0  # the typical rack: the first deal of level 2 ("fresh from the deal")
RACK_LEVEL = 2


def first_pass_seconds(card: Card) -> float:
    """Seconds one first-pass evaluation of a typical rack takes on `card`.

    The lesser of wall-clock and process CPU time: other programs on a
    busy machine slow the clock but not this process's CPU time, so a
    card is not refused for someone else's load."""
    rack = first_pass.generate(RACK_SEED, RACK_LEVEL, card).key["rack"]
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        first_pass.evaluate(card, rack, RACK_SEED)
    finally:
        drop_tables(card)  # this Card object is thrown away after the check
    return min(time.perf_counter() - wall, time.process_time() - cpu)


def weight_problem(card: Card, budget: float | None = None) -> str | None:
    """The plain message for a card too heavy to drill on, or None
    (`budget` in seconds, FIRST_PASS_BUDGET by default)."""
    budget = FIRST_PASS_BUDGET if budget is None else budget
    seconds = first_pass_seconds(card)
    if seconds <= budget:
        return None
    readings = sum(len(line.readings) for line in card.lines)
    return (
        f"this card is too heavy: grading one first-pass question on it takes {seconds:.1f} s, "
        f"more than the {budget:g} s budget. It has {len(card.lines)} lines read as {readings} concrete hands; "
        "fewer lines, or lines with fewer readings (fewer suits or number shifts), make it lighter."
    )
