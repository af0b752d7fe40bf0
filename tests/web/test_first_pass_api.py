"""The first-pass drill through the JSON API: a question, the best pass and
"show me", and answers of every wrong shape."""

from __future__ import annotations

from tests.support.cards import CARD
from tests.support.passes import best_and_worst


def test_api_first_pass_question_and_answers(client):
    asked = client.post("/api/drills/first-pass/questions", json={"seed": 4, "level": 2})
    assert asked.status_code == 201
    data = asked.get_json()
    assert data["drill"] == "first-pass" and len(data["rack"]) == 13 and data["card"] == CARD.name
    _, best, _ = best_and_worst(4, 2)
    right = client.post("/api/drills/first-pass/answers", json={"token": data["token"], "answer": best})
    assert right.status_code == 200 and right.get_json()["correct"] is True
    assert "C1" in right.get_json()["rules"]
    shown = client.post("/api/drills/first-pass/answers", json={"token": data["token"], "answer": None})
    assert shown.get_json()["correct"] is False and shown.get_json()["best"] == best


def test_api_first_pass_bad_answers_are_400(client):
    token = client.post("/api/drills/first-pass/questions", json={"seed": 4, "level": 2}).get_json()["token"]
    for answer in ["7C N 9B", ["7C"], ["7X", "N", "9B"], [1, 2, 3]]:
        reply = client.post("/api/drills/first-pass/answers", json={"token": token, "answer": answer})
        assert reply.status_code == 400 and "error" in reply.get_json()
