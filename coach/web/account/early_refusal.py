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
own headers, with the wait filled in and Retry-After. Whatever it cannot read cheaply (a multipart body, no
Content-Length, a store that fails) goes on to Flask, whose limits refuse it
as before: this only ever answers sooner what they would answer.
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

from coach.web.infra import limits

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
    """WSGI middleware: a POST /signin that the sign-in limits refuse is answered here."""

    def __init__(self, app: Flask, wsgi_app: WSGIApp) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        self._pages: dict[tuple[str, bool], _Page] = {}
        self._making = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "POST" and environ.get("PATH_INFO") == PATH:
            refusal = self._refusal(environ)
            if refusal is not None:
                try:
                    page = self._page(refusal.message, environ.get("HTTP_HX_REQUEST") == "true")
                except Exception:  # the page could not be made: Flask answers, as it always could
                    self.app.logger.exception("the early 429 page could not be made")
                else:
                    return _refuse(start_response, page, refusal.retry)
        return self.wsgi_app(environ, start_response)

    def _refusal(self, environ: dict[str, Any]) -> limits.SignInRefusal | None:
        if not self.app.config.get("RATELIMIT_ENABLED", True):
            return None
        email = _form_email(environ, self.app.config.get("MAX_CONTENT_LENGTH"))
        if email is None:
            return None
        try:
            return limits.sign_in_refusal(self.app.extensions["settings"], email, environ.get("REMOTE_ADDR"))
        except Exception:  # a store that cannot be read: Flask-Limiter's check decides (and falls back to memory)
            return None

    def _page(self, message: str, htmx: bool) -> _Page:
        """The 429 for `message`, made once (per worker) by the app's own error answer and
        after-request hooks, so that it says and carries what Flask's 429 does."""
        page = self._pages.get((message, htmx))
        if page is None:
            with self._making:
                page = self._pages.get((message, htmx)) or self._make(message, htmx)
                self._pages[message, htmx] = page
        return page

    def _make(self, message: str, htmx: bool) -> _Page:
        headers = {"HX-Request": "true"} if htmx else {}
        with self.app.test_request_context(PATH, method="POST", headers=headers):
            words = {"status": 429, "title": limits.TOO_MANY_TITLE, "message": limits.refused_words(message, _WAIT)}
            made = self.app.make_response((render_template(PARTIAL if htmx else PAGE, **words), 429))
            made = self.app.process_response(made)
            kept = [
                (name, value) for name, value in made.headers.items()
                if name.lower() not in ("set-cookie", "content-length", "retry-after", "vary")  # none of them is the same for everyone
            ]
            return _Page(made.status, kept, made.get_data(as_text=True))


def _refuse(start_response: Callable[..., Any], page: _Page, retry: int) -> Iterable[bytes]:
    body = page.body.replace(_WAIT, limits.wait_words(retry)).encode("utf-8")
    start_response(page.status, [*page.headers, ("Retry-After", str(retry)), ("Content-Length", str(len(body)))])
    return [body]


def _form_email(environ: dict[str, Any], most: int | None) -> str | None:
    """The form's first `email` as Flask will read it (werkzeug's parser: a url-encoded
    body decoded as UTF-8, else no form), the body put back for Flask to read;
    None when reading it is not cheap or not certain (multipart, no length, too long)."""
    mimetype = environ.get("CONTENT_TYPE", "").partition(";")[0].strip().lower()
    if mimetype == "multipart/form-data":
        return None
    if mimetype != FORM:
        return ""  # no form: Flask reads no email either
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
        return ""  # werkzeug's parser refuses it silently: an empty form
    for name, value in parse_qsl(text, keep_blank_values=True, errors="werkzeug.url_quote"):
        if name == "email":
            return value
    return ""


def install(app: Flask) -> None:
    """Call before coach.web.infra.limits.install: ProxyFix (when configured) must
    wrap this, so that REMOTE_ADDR here is the client's, as the limits read it."""
    app.wsgi_app = EarlyRefusal(app, app.wsgi_app)  # type: ignore[method-assign]  # Flask's documented way to wrap its WSGI app
