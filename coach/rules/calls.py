"""Calling a discard (K1-K7, J3): may this discard be called, for what, who
gets it when two call it, and what a call changes.

K2 is read as the card reads it: a call for an exposure is legal when some
line still open to this hand (its exposures fit the line, a concealed line
is closed once anything is exposed, H4) has a pung, kong, quint or sextet of
the discarded tile that the call completes with tiles already held,
naturals first, jokers for the rest (J1, J5). That is the question `analyze`
answers for the holding after the call: is some line still within reach.
Which line the player had in mind does not matter (H3), except on a
concealed line, which the player keeps only by calling for Mah Jongg alone
(K7).

Every decision is a Ruling: the decision, the rule id that decides it and
the facts an explanation needs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from coach.notation import tiles
from coach.notation.card import Card, Line
from coach.reading.analysis import outs_and_dead, unseen
from coach.reading.tiles_away import OUT_OF_REACH, Exposure, Holding, tables_for
from coach.rules.mahjong import Win, winning_lines
from coach.rules.ruling import Ruling
from coach.rules.table import next_seat, seats_between, turns_after

MAH_JONGG = "mahjong"
SIZES = (3, 4, 5, 6)  # pung, kong, quint, sextet: the groups an exposure may be (K2)
# K1: when the next player has drawn, the discard is still callable until the
# drawn tile is racked or a tile is discarded.
IN_TIME = ("latest", "drawn")
TOO_LATE = ("racked", "discarded", "older")


@dataclass(frozen=True)
class GroupCall:
    """One legal call for an exposure: its size, the lines that allow it (card
    order), and the tiles of the rack that go down with the discard."""

    size: int
    lines: tuple[str, ...]
    naturals: int
    jokers: int


def in_time(timing: str = "latest") -> Ruling:
    """Is the discard still callable (K1)? `timing` says what happened since it
    was thrown: "latest" (nothing), "drawn" (the next player drew but has not
    racked it), "racked", "discarded" or "older" (another tile was thrown since)."""
    if timing not in IN_TIME + TOO_LATE:
        raise ValueError(f"timing is one of {', '.join(IN_TIME + TOO_LATE)}, not {timing!r}")
    return Ruling(timing in IN_TIME, "K1", {"timing": timing})


def joker_discard_callable(tile: int) -> Ruling:
    """A discarded joker can never be called, not even for Mah Jongg (J3)."""
    return Ruling(tile != tiles.JOKER, "J3", {"tile": tile})


def completes_hand(card: Card, holding: Holding, discard: int) -> Ruling:
    """Does the discard finish the hand, so it may be called for Mah Jongg, a
    single or pair too (K3)? The facts list every line it completes."""
    if discard == tiles.JOKER:
        wins: list[Win] = []
    else:
        wins = winning_lines(card, Holding.of(holding.rack_tiles() + [discard], holding.exposures))
    return Ruling(bool(wins), "K3", {"wins": tuple(wins)})


def exposure_calls(
    card: Card, holding: Holding, discard: int, seen: tuple[int, ...] | None = None
) -> tuple[GroupCall, ...]:
    """Every call for an exposure that K2 allows: for each size, the lines of the
    card still open to the hand after the call. With `seen` (counts of tiles
    the player has seen elsewhere), lines the seen tiles have made dead do not
    count as open."""
    if discard == tiles.JOKER or discard >= tiles.NATURALS:
        return ()
    tables = tables_for(card)
    held = holding.rack[discard]
    calls = []
    for size in SIZES:
        naturals = min(held, size - 1)
        jokers = size - 1 - naturals
        if jokers > holding.jokers:
            continue  # the rack cannot complete the group (K2, J5)
        rack = list(holding.rack)
        rack[discard] -= naturals
        rack[tiles.JOKER] -= jokers
        after = Holding(tuple(rack), holding.exposures + (Exposure(discard, size, jokers),))
        distances = tables.reading_distances(after)
        idx = np.flatnonzero(distances != OUT_OF_REACH)
        if seen is not None and len(idx):
            _, dead = outs_and_dead(tables, after, unseen(after, seen), idx, distances[idx])
            idx = idx[~dead]
        lines = tuple(dict.fromkeys(tables.lines[n].id for n in tables.line_of[idx].tolist()))
        if lines:
            calls.append(GroupCall(size, lines, naturals, jokers))
    return tuple(calls)


def call_ruling(
    card: Card,
    holding: Holding,
    discard: int,
    line: Line | None = None,
    timing: str = "latest",
    seen: tuple[int, ...] | None = None,
) -> Ruling:
    """May this discard be called, and for what? The decision is the tuple of
    legal purposes: () for no call, (MAH_JONGG,) or the group sizes K2 allows.
    The rule is the one that decides, checked in this order: K1 (too late), J3
    (a joker), K3 (it finishes the hand), K7 (the player keeps a concealed
    `line`), K2 (a group some open line allows)."""
    late = in_time(timing)
    if not late:
        return Ruling((), "K1", dict(late.facts))
    wins = completes_hand(card, holding, discard)
    if not joker_discard_callable(discard):
        return Ruling((), "J3", {"wins": wins.facts["wins"]})
    if wins:
        return Ruling((MAH_JONGG,), "K3", dict(wins.facts))
    calls = exposure_calls(card, holding, discard, seen)
    facts = {"calls": calls, "line": line}
    if line is not None and line.concealed:
        return Ruling((), "K7", facts)
    return Ruling(tuple(c.size for c in calls), "K2", facts)


def who_gets(discarder: str, claims: Mapping[str, str], first_to_speak: bool = False, players: int = 4) -> Ruling:
    """Who gets a discard several seats call (K4): `claims` maps each caller to
    MAH_JONGG or "exposure". Mah Jongg beats an exposure; between equal
    purposes the seat closest after the discarder in turn order wins (S5).
    With the table rule "first to speak" (TR6), `claims` is in the order the
    calls were spoken and the first of the best purpose wins instead. The
    other table variant (a caller who already racked or exposed keeps it) is
    never applied."""
    if first_to_speak:
        spoken = list(claims)
        winner = min(spoken, key=lambda s: (claims[s] != MAH_JONGG, spoken.index(s)))
        rule = "TR6"
    else:
        winner = min(claims, key=lambda s: (claims[s] != MAH_JONGG, turns_after(discarder, s, players)))
        rule = "K4"
    purposes = {claims[s] == MAH_JONGG for s in claims}
    return Ruling(winner, rule, {"by": "purpose" if len(purposes) > 1 else "seat"})


def speaking_order(discarder: str, seats: Sequence[str], first: str | None = None, players: int = 4) -> Ruling:
    """The order the seats in `seats` answer a discard at the practice table
    (TR6 makes it matter): the player at the table (`first`) is asked first,
    then the computer players in turn order after the discarder (S5). The
    League's rule (K4) gives the tile by seat, whatever the order."""
    after = sorted((s for s in seats if s != first), key=lambda s: turns_after(discarder, s, players))
    order = ([first] if first in seats else []) + after
    return Ruling(tuple(order), "TR6", {"discarder": discarder, "first": first})


def after_call(discarder: str, caller: str, players: int = 4) -> Ruling:
    """A call replaces the caller's draw: expose, then discard, with no
    replacement draw, even for a kong; play continues to the caller's right
    and the seats in between lose their turn (K5). With three players the
    seats are East, South and West (TR4)."""
    return Ruling(
        next_seat(caller, 1, players), "K5",
        {"skipped": tuple(seats_between(discarder, caller, players)), "draw": False},
    )


def may_rearrange(discarded: bool, called_tile_stays: bool = True, card_allows: bool = True) -> Ruling:
    """May a new exposure be rearranged (K6)? Only before the discard that
    follows the call, with the called tile staying in it, into a grouping the
    card allows; after that discard it is locked and a pung never grows into a kong."""
    return Ruling(not discarded and called_tile_stays and card_allows, "K6", {"locked": discarded})
