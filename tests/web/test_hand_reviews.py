"""A practice hand's review, computed once in the background and shown with its
progress (issue 24, item 8): the API answers 202 with how far it has got,
then 200 with the review; the pages show a progress bar that htmx polls
until the review replaces it; a review is made again for a new grading
(REVIEW_VERSION) and taken over when its worker died.

Most tests run the app's background path (REVIEWS_INLINE off): the grading
is held at its second decision by a gate around `review` (the real
grading, observed through its progress), so what a request sees while it
runs is certain, never a matter of timing."""

from __future__ import annotations

import json
import re
import threading
import time
from datetime import timedelta

import pytest
from sqlmodel import Session

from coach.common import clock
from coach.play.review import review
from coach.rules.table_rules import LEAGUE
from coach.store import hands as hands_store
from coach.store import reviews as review_store
from coach.store.models import PracticeHand
from coach.web.shared.practice import reviews
from coach.web.shared.practice.hands import SEAT, result_json
from tests.support.openapi import assert_valid
from tests.support.practice import deal_one
from tests.support.replay import HAND, HOUSE, SEED
from tests.support.teaching import text_of

DECISIONS = sum(1 for a in HAND.actions if a.seat == SEAT)
HX = {"HX-Request": "true"}


class Gate:
    """`review` held after its second graded decision until `open()`."""

    def __init__(self) -> None:
        self.held = threading.Event()
        self.opened = threading.Event()
        self.calls = 0

    def review(self, card, seed, actions, seat, progress=None, rules=LEAGUE):
        self.calls += 1

        def watched(done: int, total: int) -> None:
            if progress is not None:
                progress(done, total)
            if done == 2:
                self.held.set()
                assert self.opened.wait(30), "the test never opened the gate"

        return review(card, seed, actions, seat, progress=watched, rules=rules)

    def open(self) -> None:
        self.opened.set()


@pytest.fixture
def gate(app, monkeypatch):
    """The app's reviews in the background, each held by the gate at its second decision."""
    app.config["REVIEWS_INLINE"] = False
    held = Gate()
    monkeypatch.setattr(reviews, "review", held.review)
    yield held
    held.open()  # never leave a worker waiting


def finished_hand(app, client) -> int:
    """A hand of the client's learner, saved finished (no move request, so no review yet)."""
    hand_id = deal_one(client)
    with Session(app.extensions["store"]) as session:
        row = session.get(PracticeHand, hand_id)
        assert row is not None
        row.seed = SEED
        hands_store.save(session, row, [a.to_json() for a in HAND.actions], result_json(HAND))
    return hand_id


def stored(app, hand_id: int):
    with Session(app.extensions["store"]) as session:
        return review_store.review_of(session, hand_id, SEAT), session.get(PracticeHand, hand_id)


def until_done(client, hand_id: int, limit: float = 30.0):
    """Ask the API until the review is done, as a client would."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        response = client.get(f"/api/hands/{hand_id}/review")
        if response.status_code != 202:
            return response
        time.sleep(0.05)
    raise AssertionError("the review did not finish")


def test_the_api_answers_202_with_progress_then_200_with_the_review(app, gate):
    client = app.test_client()
    hand_id = finished_hand(app, client)
    response = client.get(f"/api/hands/{hand_id}/review")  # the first look starts it, in the background
    assert response.status_code == 202 and response.headers["Retry-After"] == "1"
    assert gate.held.wait(30)
    running = client.get(f"/api/hands/{hand_id}/review")
    assert running.status_code == 202
    body = running.get_json()
    assert_valid("ReviewProgress", body)
    assert body["status"] == "running" and 1 <= body["done"] <= 2 and body["total"] == DECISIONS
    gate.open()
    done = until_done(client, hand_id)
    assert done.status_code == 200
    assert_valid("HandReview", done.get_json())
    assert done.get_json()["summary"]["decisions"] == DECISIONS
    assert gate.calls == 1  # asked four ways, graded once
    row, hand = stored(app, hand_id)
    assert row is not None and row.status == "done" and (row.done, row.total) == (DECISIONS, DECISIONS)
    result = json.loads(hand.result)  # what the progress page reads joined the hand's result
    assert result["decisions"] == DECISIONS and result["accuracy"] == done.get_json()["summary"]["accuracy"]


def test_the_review_page_shows_a_progress_bar_that_polls_then_the_review(app, gate):
    client = app.test_client()
    hand_id = finished_hand(app, client)
    client.get(f"/play/{hand_id}/review")
    assert gate.held.wait(30)
    page = client.get(f"/play/{hand_id}/review")
    assert page.status_code == 200 and "HX-Request" in page.headers["Vary"]
    html = page.get_data(as_text=True)
    bar = re.search(r"<progress [^>]*>", html)
    assert bar and 'role="progressbar"' in bar[0] and f'aria-valuemax="{DECISIONS}"' in bar[0] and 'aria-valuemin="0"' in bar[0]
    done = int(re.search(r'aria-valuenow="(\d+)"', bar[0])[1])  # type: ignore[index]
    assert 1 <= done <= 2 and f"Reviewing your hand: decision {done} of {DECISIONS}" in text_of(page)
    assert re.search(rf'hx-get="/play/{hand_id}/review" hx-trigger="every 1s" hx-target="#review-live" hx-swap="outerHTML"', html)
    # htmx's poll gets the partial alone: the progress again, no page around it.
    polled = client.get(f"/play/{hand_id}/review", headers=HX).get_data(as_text=True)
    assert polled.lstrip().startswith('<div id="review-live"') and "<html" not in polled and 'hx-trigger="every 1s"' in polled
    gate.open()
    until_done(client, hand_id)
    polled = client.get(f"/play/{hand_id}/review", headers=HX).get_data(as_text=True)
    assert polled.lstrip().startswith('<div id="review-live"') and "hx-trigger" not in polled  # the polling stops here
    assert f"{DECISIONS} decisions" in polled and polled.count('class="card review-step') == DECISIONS


def test_the_tables_end_shows_the_reviews_progress_then_its_summary(app, gate):
    client = app.test_client()
    hand_id = finished_hand(app, client)
    table = text_of(client.get(f"/play/{hand_id}"))  # the table's end starts the missing review too
    assert "Reviewing your hand" in table
    assert gate.held.wait(30)
    summary = client.get(f"/play/{hand_id}/review/summary", headers=HX).get_data(as_text=True)
    assert summary.lstrip().startswith('<div id="review-summary"') and 'role="progressbar"' in summary
    assert f'hx-get="/play/{hand_id}/review/summary"' in summary and 'hx-target="#review-summary"' in summary
    assert client.get(f"/play/{hand_id}/review/summary").status_code == 303  # not htmx: the table itself
    gate.open()
    until_done(client, hand_id)
    summary = client.get(f"/play/{hand_id}/review/summary", headers=HX).get_data(as_text=True)
    assert "hx-trigger" not in summary and f"{DECISIONS} decisions" in summary and "See the coach's review" in summary


def test_the_review_starts_when_the_last_move_is_saved(app, client):
    """Through the API, move by move, to the end: the review is claimed by the move
    that ends the hand, in the background, before anyone asks for it."""
    app.config["REVIEWS_INLINE"] = False
    state = client.post("/api/hands", json={"seed": 5}).get_json()
    for _ in range(400):
        if state["over"]:
            break
        assert stored(app, state["id"])[0] is None  # not while it goes on
        state = client.post(f"/api/hands/{state['id']}/actions", json={"action": state["legal"][0], "move": state["move"]}).get_json()
    assert state["over"]
    row, _ = stored(app, state["id"])
    assert row is not None and row.status in ("running", "done")
    assert until_done(client, state["id"]).status_code == 200


def test_a_new_review_version_grades_the_hand_again(app, client, monkeypatch):
    hand_id = finished_hand(app, client)
    first = client.get(f"/api/hands/{hand_id}/review")
    assert first.status_code == 200  # under test, computed in the request that starts it
    graded = []
    monkeypatch.setattr(reviews, "review", lambda *args, **kw: graded.append(1) or review(*args, **kw))
    assert client.get(f"/api/hands/{hand_id}/review").get_json() == first.get_json() and graded == []  # kept
    newer = reviews.REVIEW_VERSION + 1
    monkeypatch.setattr(reviews, "REVIEW_VERSION", newer)
    again = client.get(f"/api/hands/{hand_id}/review")
    assert again.status_code == 200 and graded == [1]
    row, _ = stored(app, hand_id)
    assert row is not None and row.version == newer and row.attempt == 2


def test_a_review_left_running_by_a_dead_worker_is_made_again(app, client):
    hand_id = finished_hand(app, client)
    with Session(app.extensions["store"]) as session:  # a worker claimed it, then its process was killed
        long_ago = clock.now() - review_store.STALE_AFTER - timedelta(seconds=5)
        claim = review_store.claim(session, hand_id, SEAT, len(HAND.actions), reviews.REVIEW_VERSION, now=long_ago)
        session.commit()
    assert claim is not None
    response = client.get(f"/api/hands/{hand_id}/review")
    assert response.status_code == 200 and response.get_json()["summary"]["decisions"] == DECISIONS
    row, _ = stored(app, hand_id)
    assert row is not None and row.attempt == 2 and row.status == "done"


def test_a_fresh_running_review_is_not_taken_over(app, client):
    hand_id = finished_hand(app, client)
    with Session(app.extensions["store"]) as session:  # a live worker in another process has it
        assert review_store.claim(session, hand_id, SEAT, len(HAND.actions), reviews.REVIEW_VERSION) is not None
        session.commit()
    response = client.get(f"/api/hands/{hand_id}/review")
    assert response.status_code == 202 and response.get_json() == {"status": "running", "done": 0, "total": 0}
    assert "Reviewing your hand…" in text_of(client.get(f"/play/{hand_id}/review"))


def test_the_review_of_a_hand_still_going_waits_for_the_end(app, client):
    hand_id = deal_one(client)
    assert client.get(f"/api/hands/{hand_id}/review").status_code == 409
    assert client.get(f"/play/{hand_id}/review").status_code == 303
    _, hand = stored(app, hand_id)
    assert stored(app, hand_id)[0] is None and hand.finished_at is None
    assert HOUSE.name == app.extensions["coach"].card.name
