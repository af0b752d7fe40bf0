"""`python -m coach load --flood N`: learners' drills while N addresses flood the sign-in form.

Issue 26 (point 3): with 16 source addresses posting wrong passwords, other
learners' drill p95 went from 353 ms to 1,988 ms and 58% of sign-in answers,
real users' included, were 503 "busy". Done when the flood leaves the
learners' drill p95 within 2x of the quiet figure.

The app is served by `python -m coach serve` (gunicorn, as in production:
its limits and password hashing untouched; only the drilling limits are
lifted, as `load` does, so that many learners on one address can drill).
It runs three phases of the same length, the learners measured the same
way in each (the same clients, seeds and drills, the server's CPU read
from /proc before and after):

1. **Quiet:** `--clients` learners (from 127.0.0.1) ask and answer questions
   of the `--drills`, each round trip a random one of them.
2. **Control:** the same learners, while N other clients, each from an
   address of its own (127.0.0.2, 127.0.0.3, ...: every 127/8 address is
   this machine's loopback), ask for the bare `/healthz` route as fast as
   they are answered: what N more busy clients cost the learners on these
   cores whatever they ask (their own CPU, the server's cheapest answer).
3. **Flooded:** the same learners, while N flooding clients, each from an
   address of its own, post wrong passwords as fast as they are answered,
   honouring nothing (no Retry-After, no pause; one GET of the form for its
   CSRF token per connection, as a script does), half for the owner's email,
   half for made-up ones; and the owner signs in with the right password
   from a clean address once a second (or, told "busy", after the answer's
   Retry-After, as a person would).
   The other clients and the owner run in a process of their own, so that
   their threads never take the learners' clients' GIL.

It prints the learners' round-trip p95 in each phase and the ratios to the
quiet one, the other clients' requests a second and the server's CPU per
request of all, the flood's answers by status, and the owner's. The server
is `load`'s (`load._start_server`), stopped however the run ends (Ctrl-C and
SIGTERM too, as `load`). Only loopback addresses are ever contacted, and every
loop stops at its deadline.
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import multiprocessing.queues
import os
import random
import re
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TextIO
from urllib.parse import urlencode

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


def _ordinary(port: int, source: str, deadline: float, answers: Statuses) -> None:
    """The control's client: the bare route, as fast as it is answered, on one keep-alive connection."""
    conn = http.client.HTTPConnection(HOST, port, timeout=30, source_address=(source, 0))
    while time.monotonic() < deadline:
        start = time.perf_counter()
        try:
            conn.request("GET", "/healthz")
            response = conn.getresponse()
            response.read()
            answers.add(response.status, time.perf_counter() - start)
        except (OSError, http.client.HTTPException):
            answers.add(0, 0.0)
            conn.close()
            conn = http.client.HTTPConnection(HOST, port, timeout=30, source_address=(source, 0))
    conn.close()


def _attack(port: int, floods: int, seconds: float, results: multiprocessing.queues.SimpleQueue, control: bool = False) -> None:
    """The N other clients (the flood, or the control's ordinary clients) and, with the
    flood, the owner, in a process of their own: their threads must not take the
    learners' clients' GIL, or the clients' own waits would be counted as the server's."""
    deadline = time.monotonic() + seconds
    flood, owner = Statuses(), Statuses()
    threads = [
        threading.Thread(
            target=_ordinary if control else _flooder,
            args=(port, f"127.0.0.{n + 2}", deadline, flood) if control else (port, f"127.0.0.{n + 2}", deadline, n, flood),
            daemon=True,
        )
        for n in range(floods)
    ]
    if not control:
        threads.append(threading.Thread(target=_owner, args=(port, deadline, owner), daemon=True))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    spent = os.times()
    results.put(((flood.counts, flood.seconds), (owner.counts, owner.seconds), spent.user + spent.system))


def _mixed_drills(drills: list[str]):
    works = [load._round_trip(drill) for drill in drills]

    def work(conn, rng, phase, asks):
        return rng.choice(works)(conn, rng, phase, asks)

    return work


def _p95_ms(values: list[float]) -> float:
    return load._percentile(values, 0.95) * 1000


@dataclass
class _Measured:
    """One phase: the learners' figures, and the other clients' answers (none when quiet)."""

    learners: load.Phase
    seconds: float  # the phase's length as run
    others: Statuses = field(default_factory=Statuses)
    owner: Statuses = field(default_factory=Statuses)
    others_cpu: float = 0.0  # seconds of CPU the other clients' process spent (their side of the cores)

    def all_cpu_ms(self) -> str:
        """The server's CPU per request of everyone's, learners' and others' (ms)."""
        requests = self.learners.requests + sum(self.others.counts.values()) + sum(self.owner.counts.values())
        return "?" if self.learners.server_cpu is None else f"{self.learners.server_cpu / max(1, requests) * 1000:.2f}"


def _phase(port: int, args: argparse.Namespace, work, server_pid: int, others: int = 0, control: bool = False) -> _Measured:
    """The learners for one phase, while `others` clients (control: the bare route; else the flood) run."""
    think = getattr(args, "think", 0.0) or 0.0
    if not others:
        phase, elapsed = load._run_phase(port, args.clients, args.seconds, work, server_pid, think)
        return _Measured(phase, elapsed)
    results: multiprocessing.queues.SimpleQueue = _FORK.SimpleQueue()
    attack = _FORK.Process(target=_attack, args=(port, others, args.seconds, results, control), daemon=True)
    attack.start()
    try:
        phase, elapsed = load._run_phase(port, args.clients, args.seconds, work, server_pid, think)
        (flood_counts, flood_seconds), (owner_counts, owner_seconds), their_cpu = results.get()
        attack.join(60)
    finally:
        if attack.is_alive():
            attack.terminate()
            attack.join(10)
    flood, owner = Statuses(Counter(flood_counts), flood_seconds), Statuses(Counter(owner_counts), owner_seconds)
    return _Measured(phase, elapsed, flood, owner, their_cpu)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Measure; the server it started is stopped however the run ends (Ctrl-C and SIGTERM too)."""
    with load._stopped_by_sigterm():
        return _run(args, out)


def _run(args: argparse.Namespace, out: TextIO) -> int:
    server = None
    floods: int = args.flood
    work = _mixed_drills(args.drills)
    try:
        port = load._free_port()
        with load._signals_held():  # a Ctrl-C or SIGTERM now lands once `server` is known, so it is stopped
            server, log = load._start_server(port)
        load._wait_ready(port, getattr(args, "start_timeout", None) or load.START_TIMEOUT, server, log, sys.stderr)
        _sign_up_owner(port)
        load._run_phase(port, args.clients, min(2.0, args.seconds), work)  # warm up
        out.write(f"Load average before the phases: {load.load_average()}\n")
        quiet = _phase(port, args, work, server.pid)
        control = _phase(port, args, work, server.pid, floods, control=True)
        flooded = _phase(port, args, work, server.pid, floods)
        _report(args, out, quiet, control, flooded)
    finally:
        if server is not None:
            load._stop(server)
    return 0


def _report(args: argparse.Namespace, out: TextIO, quiet: _Measured, control: _Measured, flooded: _Measured) -> None:
    floods: int = args.flood
    think = getattr(args, "think", 0.0) or 0.0
    pace = f"each pausing {0.5 * think:g}-{1.5 * think:g} s" if think else "no pause"
    out.write(
        f"{args.clients} learners drilling ({', '.join(args.drills)}; {pace}), {args.seconds:.0f} s a phase; "
        f"{floods} other addresses in the second phase asking for /healthz (control), "
        f"in the third flooding the sign-in form.\n"
        f"{'phase':<8} {'round trips':>11} {'p50 ms':>8} {'p95 ms':>8} {'x quiet':>7} {'errors':>7} "
        f"{'others req/s':>12} {'their CPU s':>11} {'server CPU ms/req':>18} {'of all':>7} {'answer in server p50/p95 ms':>27} {'CPU p50':>8}\n"
    )
    before = _p95_ms(quiet.learners.latencies)
    ratios: dict[str, float] = {}
    for name, measured in (("quiet", quiet), ("control", control), ("flooded", flooded)):
        phase = measured.learners
        p95 = _p95_ms(phase.latencies)
        ratios[name] = p95 / before if before else float("nan")
        others = sum(measured.others.counts.values()) / measured.seconds
        in_server = f"{load._percentile(phase.answer_app, 0.5):.2f}/{load._percentile(phase.answer_app, 0.95):.2f}"
        out.write(
            f"{name:<8} {len(phase.latencies):>11} {load._percentile(phase.latencies, 0.5) * 1000:>8.1f} "
            f"{p95:>8.1f} {ratios[name]:>7.2f} {phase.errors:>7} {others:>12.0f} {measured.others_cpu:>11.1f} {phase.cpu_ms()[0]:>18} "
            f"{measured.all_cpu_ms():>7} {in_server:>27} {load._percentile(phase.answer_cpu, 0.5):>8.2f}\n"
        )
    verdict = "met" if ratios["flooded"] <= GOAL else "not met"
    flood, owner = flooded.others, flooded.owner
    out.write(
        f"\nLearners' drill p95, flooded / quiet: {ratios['flooded']:.2f}x (goal: at most {GOAL:g}x): {verdict}; "
        f"with {floods} ordinary clients instead (control): {ratios['control']:.2f}x.\n"
        f"Flood's sign-in answers ({sum(flood.counts.values())}): {flood.said()}; p50 {load._percentile(flood.seconds, 0.5) * 1000:.1f} ms.\n"
        f"The owner's sign-ins from a clean address ({sum(owner.counts.values())}): {owner.said()}; "
        f"p95 {_p95_ms(owner.seconds):.0f} ms.\n"
        "303: signed in; 422: wrong password; 429: a limit; 503: busy, turned away before hashing; 0: no answer.\n"
        "server CPU ms/req: the server's CPU in the phase over the learners' requests; of all: over everyone's. "
        "their CPU: the other clients' own process. answer in server: each learner's answer from the app receiving it "
        "to its response starting (Server-Timing), wall; CPU p50: that request's thread's CPU.\n"
        f"Load average after the phases: {load.load_average()}\n"
    )
