"""The live tables' JSON API (coach/web/api/tables.py, issue 28).

Two people (each a client with its own cookies) and two computer players play
a hand to the end through the API, each seeing only their own seat, and each
reads their review. The routes as a table, tried by the wrong people: only
the seated person acts for a seat, only the host deals, a class table is a
404 outside its class; a stale move is a 409 with the table as it stands; a
body the API refuses is refused by the OpenAPI description too; the events
stream sends "moved" when another person moves.
"""

from __future__ import annotations

import threading
import time

import pytest
from sqlmodel import Session, select

from coach.store import tables as store
from coach.store.models import GameTable, TableHand, TableSeat
from tests.support.openapi import assert_valid, validator
from tests.support.teaching import db, join, learner_id, make_class, sign_up

# endpoint -> (rule, methods): a new route of the tables' API without a row fails here
ROUTES = {
    "tables_api.open_table": ("/api/tables", {"POST"}),
    "tables_api.show": ("/api/tables/<code>", {"GET"}),
    "tables_api.take_seat": ("/api/tables/<code>/seats", {"POST"}),
    "tables_api.start": ("/api/tables/<code>/start", {"POST"}),
    "tables_api.act": ("/api/tables/<code>/actions", {"POST"}),
    "tables_api.events": ("/api/tables/<code>/events", {"GET"}),
    "tables_api.review_of": ("/api/tables/<code>/hands/<int:number>/review", {"GET"}),
}
# Who may do what, by route: anyone with the code views and sits; the seated act; the host deals.
WHO_MAY = {
    "tables_api.open_table": "anyone (a guest is made)",
    "tables_api.show": "anyone with the code (the hand: their own seat's only)",
    "tables_api.take_seat": "anyone with the code, a free seat",
    "tables_api.start": "the host",
    "tables_api.act": "the person in the seat",
    "tables_api.events": "anyone with the code",
    "tables_api.review_of": "the person who held a seat when the hand ended, their seat's",
}


def test_the_table_covers_every_tables_api_route(app):
    found = {
        rule.endpoint: (rule.rule, set(rule.methods or ()) - {"HEAD", "OPTIONS"})
        for rule in app.url_map.iter_rules()
        if rule.endpoint.startswith("tables_api.")
    }
    assert found == ROUTES and set(WHO_MAY) == set(ROUTES)


def _open(client, **body) -> str:
    response = client.post("/api/tables", json={"sit": "east", **body})
    assert response.status_code == 201, response.get_json()
    assert_valid("NewTable", response.get_json())
    return response.get_json()["code"]


def _seated(app):
    """A table hosted by Ann in East, Bob in South, a hand dealt: (ann, bob, code)."""
    ann, bob = app.test_client(), app.test_client()
    code = _open(ann)
    seated = bob.post(f"/api/tables/{code}/seats", json={"seat": "South"})
    assert seated.status_code == 200 and seated.get_json()["seat"] == "South"
    dealt = ann.post(f"/api/tables/{code}/start", json={})
    assert dealt.status_code == 200, dealt.get_json()
    assert_valid("Table", dealt.get_json())
    return ann, bob, code


def _play_to_the_end(people: list, code: str, most: int = 2000) -> dict:
    """Each person plays their first choice whenever they owe one, until the hand is over."""
    for _ in range(most):
        moved = False
        for client in people:
            table = client.get(f"/api/tables/{code}").get_json()
            hand = table["hand"]
            if hand["phase"] == "over":
                return table
            if hand["owed"] and hand["choices"]:
                answer = client.post(f"/api/tables/{code}/actions", json={"action": hand["choices"][0], "move": hand["move"]})
                assert answer.status_code == 200, answer.get_json()
                moved = True
        assert moved, "nobody owed a move, and the hand is not over"
    raise AssertionError("the hand did not end")


def test_two_people_play_a_hand_through_the_api_each_seeing_only_their_seat_and_read_their_reviews(app):
    ann, bob, code = _seated(app)
    seen = ann.get(f"/api/tables/{code}").get_json()
    assert_valid("Table", seen)
    assert seen["hand"]["seat"] == "East" and seen["host"] is True
    assert [s["you"] for s in seen["seats"]] == [True, False, False, False]
    assert [s["person"] for s in seen["seats"]] == [True, True, False, False]
    theirs = bob.get(f"/api/tables/{code}").get_json()
    assert theirs["hand"]["seat"] == "South" and theirs["hand"]["rack"] != seen["hand"]["rack"]
    rows = {r["name"]: r for r in theirs["hand"]["seats"]}
    assert set(rows["East"]) == {"name", "you", "tiles_held", "exposures", "discards", "on_turn", "person"}  # counts, never tiles

    over = _play_to_the_end([ann, bob], code)
    assert_valid("Table", over)
    assert over["hand"]["result"] is not None and over["going"] is False
    for client in (ann, bob):
        review = client.get(f"/api/tables/{code}/hands/1/review")
        assert review.status_code == 200, review.get_json()  # computed inline under test
        assert_valid("HandReview", review.get_json())
        mine = "East" if client is ann else "South"
        assert {d["seat"] for d in review.get_json()["decisions"]} <= {mine}
    stranger = app.test_client()
    assert stranger.get(f"/api/tables/{code}/hands/1/review").status_code == 404
    assert ann.get(f"/api/tables/{code}/hands/2/review").status_code == 404
    again = ann.post(f"/api/tables/{code}/start", json={})
    assert again.status_code == 200 and again.get_json()["hands"] == 2
    assert ann.get(f"/api/tables/{code}/hands/2/review").status_code == 409  # not over yet


def test_a_stale_move_is_refused_with_the_table_as_it_stands_and_nothing_is_played(app):
    ann, bob, code = _seated(app)
    hand = ann.get(f"/api/tables/{code}").get_json()["hand"]
    first = ann.post(f"/api/tables/{code}/actions", json={"action": hand["choices"][0], "move": hand["move"]})
    assert first.status_code == 200
    with db(app) as session:
        version = session.exec(select(TableHand.version)).one()
    again = ann.post(f"/api/tables/{code}/actions", json={"action": hand["choices"][0], "move": hand["move"]})  # a double tap
    assert again.status_code == 409
    assert_valid("TableStale", again.get_json())
    assert again.get_json()["table"]["hand"]["seat"] == "East"
    with db(app) as session:
        assert session.exec(select(TableHand.version)).one() == version


def test_only_the_seated_act_only_the_host_deals_and_nobody_plays_anothers_seat(app):
    ann, bob, code = _seated(app)
    hand = ann.get(f"/api/tables/{code}").get_json()["hand"]
    choice = hand["choices"][0]
    stranger, visitor = app.test_client(), app.test_client()
    stranger.post("/api/tables", json={})  # a guest with a table of their own
    with db(app) as session:
        before = session.exec(select(TableHand.version)).all()
    for client in (stranger, visitor):
        assert client.post(f"/api/tables/{code}/actions", json={"action": choice, "move": hand["move"]}).status_code == 403
        assert client.post(f"/api/tables/{code}/start", json={}).status_code == 403
        view = client.get(f"/api/tables/{code}").get_json()
        assert view["hand"] is None and view["seat"] is None  # the seat list, never a rack
    posing = bob.post(f"/api/tables/{code}/actions", json={"action": choice, "move": hand["move"]})  # East's move, from South
    assert posing.status_code == 400 and posing.get_json()["rule"] == "S5"
    assert bob.post(f"/api/tables/{code}/start", json={}).status_code == 403
    with db(app) as session:
        assert session.exec(select(TableHand.version)).all() == before
    taken = stranger.post(f"/api/tables/{code}/seats", json={"seat": "south"})
    assert taken.status_code == 409 and "South" in taken.get_json()["error"]
    assert stranger.post(f"/api/tables/{code}/seats", json={"seat": "west"}).status_code == 200  # a free seat, mid-hand
    assert stranger.post(f"/api/tables/{code}/seats", json={"seat": "north"}).status_code == 409  # one person, one seat


def test_a_class_tables_code_is_a_404_outside_its_class(app):
    teacher = sign_up(app, "teacher@example.org")
    class_id = make_class(teacher)
    member = sign_up(app, "member@example.org", teacher=False)
    join(app, "member@example.org", class_id)
    with db(app) as session:
        table = store.open_table(session, learner_id(app, "teacher@example.org"), "house", kind="class", class_id=class_id)
        code = table.code
    outsider = sign_up(app, "outsider@example.org", teacher=False)
    for client in (outsider, app.test_client()):
        answers = [
            client.get(f"/api/tables/{code}"),
            client.post(f"/api/tables/{code}/seats", json={"seat": "east"}),
            client.post(f"/api/tables/{code}/start", json={}),
            client.post(f"/api/tables/{code}/actions", json={"action": {"seat": "East", "kind": "vote", "go": True}, "move": 0}),
            client.get(f"/api/tables/{code}/events"),
            client.get(f"/api/tables/{code}/hands/1/review"),
        ]
        assert [a.status_code for a in answers] == [404] * 6
        assert all("no such table" in a.get_json()["error"] for a in answers)
    with db(app) as session:
        assert session.exec(select(TableSeat.learner_id).where(TableSeat.learner_id.is_not(None))).all() == []
    assert member.post(f"/api/tables/{code}/seats", json={"seat": "east"}).status_code == 200


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"turn_timer": 4}, "turn_timer"), ({"turn_timer": 601}, "turn_timer"), ({"turn_timer": 7.5}, "turn_timer"),
        ({"turn_timer": True}, "turn_timer"), ({"kind": "class"}, "kind"), ({"kind": "duplicate"}, "kind"),
        ({"sit": "centre"}, "sit"), ({"sit": 1}, "sit"), ({"strength": "grandmaster"}, "strength"),
        ({"auto_pass": "yes"}, "auto_pass"), ({"auto_pass": 1}, "auto_pass"), ({"seats": 4}, "seats"),
    ],
)
def test_a_new_table_body_the_api_refuses_the_description_refuses_too(client, body, said):
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 400 and said in answer.get_json()["error"]
    assert not validator("TableRequest").is_valid(body)


def test_bodies_the_api_takes_the_description_takes(client):
    for body in ({}, {"turn_timer": 30.0, "kind": "waits", "sit": "North", "strength": "shark", "auto_pass": False},
                 {"turn_timer": None, "kind": None, "sit": None, "strength": None, "auto_pass": None}):
        assert validator("TableRequest").is_valid(body)
        assert client.post("/api/tables", json=body).status_code == 201
    code = _open(client)
    for body in ({"seat": "centre"}, {"seat": None}, {}, {"seat": "west", "also": 1}):
        assert client.post(f"/api/tables/{code}/seats", json=body).status_code == 400
        assert not validator("SeatRequest").is_valid(body)
    assert client.post(f"/api/tables/{code}/start", json={"now": True}).status_code == 400
    assert not validator("Empty").is_valid({"now": True})
    for body in ({"action": {"kind": "vote", "go": True}}, {"move": 0}, {"action": {"seat": "East", "kind": "vote", "hue": 1}, "move": 0},
                 {"action": {"seat": "East", "kind": "vote", "go": True}, "move": -1}):
        assert client.post(f"/api/tables/{code}/actions", json=body).status_code == 400, body
        assert not validator("TableActionRequest").is_valid(body)


def test_the_events_stream_says_moved_when_another_person_moves(app):
    ann, bob, code = _seated(app)
    stream = bob.get(f"/api/tables/{code}/events", buffered=False)
    assert stream.status_code == 200 and stream.mimetype == "text/event-stream"
    events = (chunk.decode() if isinstance(chunk, bytes) else chunk for chunk in stream.response)
    assert next(events).startswith("retry:")
    first = next(events)
    assert first.startswith("event: moved\ndata: ")
    assert int(first.split("data: ")[1]) == bob.get(f"/api/tables/{code}").get_json()["version"]
    hand = ann.get(f"/api/tables/{code}").get_json()["hand"]
    played: list[float] = []

    def move() -> None:
        time.sleep(0.1)
        ann.post(f"/api/tables/{code}/actions", json={"action": hand["choices"][0], "move": hand["move"]})
        played.append(time.monotonic())

    mover = threading.Thread(target=move)
    mover.start()
    second = next(events)
    mover.join()
    assert second.startswith("event: moved\ndata: ") and second != first
    stream.close()
    with db(app) as session:
        assert session.exec(select(GameTable)).first() is not None
    assert app.test_client().get("/api/tables/NOSUCH/events").status_code == 404


def test_a_code_is_read_as_typed_and_nothing_else_finds_a_table(app):
    ann = app.test_client()
    code = _open(ann)
    assert ann.get(f"/api/tables/{code.lower()}").get_json()["code"] == code
    for wrong in ("ZZZZZZ", "x" * 40):
        answer = ann.get(f"/api/tables/{wrong}")
        assert answer.status_code == 404 and "no such table" in answer.get_json()["error"]
    assert ann.get("/api/tables/%00").status_code == 404
    with Session(app.extensions["store"]) as session:
        assert len(session.exec(select(GameTable)).all()) == 1


def test_a_fetch_that_notes_a_persons_presence_still_answers_the_table(app, monkeypatch):
    from datetime import timedelta

    from coach.web.api import tables as tables_api

    ann, bob, code = _seated(app)
    monkeypatch.setattr(tables_api, "HEARD_EVERY", timedelta(0))  # every fetch is a sign of life to write
    with db(app) as session:
        seat = session.exec(select(TableSeat).where(TableSeat.seat == "South")).one()
        seat.present = False  # Bob was away
        session.add(seat)
        session.commit()
    seen = bob.get(f"/api/tables/{code}")
    assert seen.status_code == 200 and seen.get_json()["hand"]["seat"] == "South"
    assert [s["present"] for s in seen.get_json()["seats"]][:2] == [True, True]  # back
    again = ann.get(f"/api/tables/{code}")
    assert again.status_code == 200 and again.get_json()["version"] == seen.get_json()["version"]


def test_a_fetch_that_marks_someone_else_away_still_answers_the_table(app):
    from datetime import timedelta

    from coach.common import clock

    ann, bob, code = _seated(app)
    with db(app) as session:
        seat = session.exec(select(TableSeat).where(TableSeat.seat == "South")).one()
        seat.seen_at = clock.now() - timedelta(minutes=5)  # Bob's page closed long ago: the fetch ticks
        session.add(seat)
        session.commit()
    seen = ann.get(f"/api/tables/{code}")
    assert seen.status_code == 200, seen.get_data(as_text=True)[:300]
    assert [s["present"] for s in seen.get_json()["seats"]][:2] == [True, False]  # Bob is away now
    stream = ann.get(f"/api/tables/{code}/events", buffered=False)
    chunks = (c.decode() if isinstance(c, bytes) else c for c in stream.response)
    assert next(chunks).startswith("retry:") and next(chunks).startswith("event: moved")
    stream.close()
