"""Where to go back to after a form: only a path on this site, never another site.

`safe_next` keeps a `next` value only when it is a path on this site
("/drills/jokers?level=2"): an absolute URL, a scheme-relative "//host", a
backslash (which some browsers read as a slash) or a control character is
dropped, so a link can never send a learner off the site after signing in
(an open redirect). `here()` is the page to come back to, and
`sign_in_first()` sends a visitor to sign in and back again.
"""

from __future__ import annotations

from typing import NoReturn
from urllib.parse import urlsplit

from flask import Flask, abort, redirect, request, url_for

from coach.web.infra.htmx import is_htmx

# Pages a sign-in never comes back to: the sign-in pages themselves, and what is left after deleting.
NOT_BACK = ("accounts.signin", "accounts.signup", "accounts.deleted", "password_reset.")


def safe_next(target: str | None) -> str | None:
    """A path on this site to go back to after signing in; anything else is ignored."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return None
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in target):
        return None
    parts = urlsplit(target)
    return target if not parts.scheme and not parts.netloc else None


def here() -> str | None:
    """This page (path and query) to come back to after signing in; None for a form's
    address (it answers a POST, not a link), a page no route serves, or the sign-in pages."""
    endpoint = request.endpoint or ""
    if request.method != "GET" or not endpoint or endpoint == "static" or endpoint.startswith(NOT_BACK):
        return None
    return safe_next(request.full_path.removesuffix("?"))


def sign_in_url() -> str:
    """The sign-in page, coming back here afterwards when here is a page to come back to."""
    back = here()
    return url_for("accounts.signin", next=back) if back else url_for("accounts.signin")


def sign_in_first(message: str) -> NoReturn:
    """A page that needs an account, asked for by someone without one: a link (GET)
    goes to sign in and comes back; a form (POST) or an htmx request (a part of a
    page, nothing to come back to) is refused with a 403 that says why."""
    if here() is not None and not is_htmx():
        abort(redirect(sign_in_url(), 303))
    abort(403, description=message)


def install(app: Flask) -> None:
    app.jinja_env.globals.update(sign_in_url=sign_in_url)
