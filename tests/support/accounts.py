"""Accounts over the test client: sign up, in and out with the page's CSRF token,
answer a drill through the API, and read the learner back from the store."""

from __future__ import annotations

import re

from sqlmodel import Session, select

from coach.store.models import Learner
from tests.support.pages import csrf_of

PASSWORD = "correct horse battery"


def csrf(client, url: str = "/signin") -> str:
    response = client.get(url)
    if response.status_code != 200:  # a form page that sends a signed-in learner on
        response = client.get("/rules")
    return csrf_of(response.get_data(as_text=True))


def post(client, url: str, data: dict, page: str | None = None):
    """A form post as the browser sends it: the page's CSRF token in the form."""
    return client.post(url, data={"csrf_token": csrf(client, page or url), **data})


def sign_up(client, email="ann@example.org", password=PASSWORD, **extra):
    return post(client, "/signup", {"email": email, "password": password, **extra})


def sign_in(client, email="ann@example.org", password=PASSWORD, **extra):
    return post(client, "/signin", {"email": email, "password": password, **extra})


def sign_out(client):
    return post(client, "/signout", {}, page="/")


def answer(client, seed: int, right: bool = True, level: int = 1, given=None, time_ms: int = 2000):
    """Answer a name-the-tile question through the API (for the session's learner)."""
    q = client.post("/api/drills/name-the-tile/questions", json={"seed": seed, "level": level}).get_json()
    reply = given if given is not None else (q["tile"] if right else None)
    body = client.post(
        "/api/drills/name-the-tile/answers", json={"token": q["token"], "answer": reply, "time_ms": time_ms}
    ).get_json()
    assert "correct" in body, body
    return body


def problems(response) -> list[str]:
    html = response.get_data(as_text=True)
    found = re.findall(r'class="field__error"[^>]*><span class="visually-hidden">Error: </span>(.*?)</p>', html)
    found += re.findall(r'<li><a href="#[a-z_]+">(.*?)</a></li>', html)
    return found


def db(app) -> Session:
    return Session(app.extensions["store"])


def learner_by_email(app, email: str) -> Learner | None:
    with db(app) as session:
        return session.exec(select(Learner).where(Learner.email == email)).first()


def nav_link(client) -> str:
    html = client.get("/rules").get_data(as_text=True)
    return re.search(r'<a class="site-nav__account"[^>]*>([^<]+)</a>', html).group(1)
