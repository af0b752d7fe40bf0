"""Sign-in sessions on the server: started on sign-in, ended on sign-out.

The browser holds a random token; the table holds its SHA-256, so a copy
of the database opens no browser. A session is live while it has not
ended and is younger than `LIFETIME`; nothing else about the browser is
trusted. No Flask here: coach/web/shared/learners.py puts the token in the cookie.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import bindparam, delete, or_, update
from sqlalchemy import select as core_select
from sqlalchemy.engine import Connection
from sqlmodel import Session, select

from coach.common import clock
from coach.store.models import Learner, LoginSession

LIFETIME = timedelta(days=30)  # the remember-me cookie lasts as long, and no longer
TOUCH_EVERY = timedelta(hours=1)  # last_seen_at is kept to the hour: no write on every request
RENEW_AFTER = timedelta(days=7)  # a guest's session older than this is renewed (see coach/web/shared/learners.py)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def start(session: Session, learner_id: int, now: datetime | None = None) -> str:
    """A new session for the learner; returns the token for the cookie. The caller commits."""
    token = secrets.token_urlsafe(32)
    moment = now or clock.now()
    # The learner's ended and expired rows open nothing any more: they go, so rows never pile up.
    session.exec(
        delete(LoginSession).where(
            LoginSession.learner_id == learner_id,  # type: ignore[arg-type]
            or_(LoginSession.ended_at.is_not(None), LoginSession.created_at <= moment - LIFETIME),  # type: ignore[union-attr,operator]
        )
    )
    session.add(LoginSession(learner_id=learner_id, token_hash=token_hash(token), created_at=moment, last_seen_at=moment))
    return token


@dataclass(frozen=True)
class Live:
    """What a live session opens: the learner (id and kind) and the session row's times."""

    learner_id: int
    guest: bool
    role: str
    session_id: int
    created_at: datetime
    last_seen_at: datetime

    @property
    def teacher(self) -> bool:
        return not self.guest and self.role == "teacher"


# Read on every signed-in request: built once, and read as plain columns (no
# ORM objects), so a request pays neither for building it nor for mapping rows.
_LIVE = (
    core_select(
        Learner.id, Learner.guest, Learner.role, LoginSession.id.label("session_id"),  # type: ignore[union-attr]
        LoginSession.created_at, LoginSession.last_seen_at, LoginSession.ended_at,
    )
    .join_from(Learner, LoginSession, LoginSession.learner_id == Learner.id)  # type: ignore[arg-type]
    .where(LoginSession.token_hash == bindparam("token_hash"), Learner.id == bindparam("learner_id"))  # type: ignore[arg-type]
)


def live(session: Session | Connection, learner_id: int, token: str, now: datetime | None = None) -> Live | None:
    """The learner and session the token opens, or None when it has ended, expired or never was."""
    if not token or len(token) > 100:
        return None
    connection = session.connection() if isinstance(session, Session) else session
    row = connection.execute(_LIVE, {"token_hash": token_hash(token), "learner_id": learner_id}).first()
    if row is None or row.ended_at is not None or row.created_at <= (now or clock.now()) - LIFETIME:
        return None
    return Live(row.id, row.guest, row.role, row.session_id, row.created_at, row.last_seen_at)


def needs_renewal(row: LoginSession | Live, now: datetime | None = None) -> bool:
    return row.created_at <= (now or clock.now()) - RENEW_AFTER


def needs_touch(row: LoginSession | Live, now: datetime | None = None) -> bool:
    return row.last_seen_at <= (now or clock.now()) - TOUCH_EVERY


def touch(session: Session, session_id: int, now: datetime | None = None) -> None:
    session.exec(update(LoginSession).where(LoginSession.id == session_id).values(last_seen_at=now or clock.now()))  # type: ignore[arg-type]
    session.commit()


def end(session: Session, token: str, now: datetime | None = None) -> None:
    """End the session of this token (sign-out). The caller commits."""
    session.exec(
        update(LoginSession)
        .where(LoginSession.token_hash == token_hash(token), LoginSession.ended_at.is_(None))  # type: ignore[union-attr,arg-type]
        .values(ended_at=now or clock.now())
    )


def end_all(session: Session, learner_id: int, keep: str | None = None, now: datetime | None = None) -> int:
    """End every live session of the learner but the one of `keep`; returns how many ended. The caller commits."""
    query = update(LoginSession).where(LoginSession.learner_id == learner_id, LoginSession.ended_at.is_(None))  # type: ignore[union-attr,arg-type]
    if keep:
        query = query.where(LoginSession.token_hash != token_hash(keep))  # type: ignore[arg-type]
    return int(session.exec(query.values(ended_at=now or clock.now())).rowcount or 0)  # type: ignore[call-overload]
