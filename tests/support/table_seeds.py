"""Hands at a table of two people (East and South) and two club computer players,
played as the browser test plays them by clicks (tests/browser/test_tables.py):

- a pass: the first three tiles of the rack as shown (jokers cannot be ticked, C4);
- the vote: "Stop it"; the courtesy offer: "Offer 0" (C2, C3);
- a discard either could call: the first call button, else "Pass";
- a turn: "Mah Jongg!" when offered, else the first tile of the rack.

`call_between_people(seed)` says whether, so played, one person calls the
other's discard and gets it. Run this module to find such seeds:

    PYTHONPATH=. .venv/bin/python -m tests.support.table_seeds 40
"""

from __future__ import annotations

import sys

from coach.notation.card import house_card
from coach.play.hand import Action, Hand, replay
from coach.play.people import TableSettings, advance, owed, take
from coach.play.seat_view import seat_view

PEOPLE = ("East", "South")
SETTINGS = TableSettings(strength="club", auto_pass=True)


def clicked(view: dict) -> Action:
    """The move the browser test clicks for this seat's view."""
    seat, kind = view["seat"], view["owed"]
    choices = [Action.from_json(c) for c in view["choices"]]
    if kind == "pass":
        return Action(seat, "pass", tuple([c for c in view["rack"] if c != "J"][:3]))
    if kind == "courtesy":
        return Action(seat, "courtesy", tuple([c for c in view["rack"] if c != "J"][: view["courtesy_count"]]))
    if kind == "vote":
        return Action(seat, "vote", go=False)
    if kind == "offer":
        return Action(seat, "offer", count=0)
    if kind == "call":
        calls = [c for c in choices if c.kind == "call"]
        return calls[0] if calls else Action(seat, "no-call")
    if any(c.kind == "mahjong" for c in choices):
        return Action(seat, "mahjong")
    return Action(seat, "discard", (view["rack"][0],))


def play_out(seed: int, limit: int = 400) -> tuple[Hand, list[tuple[str, str]]]:
    """The hand played to its end; the calls between the people, as (thrower, caller) granted."""
    hand = replay(house_card(), seed, [])
    held = advance(hand, PEOPLE, (), SETTINGS).held
    granted: list[tuple[str, str]] = []
    for _ in range(limit):
        if hand.phase == "over":
            return hand, granted
        for seat in list(owed(hand, PEOPLE, SETTINGS, held)):
            if seat not in owed(hand, PEOPLE, SETTINGS, held):
                continue
            latest = hand.latest
            exposed = {s: len(hand.exposed[s]) for s in PEOPLE}
            held = take(hand, clicked(seat_view(hand, seat, PEOPLE, SETTINGS, held)), PEOPLE, SETTINGS, held)
            held = advance(hand, PEOPLE, (), SETTINGS, held).held
            if latest is not None and latest[0] in PEOPLE:
                other = next(s for s in PEOPLE if s != latest[0])
                if len(hand.exposed[other]) > exposed[other] or (hand.result is not None and hand.result.winner == other):
                    granted.append((latest[0], other))
    raise RuntimeError(f"seed {seed} did not end in {limit} rounds")


def call_between_people(seed: int) -> bool:
    return bool(play_out(seed)[1])


if __name__ == "__main__":
    tried = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    for seed in range(1, tried + 1):
        hand, granted = play_out(seed)
        if granted:
            print(seed, granted, len(hand.actions), hand.result.winner if hand.result else None)
