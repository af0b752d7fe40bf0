"""The signed session cookie, each checked one remembered (issue 26): the same
decisions as Flask's own check, its age included, whoever asked before."""

from __future__ import annotations

import time
from types import SimpleNamespace

from flask import session

from coach.web.infra import session_cookies


def _cookie(client) -> str:
    found = client.get_cookie("session")
    assert found is not None
    return found.value


def test_a_remembered_cookie_opens_the_same_session_and_each_request_gets_its_own_copy(client):
    with client.session_transaction() as kept:
        kept["words"] = ["a", "b"]
    for _ in range(2):  # checked the first time, remembered the second
        with client:
            client.get("/healthz")
            assert session["words"] == ["a", "b"]
            session["words"].append("changed in this request only")  # never saved: not marked modified
    with client:
        client.get("/healthz")
        assert session["words"] == ["a", "b"]


def test_a_remembered_cookie_still_expires_and_one_altered_opens_nothing(app, client, monkeypatch):
    with client.session_transaction() as kept:
        kept["words"] = "hello"
    value = _cookie(client)
    with client:
        client.get("/healthz")
        assert session.get("words") == "hello"  # now remembered
    lifetime = int(app.permanent_session_lifetime.total_seconds())
    later = time.time() + lifetime + 5
    monkeypatch.setattr(session_cookies, "time", SimpleNamespace(time=lambda: later))
    with client:
        client.get("/healthz")
        assert "words" not in session  # too old, as itsdangerous would say
    monkeypatch.undo()
    client.set_cookie("session", value[:-2] + ("AA" if not value.endswith("AA") else "BB"))
    with client:
        client.get("/healthz")
        assert "words" not in session


def test_another_secret_key_does_not_open_a_cookie_remembered_under_the_first(app, client):
    with client.session_transaction() as kept:
        kept["words"] = "hello"
    with client:
        client.get("/healthz")
        assert session.get("words") == "hello"
    app.secret_key = "another key, as after a rotation"
    with client:
        client.get("/healthz")
        assert "words" not in session
