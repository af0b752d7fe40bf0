"""The practice hand routes as a table, tried by the wrong people (issue 16).

Like the account and teach tables (tests/web/test_account_routes.py,
tests/web/test_teach.py), the table is compared with the app's url_map: a
new route of the /play pages or of the hands' JSON API without a row fails
here. Every route on one hand is tried by a visitor with no cookie, by a
guest and by another account: each gets a 404 (the hand's existence is not
confirmed) and nothing stored changes: not the hand, and no guest is made.
"""

from __future__ import annotations

from sqlmodel import select

from coach.store.models import Learner, PracticeHand
from tests.support.teaching import db, post, sign_up

# endpoint -> (rule, methods)
ROUTES = {
    "practice.home": ("/play", {"GET"}),
    "practice.new": ("/play", {"POST"}),
    "practice.table": ("/play/<int:hand_id>", {"GET"}),
    "practice.act": ("/play/<int:hand_id>/act", {"POST"}),
    "practice.hint": ("/play/<int:hand_id>/hint", {"POST"}),
    "practice.review_page": ("/play/<int:hand_id>/review", {"GET"}),
    "practice.review_summary": ("/play/<int:hand_id>/review/summary", {"GET"}),
    "hands_api.new_hand": ("/api/hands", {"POST"}),
    "hands_api.show": ("/api/hands/<int:hand_id>", {"GET"}),
    "hands_api.act": ("/api/hands/<int:hand_id>/actions", {"POST"}),
    "hands_api.review_of": ("/api/hands/<int:hand_id>/review", {"GET"}),
}


def snapshot(app) -> dict[str, list]:
    with db(app) as session:
        return {
            "learners": sorted((r.id, r.guest, r.email) for r in session.exec(select(Learner)).all()),
            "hands": sorted(
                (r.id, r.learner_id, r.seed, r.card, r.bots, r.actions, r.hints, r.result, r.finished_at)
                for r in session.exec(select(PracticeHand)).all()
            ),
        }


def test_the_table_covers_every_practice_route(app):
    found = {
        rule.endpoint: (rule.rule, set(rule.methods or ()) - {"HEAD", "OPTIONS"})
        for rule in app.url_map.iter_rules()
        if rule.endpoint.split(".")[0] in ("practice", "hands_api")
    }
    assert found == ROUTES


def attempts(client, hand_id: int, move: dict) -> list:
    """Every route on one hand, each with a move that would change it."""
    return [
        client.get(f"/play/{hand_id}"),
        post(client, f"/play/{hand_id}/act", {"kind": "vote", "go": "0", "move": "0"}),
        post(client, f"/play/{hand_id}/hint"),
        client.get(f"/play/{hand_id}/review"),
        client.get(f"/play/{hand_id}/review/summary", headers={"HX-Request": "true"}),
        client.get(f"/api/hands/{hand_id}"),
        client.post(f"/api/hands/{hand_id}/actions", json={"action": move, "move": 0}),
        client.get(f"/api/hands/{hand_id}/review"),
    ]


def test_nobody_else_sees_or_moves_a_hand(app):
    owner = sign_up(app, "ann@example.org", teacher=False)
    state = owner.post("/api/hands", json={"seed": 41}).get_json()
    hand_id, move = state["id"], state["legal"][0]
    others = {"visitor": app.test_client(), "guest": app.test_client(), "account": sign_up(app, "bob@example.org", teacher=False)}
    assert others["guest"].post("/api/hands", json={}).status_code == 201  # a guest with a hand of their own
    before = snapshot(app)
    for who, client in others.items():
        for response in attempts(client, hand_id, move):
            assert response.status_code == 404, (who, response.request.path, response.status_code)
            assert "ann@example.org" not in response.get_data(as_text=True)
        assert f"/play/{hand_id}" not in client.get("/play").get_data(as_text=True)  # not listed either
    assert snapshot(app) == before  # and no guest was made by the visitor
    assert owner.get(f"/api/hands/{hand_id}").get_json() == state
