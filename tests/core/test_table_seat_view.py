"""What one seat at a live table sees (issue 28, coach/play/seat_view.py): its own
rack, every exposure, the discards, the counts, whose turn, its legal moves and the
log told for it, and nothing read from another rack or the wall: two hands that
differ only in the other racks and the order of the wall look the same from the
seat (C1-C3, K1; the next wall tile only to a seat that picked ahead, TR5)."""

from __future__ import annotations

import functools
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from coach.notation import tiles
from coach.play.bots import play
from coach.play.hand import Action, Hand, deal, replay
from coach.play.legal import legal_actions, trial_copy
from coach.play.people import TableSettings, take
from coach.play.seat_view import seat_view, state_number
from coach.play.seen import seen_by
from coach.play.telling import tell
from coach.rules.table_rules import TableRules
from tests.support.cards import CARD as HOUSE
from tests.support.examples import examples
from tests.support.hands import CARD, in_play

BOTS = {"East": "club", "South": "beginner", "West": "club", "North": "beginner"}
PICKING_AHEAD = TableRules(picking_ahead=True)
OFF = TableSettings(auto_pass=False)


@functools.cache
def played(seed: int, rules: TableRules = TableRules()) -> tuple[Action, ...]:
    return tuple(play(HOUSE, seed, BOTS, rules=rules).actions)


def others_shuffled(hand: Hand, seat: str, rng: random.Random) -> Hand:
    """The same hand with the other racks and the wall dealt again from their own
    tiles, each rack keeping its size; the wall tile `seat` may know stays (TR5)."""
    other = trial_copy(hand)
    others = [s for s in hand.seats if s != seat]
    keep = other.wall[:1] if hand.known_next(seat) is not None else []
    pool = [t for s in others for t in other.racks[s]] + other.wall[len(keep):]
    rng.shuffle(pool)
    for s in others:
        size = len(other.racks[s])
        other.racks[s], pool = pool[:size], pool[size:]
    other.wall = keep + pool
    return other


@given(
    seed=st.integers(0, 3), at=st.floats(0, 1, exclude_max=True), seat=st.sampled_from(("East", "South", "West", "North")),
    shuffle=st.integers(0, 2**32), rules=st.sampled_from((TableRules(), PICKING_AHEAD)),
)
@settings(max_examples=examples(25))
def test_C1_K1_a_seat_sees_nothing_of_another_rack_or_the_wall(seed, at, seat, shuffle, rules):
    actions = played(seed, rules)
    hand = replay(HOUSE, seed, list(actions[: int(at * len(actions))]), rules)  # never the last: not over
    other = others_shuffled(hand, seat, random.Random(shuffle))
    assert other.racks != hand.racks or other.wall != hand.wall or all(not other.racks[s] for s in other.seats if s != seat)
    view = seat_view(hand, seat, people={seat})
    assert seat_view(other, seat, people={seat}) == view
    json.dumps(view)  # plain values only


def test_S4_a_seat_sees_its_own_rack_the_counts_the_turn_and_its_legal_moves():
    actions = played(1)
    hand = replay(HOUSE, 1, list(actions[:60]))
    for seat in hand.seats:
        view = seat_view(hand, seat, people=set(hand.seats))
        assert view["rack"] == sorted(view["rack"], key=tiles.sort_key)
        assert len(view["rack"]) == len(hand.racks[seat])
        assert [s["tiles_held"] for s in view["seats"]] == [len(hand.racks[s]) for s in hand.seats]
        assert view["wall"] == len(hand.wall)
        assert view["choices"] == [a.to_json() for a in legal_actions(hand, seat)]
        assert view["log"] == [t for n in range(len(hand.actions)) if seen_by(hand, seat, n) and (t := tell(hand.actions, n, seat))]
        assert view["move"] == state_number(hand, seat)
    turn = [s["name"] for s in seat_view(hand, "East")["seats"] if s["on_turn"]]
    assert turn == ([hand.turn] if hand.latest is None else [])


PUNG_SCENE = {
    "East": "3D 9C",
    "South": "3D 3D 2D 2D 1D 1D F F 9C 8C 8C 7B 7B",
    "West": "3D J 2D 5D 1D 6D F F 9B 8B 8B 7C 7C",
    "North": "5B 6B 7B 5C 6C 7C 5D 6D 7D N N E E",
}


def test_K1_a_held_discard_is_in_plain_view_and_a_held_answer_only_to_its_own_seat():
    people = {"East", "South", "West", "North"}
    hand = in_play(deal(CARD, 1), PUNG_SCENE)
    held = take(hand, Action("East", "discard", ("3D",)), people, OFF)
    east = seat_view(hand, "East", people, OFF, held)
    assert east["rack"] == ["9C"] and east["latest"] == {"seat": "East", "tile": "3D"} and east["calling"]
    assert east["owed"] is None and east["choices"] == []
    north = seat_view(hand, "North", people, OFF, held)
    assert north["seats"][0]["tiles_held"] == 1 and north["seats"][0]["discards"] == ["3D"]
    assert north["owed"] == "call" and north["choices"] == [{"seat": "North", "kind": "no-call"}]
    calling = take(hand, Action("South", "call", size=3), people, OFF, held)
    passing = take(hand, Action("South", "no-call"), people, OFF, held)
    assert seat_view(hand, "North", people, OFF, calling) == north == seat_view(hand, "North", people, OFF, passing)
    south = seat_view(hand, "South", people, OFF, calling)
    assert south["answered"] == {"seat": "South", "kind": "call", "size": 3} and south["owed"] is None
    assert south["move"] == seat_view(hand, "South", people, OFF, held)["move"] + 1  # one move of its own: one more


def test_TR5_the_seat_that_picked_ahead_sees_the_next_wall_tile_and_no_other_seat_does():
    actions = played(2, PICKING_AHEAD)
    for n in range(len(actions)):
        hand = replay(HOUSE, 2, list(actions[:n]), PICKING_AHEAD)
        if hand.latest is not None and hand.wall:
            break
    else:
        raise AssertionError("no discard was open to calls")
    shown = {s: seat_view(hand, s)["next_tile"] for s in hand.seats}
    knows = [s for s, tile in shown.items() if tile is not None]
    assert len(knows) == 1 and shown[knows[0]] is not None
    assert all(tile is None for s, tile in shown.items() if s != knows[0])


def test_C1_another_seats_pass_chosen_in_an_open_step_leaves_a_seats_number_alone():
    """A pass is chosen while friends choose theirs: their choices change nothing this
    seat may do (C1), so its number stands until the step closes, and then it grows."""
    hand = deal(HOUSE, 5)
    first = {s: state_number(hand, s) for s in hand.seats}
    south = next(a for a in legal_actions(hand, "South") if a.kind == "pass")
    hand.apply(south)
    assert state_number(hand, "East") == first["East"]  # South's pass is chosen, not yet moved
    assert state_number(hand, "South") == first["South"] + 1  # its own move counts at once
    for seat in ("West", "North", "East"):
        before = state_number(hand, "East")
        hand.apply(next(a for a in legal_actions(hand, seat) if a.kind == "pass"))
        if seat != "East":
            assert state_number(hand, "East") == before
    assert hand.step != "first-right"  # the step closed: the tiles moved
    assert state_number(hand, "East") == first["East"] + 4  # and every pass of it counts now
    assert state_number(hand, "South") == first["South"] + 4
