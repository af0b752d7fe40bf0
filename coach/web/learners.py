"""Who is answering: a signed-in learner, or a guest made on the first answer.

A beginner drills at once: their first graded answer makes a guest
learner and signs them in with a remembered session cookie, so their
progress is kept from the first question. Answers from the pages and the
API count for that learner.
"""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import Flask, current_app
from flask_login import LoginManager, UserMixin, current_user, login_user
from sqlalchemy.engine import Engine
from sqlmodel import Session

from coach.store.models import Learner
from coach.store.progress import record_answer
from drills.base import Question, Verdict

login_manager = LoginManager()
MAX_TIME_MS = 60 * 60 * 1000  # an hour: longer is a tab left open, not time spent


class SignedIn(UserMixin):
    """Flask-Login's view of a learner: only the id travels in the session."""

    def __init__(self, learner_id: int):
        self.id = learner_id


def engine() -> Engine:
    return current_app.extensions["store"]


def install(app: Flask) -> None:
    login_manager.init_app(app)

    @login_manager.user_loader
    def load(user_id: str) -> SignedIn | None:
        try:
            learner_id = int(user_id)
        except ValueError:
            return None
        with Session(engine()) as session:
            return SignedIn(learner_id) if session.get(Learner, learner_id) else None


def current_learner(session: Session, create: bool = False) -> Learner | None:
    """The learner of this request; with `create`, a new guest when there is none."""
    if current_user.is_authenticated:
        learner = session.get(Learner, int(current_user.id))
        if learner is not None:
            return learner
    if not create:
        return None
    learner = Learner(guest=True)
    session.add(learner)
    session.commit()
    session.refresh(learner)
    assert learner.id is not None
    login_user(SignedIn(learner.id), remember=True)
    return learner


def time_taken(value: Any) -> int | None:
    """Milliseconds the page says the learner took, or None when it is not a sane number."""
    try:
        ms = int(value)
    except (TypeError, ValueError):
        return None
    return ms if 0 <= ms <= MAX_TIME_MS else None


def valid_zone(name: Any) -> str | None:
    if not isinstance(name, str) or not name or len(name) > 64:
        return None
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None
    return name


def record(question: Question, verdict: Verdict, time_ms: Any = None, time_zone: Any = None) -> bool:
    """Store a graded answer for this request's learner (made a guest if need be)."""
    with Session(engine()) as session:
        learner = current_learner(session, create=True)
        assert learner is not None
        zone = valid_zone(time_zone)
        if zone and zone != learner.time_zone:
            learner.time_zone = zone  # the browser knows the learner's day better than we do
            session.add(learner)
        return record_answer(session, learner, question, verdict, time_taken(time_ms))
