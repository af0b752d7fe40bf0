"""The Server-Timing header (off unless asked) and the load command that reads it (issue 13).

These check what is reported, never how fast: timings are the benchmark's
business (`python -m coach load`), not a test's.
"""

from __future__ import annotations

import argparse
import io
import shutil

import pytest

from coach.store.db import FILE_NAME
from coach.tools import load
from coach.web import create_app
from coach.web.infra.server_timing import HEADER, parse
from tests.support.app import TEST_SECRET


def _app(tmp_path, monkeypatch, migrated_database, **config):
    instance = tmp_path / "instance"
    instance.mkdir()
    shutil.copyfile(migrated_database, instance / FILE_NAME)
    monkeypatch.setenv("COACH_DATA_DIR", str(instance))
    return create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET, **config})


def test_off_by_default(client, monkeypatch):
    monkeypatch.delenv("COACH_SERVER_TIMING", raising=False)
    assert HEADER not in client.get("/healthz").headers
    question = client.post("/api/drills/name-the-tile/questions", json={"seed": 1, "level": 1})
    assert question.status_code == 201 and HEADER not in question.headers


@pytest.mark.parametrize("setting", ["1", "true", "on"])
def test_on_when_asked_in_the_environment(tmp_path, monkeypatch, migrated_database, setting):
    monkeypatch.setenv("COACH_SERVER_TIMING", setting)
    client = _app(tmp_path, monkeypatch, migrated_database).test_client()
    question = client.post("/api/drills/first-pass/questions", json={"seed": 7, "level": 2})
    timing = parse(question.headers[HEADER])
    assert set(timing) == {"app", "cpu"} and timing["app"] >= 0 and timing["cpu"] >= 0
    body = question.get_json()
    answer = client.post("/api/drills/first-pass/answers", json={"token": body["token"], "answer": body["rack"][:3]})
    assert answer.status_code == 200
    assert set(parse(answer.headers[HEADER])) == {"app", "cpu"}


def test_on_for_errors_too_and_only_once(tmp_path, monkeypatch, migrated_database):
    client = _app(tmp_path, monkeypatch, migrated_database, COACH_SERVER_TIMING="1").test_client()
    missing = client.get("/no-such-page")
    assert missing.status_code == 404
    assert len(missing.headers.getlist(HEADER)) == 1
    forged = client.post("/api/drills/first-pass/answers", json={"token": "forged", "answer": ["1B", "2B", "3B"]})
    assert forged.status_code == 400 and set(parse(forged.headers[HEADER])) == {"app", "cpu"}


def test_config_off_beats_the_environment(tmp_path, monkeypatch, migrated_database):
    monkeypatch.setenv("COACH_SERVER_TIMING", "1")
    client = _app(tmp_path, monkeypatch, migrated_database, COACH_SERVER_TIMING="0").test_client()
    assert HEADER not in client.get("/healthz").headers


@pytest.mark.parametrize(
    "value, expected",
    [
        ("app;dur=3.21, cpu;dur=2.87", {"app": 3.21, "cpu": 2.87}),
        ("cache;desc=hit, db;dur=1", {"db": 1.0}),
        ("app;dur=oops", {}),
        ("", {}),
        (None, {}),
    ],
)
def test_parse(value, expected):
    assert parse(value) == expected


@pytest.mark.server
def test_load_reports_every_drill_asked_with_its_time_in_the_server(capsys):
    """A short run against a server it starts (gunicorn, as `serve` runs):
    every row is there, no request failed, and the answers' Server-Timing
    was read (a number, not nan, in the "in server" columns)."""
    args = argparse.Namespace(clients=2, seconds=0.4, drills=["name-the-tile", "dead-or-alive", "first-pass"], port=None, pid=None, think=0.0, shared=False)
    out = io.StringIO()
    assert load.run(args, out) == 0
    text = out.getvalue()
    rows = {line.split()[0]: line.split() for line in text.splitlines() if line.split() and line.split()[0] in args.drills}
    assert set(rows) == set(args.drills)
    for drill, cells in rows.items():
        assert int(cells[1]) > 0, drill  # round trips made
        assert cells[-1] == "0", f"{drill}: {cells[-1]} requests failed"
        in_server_p50, in_server_p95, cpu_p50 = (float(cells[k]) for k in (5, 6, 7))
        assert 0 <= in_server_p50 <= in_server_p95 and cpu_p50 >= 0, drill
    assert "All round trips" in text and "in the server p50" in text


@pytest.mark.server
def test_load_with_a_pause_between_round_trips_on_a_drill_set():
    args = argparse.Namespace(clients=2, seconds=0.6, drills=["name-the-tile"], port=None, pid=None, think=0.1, shared=True)
    out = io.StringIO()
    assert load.run(args, out) == 0
    text = out.getvalue()
    assert "each client pausing 0.05-0.15 s between round trips" in text
    assert "every client the same questions in the same order" in text
    row = next(line.split() for line in text.splitlines() if line.startswith("name-the-tile"))
    assert int(row[1]) > 0 and row[-1] == "0"
