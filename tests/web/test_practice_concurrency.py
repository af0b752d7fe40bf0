"""Two moves on one practice hand at once (a second tab, a double click):
the one that lands second is refused with a 409 and the hand as it stands,
never told it was played while the first move is silently overwritten.
The interleaving is made deterministic by landing the other tab's move
while this request's computer players are thinking."""

from __future__ import annotations

import json
import random

import pytest
from sqlmodel import Session

from coach.play.bots import decide
from coach.play.hand import Action, replay
from coach.store import hands as store
from coach.store.models import PracticeHand
from coach.web.shared.practice import moves as practice_moves
from coach.web.shared.practice.hands import SEAT
from tests.support.practice import deal_one, form_of, hand_row, state
from tests.support.teaching import post


def other_tab_moves(app, hand_id: int) -> list[dict]:
    """The learner's move played and stored by another request; the actions it stored."""
    with Session(app.extensions["store"]) as session:
        row = session.get(PracticeHand, hand_id)
        assert row is not None
        hand = replay(app.extensions["coach"].card, row.seed, [Action.from_json(a) for a in json.loads(row.actions)])
        hand.apply(decide(hand, SEAT, "club", random.Random(1)))
        actions = [a.to_json() for a in hand.actions]
        store.save(session, row, actions, None)
        return actions


@pytest.fixture()
def racing(app, monkeypatch):
    """While the request's computer players move, the other tab's move lands first."""
    landed: dict[str, list] = {}
    real = practice_moves.bots_play

    def bots_then_other_tab(hand, strength):
        real(hand, strength)
        if "hand_id" in landed and "actions" not in landed:
            landed["actions"] = other_tab_moves(app, landed["hand_id"])

    monkeypatch.setattr(practice_moves, "bots_play", bots_then_other_tab)  # the page's and the API's moves alike
    return landed


def test_a_move_that_lands_second_on_the_table_is_refused_and_the_first_kept(app, racing):
    client = app.test_client()
    hand_id = deal_one(client)
    racing["hand_id"] = hand_id
    hand = state(app, hand_id)
    mine = decide(hand, SEAT, "club", random.Random(7))
    response = post(client, f"/play/{hand_id}/act", form_of(mine, hand))
    assert response.status_code == 409
    assert "moved on in another tab" in response.get_data(as_text=True)
    assert json.loads(hand_row(app, hand_id).actions) == racing["actions"]  # the first move stands, whole


def test_a_move_that_lands_second_through_the_api_is_a_409_and_the_first_kept(app, racing):
    client = app.test_client()
    created = client.post("/api/hands", json={"seed": 11})
    assert created.status_code == 201
    hand_id = created.get_json()["id"]
    racing["hand_id"] = hand_id
    legal = created.get_json()["legal"]
    response = client.post(f"/api/hands/{hand_id}/actions", json={"action": legal[0], "move": 0})
    assert response.status_code == 409
    assert "moved on" in response.get_json()["error"]
    assert response.get_json()["state"]["move"] == 1  # the hand as the other tab left it
    assert json.loads(hand_row(app, hand_id).actions) == racing["actions"]


def test_a_stale_save_writes_nothing(app):
    client = app.test_client()
    hand_id = deal_one(client)
    with Session(app.extensions["store"]) as session:
        stale = session.get(PracticeHand, hand_id)
        assert stale is not None
        before = stale.actions
        stored = other_tab_moves(app, hand_id)
        with pytest.raises(store.HandMoved):
            store.save(session, stale, json.loads(before) + [{"seat": SEAT, "kind": "vote", "go": True}], None)
    assert json.loads(hand_row(app, hand_id).actions) == stored


def test_two_hint_presses_count_two(app):
    client = app.test_client()
    hand_id = deal_one(client)
    with Session(app.extensions["store"]) as first, Session(app.extensions["store"]) as second:
        a = store.hand_of(first, hand_row(app, hand_id).learner_id, hand_id)
        b = store.hand_of(second, hand_row(app, hand_id).learner_id, hand_id)
        assert a is not None and b is not None
        store.add_hint(first, a)
        store.add_hint(second, b)  # loaded before the first press was counted
    assert hand_row(app, hand_id).hints == 2


def test_one_hint_press_shows_one_hint(app):
    client = app.test_client()
    hand_id = deal_one(client)
    with Session(app.extensions["store"]) as session:
        row = store.hand_of(session, hand_row(app, hand_id).learner_id, hand_id)
        assert row is not None
        store.add_hint(session, row)
        assert row.hints == 1
