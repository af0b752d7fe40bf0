"""`python -m coach load --flood N`: learners' drills while N addresses flood the sign-in form.

Issue 26 (point 3): with 16 source addresses posting wrong passwords, other
learners' drill p95 went from 353 ms to 1,988 ms and 58% of sign-in answers,
real users' included, were 503 "busy". Done when the flood leaves the
learners' drill p95 within 2x of the quiet figure.

The app is served by `python -m coach serve` (gunicorn, as in production:
its limits and password hashing untouched; only the drilling limits are
lifted, as `load` does, so that many learners on one address can drill).
It runs two phases of the same length:

1. **Quiet:** `--clients` learners (from 127.0.0.1) ask and answer questions
   of the `--drills`, each round trip a random one of them.
2. **Flooded:** the same learners, while N flooding clients, each from an
   address of its own (127.0.0.2, 127.0.0.3, ...: every 127/8 address is
   this machine's loopback), post wrong passwords as fast as they are
   answered (half for the owner's email, half for made-up ones), and the
   owner signs in with the right password from a clean address once a second
   (or, told "busy", after the answer's Retry-After, as a person would).
   The flood and the owner run in a process of their own, so that their
   threads never take the learners' clients' GIL.

It prints the learners' round-trip p95 in each phase and their ratio, the
flood's answers by status, and the owner's. Only loopback addresses are
ever contacted, and every loop stops at its deadline.
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import multiprocessing.queues
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TextIO
from urllib.parse import urlencode

from coach.common import settings
from coach.tools import load

HOST = load.HOST
OWNER = "owner@example.org"
OWNER_PASSWORD = "the owner's own password"
OWNER_ADDRESS = "127.0.1.1"  # clean: never fails
GOAL = 2.0  # the flooded p95 at most this many times the quiet one
_FORK = multiprocessing.get_context("fork")  # the attack's process: a copy of this one, nothing to import again
_TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


@dataclass
class Statuses:
    """Answers by status, and how long each took, from several threads."""

    counts: Counter[int] = field(default_factory=Counter)
    seconds: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, status: int, seconds: float) -> None:
        with self.lock:
            self.counts[status] += 1
            self.seconds.append(seconds)

    def said(self) -> str:
        total = sum(self.counts.values())
        if not total:
            return "none"
        return ", ".join(f"{status}: {n} ({n / total:.0%})" for status, n in sorted(self.counts.items()))


class _Form:
    """One browser filling one form: the page first (its CSRF token and cookie), then posts."""

    def __init__(self, port: int, source: str, path: str) -> None:
        self.path = path
        self.conn = http.client.HTTPConnection(HOST, port, timeout=30, source_address=(source, 0))
        self.cookies: dict[str, str] = {}
        self.token = ""
        self.retry_after = 0.0  # the last answer's Retry-After, seconds

    def _keep(self, response: http.client.HTTPResponse) -> None:
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, val = value.split(";", 1)[0].partition("=")
                self.cookies[key.strip()] = val.strip()

    def _headers(self) -> dict[str, str]:
        return {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else {}

    def open(self) -> None:
        self.conn.request("GET", self.path, headers=self._headers())
        response = self.conn.getresponse()
        found = _TOKEN.search(response.read().decode("utf-8", "replace"))
        self._keep(response)
        if response.status != 200 or not found:
            raise ValueError(f"GET {self.path}: {response.status}")
        self.token = found.group(1)

    def post(self, fields: dict[str, str]) -> int:
        body = urlencode({"csrf_token": self.token, **fields})
        headers = {"Content-Type": "application/x-www-form-urlencoded", **self._headers()}
        self.conn.request("POST", self.path, body, headers)
        response = self.conn.getresponse()
        response.read()
        self._keep(response)
        self.retry_after = float(response.getheader("Retry-After") or 0)
        return response.status

    def close(self) -> None:
        self.conn.close()


def _sign_up_owner(port: int) -> None:
    form = _Form(port, OWNER_ADDRESS, "/signup")
    try:
        form.open()
        status = form.post({"email": OWNER, "password": OWNER_PASSWORD, "name": "Owner"})
    finally:
        form.close()
    if status != 303:
        raise RuntimeError(f"the owner's sign-up answered {status}")


def _flooder(port: int, source: str, deadline: float, seed: int, answers: Statuses) -> None:
    rng = random.Random(seed)
    form: _Form | None = None
    while time.monotonic() < deadline:
        try:
            if form is None:
                form = _Form(port, source, "/signin")
                form.open()
            email = OWNER if rng.random() < 0.5 else f"guess{rng.randrange(10**6)}@example.org"
            start = time.perf_counter()
            status = form.post({"email": email, "password": f"guess {rng.randrange(10**9)}"})
            answers.add(status, time.perf_counter() - start)
        except (OSError, http.client.HTTPException, ValueError):
            answers.add(0, 0.0)  # 0: no answer (a closed connection, a page without its form)
            if form is not None:
                form.close()
            form = None
    if form is not None:
        form.close()


def _owner(port: int, deadline: float, answers: Statuses) -> None:
    """The owner signs in from a clean address about once a second, a new browser each time."""
    while time.monotonic() < deadline:
        form = _Form(port, OWNER_ADDRESS, "/signin")
        try:
            form.open()
            start = time.perf_counter()
            status = form.post({"email": OWNER, "password": OWNER_PASSWORD})
            answers.add(status, time.perf_counter() - start)
        except (OSError, http.client.HTTPException, ValueError):
            answers.add(0, 0.0)
        finally:
            form.close()
        pause = max(1.0, form.retry_after)  # a person told "try again in a few seconds" waits that long
        time.sleep(min(pause, max(0.0, deadline - time.monotonic())))


def _attack(port: int, floods: int, seconds: float, results: multiprocessing.queues.SimpleQueue) -> None:
    """The flood and the owner, in a process of their own: their threads must not
    take the learners' clients' GIL, or the clients' own waits would be counted
    as the server's."""
    deadline = time.monotonic() + seconds
    flood, owner = Statuses(), Statuses()
    threads = [
        threading.Thread(target=_flooder, args=(port, f"127.0.0.{n + 2}", deadline, n, flood), daemon=True)
        for n in range(floods)
    ]
    threads.append(threading.Thread(target=_owner, args=(port, deadline, owner), daemon=True))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    results.put(((flood.counts, flood.seconds), (owner.counts, owner.seconds)))


def _mixed_drills(drills: list[str]):
    works = [load._round_trip(drill) for drill in drills]

    def work(conn, rng, phase, asks):
        return rng.choice(works)(conn, rng, phase, asks)

    return work


def _start_server(port: int) -> subprocess.Popen:
    env = dict(os.environ)
    env[settings.DATA_DIR.name] = tempfile.mkdtemp(prefix="coach-flood-")
    # The learners share one address, far past a human's pace: the drilling limits are
    # lifted (still counted), as `load` does. The sign-in limits and the hashing stay as served.
    lifted = (settings.LIMIT_DRILL_LEARNER, settings.LIMIT_DRILL_ADDRESS, settings.LIMIT_FIRST_PASS_ADDRESS)
    env.update(dict.fromkeys((limit.name for limit in lifted), "1000000/minute"))
    return subprocess.Popen(
        [sys.executable, "-m", "coach", "serve", "--host", HOST, "--port", str(port)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )


def _p95_ms(values: list[float]) -> float:
    return load._percentile(values, 0.95) * 1000


def run(args: argparse.Namespace, out: TextIO) -> int:
    port = load._free_port()
    server = _start_server(port)
    floods: int = args.flood
    think = getattr(args, "think", 0.0) or 0.0
    work = _mixed_drills(args.drills)
    try:
        load._wait_ready(port)
        _sign_up_owner(port)
        load._run_phase(port, args.clients, min(2.0, args.seconds), work)  # warm up
        quiet, _ = load._run_phase(port, args.clients, args.seconds, work, server.pid, think)

        results: multiprocessing.queues.SimpleQueue = _FORK.SimpleQueue()
        attack = _FORK.Process(target=_attack, args=(port, floods, args.seconds, results), daemon=True)
        attack.start()
        try:
            flooded, _ = load._run_phase(port, args.clients, args.seconds, work, server.pid, think)
            flood, owner = (Statuses(Counter(counts), seconds) for counts, seconds in results.get())
            attack.join(60)
        finally:
            if attack.is_alive():
                attack.terminate()

        before, after = _p95_ms(quiet.latencies), _p95_ms(flooded.latencies)
        ratio = after / before if before else float("nan")
        pace = f"each pausing {0.5 * think:g}-{1.5 * think:g} s" if think else "no pause"
        out.write(
            f"{args.clients} learners drilling ({', '.join(args.drills)}; {pace}), {args.seconds:.0f} s a phase; "
            f"{floods} addresses flooding the sign-in form in the second phase.\n"
            f"{'phase':<8} {'round trips':>11} {'p50 ms':>8} {'p95 ms':>8} {'errors':>7} {'server CPU ms/req':>18}\n"
        )
        for name, phase in (("quiet", quiet), ("flooded", flooded)):
            out.write(
                f"{name:<8} {len(phase.latencies):>11} {load._percentile(phase.latencies, 0.5) * 1000:>8.1f} "
                f"{_p95_ms(phase.latencies):>8.1f} {phase.errors:>7} {phase.cpu_ms()[0]:>18}\n"
            )
        verdict = "met" if ratio <= GOAL else "not met"
        out.write(
            f"\nLearners' drill p95, flooded / quiet: {ratio:.2f}x (goal: at most {GOAL:g}x): {verdict}.\n"
            f"Flood's sign-in answers ({sum(flood.counts.values())}): {flood.said()}.\n"
            f"The owner's sign-ins from a clean address ({sum(owner.counts.values())}): {owner.said()}; "
            f"p95 {_p95_ms(owner.seconds):.0f} ms.\n"
            "303: signed in; 422: wrong password; 429: a limit; 503: busy, turned away before hashing; 0: no answer.\n"
        )
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
    return 0
