"""Rate limits and the hashing bound (issue 11, point 2), tried as an attacker would.

Each test builds its own app (so its own memory store of limits), with
the CSRF check off: an attacker fetches a token with one GET, so the
token changes nothing here, and the limits are what is tested. Limits
are lowered through the app's config where a test needs to reach one.
"""

from __future__ import annotations

import json
import statistics
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlmodel import Session
from waitress.server import create_server

from coach.store.models import Learner
from coach.store.teaching import classrooms
from coach.web.infra import hashing, limits
from tests.support.app import app_factory
from tests.support.http_client import Browser
from tests.support.servers import stop_waitress

PASSWORD = "correct horse battery"


@pytest.fixture
def make_app(tmp_path, monkeypatch, migrated_database):
    """An app of its own (fresh limits) with the given config on top."""
    return app_factory(tmp_path, monkeypatch, migrated_database, "limits-test")


def sign_in(client, email: str, password: str = "wrong password", address: str = "10.0.0.1", headers=None):
    return client.post(
        "/signin",
        data={"email": email, "password": password},
        environ_base={"REMOTE_ADDR": address},
        headers=headers or {},
    )


def retry_after(response) -> int:
    value = int(response.headers["Retry-After"])
    assert 1 <= value <= 3600
    return value


# -- sign-in ----------------------------------------------------------------------------


def test_the_per_email_limit_holds_one_address_however_the_email_is_typed(make_app):
    """Per email from one address (issue 26: never per email alone, which let anyone lock an owner out;
    tests/web/test_sign_in_lockout.py has the rest)."""
    client = make_app().test_client()
    for _ in range(5):
        assert sign_in(client, "ann@example.org", address="10.0.0.1").status_code == 422
    refused = sign_in(client, "ANN@example.org ", address="10.0.0.1")  # the same email, however typed
    assert refused.status_code == 429
    retry_after(refused)
    page = refused.get_data(as_text=True)
    assert "Too many sign-in attempts" in page and "Try again in" in page
    # Another email from the same address is not held by Ann's count.
    assert sign_in(client, "bob@example.org", address="10.0.0.1").status_code == 422


def test_the_per_address_limit_ignores_x_forwarded_for_unless_told_to_trust_it(make_app):
    client = make_app(COACH_LIMIT_SIGNIN_ADDRESS="3/minute").test_client()
    statuses = [
        sign_in(client, f"user{n}@example.org", headers={"X-Forwarded-For": f"192.0.2.{n}"}).status_code
        for n in range(5)
    ]
    assert statuses == [422, 422, 422, 429, 429]

    trusting = make_app(COACH_LIMIT_SIGNIN_ADDRESS="3/minute", COACH_PROXY_COUNT=1).test_client()
    statuses = [
        sign_in(trusting, f"user{n}@example.org", headers={"X-Forwarded-For": f"192.0.2.{n}"}).status_code
        for n in range(5)
    ]
    assert statuses == [422] * 5  # five clients behind one proxy, each with its own count
    same = [
        sign_in(trusting, f"other{n}@example.org", headers={"X-Forwarded-For": "192.0.2.77"}).status_code
        for n in range(4)
    ]
    assert same == [422, 422, 422, 429]


def test_a_class_signing_in_from_one_address_is_not_stopped_by_its_own_sign_ins(make_app):
    app = make_app(COACH_LIMIT_SIGNIN_ADDRESS="3/minute")
    emails = [f"pupil{n}@school.example" for n in range(5)]
    for email in emails:
        made = app.test_client().post(
            "/signup", data={"email": email, "password": PASSWORD}, environ_base={"REMOTE_ADDR": "10.1.1.1"}
        )
        assert made.status_code == 303
    for email in emails:  # only failed sign-ins count against the school's address
        assert sign_in(app.test_client(), email, PASSWORD, address="10.1.1.1").status_code == 303
    client = app.test_client()
    assert [sign_in(client, emails[0], address="10.1.1.1").status_code for _ in range(4)] == [422, 422, 422, 429]


def test_sign_up_is_limited_per_email_and_per_address(make_app):
    app = make_app(COACH_LIMIT_SIGNUP_ADDRESS="4/minute", COACH_LIMIT_SIGNUP_EMAIL="2/minute")

    def sign_up(email, address):
        return app.test_client().post(
            "/signup", data={"email": email, "password": "short"}, environ_base={"REMOTE_ADDR": address}
        ).status_code

    assert [sign_up("eve@example.org", f"10.2.0.{n}") for n in range(3)] == [422, 422, 429]
    assert [sign_up(f"x{n}@example.org", "10.3.0.1") for n in range(5)] == [422, 422, 422, 422, 429]


def test_hashing_past_its_bound_answers_busy_at_once(make_app, monkeypatch):
    client = make_app().test_client()
    full = hashing.Gate(slots=1, queue=0)  # one slot, no place to wait
    monkeypatch.setattr(hashing, "clean_gate", full)
    with full.turn():  # the slot taken
        busy = sign_in(client, "ann@example.org", PASSWORD)
    assert busy.status_code == 503
    assert busy.headers["Retry-After"] == str(limits.BUSY_RETRY)
    assert "Try again in a few seconds" in busy.get_data(as_text=True)


# -- join codes -------------------------------------------------------------------------


def _a_class(app) -> str:
    with Session(app.extensions["store"]) as session:
        teacher = Learner(guest=False, email="teacher@example.org", role="teacher", name="Ms Lee")
        session.add(teacher)
        session.commit()
        session.refresh(teacher)
        assert teacher.id is not None
        return classrooms.create_class(session, teacher.id, "Tuesday beginners").join_code


def test_guessing_join_codes_gets_429_after_the_limit_and_right_codes_do_not_count(make_app):
    app = make_app(COACH_LIMIT_JOIN_ADDRESS="5/minute")
    code = _a_class(app)
    client = app.test_client()
    for _ in range(8):  # a class typing the right code
        assert client.get(f"/join/{code}").status_code == 200
    misses = [client.get(f"/join/ZZZZ{n:02d}").status_code for n in range(4)]
    misses.append(client.post("/join", data={"code": "ZZZZ99", "name": "Al"}).status_code)
    assert misses == [404, 404, 404, 404, 422]
    refused = client.get("/join/ZZZZ98")
    assert refused.status_code == 429
    retry_after(refused)
    assert "do not match a class" in refused.get_data(as_text=True)
    assert client.post("/join", data={"code": code, "name": "Al"}).status_code == 429  # look-ups and joins share it
    # Another address is not held.
    assert client.get(f"/join/{code}", environ_base={"REMOTE_ADDR": "10.4.4.4"}).status_code == 200


# -- drilling ---------------------------------------------------------------------------


def test_a_429_is_json_under_the_api_and_a_page_elsewhere(make_app):
    client = make_app(COACH_LIMIT_DRILL_LEARNER="3/minute").test_client()
    asked = client.post("/api/drills/name-the-tile/questions", json={}).get_json()
    assert client.post(
        "/api/drills/name-the-tile/answers", json={"token": asked["token"], "answer": None}
    ).status_code == 200  # the first answer makes a guest: from here the learner's count runs
    statuses = [client.post("/api/drills/name-the-tile/questions", json={}).status_code for _ in range(4)]
    assert statuses == [201, 201, 201, 429]
    refused = client.post("/api/drills/name-the-tile/questions", json={})
    assert refused.status_code == 429 and refused.mimetype == "application/json"
    body = refused.get_json()
    assert set(body) == {"error"} and "Try again in" in body["error"]
    retry_after(refused)

    page = client.get("/drills/name-the-tile")  # pages and the API share the learner's count
    assert page.status_code == 429 and page.mimetype == "text/html"
    assert "Slow down" in page.get_data(as_text=True) and "Try again in" in page.get_data(as_text=True)
    retry_after(page)
    partial = client.get("/drills/name-the-tile/next", headers={"HX-Request": "true"})
    assert partial.status_code == 429 and "<html" not in partial.get_data(as_text=True)

    other = make_app(COACH_LIMIT_DRILL_LEARNER="3/minute").test_client()  # another learner, same address
    assert other.post("/api/drills/name-the-tile/questions", json={}).status_code == 201


def test_the_per_learner_limit_counts_a_learner_by_the_remember_cookie_alone(make_app):
    """The limit reads the learner from the signed session cookie (no database
    read); with the session cookie gone and only the remember cookie left, the
    learner is loaded from it, as before, and still counted as themselves."""
    client = make_app(COACH_LIMIT_DRILL_LEARNER="3/minute").test_client()
    asked = client.post("/api/drills/name-the-tile/questions", json={}).get_json()
    assert client.post("/api/drills/name-the-tile/answers", json={"token": asked["token"], "answer": None}).status_code == 200
    assert client.get_cookie("remember_token") is not None
    assert client.post("/api/drills/name-the-tile/questions", json={}).status_code == 201
    client.delete_cookie("session")
    assert client.get_cookie("session") is None
    statuses = [client.post("/api/drills/name-the-tile/questions", json={}).status_code for _ in range(3)]
    assert statuses == [201, 201, 429]


def test_the_per_address_drilling_limit_holds_learners_without_a_cookie(make_app):
    client = make_app(COACH_LIMIT_DRILL_ADDRESS="4/minute").test_client(use_cookies=False)
    statuses = [client.post("/api/drills/name-the-tile/questions", json={}).status_code for _ in range(5)]
    assert statuses == [201, 201, 201, 201, 429]


def test_first_pass_has_its_own_per_address_limit(make_app):
    client = make_app(COACH_LIMIT_FIRST_PASS_ADDRESS="2/minute").test_client()
    statuses = [client.post("/api/drills/first-pass/questions", json={}).status_code for _ in range(3)]
    assert statuses == [201, 201, 429]
    assert "first-pass" in client.post("/api/drills/first-pass/questions", json={}).get_json()["error"]
    assert "Try again in" in client.post("/api/drills/first-pass/questions", json={}).get_json()["error"]
    assert client.post("/api/drills/name-the-tile/questions", json={}).status_code == 201


# -- a sign-in flood while another user drills ------------------------------------------


def _drill(browser: Browser, rounds: int, statuses: list[int]) -> list[float]:
    """Ask and answer `rounds` questions; the seconds each answer took."""
    took = []
    for _ in range(rounds):
        status, raw = browser.send("/api/drills/name-the-tile/questions", body={})
        statuses.append(status)
        token = json.loads(raw)["token"]
        start = time.perf_counter()
        status, _ = browser.send("/api/drills/name-the-tile/answers", body={"token": token, "answer": None})
        took.append(time.perf_counter() - start)
        statuses.append(status)
    return took


def p95(seconds: list[float]) -> float:
    return statistics.quantiles(seconds, n=20)[-1]


def test_a_sign_in_flood_never_takes_the_threads_other_learners_drill_on(make_app, monkeypatch):
    app = make_app()
    with Session(app.extensions["store"]) as session:  # an account for the flood to aim at
        session.add(Learner(guest=False, email="ann@example.org", password_hash=hashing.generate_password_hash(PASSWORD)))
        session.commit()

    hashing_now = hashing_most = 0
    lock = threading.Lock()
    werkzeug_check = hashing.security.check_password_hash

    def counted_check(pwhash: str, password: str) -> bool:
        nonlocal hashing_now, hashing_most
        with lock:
            hashing_now += 1
            hashing_most = max(hashing_most, hashing_now)
        try:
            return werkzeug_check(pwhash, password)
        finally:
            with lock:
                hashing_now -= 1

    monkeypatch.setattr(hashing.security, "check_password_hash", counted_check)
    server = create_server(app, host="127.0.0.1", port=0, threads=8, ident="coach-flood")
    runner = threading.Thread(target=server.run, daemon=True)
    runner.start()
    base = f"http://127.0.0.1:{server.effective_port}"
    try:
        victim = Browser(base)
        victim_statuses: list[int] = []
        quiet = _drill(victim, 10, victim_statuses)

        flood_statuses: list[int] = []
        flooding = threading.Event()
        flooding.set()

        def flood(n: int) -> None:
            attacker = Browser(base)
            tries = 0
            while flooding.is_set() and tries < 12:
                email = "ann@example.org" if n % 2 else f"guess{n}-{tries}@example.org"
                status, _ = attacker.send("/signin", form={"email": email, "password": f"guess {n} {tries}"})
                flood_statuses.append(status)
                tries += 1

        with ThreadPoolExecutor(max_workers=20) as pool:
            attacks = [pool.submit(flood, n) for n in range(20)]
            time.sleep(0.2)  # the flood is under way
            during = _drill(victim, 20, victim_statuses)
            flooding.clear()
            for attack in attacks:
                attack.result()
    finally:
        stop_waitress(server, runner)

    print(
        f"\nvictim answer p95: {p95(quiet) * 1000:.0f} ms quiet, {p95(during) * 1000:.0f} ms during a flood of "
        f"{len(flood_statuses)} sign-in posts from 20 threads ({dict(Counter(flood_statuses))}); "
        f"most scrypt checks at once: {hashing_most}"
    )
    assert set(victim_statuses) == {200, 201} and len(victim_statuses) == 60
    assert set(flood_statuses) <= {422, 429, 503}
    assert 429 in flood_statuses  # the limits stopped the guessing
    assert hashing_most <= 2 * hashing.SLOTS  # one slot in each lane: clean, and failing addresses


def test_only_an_app_made_for_tests_hashes_passwords_the_cheap_way(make_app):
    """The tests' cheap hash (TEST_PASSWORD_HASH) is honoured under TESTING
    alone: any other app, and any hash made outside an app, is scrypt."""
    testing = make_app(TESTING=True, TEST_PASSWORD_HASH="pbkdf2:sha256:1")
    production = make_app(TESTING=False, TEST_PASSWORD_HASH="pbkdf2:sha256:1")
    with testing.app_context():
        assert hashing.generate_password_hash("a password").startswith("pbkdf2:sha256:1$")
    with production.app_context():
        assert hashing.generate_password_hash("a password").startswith("scrypt:")
    assert hashing.generate_password_hash("a password").startswith("scrypt:")


def test_a_proxy_count_that_is_no_number_is_refused_at_start_with_a_clear_message(make_app):
    with pytest.raises(ValueError, match="COACH_PROXY_COUNT must be the number of reverse proxies"):
        make_app(COACH_PROXY_COUNT="yes")
