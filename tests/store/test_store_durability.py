"""Nothing is lost when the server is killed between two answers."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.server  # a server process of its own, killed mid-run


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(port: int, data: str) -> subprocess.Popen:
    env = dict(os.environ, COACH_DATA_DIR=data)
    env.pop("COACH_SECRET_KEY", None)
    server = subprocess.Popen(
        [sys.executable, "-m", "coach", "serve", "--port", str(port)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/healthz")
            conn.getresponse().read()
            conn.close()
            return server
        except OSError:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)


def _answer(port: int, seed: int, cookie: str) -> str:
    headers = {"Content-Type": "application/json", **({"Cookie": cookie} if cookie else {})}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("POST", "/api/drills/name-the-tile/questions", json.dumps({"seed": seed}), headers)
    token = json.loads(conn.getresponse().read())["token"]
    conn.request("POST", "/api/drills/name-the-tile/answers", json.dumps({"token": token, "answer": "5D"}), headers)
    response = conn.getresponse()
    response.read()
    cookies = [v.split(";")[0] for k, v in response.getheaders() if k.lower() == "set-cookie"]
    conn.close()
    return "; ".join(cookies) or cookie


def test_answers_survive_a_killed_server(tmp_path):
    data = str(tmp_path / "data")
    port = _free_port()
    server = _start(port, data)
    try:
        cookie = _answer(port, 1, "")
        _answer(port, 2, cookie)
    finally:
        os.killpg(server.pid, signal.SIGKILL)  # no shutdown, no flush: the whole process group dies
        server.wait(10)
    with sqlite3.connect(tmp_path / "data" / "coach.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM attempt").fetchone()[0] == 2
        assert db.execute("SELECT count(DISTINCT learner_id) FROM attempt").fetchone()[0] == 1
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    server = _start(port, data)  # and the app starts again on the same file
    try:
        _answer(port, 3, cookie)
    finally:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(10)
    with sqlite3.connect(tmp_path / "data" / "coach.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM attempt").fetchone()[0] == 3
        assert db.execute("SELECT count(DISTINCT learner_id) FROM attempt").fetchone()[0] == 1  # same guest after the restart
