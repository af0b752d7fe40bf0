"""The class's teacher watching a table (issue 28, item 5, coach/play/seat_view.py
`watch_view`): every rack, exposure and discard, whose turn, whom the table waits
for and what each has answered, and the log told in full, every pass named and
every silent "no call" heard (C1-C3, K1: what no seat is shown, which is why the
view is for the teacher only)."""

from __future__ import annotations

from coach.notation import tiles
from coach.play.bots import play
from coach.play.hand import Action, deal, replay
from coach.play.people import TableSettings, take
from coach.play.seat_view import seat_view, watch_view
from coach.play.telling import tell
from tests.support.cards import CARD as HOUSE
from tests.support.hands import CARD, in_play

BOTS = {"East": "club", "South": "beginner", "West": "club", "North": "beginner"}
OFF = TableSettings(auto_pass=False)
PUNG_SCENE = {
    "East": "3D 9C",
    "South": "3D 3D 2D 2D 1D 1D F F 9C 8C 8C 7B 7B",
    "West": "3D J 2D 5D 1D 6D F F 9B 8B 8B 7C 7C",
    "North": "5B 6B 7B 5C 6C 7C 5D 6D 7D N N E E",
}


def test_S4_the_watch_shows_every_rack_and_what_each_seat_shows_of_the_table():
    actions = play(HOUSE, 3, BOTS).actions
    hand = replay(HOUSE, 3, list(actions[:70]))
    view = watch_view(hand, {"South"})
    assert [s["rack"] for s in view["seats"]] == [sorted((tiles.TABLE_CODES[t] for t in hand.racks[s]), key=tiles.sort_key) for s in hand.seats]
    south = seat_view(hand, "South", {"South"})
    for key in ("floor", "latest", "calling", "turn", "wall", "phase"):
        assert view[key] == south[key], key
    for watched, seen in zip(view["seats"], south["seats"], strict=True):
        for key in ("name", "tiles_held", "exposures", "discards", "on_turn", "person"):
            assert watched[key] == seen[key], key
    assert view["moves"] == len(hand.actions)


def test_C1_K1_the_log_is_told_in_full_every_pass_named_and_every_no_call_heard():
    actions = play(HOUSE, 4, BOTS).actions
    hand = replay(HOUSE, 4, list(actions))
    log = watch_view(hand)["log"]
    passes = [a for a in hand.actions if a.kind == "pass" or (a.kind == "courtesy" and a.tiles)]
    assert sum(1 for line in log if " passed " in line) == len(passes)
    assert not any(line.startswith("You") for line in log)
    first = passes[0]
    assert log[0] == tell(hand.actions, 0, first.seat, full=True) and log[0].startswith(f"{first.seat} passed the ")
    assert tell(hand.actions, 0, "Nobody") == ""  # a seat hears no other seat's pass: the full telling is the teacher's
    silent = [n for n, a in enumerate(hand.actions) if a.kind == "no-call"]
    assert silent and tell(hand.actions, silent[0], "", full=True) == f"{hand.actions[silent[0]].seat} let it go."
    assert f"{hand.actions[silent[0]].seat} let it go." in log


def test_K1_the_wait_and_each_held_answer_show_and_a_held_discard_is_out_of_its_rack():
    people = {"East", "South", "West", "North"}
    hand = in_play(deal(CARD, 1), PUNG_SCENE)
    held = take(hand, Action("East", "discard", ("3D",)), people, OFF)
    held = take(hand, Action("South", "call", size=3), people, OFF, held)
    view = watch_view(hand, people, OFF, held)
    east, south, west, north = view["seats"]
    assert east["rack"] == ["9C"] and east["discards"] == ["3D"] and view["latest"] == {"seat": "East", "tile": "3D"}
    assert south["answered"] == {"seat": "South", "kind": "call", "size": 3} and south["owed"] is None
    assert view["waiting_for"] == ["West", "North"] and west["owed"] == north["owed"] == "call"
    assert north["rack"] == sorted("5B 6B 7B 5C 6C 7C 5D 6D 7D N N E E".split(), key=tiles.sort_key)
    assert view["turn"] is None and view["calling"]
