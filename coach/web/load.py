"""`python -m coach load`: question-plus-answer round trips under load.

The app is served by `python -m coach serve` (gunicorn) in a separate
process on a free loopback port. Client threads, each with its own keep-alive connection, first hit
the bare /healthz route, then ask and answer drill questions through the
JSON API, each phase for a fixed time. Each client keeps its cookies, as a
browser does, so its answers are stored for one guest learner. It prints the p50 and p95 of the
round trips per drill and the ratio of the API's requests per second to
the bare route's, both measured against the same server in the same run.
Only 127.0.0.1 is ever contacted, and every loop stops at its deadline.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from typing import TextIO

HOST = "127.0.0.1"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def _wait_ready(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not start")


def _answer_for(drill: str, question: dict, rng: random.Random) -> object:
    """A plausible learner's answer: sometimes right, often not."""
    if drill == "name-the-tile":
        return rng.choice(question.get("choices") or ["5D", "north", "soap"])
    if drill == "nearest-hand":
        return rng.choice(["2026-1", "2468-1", "LIKE-1", "RUN-2", "SP-3", "WD-2"])
    if drill == "first-pass":
        picks = [t for t in question["rack"] if t != "J"]
        rng.shuffle(picks)
        return picks[:3]
    return None


class Phase:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.requests = 0
        self.errors = 0
        self.lock = threading.Lock()

    def record(self, seconds: float, requests: int) -> None:
        with self.lock:
            self.latencies.append(seconds)
            self.requests += requests


def _client(port: int, deadline: float, work, phase: Phase, seed: int) -> None:
    rng = random.Random(seed)
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    while time.monotonic() < deadline:
        try:
            start = time.perf_counter()
            requests = work(conn, rng)
            phase.record(time.perf_counter() - start, requests)
        except (OSError, http.client.HTTPException, ValueError):
            with phase.lock:
                phase.errors += 1
            conn.close()
            conn = http.client.HTTPConnection(HOST, port, timeout=30)
    conn.close()


def _hello(conn: http.client.HTTPConnection, rng: random.Random) -> int:
    conn.request("GET", "/healthz")
    response = conn.getresponse()
    response.read()
    if response.status != 200:
        raise ValueError(response.status)
    return 1


class _Cookies(threading.local):
    """Each client keeps its cookies, as a browser does: one learner per client."""

    jar: dict[str, str]

    def __init__(self) -> None:
        self.jar = {}

    def header(self) -> dict[str, str]:
        return {"Cookie": "; ".join(f"{k}={v}" for k, v in self.jar.items())} if self.jar else {}

    def keep(self, response: http.client.HTTPResponse) -> None:
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                pair = value.split(";", 1)[0]
                key, _, val = pair.partition("=")
                self.jar[key.strip()] = val.strip()


def _round_trip(drill: str):
    cookies = _Cookies()

    def work(conn: http.client.HTTPConnection, rng: random.Random) -> int:
        headers = {"Content-Type": "application/json", **cookies.header()}
        body = json.dumps({"seed": rng.randrange(1_000_000_000), "level": rng.randint(1, 3)})
        conn.request("POST", f"/api/drills/{drill}/questions", body, headers)
        response = conn.getresponse()
        question = json.loads(response.read())
        cookies.keep(response)
        if response.status != 201:
            raise ValueError(question)
        answer = {"token": question["token"], "answer": _answer_for(drill, question, rng)}
        conn.request("POST", f"/api/drills/{drill}/answers", json.dumps(answer), headers)
        response = conn.getresponse()
        response.read()
        cookies.keep(response)
        if response.status != 200:
            raise ValueError(response.status)
        return 2

    return work


def _run_phase(port: int, clients: int, seconds: float, work) -> tuple[Phase, float]:
    phase = Phase()
    deadline = time.monotonic() + seconds
    threads = [
        threading.Thread(target=_client, args=(port, deadline, work, phase, n), daemon=True)
        for n in range(clients)
    ]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 60)
    return phase, time.perf_counter() - start


def _percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def run(args: argparse.Namespace, out: TextIO) -> int:
    server = None
    if args.port:  # a server already running on this machine
        port = args.port
    else:
        port = _free_port()
        env = dict(os.environ, COACH_DATA_DIR=tempfile.mkdtemp(prefix="coach-load-"))
        # 16 learners on one address, each far past a human's pace: the drilling limits are lifted (still counted).
        env.update(dict.fromkeys(("COACH_LIMIT_DRILL_LEARNER", "COACH_LIMIT_DRILL_ADDRESS", "COACH_LIMIT_FIRST_PASS_ADDRESS"), "1000000/minute"))
        server = subprocess.Popen(
            [sys.executable, "-m", "coach", "serve", "--host", HOST, "--port", str(port)],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
    try:
        _wait_ready(port)
        _run_phase(port, args.clients, min(1.0, args.seconds), _hello)  # warm up
        for drill in args.drills:
            _run_phase(port, 2, 1.0, _round_trip(drill))
        hello, hello_time = _run_phase(port, args.clients, args.seconds, _hello)
        hello_rps = hello.requests / hello_time
        out.write(
            f"{args.clients} clients on loopback, {args.seconds:.0f} s a phase; "
            f"bare /healthz: {hello_rps:,.0f} requests/s, p50 {_percentile(hello.latencies, 0.5) * 1000:.1f} ms\n\n"
        )
        out.write(f"{'drill':<16} {'round trips':>11} {'p50 ms':>8} {'p95 ms':>8} {'req/s':>8} {'vs hello':>9} {'errors':>7}\n")
        every: list[float] = []
        for drill in args.drills:
            phase, elapsed = _run_phase(port, args.clients, args.seconds, _round_trip(drill))
            every += phase.latencies
            rps = phase.requests / elapsed
            out.write(
                f"{drill:<16} {len(phase.latencies):>11} {_percentile(phase.latencies, 0.5) * 1000:>8.1f} "
                f"{_percentile(phase.latencies, 0.95) * 1000:>8.1f} {rps:>8.0f} {rps / hello_rps:>9.2f} {phase.errors:>7}\n"
            )
        out.write(
            f"\nAll round trips: p50 {_percentile(every, 0.5) * 1000:.1f} ms, "
            f"p95 {_percentile(every, 0.95) * 1000:.1f} ms (goal: p95 under 50 ms at 16 clients).\n"
        )
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
    return 0
