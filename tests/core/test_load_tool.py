"""`python -m coach load`'s own edges (issue 26, point 6): the server it
started is stopped when it is ended by SIGTERM, a keep-alive connection the
server closed while idle is opened again instead of counting an error, and
a server slow to start is waited for, with progress, and one that stops is
said in words.

No real coach server here: a sleeping process stands in for the one load
starts, and a few lines of http.server for the server's keep-alive.
"""

from __future__ import annotations

import http.client
import io
import os
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from coach.tools import load
from tests.support.paths import ROOT

LOAD_WITH_A_FAKE_SERVER = """
import argparse, io, subprocess, sys
from coach.tools import load

def fake_start(port):  # a server that never answers: load waits for it until it is stopped
    server = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True,
                              preexec_fn=load._unheld)
    print(server.pid, flush=True)
    return server, ""

load._start_server = fake_start
args = argparse.Namespace(clients=1, seconds=0.1, drills=["name-the-tile"], port=None, pid=None,
                          think=0.0, shared=False, start_timeout=600)
try:
    load.run(args, io.StringIO())
except KeyboardInterrupt:
    sys.exit(130)
"""


# `load --flood`: the same server start and stop as load's (issue 26).
FLOOD_WITH_A_FAKE_SERVER = LOAD_WITH_A_FAKE_SERVER.replace("from coach.tools import load", "from coach.tools import flood, load").replace(
    "load.run(args, io.StringIO())", "args.flood = 1\n    flood.run(args, io.StringIO())"
)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize("sent", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
@pytest.mark.parametrize("script", [LOAD_WITH_A_FAKE_SERVER, FLOOD_WITH_A_FAKE_SERVER], ids=["load", "load --flood"])
def test_sigterm_stops_load_and_the_server_it_started(script, sent):
    # SIGHUP too: a terminal closed (or an ssh session lost) under load hangs it up, and
    # the server, in a session of its own, was left running.
    runner = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    server_pid = int(runner.stdout.readline())  # the server is started, load waits for it
    try:
        assert _alive(server_pid)
        runner.send_signal(sent)
        assert runner.wait(timeout=60) == 130  # ended as by Ctrl-C
        assert not _alive(server_pid)  # stopped (and reaped) by load, not left running
    finally:
        runner.stdout.close()
        if _alive(server_pid):
            os.kill(server_pid, signal.SIGKILL)
        if runner.poll() is None:
            runner.kill()
            runner.wait()



def test_the_server_load_starts_is_stopped_at_its_first_sigterm(tmp_path, monkeypatch):
    # load holds SIGINT and SIGTERM back while it starts its server (so that a Ctrl-C lands
    # once the server can be stopped), and the server inherited them held: gunicorn never
    # saw the SIGTERM, and every stop waited the 10 s before SIGKILL.
    stand_in = tmp_path / "python"
    stand_in.write_text("#!/bin/sh\nexec sleep 600\n")
    stand_in.chmod(0o755)
    monkeypatch.setattr(load.sys, "executable", str(stand_in))
    with load._signals_held():
        server, log = load._start_server(load._free_port())
    try:
        with open(f"/proc/{server.pid}/status") as status:
            held = int(status.read().split("SigBlk:")[1].split()[0], 16)
        assert not held & (1 << (signal.SIGTERM - 1) | 1 << (signal.SIGINT - 1) | 1 << (signal.SIGHUP - 1)), hex(held)
        server.terminate()
        assert server.wait(5) == -signal.SIGTERM
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        shutil.rmtree(os.path.dirname(log), ignore_errors=True)

class _OneAnswerAConnection(BaseHTTPRequestHandler):
    """Answers as if keeping the connection alive, then closes it: as a server does
    to a connection left idle past its keep-alive time."""

    protocol_version = "HTTP/1.1"
    connections = 0
    silent = False  # close without answering at all

    def setup(self) -> None:
        type(self).connections += 1
        super().setup()

    def do_GET(self) -> None:
        if self.silent:
            self.close_connection = True
            return
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")
        self.close_connection = True  # no "Connection: close" said: the client finds out on its next request

    def log_message(self, *args: object) -> None:
        pass


@contextmanager
def _server(silent: bool = False) -> Iterator[int]:
    handler = type("Handler", (_OneAnswerAConnection,), {"connections": 0, "silent": silent})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)
    _server.connections = handler.connections  # type: ignore[attr-defined]  # read by the tests after the block


def test_a_keep_alive_connection_closed_by_the_server_is_opened_again_not_an_error():
    with _server() as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        phase = load.Phase()
        for _ in range(3):
            assert load._hello(conn, None, phase, None) == 1  # each on a connection the server had closed after one answer
        conn.close()
    assert _server.connections == 3  # type: ignore[attr-defined]


def test_a_new_connection_that_fails_is_an_error_at_once_never_sent_twice():
    with _server(silent=True) as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        with pytest.raises(http.client.RemoteDisconnected):
            load._request(conn, "GET", "/healthz")
        conn.close()
    assert _server.connections == 1  # type: ignore[attr-defined]


def test_a_server_that_stops_while_starting_is_said_at_once_with_its_log(tmp_path):
    stopped = subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"])
    stopped.wait(timeout=60)
    with pytest.raises(load.ServerDidNotStart, match=r"stopped while starting \(exit code 3\); its log: /var/log/x"):
        load._wait_ready(load._free_port(), 600, stopped, "/var/log/x")


def test_a_slow_server_is_waited_for_with_progress_then_given_up_in_words(monkeypatch):
    monkeypatch.setattr(load, "PROGRESS_EVERY", 0.0)
    said = io.StringIO()
    with pytest.raises(load.ServerDidNotStart, match=r"did not answer within \d+ s .*--start-timeout"):
        load._wait_ready(load._free_port(), 0.5, None, "", said)  # nothing listens on that port
    assert "waiting for the server to start" in said.getvalue()


def test_the_command_line_takes_a_start_timeout_and_bounds_it(capsys):
    from coach.cli import main

    assert main(["load", "--start-timeout", "0"]) == 2
    assert "--start-timeout" in capsys.readouterr().err
    assert load.START_TIMEOUT >= 120  # a busy 2-core machine took over 30 s
