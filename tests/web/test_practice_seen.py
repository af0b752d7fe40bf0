"""What the learner sees of a practice hand, and one move at a time (issue 24, item 6).

Hidden information: over several seeded hands, every state the API and the
page show holds only what a player in East's seat sees: calls made, never a
computer player's silent "no call" (only the seats that could call are
asked, so a "no" gives a rack away, K1-K3), never another seat's passed
tiles (C1-C3), and a move number that counts only East's own moves. Once
the hand is over the whole record may be studied.

Move numbers: a double-posted discard throws one tile (S4); a stale
Charleston pass sent again at the next step is refused with a 409 and the
hand as it stands (C1); a move without its number is a 400 on the API.
"""

from __future__ import annotations

import html
import json
import re

import pytest

from coach.play.hand import SEATS, Action, replay
from coach.play.seen import move_number, seen_actions
from coach.web.shared.practice.hands import SEAT, describe_move
from tests.support.practice import hand_row
from tests.support.teaching import post, text_of

SEEDS = (3, 13, 20261201)
ALREADY = "That move was already played; here is the table now."


def rebuilt(app, hand_id: int):
    row = hand_row(app, hand_id)
    return replay(app.extensions["coach"].card, row.seed, [Action.from_json(a) for a in json.loads(row.actions)])


def act(client, state: dict, action: dict, move: int | None = None):
    return client.post(f"/api/hands/{state['id']}/actions", json={"action": action, "move": state["move"] if move is None else move})


def first_discard(state: dict) -> dict | None:
    return next((a for a in state["legal"] if a["kind"] == "discard"), None)


def to_east_throw(client, seed: int) -> dict:
    """A new hand played by the API up to East's first throw in play."""
    state = client.post("/api/hands", json={"seed": seed}).get_json()
    for _ in range(60):
        if first_discard(state):
            return state
        state = act(client, state, state["legal"][0]).get_json()
    raise AssertionError(f"seed {seed} never reaches East's throw")


def table_move(page: str) -> int:
    found = re.search(r'id="table"[^>]*data-move-number="(\d+)"', page)
    assert found, "the table carries no move number"
    return int(found.group(1))


@pytest.mark.parametrize("seed", SEEDS)
def test_K1_a_computer_players_silent_no_call_is_never_shown_while_the_hand_is_played(app, client, seed):
    state = client.post("/api/hands", json={"seed": seed}).get_json()
    silent = mine = 0
    for _ in range(400):
        hand = rebuilt(app, state["id"])
        assert state["move"] == move_number(hand, SEAT) == mine  # East's own moves, nothing else
        text = json.dumps(state)
        if not state["over"]:
            assert "record" not in state and '"racks"' not in text and '"seed"' not in text
            for move in state["last_moves"]:
                if move["seat"] != SEAT:
                    assert move["kind"] != "no-call", move  # K1: a silent no is never heard
                    if move["kind"] in ("pass", "courtesy"):
                        assert set(move) == {"seat", "kind", "count"}  # C1-C3: face down
            # The engine did hear the others' no-calls; the learner's view has none of them.
            heard = set(seen_actions(hand, SEAT))
            silent += sum(1 for n, a in enumerate(hand.actions) if n not in heard)
            page = text_of(client.get(f"/play/{state['id']}"))
            assert table_move(page) == state["move"] and "data-moves" not in page  # not the count of all actions
            told = {describe_move(hand, n) for n in heard}
            log = re.search(r'<section class="play-log".*?<ol>(.*?)</ol>', page, re.S)
            lines = [html.unescape(li) for li in re.findall(r"<li>(.*?)</li>", log.group(1))] if log else []
            assert all(line in told for line in lines), lines  # the table tells only what East's seat saw
        if state["over"]:
            break
        state = act(client, state, state["legal"][0]).get_json()
        mine += 1
    assert state["over"]
    assert silent > 0, f"seed {seed}: no computer player ever could call, so nothing was hidden: pick another"
    # Once over, the whole hand may be studied: every seat's passes and no-calls.
    assert state["record"] == [a.to_json() for a in rebuilt(app, state["id"]).actions]


def test_S4_a_double_posted_discard_throws_one_tile(app, client):
    state = to_east_throw(client, 13)
    throw = first_discard(state)
    assert throw is not None
    first, second = act(client, state, throw), act(client, state, throw)
    assert first.status_code == 200
    assert second.status_code == 409 and ALREADY in second.get_json()["error"]
    assert second.get_json()["state"] == first.get_json() == client.get(f"/api/hands/{state['id']}").get_json()
    hand = rebuilt(app, state["id"])
    assert sum(1 for a in hand.actions if a.seat == SEAT and a.kind == "discard") == 1


def test_S4_a_double_posted_discard_on_the_page_throws_one_tile_and_shows_the_table(app, client):
    state = to_east_throw(client, 13)
    throw = first_discard(state)
    assert throw is not None
    form = {"kind": "discard", "tile": throw["tiles"][0], "move": str(state["move"])}
    assert post(client, f"/play/{state['id']}/act", form).status_code == 303
    again = post(client, f"/play/{state['id']}/act", form, headers={"HX-Request": "true"})
    assert again.status_code == 409  # htmx swaps a 4xx in (base.html's responseHandling): the table, not an error page
    body = text_of(again)
    assert ALREADY in body and 'id="table"' in body and "<html" not in body
    assert table_move(body) == state["move"] + 1
    hand = rebuilt(app, state["id"])
    assert sum(1 for a in hand.actions if a.seat == SEAT and a.kind == "discard") == 1


def test_C1_a_stale_pass_at_the_next_charleston_step_is_a_409_and_changes_nothing(app, client):
    state = client.post("/api/hands", json={"seed": 8}).get_json()
    assert state["step"] == "first-right" and state["move"] == 0
    chosen = state["legal"][0]
    after = act(client, state, chosen)
    assert after.status_code == 200 and after.get_json()["step"] == "first-across" and after.get_json()["move"] == 1
    stored = hand_row(app, state["id"]).actions
    held = [a for a in after.get_json()["legal"] if a["kind"] == "pass"]
    for repeat in [chosen] + held[:2]:  # the same pass again, or any pass of the new step, chosen on move 0
        stale = act(client, state, repeat, move=0)
        assert stale.status_code == 409, stale.get_json()
        assert stale.get_json()["state"] == after.get_json()
        assert hand_row(app, state["id"]).actions == stored
    page = post(client, f"/play/{state['id']}/act", {"kind": "pass", "tiles": chosen["tiles"], "move": "0"})
    assert page.status_code == 409 and ALREADY in text_of(page)
    assert hand_row(app, state["id"]).actions == stored


def test_a_move_without_its_number_is_refused_and_changes_nothing(app, client):
    state = client.post("/api/hands", json={"seed": 8}).get_json()
    stored = hand_row(app, state["id"]).actions
    missing = client.post(f"/api/hands/{state['id']}/actions", json={"action": state["legal"][0]})
    assert missing.status_code == 400 and '"move" is missing' in missing.get_json()["error"]
    page = post(client, f"/play/{state['id']}/act", {"kind": "pass", "tiles": state["legal"][0]["tiles"]})
    assert page.status_code == 400 and "move number" in text_of(page) and 'id="table"' in text_of(page)
    assert hand_row(app, state["id"]).actions == stored


def test_every_form_on_the_table_carries_the_move_number(app, client):
    state = to_east_throw(client, 13)
    page = text_of(client.get(f"/play/{state['id']}"))
    forms = re.findall(r'<form method="post" action="[^"]*/act".*?</form>', page, re.S)
    assert forms and all(f'name="move" value="{state["move"]}"' in f for f in forms)


def test_the_seats_are_asked_but_the_others_answers_unheard():
    """The rule in the core: a seat sees its own moves and everything said aloud."""
    from types import SimpleNamespace

    others = [s for s in SEATS if s != SEAT]
    hand = SimpleNamespace(actions=[
        Action(SEAT, "discard", ("5D",)), Action(others[0], "no-call"), Action(others[1], "call", size=3),
        Action(SEAT, "no-call"),
    ])
    assert seen_actions(hand, SEAT) == [0, 2, 3]  # type: ignore[arg-type]
    assert move_number(hand, SEAT) == 2  # type: ignore[arg-type]
