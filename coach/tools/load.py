"""`python -m coach load`: question-plus-answer round trips under load.

The app is served by `python -m coach serve` (gunicorn) in a separate
process on a free loopback port. Client threads, each with its own keep-alive connection, first hit
the bare /healthz route, then ask and answer drill questions through the
JSON API, each phase for a fixed time. Each client keeps its cookies, as a
browser does, so its answers are stored for one guest learner. It prints the p50 and p95 of the
round trips per drill and the ratio of the API's requests per second to
the bare route's, both measured against the same server in the same run.
Only 127.0.0.1 is ever contacted, and every loop stops at its deadline.

Times on a shared machine swing with the neighbours' load; the CPU the
server's processes spent per request (from /proc, before and after each
phase) does not, so it is printed too, with the client's own. Clients and
server share the machine's cores, so by Little's law N clients cannot see a
mean round trip below N x (server + client CPU per round trip) / cores.

The server it starts sends a Server-Timing header (`server_timing`), so the
answers' own time in the server is printed too, wall and CPU: what a
learner's answer costs, apart from the queue in front of it.

By default every client sends its next question the moment an answer
comes back: a stress test, far past any class. `--think S` has each
client pause between round trips, uniformly 0.5 S to 1.5 S, as learners
reading a verdict and the next question do; the pause is not timed.
Every question is fresh (its own random seed) unless `--shared`, where
every client asks the same questions in the same order, as a class on a
teacher's drill set does (each still answers in its own way).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from coach.common import settings
from coach.common.errors import CoachError
from coach.web.infra.server_timing import HEADER as SERVER_TIMING
from coach.web.infra.server_timing import parse as parse_server_timing

HOST = "127.0.0.1"
# Capacity (issue 26): learners one core serves at half its time, each at a
# class's pace of one round trip a second (`--think 1`): 0.5 / (server CPU
# seconds a round trip). Half, so that a class's bursts still find a core free.
UTILISATION = 0.5
CLASS_PACE = 1.0  # round trips a second a learner


def capacity(server_cpu_per_round_trip: float) -> float:
    """Learners a core serves at UTILISATION, each at CLASS_PACE."""
    return UTILISATION / (server_cpu_per_round_trip * CLASS_PACE) if server_cpu_per_round_trip > 0 else float("inf")


def load_average() -> str:
    """The machine's load average (1, 5, 15 minutes), as printed beside every figure:
    on a shared machine the neighbours' load moves every time."""
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def _cpu_seconds(pid: int) -> float | None:
    """CPU (user + system) spent so far by a process and its children that are
    still running (gunicorn's workers), from /proc; None where there is no /proc."""
    tick = os.sysconf("SC_CLK_TCK")

    def times(stat: str) -> tuple[int, float]:
        fields = stat[stat.rindex(")") + 2:].split()  # after "pid (name) "
        return int(fields[1]), (int(fields[11]) + int(fields[12])) / tick  # ppid; utime + stime

    total = 0.0
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            total += times(handle.read())[1]
    except OSError:
        return None
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as handle:
                    parent, seconds = times(handle.read())
            except (OSError, ValueError, IndexError):
                continue  # gone meanwhile
            if parent == pid:
                total += seconds
    return total


def _own_cpu_seconds() -> float:
    spent = os.times()
    return spent.user + spent.system


START_TIMEOUT = 120.0  # seconds: a busy 2-core machine has taken over 30 s to start the server
PROGRESS_EVERY = 10.0  # seconds between "still starting" lines


class ServerDidNotStart(CoachError, RuntimeError):
    """The server `load` started never answered, or stopped: said in words, with its log."""


def _wait_ready(
    port: int, timeout: float = START_TIMEOUT, server: subprocess.Popen | None = None, log: str = "",
    say: TextIO | None = None,
) -> None:
    """Wait until /healthz answers, saying every PROGRESS_EVERY s that the server is
    still starting (on a busy machine that can take a minute); give up after
    `timeout` s, or at once when the server process has stopped."""
    start = time.monotonic()
    said = start
    while time.monotonic() - start < timeout:
        if server is not None and server.poll() is not None:
            raise ServerDidNotStart(f"the server stopped while starting (exit code {server.returncode}); its log: {log}")
        conn = http.client.HTTPConnection(HOST, port, timeout=2)
        try:
            conn.request("GET", "/healthz")
            response = conn.getresponse()
            response.read()
            if response.status == 200:
                return
        except OSError:
            time.sleep(0.1)
        finally:
            conn.close()
        if say is not None and time.monotonic() - said >= PROGRESS_EVERY:
            said = time.monotonic()
            say.write(f"waiting for the server to start: {said - start:.0f} s of at most {timeout:.0f} s\n")
            say.flush()
    where = f"; its log: {log}" if log else ""
    raise ServerDidNotStart(
        f"the server did not answer within {timeout:.0f} s (a busy machine may need longer: --start-timeout){where}"
    )


def _stop(server: subprocess.Popen) -> None:
    """Stop the server `load` started, and its workers: gunicorn's graceful stop
    (SIGTERM), then, after 10 s, SIGKILL to its whole process group."""
    if server.poll() is not None:
        return
    server.terminate()
    try:
        server.wait(10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGKILL)  # its own session: the workers go too
        server.wait()


# What ends load as Ctrl-C does: SIGTERM, and SIGHUP (its terminal closed, an ssh session lost).
ENDING = (signal.SIGTERM, signal.SIGHUP)
HELD = {signal.SIGINT, *ENDING}  # held back while the server starts (`_signals_held`)


@contextlib.contextmanager
def _stopped_by_sigterm() -> Iterator[None]:
    """While load runs, SIGTERM and SIGHUP end it as Ctrl-C does (KeyboardInterrupt),
    so the `finally` that stops its server runs: Python's default for them ends the
    process at once and would leave the server, in a session of its own, running.
    Only the main thread can set a handler; elsewhere nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    before = {sent: signal.signal(sent, interrupt) for sent in ENDING}
    try:
        yield
    finally:
        for sent, handler in before.items():
            signal.signal(sent, handler)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP held back while the block runs, then delivered: the
    server just started is then in a variable the `finally` can stop."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD)


def _unheld() -> None:
    """In the server's process before it runs: a child inherits the signals its parent
    holds back, and a server holding SIGTERM never heard `_stop` (every stop waited its
    10 s for SIGKILL, and one left behind could not be stopped by a plain kill)."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD)


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
    choices = question.get("choices")
    return rng.choice(choices) if choices else None


RECONNECTABLE = (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError, ConnectionAbortedError)


def _request(
    conn: http.client.HTTPConnection, method: str, path: str, body: str | None = None, headers: dict[str, str] | None = None
) -> http.client.HTTPResponse:
    """One request on the client's keep-alive connection. The server closes a
    connection left idle past its keep-alive time (gunicorn's is 2 s), as
    happens between round trips with --think: the first request on it then
    finds it closed. A browser opens a new connection and sends again, and so
    does this, once, for a connection that was open already; a second failure
    (or one on a new connection) is an error."""
    reused = conn.sock is not None  # open already: the server may have closed its end meanwhile
    try:
        conn.request(method, path, body, headers or {})
        return conn.getresponse()
    except RECONNECTABLE:
        conn.close()
        if not reused:
            raise  # a new connection refused: an error, not a keep-alive timing out
    conn.request(method, path, body, headers or {})  # on a new connection
    return conn.getresponse()


class Phase:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.requests = 0
        self.errors = 0
        self.lock = threading.Lock()
        self.server_cpu: float | None = None  # seconds the server's processes spent in the phase
        self.client_cpu = 0.0  # seconds this process (the clients) spent
        self.answers: list[float] = []  # each answer request's round trip, seconds
        self.answer_app: list[float] = []  # each answer's time in the server (Server-Timing app), ms
        self.answer_cpu: list[float] = []  # the CPU its thread spent there (Server-Timing cpu), ms

    def cpu_ms(self) -> tuple[str, str]:
        """Server and client CPU per request, in milliseconds, as printed."""
        count = max(1, self.requests)
        server = "?" if self.server_cpu is None else f"{self.server_cpu / count * 1000:.2f}"
        return server, f"{self.client_cpu / count * 1000:.2f}"

    def record(self, seconds: float, requests: int) -> None:
        with self.lock:
            self.latencies.append(seconds)
            self.requests += requests

    def record_answer(self, seconds: float, timing: dict[str, float]) -> None:
        with self.lock:
            self.answers.append(seconds)
            if "app" in timing and "cpu" in timing:
                self.answer_app.append(timing["app"])
                self.answer_cpu.append(timing["cpu"])


def _client(port: int, deadline: float, work, phase: Phase, seed: int, think: float = 0.0, shared: bool = False) -> None:
    rng = random.Random(seed)
    asks = random.Random(0) if shared else rng  # a drill set: every client the same questions, in order
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    if think:  # learners do not start in step
        time.sleep(min(max(0.0, deadline - time.monotonic()), rng.uniform(0.0, think)))
    while time.monotonic() < deadline:
        try:
            start = time.perf_counter()
            requests = work(conn, rng, phase, asks)
            phase.record(time.perf_counter() - start, requests)
        except (OSError, http.client.HTTPException, ValueError):
            with phase.lock:
                phase.errors += 1
            conn.close()
            conn = http.client.HTTPConnection(HOST, port, timeout=30)
        if think:  # reading the verdict and the next question; bounded by the deadline
            time.sleep(min(max(0.0, deadline - time.monotonic()), rng.uniform(0.5 * think, 1.5 * think)))
    conn.close()


def _hello(conn: http.client.HTTPConnection, rng: random.Random, phase: Phase, asks: random.Random) -> int:
    response = _request(conn, "GET", "/healthz")
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
    from drills import DRILLS

    cookies = _Cookies()
    levels = len(DRILLS[drill].LEVELS) if drill in DRILLS else 1

    def work(conn: http.client.HTTPConnection, rng: random.Random, phase: Phase, asks: random.Random) -> int:
        headers = {"Content-Type": "application/json", **cookies.header()}
        body = json.dumps({"seed": asks.randrange(1_000_000_000), "level": asks.randint(1, levels)})
        response = _request(conn, "POST", f"/api/drills/{drill}/questions", body, headers)
        question = json.loads(response.read())
        cookies.keep(response)
        if response.status != 201:
            raise ValueError(question)
        answer = {"token": question["token"], "answer": _answer_for(drill, question, rng)}
        sent = time.perf_counter()
        response = _request(conn, "POST", f"/api/drills/{drill}/answers", json.dumps(answer), headers)
        response.read()
        cookies.keep(response)
        if response.status != 200:
            raise ValueError(response.status)
        phase.record_answer(time.perf_counter() - sent, parse_server_timing(response.getheader(SERVER_TIMING)))
        return 2

    return work


def _run_phase(
    port: int, clients: int, seconds: float, work, server_pid: int | None = None, think: float = 0.0, shared: bool = False
) -> tuple[Phase, float]:
    phase = Phase()
    server_before = _cpu_seconds(server_pid) if server_pid else None
    client_before = _own_cpu_seconds()
    deadline = time.monotonic() + seconds
    threads = [
        threading.Thread(target=_client, args=(port, deadline, work, phase, n, think, shared), daemon=True)
        for n in range(clients)
    ]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 60)
    elapsed = time.perf_counter() - start
    phase.client_cpu = _own_cpu_seconds() - client_before
    server_after = _cpu_seconds(server_pid) if server_pid else None
    if server_before is not None and server_after is not None:
        phase.server_cpu = server_after - server_before
    return phase, elapsed


def _percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def _start_server(port: int) -> tuple[subprocess.Popen, str]:
    """`python -m coach serve` on a fresh instance folder, in a session of its own
    (so a stop can reach its workers too); its output goes to a log file there."""
    env = dict(os.environ)
    folder = tempfile.mkdtemp(prefix="coach-load-")
    env[settings.DATA_DIR.name] = folder
    # 16 learners on one address, each far past a human's pace: the drilling limits are lifted (still counted).
    lifted = (settings.LIMIT_DRILL_LEARNER, settings.LIMIT_DRILL_ADDRESS, settings.LIMIT_FIRST_PASS_ADDRESS)
    env.update(dict.fromkeys((limit.name for limit in lifted), "1000000/minute"))
    env[settings.SERVER_TIMING.name] = "1"  # the answers' own time in the server
    log = os.path.join(folder, "server.log")
    with open(log, "wb") as written:
        server = subprocess.Popen(
            [sys.executable, "-m", "coach", "serve", "--host", HOST, "--port", str(port)],
            env=env, stdout=written, stderr=subprocess.STDOUT, start_new_session=True, preexec_fn=_unheld,
        )
    return server, log


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Measure; the server it started is stopped however the run ends (Ctrl-C and SIGTERM too)."""
    with _stopped_by_sigterm():
        return _run(args, out)


def _run(args: argparse.Namespace, out: TextIO) -> int:
    server = None
    server_pid: int | None = getattr(args, "pid", None)
    log = ""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    try:
        if args.port:  # a server already running on this machine (its CPU is read with --pid)
            port = args.port
        else:
            port = _free_port()
            with _signals_held():  # a Ctrl-C or SIGTERM now lands once `server` is known, so it is stopped
                server, log = _start_server(port)
            server_pid = server.pid
        _wait_ready(port, getattr(args, "start_timeout", None) or START_TIMEOUT, server, log, sys.stderr)
        _run_phase(port, args.clients, min(1.0, args.seconds), _hello)  # warm up
        for drill in args.drills:
            _run_phase(port, 2, 1.0, _round_trip(drill))
        hello, hello_time = _run_phase(port, args.clients, args.seconds, _hello, server_pid)
        hello_rps = hello.requests / hello_time
        hello_server, hello_client = hello.cpu_ms()
        out.write(f"Load average before the phases: {load_average()}\n")
        out.write(
            f"{args.clients} clients on loopback, {args.seconds:.0f} s a phase, {cores} cores; "
            f"bare /healthz: {hello_rps:,.0f} requests/s, p50 {_percentile(hello.latencies, 0.5) * 1000:.1f} ms, "
            f"CPU a request: server {hello_server} ms, client {hello_client} ms\n\n"
        )
        think = getattr(args, "think", 0.0) or 0.0
        shared = bool(getattr(args, "shared", False))
        pace = f"each client pausing {0.5 * think:g}-{1.5 * think:g} s between round trips" if think else "no pause between round trips"
        asked = "every client the same questions in the same order (a drill set)" if shared else "every question fresh"
        out.write(f"Drills: a question and its answer a round trip, {pace}, {asked}.\n")
        out.write(
            f"{'drill':<16} {'round trips':>11} {'p50 ms':>8} {'p95 ms':>8} {'answer p95':>10} "
            f"{'in server p50':>13} {'p95':>7} {'CPU p50':>8} {'req/s':>8} {'vs hello':>9} "
            f"{'server CPU':>10} {'x hello':>7} {'learners/core':>13} {'client CPU':>10} {'floor ms':>9} {'errors':>7}\n"
        )
        every: list[float] = []
        answers: list[float] = []
        in_server: list[float] = []
        report: dict[str, dict[str, float | None]] = {}
        hello_cpu = hello.server_cpu / max(1, hello.requests) if hello.server_cpu is not None else None
        for drill in args.drills:
            phase, elapsed = _run_phase(port, args.clients, args.seconds, _round_trip(drill), server_pid, think, shared)
            every += phase.latencies
            answers += phase.answers
            in_server += phase.answer_app
            rps = phase.requests / elapsed
            server_ms, client_ms = phase.cpu_ms()
            floor = "?"
            if phase.server_cpu is not None and phase.latencies and not think:
                # Little's law: the mean round trip can be no shorter than the CPU
                # all clients' round trips need, shared out over the cores.
                seconds = args.clients * (phase.server_cpu + phase.client_cpu) / len(phase.latencies) / cores
                floor = f"{seconds * 1000:.1f}"
            # A request's server CPU against the bare route's (the efficiency goal), and the
            # learners a core serves at half its time (the capacity goal), from a round trip's CPU.
            request_cpu = phase.server_cpu / max(1, phase.requests) if phase.server_cpu is not None else None
            trip_cpu = phase.server_cpu / len(phase.latencies) if phase.server_cpu is not None and phase.latencies else None
            vs_hello = f"{request_cpu / hello_cpu:.2f}" if request_cpu is not None and hello_cpu else "?"
            learners = f"{capacity(trip_cpu):.0f}" if trip_cpu else "?"
            report[drill] = {
                "round_trips": len(phase.latencies),
                "p95_ms": _percentile(phase.latencies, 0.95) * 1000,
                "answer_p95_ms": _percentile(phase.answers, 0.95) * 1000,
                "server_cpu_ms": None if request_cpu is None else request_cpu * 1000,
                "vs_hello_cpu": None if request_cpu is None or not hello_cpu else request_cpu / hello_cpu,
                "learners_per_core": None if not trip_cpu else capacity(trip_cpu),
                "errors": phase.errors,
            }
            out.write(
                f"{drill:<16} {len(phase.latencies):>11} {_percentile(phase.latencies, 0.5) * 1000:>8.1f} "
                f"{_percentile(phase.latencies, 0.95) * 1000:>8.1f} {_percentile(phase.answers, 0.95) * 1000:>10.1f} "
                f"{_percentile(phase.answer_app, 0.5):>13.2f} {_percentile(phase.answer_app, 0.95):>7.2f} "
                f"{_percentile(phase.answer_cpu, 0.5):>8.2f} {rps:>8.0f} {rps / hello_rps:>9.2f} "
                f"{server_ms:>10} {vs_hello:>7} {learners:>13} {client_ms:>10} {floor:>9} {phase.errors:>7}\n"
            )
        out.write(
            f"\nAll round trips: p50 {_percentile(every, 0.5) * 1000:.1f} ms, "
            f"p95 {_percentile(every, 0.95) * 1000:.1f} ms; "
            f"all answers: p95 {_percentile(answers, 0.95) * 1000:.1f} ms, "
            f"in the server p50 {_percentile(in_server, 0.5):.2f} ms, p95 {_percentile(in_server, 0.95):.2f} ms "
            "(goal at a class's pace, --clients 32 --think 1: every drill's answer p95 under 100 ms at a load average under 1.5).\n"
            "answer p95: the answer request alone, as the client saw it. in server: the answer's time in the server "
            "(Server-Timing: from the app receiving it to its response starting), p50 and p95; CPU p50: that request's thread's CPU.\n"
            "CPU columns: milliseconds a request (server: all its processes, from /proc; client: this process). "
            f"floor: the shortest mean round trip {args.clients} clients can see on {cores} cores with that CPU "
            "(with no pause between round trips). x hello: server CPU a request over the bare route's. "
            f"learners/core: learners one core serves at {UTILISATION:.0%} of its time, each at {CLASS_PACE:g} round trip a second.\n"
            f"Load average after the phases: {load_average()}\n"
        )
        if getattr(args, "json", None):
            # For `coach bench`, which reads the goals' figures from here.
            Path(args.json).write_text(json.dumps({
                "clients": args.clients, "seconds": args.seconds, "think": think, "cores": cores,
                "load_average_after": load_average(), "hello_cpu_ms": None if hello_cpu is None else hello_cpu * 1000,
                "answer_p95_ms": _percentile(answers, 0.95) * 1000, "drills": report,
            }))
    finally:
        if server is not None:
            _stop(server)
    return 0
