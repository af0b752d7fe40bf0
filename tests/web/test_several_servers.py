"""Several servers, one database (issue 11, point 6).

Two `python -m coach serve` processes (gunicorn, a worker per core each)
on two ports share one private PostgreSQL (COACH_DATABASE_URL), one
private Redis for the rate limits (COACH_RATELIMIT_STORAGE_URI) and one
COACH_SECRET_KEY, as behind a reverse proxy. Learners answer through
both with their guest cookies: every answer is stored once, for the
right learner, and a rate limit counts hits on either server.
"""

from __future__ import annotations

import json

import pytest
import redis
from sqlalchemy import func
from sqlmodel import Session, select

from coach.store.db import make_engine
from coach.store.models import Attempt, Learner
from tests.support.http_client import Browser
from tests.support.pages import csrf_of
from tests.support.postgres import postgres_server
from tests.support.redis_server import redis_server
from tests.support.servers import coach_server

pytestmark = pytest.mark.server  # two server processes, PostgreSQL and Redis

SECRET = "one-key-for-every-server-of-this-site"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Two servers on one PostgreSQL and one Redis: (url A, url B, database URL, Redis URL, logs)."""
    with postgres_server() as database, redis_server() as limits_store:
        env = {
            "COACH_DATABASE_URL": database,
            "COACH_RATELIMIT_STORAGE_URI": limits_store,
            "COACH_SECRET_KEY": SECRET,
        }
        folder = tmp_path_factory.mktemp("servers")
        # One after the other: the first brings the schema up to date, the second finds it so.
        with coach_server(env, folder / "a") as (a, log_a), coach_server(env, folder / "b") as (b, log_b):
            yield a, b, database, limits_store, (log_a, log_b)
        for log in (log_a, log_b):
            text = log.read_text(errors="replace")
            assert "Traceback" not in text and "unexpected error" not in text, text[-3000:]


def _ask_and_answer(browser: Browser, base: str, seed: int) -> dict:
    browser.base = base
    status, raw = browser.send("/api/drills/name-the-tile/questions", body={"seed": seed})
    assert status == 201, raw
    token = json.loads(raw)["token"]
    status, raw = browser.send("/api/drills/name-the-tile/answers", body={"token": token, "answer": None})
    assert status == 200, raw
    return json.loads(raw)


def test_answers_through_both_servers_are_each_stored_once(site):
    a, b, database, _, _ = site
    learners = [Browser(a) for _ in range(3)]
    for n, browser in enumerate(learners):
        for seed in range(6):  # the guest is made on one server, and answers on both
            server = (a, b)[(seed + n) % 2]
            assert _ask_and_answer(browser, server, 1000 * n + seed)["counted"] is True
        # The same question again, on the other server: it counts once.
        assert _ask_and_answer(browser, (b, a)[n % 2], 1000 * n)["counted"] is False

    progress = []
    for browser in learners:
        for base in (a, b):
            browser.base = base
            status, raw = browser.send("/api/progress")
            assert status == 200
            progress.append(json.loads(raw)["attempts"])
    assert progress == [6] * 6  # both servers see each learner's six answers

    engine = make_engine(database)
    try:
        with Session(engine) as session:
            guests = session.exec(select(Learner).where(Learner.guest == True)).all()  # noqa: E712
            assert len(guests) == 3  # one guest each, whichever server answered
            for guest in guests:
                rows = session.exec(select(Attempt.question).where(Attempt.learner_id == guest.id)).all()
                assert len(rows) == 6 and len(set(rows)) == 6
            total = session.exec(select(func.count()).select_from(Attempt)).one()
            assert total == 18
    finally:
        engine.dispose()


def _sign_in(base: str, email: str) -> int:
    browser = Browser(base)
    status, raw = browser.send("/signin")
    assert status == 200
    token = csrf_of(raw.decode())
    status, _ = browser.send("/signin", form={"csrf_token": token, "email": email, "password": "not the password"})
    return status


def test_a_rate_limit_counts_hits_on_both_servers(site):
    a, b, _, limits_store, _ = site
    email = "shared-limit@example.org"
    # Five failed sign-ins a minute per email (the default): three on A, two on B...
    assert [_sign_in(server, email) for server in (a, a, a, b, b)] == [422] * 5
    # ...and the sixth is refused on either.
    assert _sign_in(a, email) == 429
    assert _sign_in(b, email) == 429
    assert _sign_in(b, "someone-else@example.org") == 422
    with redis.Redis.from_url(limits_store) as store:
        assert any(b"shared-limit@example.org" in key for key in store.keys("*"))
