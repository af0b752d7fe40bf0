"""Answers count for the learner of the session: a guest from the first answer."""

from __future__ import annotations

from sqlmodel import Session, select

from coach.store.models import Attempt, Learner
from tests.support.pages import open_drill


def ask(client, drill="name-the-tile", seed=3, level=1):
    return client.post(f"/api/drills/{drill}/questions", json={"seed": seed, "level": level}).get_json()


def test_progress_is_empty_before_any_answer(client):
    data = client.get("/api/progress").get_json()
    assert data == {"attempts": 0, "correct": 0, "streak": 0, "today": 0, "skills": []}


def test_an_api_answer_counts_for_a_new_guest(app, client):
    q = ask(client)
    reply = client.post("/api/drills/name-the-tile/answers", json={"token": q["token"], "answer": q["tile"], "time_ms": 3100})
    assert reply.get_json()["counted"] is True
    data = client.get("/api/progress").get_json()
    assert (data["attempts"], data["correct"], data["streak"]) == (1, 1, 1)
    assert {"skill", "level", "attempts", "accuracy", "due"} <= set(data["skills"][0])
    with Session(app.extensions["store"]) as session:
        guest = session.exec(select(Learner)).one()
        assert guest.guest and guest.email is None
        assert session.exec(select(Attempt)).one().time_taken_ms == 3100


def test_a_second_answer_to_the_same_question_is_graded_but_not_counted(client):
    q = ask(client)
    shown = client.post("/api/drills/name-the-tile/answers", json={"token": q["token"], "answer": None}).get_json()
    again = client.post("/api/drills/name-the-tile/answers", json={"token": q["token"], "answer": q["tile"]}).get_json()
    assert shown["counted"] is True and again["counted"] is False
    assert again["correct"] is True  # still graded and shown
    data = client.get("/api/progress").get_json()
    assert (data["attempts"], data["correct"]) == (1, 0)


def test_each_browser_has_its_own_guest(app):
    first, second = app.test_client(), app.test_client()
    q = ask(first)
    first.post("/api/drills/name-the-tile/answers", json={"token": q["token"], "answer": q["tile"]})
    assert first.get("/api/progress").get_json()["attempts"] == 1
    assert second.get("/api/progress").get_json()["attempts"] == 0


def test_a_page_answer_counts_and_sets_the_time_zone(app, client):
    html, csrf, token = open_drill(client, "/drills/name-the-tile?level=2&seed=4")
    response = client.post(
        "/drills/name-the-tile/answer",
        data={"token": token, "answer": "5 dot", "elapsed_ms": "2500", "tz": "Asia/Tokyo"},
        headers={"HX-Request": "true", "X-CSRFToken": csrf},
    )
    assert response.status_code == 200
    assert client.get("/api/progress").get_json()["attempts"] == 1
    with Session(app.extensions["store"]) as session:
        assert session.exec(select(Learner)).one().time_zone == "Asia/Tokyo"


def test_a_bad_time_zone_or_time_is_ignored(app, client):
    html, csrf, token = open_drill(client, "/drills/name-the-tile?level=2&seed=4")
    client.post(
        "/drills/name-the-tile/answer",
        data={"token": token, "answer": "5 dot", "elapsed_ms": "-5", "tz": "Mars/Olympus"},
        headers={"HX-Request": "true", "X-CSRFToken": csrf},
    )
    with Session(app.extensions["store"]) as session:
        assert session.exec(select(Learner)).one().time_zone == "UTC"
        assert session.exec(select(Attempt)).one().time_taken_ms is None


