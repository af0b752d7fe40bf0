"""Teaching over the test client: teachers' cards (good, of pairs, broken), sign-ups,
classes, drill sets, assignments and the store's rows, for the teach and class tests."""

from __future__ import annotations

import html
import io
import json
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, select

from coach.store import progress
from coach.store.models import (
    Assignment,
    AssignmentAnswer,
    AssignmentWork,
    ClassHand,
    ClassHandPlay,
    Classroom,
    ClassRound,
    DrillSetRow,
    GameTable,
    Learner,
    Membership,
    TableHand,
    TableSeat,
    TeacherCard,
)
from coach.store.teaching import classrooms, homework
from drills.sets import HOUSE
from tests.support.pages import csrf_of

PASSWORD = "correct horse battery"


GOOD_CARD = """name: "Spring class"
year: 2026
sections:
  - name: "Evens"
    hands:
      - id: "E-1"
        pattern: "222a 444a 6666a 8888a"
        value: 25
        concealed: false
        numbers: fixed
        note: "One suit"
      - id: "E-2"
        pattern: "FF 2222a 44b 66c 8888a"
        value: 25
        concealed: false
        numbers: fixed
        note: "Any 3 suits"
"""


# Hot or safe? cannot make a question on a card of singles and pairs alone.
PAIRS_CARD = """name: "Pairs only"
sections:
  - name: "Singles and pairs"
    hands:
      - id: "SP-1"
        pattern: "NN EE WW SS 11a 22a 33a"
        value: 50
        concealed: true
        numbers: fixed
"""


BROKEN_CARD = """name: "Broken"
sections:
  - name: "Evens"
    hands:
      - id: "E-1"
        pattern: "222a 444a 6666a"
        value: 25
      - id: "E-2"
        pattern: "FF 2222a 44b 66c 8888a"
        value: -3
"""


TABLES = (
    Learner, Classroom, Membership, TeacherCard, DrillSetRow, Assignment, AssignmentWork, AssignmentAnswer, ClassHand, ClassHandPlay,
    ClassRound, GameTable, TableSeat, TableHand,
)


def csrf(client: FlaskClient) -> str:
    return csrf_of(client.get("/rules").get_data(as_text=True))


def post(client: FlaskClient, url: str, data: dict[str, Any] | None = None, **kwargs: Any):
    """A form post as a browser sends it, with the session's CSRF token."""
    return client.post(url, data={"csrf_token": csrf(client), **(data or {})}, **kwargs)


def text_of(response) -> str:
    """The page as a reader sees its text: entities decoded, tags kept."""
    return html.unescape(response.get_data(as_text=True))


def sign_up(app: Flask, email: str, teacher: bool = True, name: str = "", time_zone: str = "") -> FlaskClient:
    client = app.test_client()
    data = {"email": email, "password": PASSWORD, "name": name, "time_zone": time_zone}
    if teacher:
        data["teacher"] = "1"
    response = post(client, "/signup", data)
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    return client


def guest(app: Flask) -> FlaskClient:
    """A browser that answered one drill: a guest learner, signed in."""
    client = app.test_client()
    q = client.post("/api/drills/name-the-tile/questions", json={"seed": 1, "level": 1}).get_json()
    body = client.post("/api/drills/name-the-tile/answers", json={"token": q["token"], "answer": q["tile"]}).get_json()
    assert body["correct"] is True
    return client


def db(app: Flask) -> Session:
    return Session(app.extensions["store"])


def learner_id(app: Flask, email: str) -> int:
    with db(app) as session:
        row = session.exec(select(Learner).where(Learner.email == email)).one()
        assert row.id is not None
        return row.id


def count(app: Flask, model: Any) -> int:
    with db(app) as session:
        return len(session.exec(select(model)).all())


def snapshot(app: Flask) -> dict[str, list[str]]:
    """Every row of every table teaching touches, to prove nothing changed."""
    with db(app) as session:
        return {
            model.__name__: sorted(
                json.dumps(row.model_dump(), default=str, sort_keys=True) for row in session.exec(select(model)).all()
            )
            for model in TABLES
        }


def make_class(client: FlaskClient, name: str = "Tuesday beginners") -> int:
    response = post(client, "/teach/classes", {"name": name})
    assert response.status_code == 303
    match = re.fullmatch(r"/teach/classes/(\d+)", response.headers["Location"])
    assert match, response.headers["Location"]
    return int(match.group(1))


def code_of(app: Flask, class_id: int) -> str:
    with db(app) as session:
        room = session.get(Classroom, class_id)
        assert room is not None
        return room.join_code


def set_form(title: str, rows: list[tuple[str, str, str]], card: str = HOUSE, seeds: str = "fixed", seed: str = "", **extra: Any) -> dict[str, Any]:
    return {
        "title": title,
        "description": "",
        "card": card,
        "seeds": seeds,
        "seed": seed,
        "drill": [r[0] for r in rows],
        "level": [r[1] for r in rows],
        "questions": [r[2] for r in rows],
        **extra,
    }


def make_set(client: FlaskClient, app: Flask, title: str, rows: list[tuple[str, str, str]], **kwargs: Any) -> int:
    before = {row_id for row_id in _set_ids(app)}
    response = post(client, "/teach/sets/new", set_form(title, rows, **kwargs))
    assert response.status_code == 303, text_of(response)[-2000:]
    (new,) = set(_set_ids(app)) - before
    return new


def _set_ids(app: Flask) -> list[int]:
    with db(app) as session:
        return [row.id for row in session.exec(select(DrillSetRow)).all() if row.id is not None]


def upload_card(client: FlaskClient, text: str, filename: str = "card.yaml"):
    data = {"csrf_token": csrf(client), "card_file": (io.BytesIO(text.encode()), filename)}
    return client.post("/teach/cards", data=data, content_type="multipart/form-data")


def card_id_named(app: Flask, name: str) -> int:
    with db(app) as session:
        row = session.exec(select(TeacherCard).where(TeacherCard.name == name)).one()
        assert row.id is not None
        return row.id


def join(app: Flask, email: str, class_id: int) -> int:
    """Put a signed-up learner in a class (as the student pages would)."""
    with db(app) as session:
        learner = session.exec(select(Learner).where(Learner.email == email)).one()
        classrooms.join_class(session, learner, code_of(app, class_id))
        assert learner.id is not None
        return learner.id


def assign(client: FlaskClient, class_id: int, choice: str, due: str = ""):
    return post(client, f"/teach/classes/{class_id}/assign", {"set": choice, "due": due})


def last_assignment(app: Flask) -> Assignment:
    with db(app) as session:
        row = session.exec(select(Assignment).order_by(Assignment.id.desc())).first()  # type: ignore[union-attr]
        assert row is not None
        return row


def answer_slots(app: Flask, assignment_id: int, student: int, rights: list[bool], attempts: bool = False) -> list[Any]:
    """The student answers the assignment's first len(rights) questions
    (name-the-tile, level 1): right ones with the tile, wrong ones with
    another of the choices. With `attempts`, each is also kept as the
    learner's attempt, as the web does. Returns the verdicts."""
    coach = app.extensions["coach"]
    verdicts = []
    with db(app) as session:
        given = session.get(Assignment, assignment_id)
        assert given is not None
        work = homework.work_of(session, given, student, create=True)
        for slot, right in zip(homework.slots_of(given, work), rights):
            asked = coach.ask(slot.drill, seed=slot.seed, level=slot.level)
            q = asked.question
            reply = q.tile if right else next(c for c in q.choices if c != q.tile)
            verdict = asked.module.grade(q, reply)
            assert verdict.correct is right
            assert homework.record_assignment_answer(session, given, student, slot, q, verdict)
            if attempts:
                progress.record_answer(session, student, q, verdict)
            verdicts.append(verdict)
    return verdicts
