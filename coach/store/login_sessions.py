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
from sqlmodel import Session, col

from coach.common import clock
from coach.store.models import Learner, LoginSession
from coach.store.prepared import Prepared

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
            col(LoginSession.learner_id) == learner_id,
            or_(col(LoginSession.ended_at).is_not(None), col(LoginSession.created_at) <= moment - LIFETIME),
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


# Read on every signed-in request: built once, compiled once a database, and read
# as plain columns (no ORM objects, no Core result: coach/store/prepared.py).
_LIVE = Prepared(
    core_select(
        col(Learner.id), col(Learner.guest), col(Learner.role), col(LoginSession.id).label("session_id"),
        col(LoginSession.created_at), col(LoginSession.last_seen_at), col(LoginSession.ended_at),
    )
    .join_from(Learner, LoginSession, col(LoginSession.learner_id) == Learner.id)
    .where(col(LoginSession.token_hash) == bindparam("token_hash"), col(Learner.id) == bindparam("learner_id"))
)


def live(session: Session | Connection, learner_id: int, token: str, now: datetime | None = None) -> Live | None:
    """The learner and session the token opens, or None when it has ended, expired or never was."""
    if not token or len(token) > 100:
        return None
    connection = session.connection() if isinstance(session, Session) else session
    row = _LIVE.first(connection, {"token_hash": token_hash(token), "learner_id": learner_id})
    if row is None or row.ended_at is not None or row.created_at <= (now or clock.now()) - LIFETIME:
        return None
    return Live(row.id, row.guest, row.role, row.session_id, row.created_at, row.last_seen_at)


def needs_renewal(row: LoginSession | Live, now: datetime | None = None) -> bool:
    return row.created_at <= (now or clock.now()) - RENEW_AFTER


def needs_touch(row: LoginSession | Live, now: datetime | None = None) -> bool:
    return row.last_seen_at <= (now or clock.now()) - TOUCH_EVERY


def touch(session: Session, session_id: int, now: datetime | None = None) -> None:
    session.exec(update(LoginSession).where(col(LoginSession.id) == session_id).values(last_seen_at=now or clock.now()))
    session.commit()


def end(session: Session, token: str, now: datetime | None = None) -> None:
    """End the session of this token (sign-out). The caller commits."""
    session.exec(
        update(LoginSession)
        .where(col(LoginSession.token_hash) == token_hash(token), col(LoginSession.ended_at).is_(None))
        .values(ended_at=now or clock.now())
    )


def end_all(session: Session, learner_id: int, keep: str | None = None, now: datetime | None = None) -> int:
    """End every live session of the learner but the one of `keep`; returns how many ended. The caller commits."""
    query = update(LoginSession).where(col(LoginSession.learner_id) == learner_id, col(LoginSession.ended_at).is_(None))
    if keep:
        query = query.where(col(LoginSession.token_hash) != token_hash(keep))
    return int(session.exec(query.values(ended_at=now or clock.now())).rowcount or 0)
