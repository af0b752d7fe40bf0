"""Today's practice: the plan (due first, then new in teaching order, then weak),
the session's progress, and the whole session in a real browser."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from sqlmodel import Session, select

from coach.store.daily import SESSION_SIZE, advance, catalog, plan, today
from coach.store.db import make_engine, migrate
from coach.store.models import DailySession, Learner
from tests.support.pages import open_drill

DAY = date(2026, 11, 29)


def test_catalog_is_in_teaching_order():
    skills = catalog()
    assert skills[0] == ("name-the-tile", 1)
    drills_in_order = list(dict.fromkeys(name for name, _ in skills))
    # the tiles before reading the card before the Charleston
    order = [drills_in_order.index(n) for n in ("name-the-tile", "nearest-hand", "first-pass")]
    assert order == sorted(order)


def test_a_new_learner_starts_with_the_tiles():
    slots = plan([], {}, 1, DAY)
    assert len(slots) == SESSION_SIZE
    assert [(s.drill, s.level) for s in slots[:3]] == [("name-the-tile", 1)] * 3
    assert {s.why for s in slots} == {"new"}
    assert all(s.drill == "name-the-tile" for s in slots)  # no Charleston before the tiles
    assert len({s.seed for s in slots}) == SESSION_SIZE


def test_due_reviews_come_first_then_new_skills_then_weak_ones():
    practised = {("name-the-tile", level): 1.0 for level in (1, 2, 3, 4)}
    practised[("name-the-tile", 3)] = 0.2
    slots = plan([("name-the-tile", 2)], practised, 7, DAY)
    assert [(s.drill, s.level, s.why) for s in slots[:2]] == [("name-the-tile", 2, "due")] * 2
    first_new, second_new = [skill for skill in catalog() if skill not in practised][:2]
    assert [(s.drill, s.level, s.why) for s in slots[2:5]] == [(*first_new, "new")] * 3
    assert [(s.drill, s.level, s.why) for s in slots[5:8]] == [(*second_new, "new")] * 3
    assert (slots[8].drill, slots[8].level, slots[8].why) == ("name-the-tile", 3, "weak")


def test_same_learner_same_day_same_seeds():
    assert plan([], {}, 3, DAY) == plan([], {}, 3, DAY)
    assert plan([], {}, 3, DAY) != plan([], {}, 3, DAY + timedelta(days=1))


@pytest.fixture
def store(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'coach.sqlite3'}")
    migrate(engine)
    with Session(engine) as session:
        learner = Learner(time_zone="Pacific/Auckland")
        session.add(learner)
        session.commit()
        session.refresh(learner)
    return engine, learner


def test_today_is_planned_once_and_advances_once_per_question(store):
    engine, learner = store
    noon = datetime(2026, 11, 29, 12, tzinfo=UTC)
    with Session(engine) as session:
        first = today(session, learner, noon)
        again = today(session, learner, noon)
        assert first == again and first.position == 0
        assert advance(session, learner, 0, noon).position == 1
        assert advance(session, learner, 0, noon).position == 1  # a repeated "next" moves nothing
        assert advance(session, learner, 1, noon).position == 2
        assert len(session.exec(select(DailySession)).all()) == 1
        # 12:00 UTC is already the 30th in Auckland: the plan is dated by the learner's day.
        assert first.day == date(2026, 11, 30)


def test_the_session_page_and_its_next_step(client):
    html = client.get("/today").get_data(as_text=True)
    assert "Question 1 of 10" in html and 'name="session" value="today"' in html
    html, csrf, token = open_drill(client, "/today")
    reply = client.post(
        "/drills/name-the-tile/answer",
        data={"token": token, "show": "1", "session": "today", "slot": "0"},
        headers={"HX-Request": "true", "X-CSRFToken": csrf},
    )
    body = reply.get_data(as_text=True)
    assert 'action="/today/next"' in body and "Next question" in body
    assert client.get("/api/progress").get_json()["attempts"] == 1
    step = client.post("/today/next", data={"after": "0"}, headers={"HX-Request": "true", "X-CSRFToken": csrf})
    assert "Question 2 of 10" in step.get_data(as_text=True)
    again = client.post("/today/next", data={"after": "0"}, headers={"HX-Request": "true", "X-CSRFToken": csrf})
    assert "Question 2 of 10" in again.get_data(as_text=True)


def test_next_needs_the_csrf_token(client):
    client.get("/today")
    assert client.post("/today/next", data={"after": "0"}).status_code == 400


