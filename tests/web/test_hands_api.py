"""The practice hands' JSON API (issue 16, part 7): a whole hand played
through the API alone, its review one decision per learner action; what a
state shows and hides; refused actions with their rule ids; bodies of every
wrong shape never a 500; someone else's hand a 404."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlmodel import Session, select

from coach.notation import tiles
from coach.play.hand import SEATS, Action, replay
from coach.play.legal import legal_actions
from coach.store.hands import MAX_OPEN
from coach.store.models import PracticeHand, TeacherCard
from coach.store.teaching import teachers_cards
from coach.web.shared.practice.hands import SEAT
from tests.support.examples import examples
from tests.support.openapi import assert_valid
from tests.support.teaching import GOOD_CARD, db, learner_id, sign_up


def stored(app, hand_id: int) -> PracticeHand:
    with Session(app.extensions["store"]) as session:
        row = session.get(PracticeHand, hand_id)
        assert row is not None
        return row


def rebuilt(app, hand_id: int):
    row = stored(app, hand_id)
    return replay(app.extensions["coach"].card, row.seed, [Action.from_json(a) for a in json.loads(row.actions)])


def new_hand(client, **body):
    response = client.post("/api/hands", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def test_a_whole_hand_is_played_through_the_api_and_reviewed(app, client):
    state = new_hand(client, seed=20261201, bots="club")
    hand_id = state["id"]
    assert state["phase"] == "charleston" and state["step"] == "first-right" and state["owed"] == "pass"
    assert len(state["rack"]) == 14 and state["rack"] == sorted(state["rack"], key=tiles.sort_key)
    mine = 0
    for _ in range(400):
        if state["over"]:
            break
        assert state["legal"], state
        hand = rebuilt(app, hand_id)
        assert state["legal"] == [a.to_json() for a in legal_actions(hand, SEAT)]  # exactly the engine's list
        assert state["rack"] == sorted((tiles.CODES[t] for t in hand.racks[SEAT]), key=tiles.sort_key)
        response = client.post(f"/api/hands/{hand_id}/actions", json={"action": state["legal"][0], "move": state["move"]})
        assert response.status_code == 200, response.get_json()
        mine += 1
        state = response.get_json()
        assert client.get(f"/api/hands/{hand_id}").get_json() == state  # the same state on a reload
    assert state["over"] and state["legal"] == [] and state["owed"] is None
    assert set(state["result"]) >= {"winner", "how", "pays"}
    hand = rebuilt(app, hand_id)
    assert hand.phase == "over" and hand.census() == Counter(tiles.WALL)
    assert stored(app, hand_id).finished_at is not None
    review = client.get(f"/api/hands/{hand_id}/review")
    assert review.status_code == 200
    found = review.get_json()
    assert len(found["decisions"]) == mine == sum(1 for a in hand.actions if a.seat == SEAT)
    for decision in found["decisions"]:
        assert decision["grade"] in ("best", "good", "inaccuracy", "mistake")
        assert decision["played"]["seat"] == SEAT and decision["coach"]["seat"] == SEAT and decision["reason"]
    assert found["summary"]["decisions"] == mine and 0 <= found["summary"]["accuracy"] <= 1
    assert sum(found["summary"]["grades"].values()) == mine
    again = client.post(f"/api/hands/{hand_id}/actions", json={"action": {"seat": SEAT, "kind": "discard", "tiles": ["5D"]}, "move": state["move"]})
    assert again.status_code == 400 and again.get_json()["rule"] == "E1"


def test_the_state_never_shows_other_racks_the_wall_or_the_seed(client):
    state = new_hand(client, seed=77)
    text = json.dumps(state)
    assert '"seed"' not in text and "racks" not in text
    assert [s["seat"] for s in state["seats"]] == list(SEATS)
    assert all(set(s) == {"seat", "tiles", "exposures", "discards"} for s in state["seats"])
    assert isinstance(state["wall"], int)
    # the computer players' passes show how many tiles moved, never which
    hidden = [m for m in state["last_moves"] if m["seat"] != SEAT]
    assert hidden and all(set(m) == {"seat", "kind", "count"} for m in hidden)


def test_the_same_seed_deals_the_same_hand(client):
    first, second = new_hand(client, seed=5), new_hand(client, seed=5)
    assert first["id"] != second["id"] and first["rack"] == second["rack"] and first["legal"] == second["legal"]


@pytest.mark.parametrize(
    ("action", "rule"),
    [
        ({"seat": "South", "kind": "pass", "tiles": ["1B", "2B", "3B"]}, "S5"),  # a forged seat
        ({"seat": "East", "kind": "discard", "tiles": ["5D"]}, "C1"),  # not during the Charleston
        ({"seat": "East", "kind": "pass", "tiles": ["J", "J", "J"]}, None),  # jokers never pass (C4) or not held (C1)
        ({"seat": "East", "kind": "pass", "tiles": ["1B"], "blind": 2}, "C5"),  # no blind pass on the first step
        ({"seat": "East", "kind": "vote", "go": False}, "C1"),
        ({"seat": "East", "kind": "pass", "tiles": ["1B", "2B", "3B"], "extra": 1}, "H1"),
        ({"seat": "East", "kind": "pass", "tiles": "1B 2B 3B"}, "T1"),
        ({"seat": "East", "kind": "pass", "tiles": ["XX", "1B", "1B"]}, "T1"),
        ({"seat": 3, "kind": "pass"}, "H1"),
        ([1, 2, 3], "H1"),
        ("pass", "H1"),
    ],
)
def test_an_action_not_in_legal_is_refused_with_its_rule(app, client, action, rule):
    state = new_hand(client, seed=3)
    before = stored(app, state["id"]).actions
    response = client.post(f"/api/hands/{state['id']}/actions", json={"action": action, "move": state["move"]})
    assert response.status_code == 400
    body = response.get_json()
    assert set(body) == {"error", "rule"} and body["error"]
    assert body["rule"] == rule if rule else body["rule"] in ("C1", "C4")
    assert stored(app, state["id"]).actions == before
    assert client.get(f"/api/hands/{state['id']}").get_json() == state


def test_the_same_tiles_in_another_order_are_the_same_pass(client):
    state = new_hand(client, seed=8)
    chosen = next(a for a in state["legal"] if len(set(a["tiles"])) == 3)
    shuffled = dict(chosen, tiles=list(reversed(chosen["tiles"])))
    response = client.post(f"/api/hands/{state['id']}/actions", json={"action": shuffled, "move": state["move"]})
    assert response.status_code == 200 and response.get_json()["step"] == "first-across"


@pytest.mark.parametrize(
    "body",
    [{"seed": -1}, {"seed": 2**31}, {"seed": "1"}, {"seed": True}, {"bots": "grandmaster"}, {"bots": 3},
     {"card": 999}, {"card": "house"}, {"card": True}, {"colour": "red"}],
)
def test_a_new_hand_with_a_bad_body_is_a_400_and_makes_nothing(app, body):
    client = app.test_client()
    response = client.post("/api/hands", json=body)
    assert response.status_code == 400 and set(response.get_json()) == {"error"}
    with Session(app.extensions["store"]) as session:
        assert session.exec(select(PracticeHand)).all() == []


def test_bodies_of_every_wrong_shape_are_refused_without_a_500(client):
    hand_id = new_hand(client)["id"]
    url = f"/api/hands/{hand_id}/actions"
    answers = [
        client.post(url, data="{}", content_type="text/plain"),
        client.post(url, data="", content_type="application/json"),
        client.post(url, data="[" * 5000, content_type="application/json"),
        client.post(url, json={}),
        client.post(url, json={"action": {"seat": "East", "kind": "pass", "tiles": ["1B"] * 10000}, "move": 0}),
        client.post(url, json={"action": {"seat": "East", "kind": "pass", "blind": 10**30}, "move": 0}),
        client.post(url, json={"action": {"seat": "East" * 1000, "kind": "x" * 1000}, "move": 0}),
        client.post(url, json={"action": {"seat": "East", "kind": "pass", "tiles": [[["1B"]]]}, "move": 0}),
        client.post(url, json={"action": None, "more": 1}),
        client.post(url, json={"action": {"seat": "East", "kind": "vote"}, "move": "0"}),
        client.post(url, json={"action": {"seat": "East", "kind": "vote"}, "move": True}),
        client.post(url, json={"action": {"seat": "East", "kind": "vote"}, "move": -1}),
        client.post(url, json={"action": {"seat": "East", "kind": "vote"}, "move": 10**30}),
        client.post("/api/hands", data=b"\xff\xfe", content_type="application/json"),
    ]
    assert [r.status_code for r in answers] == [415, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400]
    assert all("error" in r.get_json() for r in answers)


def test_the_review_waits_for_the_end(client):
    hand_id = new_hand(client)["id"]
    response = client.get(f"/api/hands/{hand_id}/review")
    assert response.status_code == 409 and "over" in response.get_json()["error"]


def test_someone_elses_hand_is_a_404_and_stays_unchanged(app, client):
    state = new_hand(client, seed=12)
    before = stored(app, state["id"]).actions
    visitor, guest = app.test_client(), app.test_client()
    new_hand(guest)  # a guest with a hand of their own
    for other in (visitor, guest):
        for response in (
            other.get(f"/api/hands/{state['id']}"),
            other.post(f"/api/hands/{state['id']}/actions", json={"action": state["legal"][0], "move": state["move"]}),
            other.get(f"/api/hands/{state['id']}/review"),
            other.get(f"/play/{state['id']}"),
        ):
            assert response.status_code == 404 and "error" in (response.get_json() or {"error": 1})
    assert stored(app, state["id"]).actions == before
    assert app.test_client().get("/api/hands/2147483648").status_code == 404


def test_too_many_hands_going_is_a_409(app, client):
    for _ in range(MAX_OPEN):
        new_hand(client)
    response = client.post("/api/hands", json={})
    assert response.status_code == 409 and str(MAX_OPEN) in response.get_json()["error"]


def test_an_api_hand_is_the_same_hand_on_the_play_page(client):
    state = new_hand(client, seed=31)
    page = client.get(f"/play/{state['id']}")
    assert page.status_code == 200 and "First Charleston" in page.get_data(as_text=True)


def test_a_hand_on_the_learners_own_card_and_never_on_someone_elses(app):
    owner = sign_up(app, "ann@example.org", teacher=False)
    with db(app) as session:
        card = teachers_cards.add_card(session, learner_id(app, "ann@example.org"), GOOD_CARD)
        card_key, number = teachers_cards.card_key(card), card.id
    state = new_hand(owner, card=number, seed=4)
    assert state["card"] == card_key == stored(app, state["id"]).card
    played = owner.post(f"/api/hands/{state['id']}/actions", json={"action": state["legal"][-1], "move": state["move"]})
    assert played.status_code == 200 and played.get_json()["step"] == "first-across"
    assert owner.get(f"/play/{state['id']}").status_code == 200  # the table deals from the same card
    stranger = sign_up(app, "bob@example.org", teacher=False)
    refused = stranger.post("/api/hands", json={"card": number})
    assert refused.status_code == 400 and "card" in refused.get_json()["error"]
    assert app.test_client().post("/api/hands", json={"card": number}).status_code == 400
    with db(app) as session:
        assert [r.card for r in session.exec(select(PracticeHand)).all()] == [card_key]
        session.delete(session.get(TeacherCard, number))
        session.commit()
    gone = owner.get(f"/api/hands/{state['id']}")
    assert gone.status_code == 409 and "start a new one" in gone.get_json()["error"]


def test_real_states_reviews_and_refusals_validate_against_the_description(client):
    state = new_hand(client, seed=20261201)
    assert_valid("HandState", state)
    for action in state["legal"][:3]:
        assert_valid("Action", action)
    refused = client.post(f"/api/hands/{state['id']}/actions", json={"action": {"seat": "East", "kind": "mahjong"}, "move": state["move"]})
    assert refused.status_code == 400
    assert_valid("Refusal", refused.get_json())
    assert_valid("ActionRequest", {"action": state["legal"][0], "move": state["move"]})
    stale = client.post(f"/api/hands/{state['id']}/actions", json={"action": state["legal"][0], "move": state["move"] + 1})
    assert stale.status_code == 409
    assert_valid("Stale", stale.get_json())
    assert_valid("Error", client.get(f"/api/hands/{state['id']}/review").get_json())
    while not state["over"]:
        state = client.post(f"/api/hands/{state['id']}/actions", json={"action": state["legal"][0], "move": state["move"]}).get_json()
        assert_valid("HandState", state)
    assert state["record"] and any(a["kind"] == "no-call" and a["seat"] != SEAT for a in state["record"])
    assert_valid("HandReview", client.get(f"/api/hands/{state['id']}/review").get_json())


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=20,
)
ACTION_LIKE = st.fixed_dictionaries(
    {"seat": st.sampled_from(["East", "South", "east", ""]) | JSON, "kind": st.sampled_from(["pass", "vote", "discard", "call"]) | JSON},
    optional={
        "tiles": st.lists(st.sampled_from(["1B", "5D", "J", "N", "WD", "bad"]), max_size=16) | JSON,
        "blind": JSON, "go": JSON, "count": JSON, "size": JSON, "owner": JSON, "group": JSON,
    },
)


def test_any_json_posted_as_an_action_is_a_200_or_a_400(app, client):
    state = new_hand(client, seed=99)
    url = f"/api/hands/{state['id']}/actions"
    seen: Counter[int] = Counter()

    @settings(max_examples=examples(60), database=None, suppress_health_check=list(HealthCheck))
    @given(body=st.fixed_dictionaries({"action": ACTION_LIKE | JSON}) | JSON)
    def post_any(body):
        response = client.post(url, data=json.dumps(body), content_type="application/json")
        seen[response.status_code] += 1
        assert response.status_code in (200, 400), (body, response.get_json())
        assert "error" in response.get_json() or response.get_json()["id"] == state["id"]

    post_any()
    assert seen[400] > 0
