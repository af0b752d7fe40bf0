"""A refused sign-in answered before Flask: a flood's 429 nearly free (issue 26, point 3).

After its first few wrong passwords a flooding address meets the sign-in
limits (coach.web.infra.limits) and every further try is answered 429.
Through Flask each such answer cost about 1.6 ms of a core: the session
cookie read, the CSRF check, the input checks, Flask-Limiter's check and
its after-request count, the error page rendered in the whole layout. A
16-address flood sends several hundred a second, so it took the CPU the
learners drill on (their p95 3.1x the quiet figure) although it hashed
almost no password.

This WSGI middleware decides a POST /signin from the two things the
limits key on, the client's address (REMOTE_ADDR, after ProxyFix when a
proxy is configured) and the form's email, with the same keys and windows
(`limits.sign_in_refusal`), and answers a refused one itself: a page made
once per message and kind (a page of its own with nothing of one visitor's
in it, or htmx's partial) through the app itself, so it carries the app's
own headers, with the wait filled in and Retry-After. A failing address (`limits.failing`) that
sends a password while the flood's hashing lane is taken (coach.web.infra.hashing)
is answered "busy" (503) here the same way, its failure counted as Flask
counts it (a learner already signed in, whom Flask sends on to the account
page, is left to Flask). Whatever it cannot read cheaply (a multipart body, no
Content-Length, a store that fails) goes on to Flask, whose limits refuse it
as before: this only ever answers sooner what Flask would answer.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

import werkzeug.urls  # noqa: F401  # registers the "werkzeug.url_quote" decoding errors handler, as Flask's form parser uses
from flask import Flask, render_template
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import BadSignature
from werkzeug.http import parse_cookie

from coach.web.infra import hashing, limits

PATH = "/signin"
FORM = "application/x-www-form-urlencoded"
PAGE = "refused.html"  # standalone: the error page's layout holds a CSRF token and the visitor's display choice
PARTIAL = "partials/problem.html"  # htmx swaps it in, as it does Flask's 429 (coach.web.infra.htmx)
_WAIT = "\x00wait\x00"  # where a page made once has its wait filled in; no message or page contains it

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


@dataclass(frozen=True)
class _Page:
    status: str
    headers: list[tuple[str, str]]
    body: str  # with _WAIT where the wait goes


class EarlyRefusal:
    """WSGI middleware: a POST /signin that the sign-in limits refuse, or that a failing
    address sends while the flood's hashing lane is taken, is answered here."""

    def __init__(self, app: Flask, wsgi_app: WSGIApp) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        self._pages: dict[tuple[int, str, bool], _Page] = {}
        self._making = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "POST" and environ.get("PATH_INFO") == PATH:
            early = self._early(environ)
            if early is not None:
                page, retry = early
                return _send(start_response, page, retry)
        return self.wsgi_app(environ, start_response)

    def _early(self, environ: dict[str, Any]) -> tuple[_Page, int] | None:
        """The answer Flask would give, when it is a refusal decided from the address and email alone."""
        if not self.app.config.get("RATELIMIT_ENABLED", True):
            return None
        form = _form(environ, self.app.config.get("MAX_CONTENT_LENGTH"))
        if form is None:
            return None
        email = form.get("email", "")
        resolved, remote = self.app.extensions["settings"], environ.get("REMOTE_ADDR")
        try:
            refusal = limits.sign_in_refusal(resolved, email, remote)
            # A failing address's password goes to the suspect lane (coach.web.infra.hashing):
            # taken, Flask would answer "busy" and count a failure, after reading the
            # session, the CSRF token and the account. The same, here (an empty field
            # is told so by Flask, which hashes nothing for it).
            busy = (
                refusal is None and bool(email) and bool(form.get("password")) and hashing.suspect_gate.full()
                and limits.failing(resolved, limits.address_key(remote)) and not self._signed_in(environ)
            )
            if busy:
                limits.count_turned_away(resolved, email, remote)
        except Exception:  # a store that cannot be read: Flask-Limiter's check decides (and falls back to memory)
            return None
        htmx = environ.get("HTTP_HX_REQUEST") == "true"
        try:
            if refusal is not None:
                return self._page(429, limits.TOO_MANY_TITLE, limits.refused_words(refusal.message, _WAIT), htmx), refusal.retry
            if busy:
                return self._page(503, hashing.BUSY_TITLE, str(hashing.HashingBusy.description), htmx), limits.BUSY_RETRY
        except Exception:  # the page could not be made: Flask answers, as it always could
            self.app.logger.exception("the early answer's page could not be made")
        return None

    def _signed_in(self, environ: dict[str, Any]) -> bool:
        """Whether the request may be a learner's already signed in (Flask sends them on to
        the account page without a hash): a session naming one, or a remember cookie."""
        cookies = parse_cookie(environ)
        if self.app.config.get("REMEMBER_COOKIE_NAME", "remember_token") in cookies:
            return True
        signed = cookies.get(self.app.config["SESSION_COOKIE_NAME"])
        if not signed:
            return False
        interface = self.app.session_interface
        serializer = interface.get_signing_serializer(self.app) if isinstance(interface, SecureCookieSessionInterface) else None
        if serializer is None:
            return True  # sessions kept some other way: Flask decides
        try:
            session = serializer.loads(signed)
        except BadSignature:
            return False  # Flask reads no session from it either
        return isinstance(session, dict) and "_user_id" in session

    def _page(self, status: int, title: str, message: str, htmx: bool) -> _Page:
        """The answer for `message`, made once (per worker) through the app's own
        after-request hooks, so that it carries the headers Flask's answer does."""
        key = (status, message, htmx)
        page = self._pages.get(key)
        if page is None:
            with self._making:
                page = self._pages.get(key) or self._make(status, title, message, htmx)
                self._pages[key] = page
        return page

    def _make(self, status: int, title: str, message: str, htmx: bool) -> _Page:
        headers = {"HX-Request": "true"} if htmx else {}
        with self.app.test_request_context(PATH, method="POST", headers=headers):
            words = {"status": status, "title": title, "message": message}
            made = self.app.make_response((render_template(PARTIAL if htmx else PAGE, **words), status))
            made = self.app.process_response(made)
            kept = [
                (name, value) for name, value in made.headers.items()
                if name.lower() not in ("set-cookie", "content-length", "retry-after", "vary")  # none of them is the same for everyone
            ]
            return _Page(made.status, kept, made.get_data(as_text=True))


def _send(start_response: Callable[..., Any], page: _Page, retry: int) -> Iterable[bytes]:
    body = page.body.replace(_WAIT, limits.wait_words(retry)).encode("utf-8")
    start_response(page.status, [*page.headers, ("Retry-After", str(retry)), ("Content-Length", str(len(body)))])
    return [body]


def _form(environ: dict[str, Any], most: int | None) -> dict[str, str] | None:
    """The form's fields (the first of each name) as Flask will read them (werkzeug's
    parser: a url-encoded body decoded as UTF-8, else no form), the body put back
    for Flask to read; None when reading it is not cheap or not certain
    (multipart, no length, too long)."""
    mimetype = environ.get("CONTENT_TYPE", "").partition(";")[0].strip().lower()
    if mimetype == "multipart/form-data":
        return None
    if mimetype != FORM:
        return {}  # no form: Flask reads none either
    try:
        length = int(environ.get("CONTENT_LENGTH") or "")
    except ValueError:
        return None
    if length < 0 or (most is not None and length > most):
        return None  # Flask answers 413 or 400 itself
    body = environ["wsgi.input"].read(length) if length else b""
    environ["wsgi.input"] = io.BytesIO(body)  # the same bytes for Flask, CONTENT_LENGTH untouched
    if len(body) != length:
        return None  # the client stopped short: Flask answers that
    try:
        text = body.decode()
    except UnicodeDecodeError:
        return {}  # werkzeug's parser refuses it silently: an empty form
    fields: dict[str, str] = {}
    for name, value in parse_qsl(text, keep_blank_values=True, errors="werkzeug.url_quote"):
        fields.setdefault(name, value)
    return fields


def install(app: Flask) -> None:
    """Call before coach.web.infra.limits.install: ProxyFix (when configured) must
    wrap this, so that REMOTE_ADDR here is the client's, as the limits read it."""
    app.wsgi_app = EarlyRefusal(app, app.wsgi_app)  # type: ignore[method-assign]  # Flask's documented way to wrap its WSGI app
