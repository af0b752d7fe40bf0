"""A refused sign-in is answered before Flask (issue 26, point 3).

coach.web.account.early_refusal decides a POST /signin from the client's
address and the form's email with the sign-in limits' own keys and windows,
and answers a refused one before the session, the CSRF check or any learner
is read. Here: it refuses exactly what Flask's limits refuse, with the same
words and headers; it reads the email as werkzeug's form parser does; and it
reads the address after ProxyFix. Each test builds its own app (its own
store of limits); a refusal made before Flask is told apart by the CSRF
check it never reaches (Flask would answer a post without a token 400).
"""

from __future__ import annotations

import pytest
from werkzeug.test import EnvironBuilder
from werkzeug.wrappers import Request

from coach.web.account import early_refusal
from coach.web.infra import hashing, limits
from tests.support.app import app_factory

OWNER = "ann@example.org"


@pytest.fixture
def make_app(tmp_path, monkeypatch, migrated_database):
    new_app = app_factory(tmp_path, monkeypatch, migrated_database, "early-test")

    def make(early: bool = True, **config):
        app = new_app(**config)
        if not early:  # Flask's limits alone, as before the early refusal
            assert isinstance(app.wsgi_app, early_refusal.EarlyRefusal)
            app.wsgi_app = app.wsgi_app.wsgi_app  # type: ignore[method-assign]
        return app

    return make


def sign_in(app, address: str, email: str = OWNER, headers=None, **kwargs):
    return app.test_client().post(
        "/signin", data={"email": email, "password": "wrong password"}, environ_base={"REMOTE_ADDR": address},
        headers=headers or {}, **kwargs,
    )


def said(response) -> tuple[int, str]:
    """The status, and the limit's sentence of a 429 (its wait left out: a second may pass between two apps)."""
    page = response.get_data(as_text=True)
    if response.status_code != 429:
        return response.status_code, ""
    start = page.index("Too many")
    return 429, page[start:page.index(" Try again in", start)]


def test_a_refused_sign_in_is_answered_before_the_csrf_check_with_the_limits_words_and_headers(make_app):
    app = make_app(COACH_LIMIT_SIGNIN_ADDRESS="3/minute")
    assert [sign_in(app, "10.0.0.1", f"u{n}@example.org").status_code for n in range(3)] == [422] * 3
    app.config["WTF_CSRF_ENABLED"] = True  # from now on Flask would refuse a post without a token first (400)
    refused = sign_in(app, "10.0.0.1", "u9@example.org")
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    page = refused.get_data(as_text=True)
    assert "Too many sign-in attempts from your network. Try again in" in page
    assert "csrf" not in page.lower()  # made once for everyone: nothing of one visitor's
    assert "Set-Cookie" not in refused.headers
    assert refused.headers["Cache-Control"] == "no-store"
    assert "frame-ancestors 'none'" in refused.headers["Content-Security-Policy"]
    assert int(refused.headers["Content-Length"]) == len(refused.get_data())
    partial = sign_in(app, "10.0.0.1", headers={"HX-Request": "true"})  # htmx swaps a partial in, as for Flask's 429
    assert partial.status_code == 429 and "<html" not in partial.get_data(as_text=True)
    assert "Try again in" in partial.get_data(as_text=True)
    assert sign_in(app, "10.0.0.2").status_code == 400  # another address reaches Flask, and its CSRF check


def test_the_early_refusal_refuses_what_flasks_limits_refuse_and_nothing_else(make_app):
    """One script of wrong passwords, with and without the early refusal: the same answers,
    each limit reached (per email and address, per address, the email's ceiling)."""
    limits = {"COACH_LIMIT_SIGNIN_EMAIL_ADDRESS": "2/minute", "COACH_LIMIT_SIGNIN_ADDRESS": "4/minute",
              "COACH_LIMIT_SIGNIN_EMAIL": "5/minute"}
    script = [("10.0.0.1", OWNER)] * 3 + [("10.0.0.1", f"u{n}@example.org") for n in range(4)]
    script += [(f"10.0.1.{n}", OWNER) for n in range(5)] + [("10.0.1.1", OWNER), ("10.0.1.1", "x@example.org")]
    script += [("10.0.2.1", OWNER.upper()), ("10.0.2.2", "  " + OWNER + " "), ("10.0.2.3", "")]
    answers, pages = {}, {}
    for early in (True, False):
        app = make_app(early=early, **limits)
        responses = [sign_in(app, address, email) for address, email in script]
        answers[early] = [said(response) for response in responses]
        pages[early] = [response.get_data(as_text=True) for response in responses if response.status_code == 429]
    assert answers[True] == answers[False]
    # Every 429 with it was made before Flask (its page has no CSRF token), every one without it by Flask.
    assert not any("csrf-token" in page for page in pages[True])
    assert all("csrf-token" in page for page in pages[False])
    assert {sentence for _, sentence in answers[True]} == {
        "", "Too many sign-in attempts for this email from your network.", "Too many sign-in attempts from your network.",
        "Too many sign-in attempts for this email, yours among them.",
    }


def test_behind_a_proxy_the_early_refusal_reads_the_forwarded_address(make_app):
    app = make_app(COACH_LIMIT_SIGNIN_ADDRESS="2/minute", COACH_PROXY_COUNT=1)
    forwarded = {"X-Forwarded-For": "192.0.2.7"}
    assert [sign_in(app, "10.0.0.1", f"u{n}@example.org", forwarded).status_code for n in range(2)] == [422, 422]
    app.config["WTF_CSRF_ENABLED"] = True
    assert sign_in(app, "10.0.0.1", headers=forwarded).status_code == 429  # before the CSRF check: the client's address
    assert sign_in(app, "10.0.0.1", headers={"X-Forwarded-For": "192.0.2.8"}).status_code == 400  # another client


BODIES = [
    b"email=Ann%40Example.org&password=x",
    b"password=x&email=a+b%40x.org",
    b"email=first%40x.org&email=second%40x.org",
    b"email=caf%C3%A9%40x.org",
    b"email=%FF%FE%40x.org",  # percent-encoded bytes that are no UTF-8
    b"email=%zz&x=1",
    b"\xff\xfeemail=x",  # a body that is no UTF-8: werkzeug reads no form
    b"email",
    b"emailx=1&Email=2",
    b"",
]


@pytest.mark.parametrize("body", BODIES)
@pytest.mark.parametrize("content_type", ["application/x-www-form-urlencoded", "application/x-www-form-urlencoded; charset=utf-8", "text/plain"])
def test_the_form_is_read_as_werkzeugs_parser_reads_it_and_left_for_flask(body, content_type):
    environ = EnvironBuilder(method="POST", path="/signin", data=body, content_type=content_type).get_environ()
    expected = Request(EnvironBuilder(method="POST", path="/signin", data=body, content_type=content_type).get_environ()).form
    assert early_refusal._form(environ, 64 * 1024) == {name: expected[name] for name in expected}
    assert Request(environ).form == expected  # the body put back, whole


def test_a_body_not_cheap_to_read_is_left_to_flask():
    multipart = EnvironBuilder(method="POST", path="/signin", data={"email": OWNER}, content_type="multipart/form-data").get_environ()
    assert multipart["CONTENT_TYPE"].startswith("multipart/form-data")
    assert early_refusal._form(multipart, 64 * 1024) is None
    too_long = EnvironBuilder(method="POST", path="/signin", data=b"email=" + b"a" * 100,
                              content_type="application/x-www-form-urlencoded").get_environ()
    assert early_refusal._form(too_long, 50) is None
    no_length = dict(too_long, CONTENT_LENGTH="")
    assert early_refusal._form(no_length, 64 * 1024) is None


@pytest.fixture
def suspect_lane(monkeypatch) -> hashing.Gate:
    """The flood's hashing lane, one slot and no queue, as served; the tests hold it."""
    gate = hashing.Gate(slots=1, queue=0, wait=0.0)
    monkeypatch.setattr(hashing, "suspect_gate", gate)
    return gate


def test_a_failing_address_is_told_busy_before_flask_while_the_flood_lane_is_taken_and_it_counts(make_app, suspect_lane):
    app = make_app(COACH_LIMIT_SIGNIN_ADDRESS="3/minute")
    assert sign_in(app, "10.0.0.1").status_code == 422  # failing from now on
    app.config["WTF_CSRF_ENABLED"] = True
    with suspect_lane.turn():
        busy = sign_in(app, "10.0.0.1")
        assert busy.status_code == 503 and busy.headers["Retry-After"] == str(limits.BUSY_RETRY)
        page = busy.get_data(as_text=True)
        assert "Try again in a few seconds" in page and "csrf" not in page.lower()
        assert sign_in(app, "10.0.0.1").status_code == 503  # its third failure, counted as Flask counts it
        refused = sign_in(app, "10.0.0.1")
        assert refused.status_code == 429 and "Too many sign-in attempts from your network" in refused.get_data(as_text=True)
        assert sign_in(app, "10.0.0.2").status_code == 400  # a clean address goes on to Flask (and its CSRF check)
    assert sign_in(app, "10.0.0.3").status_code == 400  # the lane free: Flask decides


def test_with_the_flood_lane_taken_the_early_answers_are_flasks(make_app, suspect_lane):
    """One script, with and without the early refusal, the flood's lane held: the same
    answers, busy ones and the refusals their counts bring on, a clean address unheld."""
    config = {"COACH_LIMIT_SIGNIN_EMAIL_ADDRESS": "3/minute", "COACH_LIMIT_SIGNIN_ADDRESS": "5/minute",
              "COACH_LIMIT_SIGNIN_EMAIL": "6/minute"}
    script = [("10.0.0.1", OWNER)] + [("10.0.0.1", OWNER)] * 3 + [("10.0.0.1", "u1@example.org")] * 2
    script += [(f"10.0.1.{n}", OWNER) for n in range(4)] + [(f"10.0.1.{n}", OWNER) for n in range(4)]
    script += [("10.0.2.1", "") , ("10.0.2.2", OWNER)]
    answers, pages = {}, {}
    for early in (True, False):
        app = make_app(early=early, **config)
        responses = [sign_in(app, *script[0])]
        with suspect_lane.turn():
            responses += [sign_in(app, address, email) for address, email in script[1:]]
        answers[early] = [said(response) for response in responses]
        pages[early] = [response.get_data(as_text=True) for response in responses if response.status_code in (429, 503)]
    assert answers[True] == answers[False]
    assert {status for status, _ in answers[True]} == {422, 429, 503}
    assert not any("csrf-token" in page for page in pages[True])  # each made before Flask
    assert all("csrf-token" in page for page in pages[False])


def test_a_learner_signed_in_is_left_to_flask_while_the_flood_lane_is_taken(make_app, suspect_lane):
    app = make_app()
    learner = app.test_client()
    made = learner.post("/signup", data={"email": OWNER, "password": "correct horse battery", "name": "Ann"},
                        environ_base={"REMOTE_ADDR": "10.0.0.1"})
    assert made.status_code == 303
    assert sign_in(app, "10.0.0.1", "x@example.org").status_code == 422  # the learner's address is failing
    with suspect_lane.turn():
        assert sign_in(app, "10.0.0.1", "y@example.org").status_code == 503
        again = learner.post("/signin", data={"email": OWNER, "password": "anything"}, environ_base={"REMOTE_ADDR": "10.0.0.1"})
        assert again.status_code == 303 and again.headers["Location"].endswith("/account")  # sent on, as Flask does
