"""Every action a seat may take now in a hand, and nothing else.

`legal_actions(hand, seat)` lists them in the canonical form `Hand.apply`
takes (an `Action` with only the fields its kind uses), so a client can
be offered the list and post one back as it is; `refusal(hand, action)`
says, with the rule id, why an action off the list is refused. By what
the seat owes now (`Hand.waiting`):

- a Charleston pass: every distinct set of three tiles, jokers never
  (C1, C2, C4), blanks too (TR1); on the last pass of each Charleston also
  one to three of the tiles coming in that same pass forwarded unseen
  (`blind`), with the rest (3 - blind) the seat's own from its rack (C5);
- the vote on the second Charleston: go or stop (C2);
- the courtesy offer: 0 to 3 tiles; the courtesy pass itself: every set
  of the agreed count, jokers never (C3, C4) but with TR3;
- a call on the latest discard: Mah Jongg and each exposure size the
  seat may call it for, and no call (K1-K3, K7, J3; none in a cold wall's
  last tiles, TR2);
- the turn: Mah Jongg when the holding wins (H1; never with a blank held,
  TR1), each joker exchange open (J4), each blank swap open, one per tile
  of the discards it may take (TR1), and one discard per distinct tile
  held, a blank too (S4).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from itertools import combinations_with_replacement
from typing import Any

from coach.notation import tiles
from coach.play.hand import BLANK_SWAP, MAH_JONGG, Action, Exposed, Hand, HandError
from coach.rules.charleston import BLIND_PASSES, may_pass_joker
from coach.rules.mahjong import winning_lines


def _sets(counts: Counter[int], size: int, jokers: bool = False) -> list[tuple[str, ...]]:
    """Every distinct multiset of `size` tiles these counts allow, jokers only with
    `jokers` (TR3), as sorted codes (a blank is a tile like any other here, TR1)."""
    kinds = sorted(t for t, n in counts.items() if n > 0 and (jokers or t != tiles.JOKER))  # table order is index order
    out = []
    for chosen in combinations_with_replacement(kinds, size):
        if all(counts[t] >= n for t, n in Counter(chosen).items()):
            out.append(tuple(tiles.TABLE_CODES[t] for t in chosen))
    return out


def _passes(hand: Hand, seat: str) -> list[Action]:
    # C5: on a blind pass, any b of the three tiles coming in may go straight
    # on unseen; the other 3 - b are the seat's own, from the whole rack.
    rack = Counter(hand.racks[seat])
    most_blind = 3 if hand.step in BLIND_PASSES else 0
    return [Action(seat, "pass", chosen, blind=blind) for blind in range(most_blind + 1) for chosen in _sets(rack, 3 - blind)]


def _turn(hand: Hand, seat: str) -> list[Action]:
    out = []
    if winning_lines(hand.card, hand.holding(seat)):
        out.append(Action(seat, "mahjong"))  # H1
    out += [Action(seat, "exchange", (tiles.CODES[tile],), owner=owner, group=group) for owner, group, tile in hand.exchanges(seat)]
    out += [Action(seat, BLANK_SWAP, (tiles.CODES[tile],), place=place) for place, tile in hand.blank_swaps(seat)]  # TR1
    kinds = sorted({tiles.TABLE_CODES[t] for t in hand.racks[seat]}, key=tiles.sort_key)
    out += [Action(seat, "discard", (code,)) for code in kinds]  # S4
    return out


def legal_actions(hand: Hand, seat: str) -> list[Action]:
    """Every action `seat` may take now (empty when it owes none)."""
    owed = hand.waiting().get(seat)
    if owed == "pass":
        return _passes(hand, seat)
    if owed == "vote":
        return [Action(seat, "vote", go=True), Action(seat, "vote", go=False)]  # C2
    if owed == "offer":
        return [Action(seat, "offer", count=n) for n in range(4)]  # C3
    if owed == "courtesy":
        jokers = bool(may_pass_joker("courtesy", hand.rules.joker_in_courtesy))  # TR3
        return [Action(seat, "courtesy", chosen) for chosen in _sets(Counter(hand.racks[seat]), hand.courtesy[seat], jokers)]
    if owed == "call":
        calls = [Action(seat, "call") if purpose == MAH_JONGG else Action(seat, "call", size=size) for purpose, size in hand.may_call.get(seat, [])]
        return calls + [Action(seat, "no-call")]  # K1-K3
    if owed == "turn":
        return _turn(hand, seat)
    return []


def canonical(action: Action) -> Action:
    """The action as `legal_actions` lists it: a pass's or courtesy's tiles
    in table order (the same tiles in another order are the same move)."""
    if action.kind in ("pass", "courtesy"):
        return Action(action.seat, action.kind, tuple(sorted(action.tiles, key=tiles.sort_key)), action.blind, action.go,
                      action.count, action.size, action.owner, action.group, action.place)
    return action


def is_legal(hand: Hand, action: Action) -> bool:
    return canonical(action) in legal_actions(hand, action.seat)


# What an action off the list breaks when the engine itself would take it
# (a field its kind does not use, such as tiles sent with a vote).
_KIND_RULES = {"pass": "C1", "vote": "C2", "offer": "C3", "courtesy": "C3", "call": "K1", "no-call": "K1", "discard": "S4",
               "exchange": "J4", "mahjong": "H1", BLANK_SWAP: "TR1"}


def _copied(value: Any) -> Any:
    if isinstance(value, list):
        if value and isinstance(value[0], Exposed):
            return [dataclasses.replace(group) for group in value]  # an exchange changes its jokers
        return list(value)  # tiles, discards, actions: immutable items
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    return value  # numbers, strings, tuples, frozen actions, the result, the card: never changed in place


def trial_copy(hand: Hand) -> Hand:
    """A copy of the hand to try an action on: every list, dict and exposure
    copied, the card shared (far quicker than copy.deepcopy)."""
    return dataclasses.replace(hand, **{f.name: _copied(getattr(hand, f.name)) for f in dataclasses.fields(hand) if f.name != "card"})


def refusal(hand: Hand, action: Action) -> HandError:
    """Why `action` is not among the legal actions: the engine's own
    refusal with its rule id, tried on a copy (the hand is not changed)."""
    try:
        trial_copy(hand).apply(action)
    except HandError as error:
        return error
    return HandError(
        f"send the action exactly as the legal list gives it, with only the fields a {action.kind[:12]} uses",
        _KIND_RULES.get(action.kind, "H1"),
    )
