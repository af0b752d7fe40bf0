"""A small card of the engine tests' own and scenes set by hand on a dealt hand."""

from __future__ import annotations

from collections import Counter

from coach.notation import tiles
from coach.notation.card import parse_card
from coach.play.hand import SEATS, Action, Hand, deal
from coach.rules.table_rules import TableRules
from tests.support.cards import CARD as HOUSE

FULL_SET = Counter(tiles.WALL)


# A small card of our own, so scenes are easy to set by hand.
CARD = parse_card(
    """name: Engine test card
year: 2026
sections:
  - name: Test
    hands:
      - id: "KONGS"
        pattern: "1111a 2222a 3333a 44a"
        value: 25
      - id: "PUNGS"
        pattern: "FF 111a 222a 333a 444a"
        value: 30
      - id: "WINDS-C"
        pattern: "NN EE WW SS 11a 22a 33a"
        value: 50
        concealed: true
"""
)


def codes(text: str) -> list[int]:
    """Tile indexes of codes; "BL" is a blank (TR1)."""
    return [tiles.TABLE_INDEX[c] for c in text.split()]


def in_play(hand: Hand, racks: dict[str, str], wall: str = "8C 8C 8D 8D", turn: str = "East") -> Hand:
    """The hand moved to play with these racks (the rest of the set in the wall,
    so the 152 and the table's blanks still add up), `turn` to discard."""
    hand.phase, hand.step, hand.turn, hand.acquired, hand.win_how = "play", "", turn, "draw", "self"
    hand.racks = {seat: codes(racks.get(seat, "")) for seat in SEATS}
    front = codes(wall)
    placed = Counter(t for r in hand.racks.values() for t in r) + Counter(front)
    whole = hand.full_set()
    assert not placed - whole, "the scene holds more copies of a tile than the set has"
    rest = whole - placed
    hand.wall = front + sorted(rest.elements())
    return hand


def courtesy_hand(rules: TableRules, offer: int = 2) -> Hand:
    """A house-card hand at its courtesy pass with East holding a joker: three
    passes of natural tiles each way, the second Charleston stopped, and every
    seat offering `offer` tiles."""
    for seed in range(200):
        hand = deal(HOUSE, seed, rules)
        if tiles.JOKER not in hand.racks["East"]:
            continue
        pass_naturals(hand, 3)
        for seat in SEATS:
            hand.apply(Action(seat, "vote", go=False))
        for seat in SEATS:
            hand.apply(Action(seat, "offer", count=offer))
        return hand
    raise AssertionError("no deal of 200 gave East a joker")


def pass_naturals(hand: Hand, passes: int) -> None:
    """`passes` Charleston passes in which every seat sends its first three natural tiles."""
    for _ in range(passes):
        for seat in SEATS:
            chosen = [t for t in hand.racks[seat] if t not in (tiles.JOKER, tiles.BLANK)][:3]
            hand.apply(Action(seat, "pass", tuple(tiles.CODES[t] for t in chosen)))
