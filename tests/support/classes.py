"""Classes made straight in the store, and a student's way through an
assignment over the test client: shared by the class tests."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from html import unescape

from sqlmodel import Session
from werkzeug.security import generate_password_hash

from coach.store.models import Learner
from coach.store.teaching import classrooms, homework, roles
from drills.sets import parse_set
from tests.support.accounts import PASSWORD
from tests.support.app import TEST_PASSWORD_HASH
from tests.support.pages import csrf_of

FIXED = """\
set: "Week one: the tiles"
description: "Name each tile, then one question on the deal."
seeds: fixed
seed: 4242
drills:
  - drill: name-the-tile
    level: 1
    questions: 2
  - drill: setup-and-turns
    level: 1
    questions: 1
"""


TOKEN = re.compile(r'name="token" value="([^"]+)"')


DRILL = re.compile(r'action="/drills/([a-z-]+)/answer"')


HTMX = {"HX-Request": "true"}


def db(app) -> Session:
    return Session(app.extensions["store"])


def post(client, url: str, data: dict | None = None, headers: dict | None = None):
    """A form post as a browser sends it, the page's CSRF token in the form."""
    return client.post(url, data={"csrf_token": csrf(client), **(data or {})}, headers=headers or {})


def text(response) -> str:
    return unescape(response.get_data(as_text=True))


@dataclass
class Room:
    teacher_id: int
    class_id: int
    code: str
    name: str


def csrf(client) -> str:
    return csrf_of(client.get("/rules").get_data(as_text=True))


def make_teacher(app, email: str = "lee@example.org", name: str = "Mrs Lee") -> int:
    with db(app) as session:
        row = Learner(
            email=email, name=name, guest=False, role=roles.TEACHER, password_hash=generate_password_hash(PASSWORD, method=TEST_PASSWORD_HASH)
        )
        session.add(row)
        session.commit()
        session.refresh(row)
        assert row.id is not None
        return row.id


def make_class(app, teacher_id: int, name: str = "Tuesday beginners") -> Room:
    with db(app) as session:
        row = classrooms.create_class(session, teacher_id, name)
        assert row.id is not None
        return Room(teacher_id, row.id, row.join_code, row.name)


def give(app, room: Room, source: str = FIXED, due_at: datetime | None = None, cards=None) -> int:
    with db(app) as session:
        drill_set = parse_set(source, cards=cards or ("house",))
        row = homework.assign(session, room.teacher_id, room.class_id, drill_set, due_at)
        assert row.id is not None
        return row.id


def guest_joins(app, room: Room, name: str = "Ann"):
    """A new browser opens the class link and joins with a name (a guest)."""
    client = app.test_client()
    page = client.get(f"/join/{room.code}")
    assert page.status_code == 200
    form = {"csrf_token": csrf_of(page.get_data(as_text=True)), "code": room.code, "name": name}
    reply = client.post("/join", data=form)
    assert reply.status_code == 303, text(reply)
    client.get(reply.headers["Location"])  # the browser follows on, reading the welcome
    return client


def open_question(client, assignment_id: int, number: int) -> tuple[str, str, str]:
    """Question `number` of an assignment: the page, its drill and its token."""
    response = client.get(f"/assignments/{assignment_id}/q/{number}")
    assert response.status_code == 200, text(response)
    html = response.get_data(as_text=True)
    return html, DRILL.search(html).group(1), TOKEN.search(html).group(1)


def choices(app, drill: str, token: str) -> tuple[str, str]:
    """The right answer of a house-card question, and a wrong one."""
    asked = app.extensions["coach"].from_token(drill, token)
    best = asked.module.grade(asked.question, None).best
    return best, next(c for c in asked.question.choices if c != best)


def send(client, drill: str, token: str, assignment_id: int, slot: int, answer: str | None = None, htmx=False, **extra):
    data = {"token": token, "session": "assignment", "assignment": str(assignment_id), "slot": str(slot), **extra}
    data.update({"show": "1"} if answer is None else {"answer": answer})
    return post(client, f"/drills/{drill}/answer", data, headers=HTMX if htmx else None)
