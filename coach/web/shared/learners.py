"""Who is answering: a signed-in learner, or a guest made on the first answer.

A beginner drills at once: their first graded answer makes a guest
learner and signs them in with a remembered session cookie, so their
progress is kept from the first question. Answers from the pages and the
API count for that learner.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import Flask, Response, g
from flask import session as flask_session
from flask_login import LoginManager, UserMixin, current_user, login_user, logout_user
from sqlalchemy.engine import Connection
from sqlmodel import Session

from coach.common.settings import HTTPS
from coach.store import login_sessions
from coach.store.models import Learner
from coach.store.progress import add_answer, keep_guest_zone
from coach.store.transaction import lock_learner, write
from coach.web.infra.database import engine, reading, turn_if_free, write_lock, writing
from drills.kit.base import Question, Verdict

login_manager = LoginManager()
MAX_NAME = 80
MAX_TIME_MS = 60 * 60 * 1000  # an hour: longer is a tab left open, not time spent
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
HSTS = "max-age=31536000; includeSubDomains"  # a year: browsers then never try plain HTTP first
T = TypeVar("T")
# The signed session cookie says whether its sign-in is an account's: a question
# then knows, without loading the learner, that a guest plays the League's
# table rules (coach.web.shared.table_rules.own_rules). Set at every sign-in.
ACCOUNT = "account"
# An answer asks for its learner just before storing the answer: the user loader's
# connection is then kept for the store (`record_with`), which spares checking one
# out of the pool and back again (issue 26). g's keys: the ask, and the connection.
_KEEP = "keep_login_connection"
_KEPT = "login_connection"


class SignedIn(UserMixin):
    """Flask-Login's view of a learner: only the id and a session token travel in the cookie.

    The session and the remember cookie hold "<id>:<token>"; the token
    opens the learner only while its row in `login_session` is live
    (coach/store/login_sessions.py), so signing out on the server ends a
    copied cookie too. `guest` is read from the row on each request (the
    header offers "Sign in" to guests and "Account" to accounts)."""

    def __init__(self, learner_id: int, token: str, guest: bool = True, teacher: bool = False):
        self.id = learner_id
        self.token = token
        self.guest = guest
        self.teacher = teacher

    @classmethod
    def of(cls, learner: Learner, token: str | None = None) -> SignedIn:
        """The learner as signed in with `token`; without one, with this request's own
        session (for a sign-in refreshed after the row changed, as when teaching is turned on)."""
        assert learner.id is not None
        if token is None:
            same = current_user.is_authenticated and current_user.id == learner.id
            token = current_user.token if same else ""
        return cls(learner.id, token, learner.guest, not learner.guest and learner.role == "teacher")

    def get_id(self) -> str:
        return f"{self.id}:{self.token}"


def stamp(learner: Learner) -> str:
    """The row's creation time in microseconds, in hex: what the cookies before
    server-side sessions held (a guest's such cookie is traded for a session)."""
    return format((learner.created_at - EPOCH) // timedelta(microseconds=1), "x")


def install(app: Flask) -> None:
    """Flask-Login with server-side sessions, the cookies' lifetime, and HTTPS-only cookies with the HTTPS setting."""
    app.config.update(
        REMEMBER_COOKIE_DURATION=login_sessions.LIFETIME,
        PERMANENT_SESSION_LIFETIME=login_sessions.LIFETIME,  # a signed session cookie is refused once older
    )
    if app.extensions["settings"][HTTPS]:
        app.config.update(SESSION_COOKIE_SECURE=True, REMEMBER_COOKIE_SECURE=True)

        @app.after_request
        def strict_transport(response: Response) -> Response:
            response.headers.setdefault("Strict-Transport-Security", HSTS)
            return response

    login_manager.init_app(app)
    login_manager.user_loader(_load)
    app.after_request(_renew_guest_session)  # after init_app: it runs before Flask-Login sets the cookie


def _load(user_id: str) -> SignedIn | None:
    number, _, token = user_id.partition(":")
    try:
        learner_id = int(number)
    except ValueError:
        return None
    if not 0 < learner_id < 2**63:
        return None
    connection = engine().connect()  # a read on every signed-in request: no ORM session for it
    try:
        found = login_sessions.live(connection, learner_id, token)
    except BaseException:
        connection.close()
        raise
    if g.pop(_KEEP, False):
        connection.rollback()  # nothing held: the answer's transaction starts afresh on it
        g.setdefault(_KEPT, connection)
    else:
        connection.close()
    if found is None or login_sessions.needs_touch(found):
        with reading() as session:
            if found is None:
                return _old_guest_cookie(session, learner_id, token)
            _touch(session, found.session_id)
    if found.guest and login_sessions.needs_renewal(found):
        g.renew_guest_session = True
    return SignedIn(found.learner_id, token, found.guest, found.teacher)


def _touch(session: Session, session_id: int | None) -> None:
    """Note the session was seen; skipped when another thread is writing (it is
    bookkeeping, and this request may already hold the write turn itself)."""
    if engine().dialect.name != "sqlite":
        login_sessions.touch(session, session_id or 0)
        return
    with turn_if_free() as free:
        if free:
            login_sessions.touch(session, session_id or 0)


def _old_guest_cookie(session: Session, learner_id: int, given: str) -> SignedIn | None:
    """A guest signed in before sessions were kept on the server: their cookie
    ("<id>:<stamp>") is their only key to their answers, so it is honoured and
    traded for a session at the end of the request. An account signs in again."""
    learner = session.get(Learner, learner_id)
    if learner is None or not learner.guest or not given or not hmac.compare_digest(given, stamp(learner)):
        return None
    g.renew_guest_session = True
    return SignedIn.of(learner, "")


def _renew_guest_session(response: Response) -> Response:
    """A new session (and 30-day cookie) for a guest whose session is a week old,
    or who came with a cookie from before: a guest's cookie is their only key, so
    a guest who keeps drilling keeps their answers past 30 days. The old session
    is left to expire, not ended: a request already on its way with it must not
    find the guest gone."""
    if g.pop("renew_guest_session", False) and current_user.is_authenticated and current_user.guest:
        with writing() as session:
            learner = session.get(Learner, int(current_user.id))
            if learner is not None and learner.guest:
                sign_in(session, learner, new_csrf=False)
    return response


def sign_in(session: Session, learner: Learner, end_others: bool = False, new_csrf: bool = True) -> None:
    """A new server-side session for this browser, and a new CSRF secret: nothing
    from before (a guest cookie, a copied cookie, a form token) carries over.

    With `end_others`, every other session of the learner ends first (sign-up
    from a guest: the guest's cookies must not open the account). A new guest
    keeps the CSRF secret (`new_csrf=False`): the drill page it answers from
    goes on posting with its token."""
    assert learner.id is not None
    if end_others:
        login_sessions.end_all(session, learner.id)
    token = login_sessions.start(session, learner.id)
    session.commit()
    if new_csrf:
        flask_session.pop("csrf_token", None)  # Flask-WTF's secret: tokens in pages from before are refused
        g.pop("csrf_token", None)
    login_user(SignedIn.of(learner, token), remember=True)
    flask_session[ACCOUNT] = not learner.guest


def sign_out(everywhere: bool = False) -> None:
    """End this browser's session on the server (every session of the learner with
    `everywhere`), then forget it here."""
    if current_user.is_authenticated:
        with writing() as session:
            if everywhere:
                login_sessions.end_all(session, int(current_user.id))
            elif current_user.token:
                login_sessions.end(session, current_user.token)
            session.commit()
    flask_session.pop("csrf_token", None)
    logout_user()


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
    session.flush()
    sign_in(session, learner, new_csrf=False)
    session.refresh(learner)
    return learner


def time_taken(value: Any) -> int | None:
    """Milliseconds the page says the learner took, or None when it is not a sane number."""
    try:
        ms = int(value)
    except (TypeError, ValueError):
        return None
    return ms if 0 <= ms <= MAX_TIME_MS else None


def is_account() -> bool:
    """Signed in with an account (not a guest made by a first answer)."""
    return bool(current_user.is_authenticated and not getattr(current_user, "guest", True))


def name_problem(name: str) -> str | None:
    """What is wrong with a name a learner typed (the sign-up and join forms), or None."""
    if len(name) > MAX_NAME:
        return f"Your name can be at most {MAX_NAME} characters."
    return None


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
    g.setdefault(_KEEP, True)  # the learner is loaded here if not before: keep its connection for the store
    try:
        user = current_user._get_current_object()  # once: each look through the proxy loads it from g again
    finally:
        g.pop(_KEEP, None)
        kept: Connection | None = g.pop(_KEPT, None)
    signed_in = int(user.id) if user.is_authenticated else None
    guest_zone = zone if signed_in is not None and user.guest else None
    new_guest: list[SignedIn] = []

    def work(session: Session) -> tuple[bool, T | None]:
        new_guest.clear()
        learner_id = signed_in if signed_in is not None and lock_learner(session, signed_in) else None
        if learner_id is None:
            guest = Learner(guest=True, time_zone=zone or "UTC")
            session.add(guest)
            session.flush()
            assert guest.id is not None
            learner_id = guest.id
            new_guest.append(SignedIn.of(guest, login_sessions.start(session, learner_id)))
        elif guest_zone:
            # The browser knows a guest's day better than we do; an account
            # keeps the zone chosen on its account page.
            keep_guest_zone(session, learner_id, guest_zone)
        counted = add_answer(session, learner_id, question, verdict, time_taken(time_ms))
        return counted, (also(session, learner_id) if also is not None else None)

    if signed_in is not None and also is None:
        # The common case, a learner answering: plain statements on a connection,
        # with no ORM session around them (issue 26: a fifth of the answer's store).
        with write_lock(), (kept if kept is not None else engine().connect()) as connection:
            kept = None
            stored = write(connection, lambda: _answer_as(connection, signed_in, question, verdict, time_ms, guest_zone))
        if stored is not None:
            return stored, None
    if kept is not None:
        kept.close()
    with writing() as session:
        result = write(session, lambda: work(session))
    if new_guest:
        login_user(new_guest[0], remember=True)
        flask_session[ACCOUNT] = False
    return result


def _answer_as(
    connection: Connection, learner_id: int, question: Question, verdict: Verdict, time_ms: Any, guest_zone: str | None
) -> bool | None:
    """`record_with`'s work for a signed-in learner on a plain connection: whether
    the answer counted, or None (nothing written) when the learner's row is gone,
    for the caller to make a guest as it does without a sign-in."""
    if not lock_learner(connection, learner_id):
        return None
    if guest_zone:
        keep_guest_zone(connection, learner_id, guest_zone)
    return add_answer(connection, learner_id, question, verdict, time_taken(time_ms))
