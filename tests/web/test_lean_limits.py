"""The drilling limits' lean check (coach.web.infra.lean_limits, issue 26) answers as Flask-Limiter's own.

Each scenario runs twice, each time on an app of its own: with the lean
check, and with `limits.drilling.lean = False` (every check through
Flask-Limiter's decorator, as before the lean check); on the shared SQLite
store and in memory. The answers (status, message, Retry-After) and the
counts left in the store must be the same, and are also written out here,
so that a limit that stops holding fails whichever way it is checked. The
clock of the stores and of the 429's Retry-After is a fake one: no test
waits for a window to pass, and the seconds to wait are exact.
"""

from __future__ import annotations

import re
import sqlite3
from types import SimpleNamespace

import limits.storage.memory
import pytest
from flask import Flask
from flask_limiter import Limiter
from limits import parse

from coach.web.infra import lean_limits, limit_store
from coach.web.infra import limits as coach_limits
from coach.web.infra.limit_store import SQLiteStorage
from tests.support.app import app_factory

STORES = ["coach-sqlite://", "coach-memory://"]
A, B = "10.0.0.1", "10.0.0.2"
LOW = {"COACH_LIMIT_DRILL_LEARNER": "4/minute", "COACH_LIMIT_DRILL_ADDRESS": "6/minute",
       "COACH_LIMIT_FIRST_PASS_ADDRESS": "2/minute"}
DRILLING = "Too many questions and answers in a short time."
FIRST_PASS = "Too many first-pass questions from your network in a short time."


@pytest.fixture
def make_app(tmp_path, monkeypatch, migrated_database):
    return app_factory(tmp_path, monkeypatch, migrated_database, "lean-limits-test")


@pytest.fixture
def clock(monkeypatch):
    """One fake time for both stores and for the 429's Retry-After."""
    now = SimpleNamespace(value=1_000_000.0)
    fake = SimpleNamespace(time=lambda: now.value, monotonic=lambda: now.value)
    monkeypatch.setattr(limit_store, "time", fake)
    monkeypatch.setattr(limits.storage.memory, "time", fake)
    monkeypatch.setattr(coach_limits, "time", fake)
    return now


@pytest.fixture(autouse=True)
def live_store(monkeypatch):
    """The limiter is one object for every app of the process: each test starts
    with its store alive, and leaves it as it found it."""
    monkeypatch.setattr(coach_limits.limiter, "_storage_dead", False)
    monkeypatch.setattr(coach_limits.limiter, "_Limiter__check_backend_count", 0)
    monkeypatch.setattr(coach_limits.limiter, "_Limiter__last_check_backend", 0.0)
    monkeypatch.setattr(coach_limits.drilling, "lean", True)


def _seen(response) -> tuple[int, str | None, str | None]:
    """A response as the client sees it: status, and for a 429 its message and Retry-After."""
    if response.status_code != 429:
        return response.status_code, None, None
    if response.is_json:
        message = response.get_json()["error"]
    else:
        found = re.search(r"Too many[^<]*", response.get_data(as_text=True))
        assert found, "a 429 page without its message"
        message = found.group(0).strip()
    return 429, message, response.headers["Retry-After"]


def _counts() -> dict[str, int]:
    """What each key's window holds now, in the limiter's store, the learner's session token left out."""
    storage = coach_limits.limiter.storage
    if isinstance(storage, SQLiteStorage):
        with sqlite3.connect(storage.path) as connection:
            keys = [key for (key,) in connection.execute("SELECT DISTINCT key FROM hit")]
    else:
        keys = list(storage.events)
    counts = {}
    for key in keys:
        amount, multiples, granularity = key.rsplit("/", 3)[1:]
        item = parse(f"{amount} per {multiples} {granularity}")
        held = storage.get_moving_window(key, item.amount, item.get_expiry())[1]
        if held:
            counts[re.sub(r"learner:[^/]+", "learner:guest", key)] = held
    return counts


def _drilling(make_app, clock, store: str, lean: bool, figures: dict[str, str] = LOW) -> tuple[list[tuple[int, str | None, str | None]], list[dict[str, int]]]:
    """A guest and a client without cookies drill from two addresses until every
    drilling limit has refused, then again as their windows pass."""
    app = make_app(COACH_RATELIMIT_STORAGE_URI=store, **figures)
    coach_limits.drilling.lean = lean
    guest = app.test_client()
    nobody = app.test_client(use_cookies=False)
    seen: list[tuple[int, str | None, str | None]] = []
    counts: list[dict[str, int]] = []

    def ask(client, drill="name-the-tile", at=A):
        response = client.post(f"/api/drills/{drill}/questions", json={}, environ_base={"REMOTE_ADDR": at})
        seen.append(_seen(response))
        return response

    def answer(client, asked, at=A):
        body = {"token": asked.get_json()["token"], "answer": None}
        seen.append(_seen(client.post("/api/drills/name-the-tile/answers", json=body, environ_base={"REMOTE_ADDR": at})))

    def page(client, at=A, **headers):
        seen.append(_seen(client.get("/drills/name-the-tile", environ_base={"REMOTE_ADDR": at}, headers=headers)))

    answer(guest, ask(guest))  # address A 1, 2 (no learner yet: the answer makes the guest)
    counts.append(_counts())
    ask(guest, "first-pass"), ask(guest, "first-pass")  # learner 1, 2; A 3, 4; first pass 1, 2
    ask(guest, "first-pass")  # first pass refuses: the learner's 3 and A's 5 were counted before it
    counts.append(_counts())
    clock.value += 20
    page(guest)  # learner 4, A 6
    ask(guest)  # the learner's limit refuses: A is not counted
    ask(nobody)  # A's limit refuses
    page(nobody, HX_Request="true")  # A's limit refuses a page too
    ask(nobody, at=B)  # B 1
    counts.append(_counts())
    clock.value += 41  # at 61 s the hits at 0 s have left their windows; the page's at 20 s has not
    ask(guest, at=B)  # learner 2 of 4, B 2
    ask(guest, "first-pass", at=B), ask(guest, "first-pass", at=B)  # learner 3, 4; B 3, 4; first pass at B 1, 2
    ask(guest, "first-pass", at=B)  # the learner's limit refuses first: neither B nor first pass at B counts it
    ask(nobody)  # A 2: the page's at 20 s, and this
    counts.append(_counts())
    return seen, counts


@pytest.mark.parametrize("store", STORES)
def test_the_lean_check_answers_and_counts_as_flask_limiters(make_app, clock, store):
    lean = _drilling(make_app, clock, store, lean=True)
    clock.value = 1_000_000.0
    flask_limiters = _drilling(make_app, clock, store, lean=False)
    assert lean == flask_limiters

    seen, counts = lean
    assert seen == [
        (201, None, None), (200, None, None),
        (201, None, None), (201, None, None),
        (429, f"{FIRST_PASS} Try again in 61 seconds.", "61"),  # Flask-Limiter's reset: the window's end, plus one
        (200, None, None),
        (429, f"{DRILLING} Try again in 41 seconds.", "41"),
        (429, f"{DRILLING} Try again in 41 seconds.", "41"),
        (429, f"{DRILLING} Try again in 41 seconds.", "41"),
        (201, None, None),
        (201, None, None), (201, None, None), (201, None, None),
        (429, f"{DRILLING} Try again in 20 seconds.", "20"),
        (201, None, None),
    ]
    learner, at_a, at_b = (f"LIMITER/coach/{who}/drilling/{n}/1/minute"
                           for who, n in (("learner:guest", 4), ("address:" + A, 6), ("address:" + B, 6)))
    first_pass_a, first_pass_b = (f"LIMITER/coach/address:{at}/first-pass/2/1/minute" for at in (A, B))
    assert counts == [
        {at_a: 2},
        {learner: 3, at_a: 5, first_pass_a: 2},
        {learner: 4, at_a: 6, first_pass_a: 2, at_b: 1},
        {learner: 4, at_a: 2, at_b: 4, first_pass_b: 2},
    ]


@pytest.mark.parametrize("store", STORES)
def test_limits_ordered_otherwise_by_their_windows_answer_the_same_too(make_app, clock, store):
    """The learner's limit by the hour comes after the address's by the minute: its
    functions are called after the address's hit (lean_limits: `pure`)."""
    figures = {"COACH_LIMIT_DRILL_LEARNER": "4/hour", "COACH_LIMIT_DRILL_ADDRESS": "6/minute;9/hour",
               "COACH_LIMIT_FIRST_PASS_ADDRESS": "2/minute"}
    lean = _drilling(make_app, clock, store, lean=True, figures=figures)
    clock.value = 1_000_000.0
    assert lean == _drilling(make_app, clock, store, lean=False, figures=figures)
    assert [status for status, _, _ in lean[0]].count(429) == 7


@pytest.mark.parametrize("store", STORES)
def test_a_request_counts_once_against_each_limit_checked_once(make_app, store, monkeypatch):
    """The lean check does the work itself: Flask-Limiter's check of the view is
    not run too (nothing counted twice), and on the SQLite store a request's
    hits are one transaction."""
    app = make_app(COACH_RATELIMIT_STORAGE_URI=store)
    client = app.test_client()
    asked = client.post("/api/drills/name-the-tile/questions", json={})
    assert client.post("/api/drills/name-the-tile/answers", json={"token": asked.get_json()["token"], "answer": None}).status_code == 200
    checks: list[bool] = []
    real = coach_limits.limiter._check_request_limit
    monkeypatch.setattr(coach_limits.limiter, "_check_request_limit",
                        lambda callable_name=None, in_middleware=True: checks.append(in_middleware) or real(callable_name, in_middleware))
    begun: list[str] = []
    storage = coach_limits.limiter.storage
    if isinstance(storage, SQLiteStorage):
        storage._connection().set_trace_callback(lambda sql: begun.append(sql) if sql.startswith("BEGIN") else None)
    before = _counts()
    assert client.post("/api/drills/first-pass/questions", json={}).status_code == 201
    after = _counts()
    assert checks == []  # not Flask-Limiter's decorator's check
    assert begun == (["BEGIN IMMEDIATE"] if isinstance(storage, SQLiteStorage) else [])
    learner = "LIMITER/coach/learner:guest/drilling/120/1/minute"
    address = "LIMITER/coach/address:127.0.0.1/drilling/1200/1/minute"
    first_pass = "LIMITER/coach/address:127.0.0.1/first-pass/240/1/minute"
    assert before == {address: 2}
    assert after == {learner: 1, address: 3, first_pass: 1}

    checks.clear()
    coach_limits.drilling.lean = False  # Flask-Limiter's own check, for comparison: one transaction a limit
    begun.clear()
    assert client.post("/api/drills/first-pass/questions", json={}).status_code == 201
    assert checks == [False]
    assert begun == (["BEGIN IMMEDIATE"] * 3 if isinstance(storage, SQLiteStorage) else [])
    assert _counts() == {learner: 2, address: 4, first_pass: 2}


def test_new_settings_are_read_as_flask_limiter_reads_them(make_app):
    """The lean check resolves the limits once per app and settings, and again when the settings change."""
    app = make_app(COACH_LIMIT_DRILL_ADDRESS="3/minute")
    client = app.test_client(use_cookies=False)
    assert [client.post("/api/drills/name-the-tile/questions", json={}).status_code for _ in range(4)] == [201] * 3 + [429]
    app.extensions["settings"] = app.extensions["settings"].updated({"COACH_LIMIT_DRILL_ADDRESS": "5/minute"})
    # A limit's figures are in its key: the new one counts from nothing, as Flask-Limiter counts it.
    assert [client.post("/api/drills/name-the-tile/questions", json={}).status_code for _ in range(6)] == [201] * 5 + [429]


@pytest.mark.parametrize("lean", [True, False])
def test_a_store_that_fails_falls_back_to_memory_as_flask_limiter_does(make_app, monkeypatch, lean):
    """A store that cannot be written (locked past its timeout, say): the request is
    answered, the store is marked dead, and the limits count in memory, the same
    limits, from then on, either way."""
    app = make_app(COACH_LIMIT_DRILL_ADDRESS="3/minute")
    coach_limits.drilling.lean = lean

    def locked(*args, **kwargs):
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(SQLiteStorage, "acquire_entry", locked)
    monkeypatch.setattr(SQLiteStorage, "acquire_entries", locked)
    client = app.test_client(use_cookies=False)
    statuses = [client.post("/api/drills/name-the-tile/questions", json={}).status_code for _ in range(4)]
    assert statuses == [201, 201, 201, 429]
    assert coach_limits.limiter._storage_dead
    fallback = coach_limits.limiter._fallback_limiter
    assert fallback is not None
    assert fallback.storage.get_moving_window("LIMITER/coach/address:127.0.0.1/drilling/3/1/minute", 3, 60)[1] == 3


def test_a_locked_limits_file_never_fails_the_request(make_app, monkeypatch):
    """Issue 28: the limits' file held by another worker past the busy timeout answered
    a 500 ("database is locked"). The request is answered and counted all the same."""
    monkeypatch.setattr(limit_store, "BUSY_TIMEOUT", 0.05)
    app = make_app(COACH_LIMIT_DRILL_ADDRESS="3/minute")
    client = app.test_client(use_cookies=False)
    assert client.post("/api/drills/name-the-tile/questions", json={}).status_code == 201  # the file made, a connection open
    storage = coach_limits.limiter.storage
    assert isinstance(storage, SQLiteStorage)
    other = sqlite3.connect(storage.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another worker holds the write lock
    try:
        statuses = [client.post("/api/drills/name-the-tile/questions", json={}).status_code for _ in range(4)]
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert statuses == [201, 201, 201, 429]  # counted in this worker's memory meanwhile: the limit still holds
    assert not coach_limits.limiter._storage_dead  # the file is not given up for one busy moment


def test_a_store_marked_dead_by_another_thread_meanwhile_still_answers(make_app, monkeypatch):
    """Two requests meet a failing store at once: the first marks it dead; the second,
    failing too, used to raise (Flask-Limiter's own check does) instead of using the fallback."""
    app = make_app(COACH_LIMIT_DRILL_ADDRESS="3/minute")

    def failed_after_another_thread_gave_up(*args, **kwargs):
        coach_limits.limiter._storage_dead = True  # what the other thread did meanwhile
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(SQLiteStorage, "acquire_entries", failed_after_another_thread_gave_up)
    client = app.test_client(use_cookies=False)
    assert client.post("/api/drills/name-the-tile/questions", json={}).status_code == 201


def test_limits_switched_off_count_nothing(make_app):
    app = make_app(RATELIMIT_ENABLED=False, COACH_LIMIT_DRILL_ADDRESS="1/minute")
    client = app.test_client(use_cookies=False)
    try:
        assert [client.post("/api/drills/name-the-tile/questions", json={}).status_code for _ in range(3)] == [201] * 3
    finally:
        coach_limits.limiter.enabled = True  # one limiter for every app of the process


def _tiny_app(lean: bool) -> tuple[Flask, list[str]]:
    """An app of its own limiter: a per-minute limit by a key that only reads the
    request, then (by its window) a per-hour one whose exemption and key may do more."""
    app = Flask("tiny")
    calls: list[str] = []

    def where() -> str:
        calls.append("where")
        return "here"

    def who() -> str:
        calls.append("who")
        return "someone"

    def nobody() -> bool:
        calls.append("nobody?")
        return False

    limiter = Limiter(key_func=where, strategy="moving-window", storage_uri="coach-memory://", key_prefix="tiny")
    limiter.init_app(app)
    checked = lean_limits.Lean(limiter, [limiter.shared_limit("3/hour", scope="s", key_func=who, exempt_when=nobody),
                                         limiter.shared_limit("1/minute", scope="s")], pure=(where,), version=lambda: None)
    checked.lean = lean

    @app.post("/x")
    @checked
    def x() -> str:
        return "ok"

    return app, calls


def test_a_function_that_may_do_more_than_read_the_request_is_called_where_flask_limiter_calls_it():
    """The learner's limit may load the learner (a remember cookie): when the windows
    order it after another limit, it is called only once that one's hit is taken, and
    not at all when that one refuses, as Flask-Limiter's own check does."""
    answers = {}
    for lean in (True, False):
        app, calls = _tiny_app(lean)
        client = app.test_client()
        statuses = [client.post("/x").status_code for _ in range(2)]
        answers[lean] = statuses, calls
    assert answers[True] == answers[False] == ([200, 429], ["where", "nobody?", "who", "where"])
    assert coach_limits.drilling.pure == {coach_limits.address, coach_limits._not_first_pass}
