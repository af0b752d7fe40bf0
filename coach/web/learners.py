"""Who is answering: a signed-in learner, or a guest made on the first answer.

A beginner drills at once: their first graded answer makes a guest
learner and signs them in with a remembered session cookie, so their
progress is kept from the first question. Answers from the pages and the
API count for that learner.
"""

from __future__ import annotations

import hmac
from datetime import datetime, timedelta, timezone
import contextlib
import threading
from collections.abc import Callable
from typing import Any, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import Flask, current_app
from flask_login import LoginManager, UserMixin, current_user, login_user
from sqlalchemy.engine import Engine
from sqlmodel import Session

from coach.store.models import Learner
from coach.store.progress import add_answer, keep_guest_zone
from coach.store.transaction import lock_learner, write
from drills.base import Question, Verdict

login_manager = LoginManager()
MAX_TIME_MS = 60 * 60 * 1000  # an hour: longer is a tab left open, not time spent
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
T = TypeVar("T")


class SignedIn(UserMixin):
    """Flask-Login's view of a learner: only the id (and a stamp) travel in the session.

    The session and the remember cookie hold "<id>:<stamp>", the stamp
    taken from the row's creation time: SQLite may give a deleted
    learner's id to the next new row, and a browser still signed in to the
    deleted learner must not wake up as that stranger. `guest` is read
    from the row on each request (the header offers "Sign in" to guests
    and "Account" to accounts)."""

    def __init__(self, learner_id: int, stamp: str, guest: bool = True, teacher: bool = False):
        self.id = learner_id
        self.stamp = stamp
        self.guest = guest
        self.teacher = teacher

    @classmethod
    def of(cls, learner: Learner) -> SignedIn:
        assert learner.id is not None
        return cls(learner.id, stamp(learner), learner.guest, not learner.guest and learner.role == "teacher")

    def get_id(self) -> str:
        return f"{self.id}:{self.stamp}"


def stamp(learner: Learner) -> str:
    """The row's creation time in microseconds, in hex: what tells two rows with one id apart."""
    created = learner.created_at
    created = created.replace(tzinfo=timezone.utc) if created.tzinfo is None else created.astimezone(timezone.utc)
    return format((created - EPOCH) // timedelta(microseconds=1), "x")


def engine() -> Engine:
    return current_app.extensions["store"]


def install(app: Flask) -> None:
    login_manager.init_app(app)

    @login_manager.user_loader
    def load(user_id: str) -> SignedIn | None:
        number, _, given = user_id.partition(":")
        try:
            learner_id = int(number)
        except ValueError:
            return None
        with Session(engine()) as session:
            learner = session.get(Learner, learner_id)
            if learner is None or not given or not hmac.compare_digest(given, stamp(learner)):
                return None
            return SignedIn.of(learner)


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
    login_user(SignedIn.of(learner), remember=True)
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


# SQLite has one writer at a time; threads of one process take turns here
# instead of in SQLite's busy handler, whose sleeps grow to 100 ms.
_WRITES = threading.Lock()


def write_lock() -> contextlib.AbstractContextManager[Any]:
    """This process's turn to write, for SQLite (see `_WRITES`); other
    databases take concurrent writers themselves, so nothing to wait for."""
    return _WRITES if engine().dialect.name == "sqlite" else contextlib.nullcontext()


def record(question: Question, verdict: Verdict, time_ms: Any = None, time_zone: Any = None) -> bool:
    """Store a graded answer for this request's learner (made a guest if need be)."""
    return record_with(question, verdict, time_ms, time_zone)[0]


def record_with(
    question: Question,
    verdict: Verdict,
    time_ms: Any = None,
    time_zone: Any = None,
    also: Callable[[Session, int], T] | None = None,
) -> tuple[bool, T | None]:
    """Store a graded answer for this request's learner, and `also` (say, an
    assignment's copy of it, given the learner's id) in the same one short
    transaction: whether the answer counted, and what `also` returned.

    The learner Flask-Login loaded for this request is not loaded again:
    their row is only locked, so their answers arriving at once are written
    one after another and all counted. A first answer makes a guest, in the
    same transaction, and signs them in once it is stored."""
    zone = valid_zone(time_zone)
    signed_in = int(current_user.id) if current_user.is_authenticated else None
    guest_zone = zone if signed_in is not None and current_user.guest else None
    new_guest: list[SignedIn] = []

    def work(session: Session) -> tuple[bool, T | None]:
        new_guest.clear()
        learner_id = signed_in if signed_in is not None and lock_learner(session, signed_in) else None
        if learner_id is None:
            guest = Learner(guest=True, time_zone=zone or "UTC")
            session.add(guest)
            session.flush()
            new_guest.append(SignedIn.of(guest))
            assert guest.id is not None
            learner_id = guest.id
        elif guest_zone:
            # The browser knows a guest's day better than we do; an account
            # keeps the zone chosen on its account page.
            keep_guest_zone(session, learner_id, guest_zone)
        counted = add_answer(session, learner_id, question, verdict, time_taken(time_ms))
        return counted, (also(session, learner_id) if also is not None else None)

    with write_lock(), Session(engine()) as session:
        result = write(session, lambda: work(session))
    if new_guest:
        login_user(new_guest[0], remember=True)
    return result
