"""`python -m coach load-tables`: live tables of simulated people, and how soon each move reaches the others.

A sibling of `python -m coach load` (coach/tools/load.py), whose server
start, CPU reading and interruption handling it shares. It starts
`python -m coach serve` (two workers, the default SQLite file) on a free
loopback port, opens `--tables` tables, and seats four simulated people at
each, every one a client with its own cookies (a guest) and its own
server-sent event stream (GET /api/tables/<code>/events), as a browser
keeps one, opened as soon as their table is seated and dealt (not once
every table is: a person unheard from for the grace, 20 s, is away, and
at a friends' table the coach plays for them). The host deals; each person, on each "moved", fetches the table
and, when they owe a decision, thinks (uniformly 0.5 to 1.5 times
`--think` seconds) and plays one of their choices at random; the host
deals the next hand when one ends. A stream ends after push.HOLD seconds
and is opened again after the `retry` it sent, as EventSource does.

Each acknowledged move (a 200 answer) carries the table's new version. The
delay of a move at another person of its table is from the moment its
answer arrived to the first "moved" their stream brought with that version
or a later one (a later move may overtake it); a push that arrives before
the mover's own answer counts as 0. A version is a checksum, unordered, and
a page fetches the table as it stands on any "moved": so any "moved" that
arrives after the move's answer delivers it, whatever its number (a seat's
presence may have changed since, or a later move overtaken it), and one
that arrives before counts as 0 when its version is the move's, a later
move's, or one that a fetch begun after the answer returned. Matching the
number alone made such a move wait for the table's next one, and counted
seconds it never took. It prints the p50, p95 and largest of
those delays, the server's CPU per move (every request and stream wake of
the run, from /proc), the moves made, refusals and errors, how long the
seating took and how many people a fetch ever found away (the coach plays
for them at these friends' tables, and their own moves then meet 409s),
and the load average. Only 127.0.0.1 is contacted; everything stops at its deadline.
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO

from coach.common import settings
from coach.tools import load

HOST = load.HOST
SEATS = ("east", "south", "west", "north")
POLL = 5.0  # seconds a person waits for a "moved" before fetching the table anyway
LATE = 10.0  # seconds after which a move not yet seen by someone counts as missed
SETTLE = 3.0
RESENDS = 2  # a choice refused as stale (409) but still offered is sent again at once, as a person clicks it again  # seconds the streams stay open after the last move, for its events to arrive


class Jar:
    """One person's cookies, as their browser keeps them."""

    def __init__(self) -> None:
        self.cookies: dict[str, str] = {}
        self.lock = threading.Lock()

    def header(self) -> dict[str, str]:
        with self.lock:
            return {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else {}

    def keep(self, response: http.client.HTTPResponse) -> None:
        with self.lock:
            for name, value in response.getheaders():
                if name.lower() == "set-cookie":
                    key, _, val = value.split(";", 1)[0].partition("=")
                    self.cookies[key.strip()] = val.strip()


class Api:
    """A person's JSON requests on their own keep-alive connection."""

    def __init__(self, port: int, jar: Jar) -> None:
        self.port = port
        self.jar = jar
        self.conn = http.client.HTTPConnection(HOST, port, timeout=30)

    def send(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        headers = {**self.jar.header()}
        data = None
        if body is not None:
            headers["Content-Type"] = "application/json"
            data = json.dumps(body)
        try:
            response = load._request(self.conn, method, path, data, headers)
            raw = response.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()
            raise
        self.jar.keep(response)
        return response.status, json.loads(raw) if raw else None

    def close(self) -> None:
        self.conn.close()


@dataclass
class Person:
    table: Table
    seat: str
    port: int
    rng: random.Random
    jar: Jar = field(default_factory=Jar)
    events: list[tuple[float, int]] = field(default_factory=list)  # (when received, version) of each "moved"
    wake: threading.Event = field(default_factory=threading.Event)
    refused_streams: int = 0  # 204: no stream slot free on the worker


@dataclass
class Table:
    code: str = ""
    people: list[Person] = field(default_factory=list)
    moves: list[tuple[float, int, str]] = field(default_factory=list)  # (acknowledged, version after, mover's seat)
    fetched: dict[int, float] = field(default_factory=dict)  # version: when the latest fetch that returned it began
    away: set[str] = field(default_factory=set)  # the seats of people a fetch found away (the coach may play for them)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def saw(self, table: Any, began: float) -> None:
        """A fetch begun at `began` returned `table`: its version stood at least as far as every
        move answered before; and any person's seat it shows away is noted."""
        version = table.get("version") if isinstance(table, dict) else None
        if isinstance(version, int):
            with self.lock:
                self.fetched[version] = max(began, self.fetched.get(version, began))
        seats = table.get("seats") if isinstance(table, dict) else None
        gone = {s.get("seat") for s in seats or [] if isinstance(s, dict) and s.get("person") and s.get("present") is False}
        if gone:
            with self.lock:
                self.away |= {str(seat) for seat in gone}


@dataclass
class Tally:
    lock: threading.Lock = field(default_factory=threading.Lock)
    requests: int = 0
    stale: int = 0  # 409: chosen on a view the table moved on from (sent again when still offered)
    errors: int = 0
    hands: int = 0

    def add(self, **counts: int) -> None:
        with self.lock:
            for name, n in counts.items():
                setattr(self, name, getattr(self, name) + n)


@dataclass
class Window:
    """How long the streams stay open: until `end` (time.monotonic()), which is known
    only once every table is seated; the first tables' streams open before that."""

    end: float | None = None
    UNTIL_KNOWN = 60.0  # seconds a stream's read may wait while the end is not known yet

    def open(self) -> bool:
        return self.end is None or time.monotonic() < self.end

    def left(self) -> float:
        return self.UNTIL_KNOWN if self.end is None else max(0.0, self.end - time.monotonic())


def _listen(person: Person, window: Window, tally: Tally) -> None:
    """The person's stream, opened again whenever it ends, until the window closes."""
    while window.open():
        retry = 1.0
        conn = http.client.HTTPConnection(HOST, person.port, timeout=max(5.0, window.left() + 5))
        try:
            conn.request("GET", f"/api/tables/{person.table.code}/events", headers=person.jar.header())
            response = conn.getresponse()
            if response.status == 204:
                person.refused_streams += 1
                response.read()
                time.sleep(POLL)
                continue
            if response.status != 200:
                tally.add(errors=1)
                response.read()
                time.sleep(retry)
                continue
            name = ""
            while window.open():
                line = response.readline()
                if not line:
                    break  # the stream ended (push.HOLD): reopen after `retry`
                text = line.decode("utf-8", "replace").rstrip("\n")
                if text.startswith("retry:"):
                    retry = int(text[6:].strip()) / 1000
                elif text.startswith("event:"):
                    name = text[6:].strip()
                elif text.startswith("data:") and name == "moved":
                    person.events.append((time.monotonic(), int(text[5:].strip())))
                    person.wake.set()
                elif not text:
                    name = ""
        except (OSError, http.client.HTTPException, ValueError):
            if window.open():
                tally.add(errors=1)
        finally:
            conn.close()
        time.sleep(min(retry, window.left()))


def _play(person: Person, deadline: float, think: float, tally: Tally) -> None:
    """Fetch the table on each "moved"; think and move when a decision is owed; the host deals."""
    api = Api(person.port, person.jar)
    code = person.table.code
    host = person.seat == "east"
    try:
        while time.monotonic() < deadline:
            person.wake.wait(min(POLL, max(0.0, deadline - time.monotonic())))
            person.wake.clear()
            if time.monotonic() >= deadline:
                return
            try:
                began = time.monotonic()
                status, table = api.send("GET", f"/api/tables/{code}")
                tally.add(requests=1)
                if status != 200:
                    tally.add(errors=1)
                    continue
                person.table.saw(table, began)
                hand = table["hand"]
                if hand is None or hand["phase"] == "over":
                    if host and not table["going"]:
                        time.sleep(person.rng.uniform(0.5 * think, 1.5 * think))  # reading the result
                        status, _ = api.send("POST", f"/api/tables/{code}/start", {})
                        tally.add(requests=1, hands=1 if status == 200 else 0, errors=0 if status in (200, 409) else 1)
                    continue
                if not hand["owed"] or not hand["choices"]:
                    continue
                time.sleep(min(person.rng.uniform(0.5 * think, 1.5 * think), max(0.0, deadline - time.monotonic())))
                if time.monotonic() >= deadline:
                    return
                choice = person.rng.choice(hand["choices"])
                number = hand["move"]
                for _ in range(RESENDS + 1):
                    status, after = api.send("POST", f"/api/tables/{code}/actions", {"action": choice, "move": number})
                    acknowledged = time.monotonic()
                    tally.add(requests=1)
                    if status != 409:
                        break
                    tally.add(stale=1)
                    # The page shows the table as it now stands; the person clicks the same
                    # choice again if it is still offered (another seat's pass moved the number).
                    now = ((after or {}).get("table") or {}).get("hand") or {}
                    if choice not in now.get("choices", []):
                        break
                    number = now["move"]
                if status == 200:
                    with person.table.lock:
                        person.table.moves.append((acknowledged, after["version"], person.seat))
                elif status != 409:
                    tally.add(errors=1)
                person.wake.set()  # look again: another decision may be owed at once
            except (OSError, http.client.HTTPException, ValueError, KeyError, TypeError):
                tally.add(errors=1)
                time.sleep(0.5)
    finally:
        api.close()


def _seat_everyone(port: int, tables: int, seed: int, tally: Tally, seated: Callable[[Table], None] = lambda table: None) -> list[Table]:
    """Open `tables` tables, four people at each, and deal; `seated(table)` as soon
    as each is dealt (its people's streams open then, before the next table is made)."""
    made = []
    for n in range(tables):
        table = Table()
        for k, seat in enumerate(SEATS):
            table.people.append(Person(table, seat, port, random.Random(seed * 1000 + n * 4 + k)))
        host = Api(port, table.people[0].jar)
        status, body = host.send("POST", "/api/tables", {"sit": "east"})
        if status != 201:
            raise load.ServerDidNotStart(f"opening a table answered {status}: {body}")
        table.code = body["code"]
        for person in table.people[1:]:
            api = Api(port, person.jar)
            status, body = api.send("POST", f"/api/tables/{table.code}/seats", {"seat": person.seat})
            api.close()
            if status != 200:
                raise load.ServerDidNotStart(f"taking a seat answered {status}: {body}")
        status, body = host.send("POST", f"/api/tables/{table.code}/start", {})
        host.close()
        if status != 200:
            raise load.ServerDidNotStart(f"dealing answered {status}: {body}")
        tally.add(requests=len(SEATS) + 1, hands=1)
        made.append(table)
        seated(table)
    return made


def _shows(version: int, later: set[int], fetched: dict[int, float], acknowledged: float) -> bool:
    """The version is a move's state or one after it: one the move and those after it
    were answered with, or one a fetch begun after the move's answer returned."""
    return version in later or fetched.get(version, -math.inf) >= acknowledged


def delays(table: Table) -> tuple[list[float], int]:
    """Each move's delay at each other person of its table (seconds), and how many never arrived."""
    found: list[float] = []
    missed = 0
    moves = sorted(table.moves)
    fetched = table.fetched
    for i, (acknowledged, _, mover) in enumerate(moves):
        later = {version for _, version, _ in moves[i:]}
        for person in table.people:
            if person.seat == mover:
                continue
            seen = next(
                (when for when, version in person.events
                 if when >= acknowledged or (when >= acknowledged - LATE and _shows(version, later, fetched, acknowledged))),
                None,
            )
            if seen is None or seen - acknowledged > LATE:
                missed += 1
            else:
                found.append(max(0.0, seen - acknowledged))
    return found, missed


def _start_server(port: int, workers: int, slots: int) -> tuple[subprocess.Popen, str]:
    env = dict(os.environ)
    folder = tempfile.mkdtemp(prefix="coach-load-tables-")
    env[settings.DATA_DIR.name] = folder
    # Every simulated person is on 127.0.0.1: the per-address limits are lifted (still counted).
    lifted = (settings.LIMIT_DRILL_LEARNER, settings.LIMIT_DRILL_ADDRESS, settings.LIMIT_JOIN_ADDRESS)
    env.update(dict.fromkeys((limit.name for limit in lifted), "1000000/minute"))
    env[settings.WORKERS.name] = str(workers)
    env[settings.STREAM_SLOTS.name] = str(slots)
    log = os.path.join(folder, "server.log")
    with open(log, "wb") as written:
        server = subprocess.Popen(
            [sys.executable, "-m", "coach", "serve", "--host", HOST, "--port", str(port)],
            env=env, stdout=written, stderr=subprocess.STDOUT, start_new_session=True,
        )
    return server, log


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Measure; the server it started is stopped however the run ends (Ctrl-C and SIGTERM too)."""
    with load._stopped_by_sigterm():
        return _run(args, out)


def _run(args: argparse.Namespace, out: TextIO) -> int:
    server = None
    log = ""
    people = 4 * args.tables
    # A worker may be given most of the streams: slots for every person on each, at least the default.
    slots = max(settings.STREAM_SLOTS.default, people)
    tally = Tally()
    try:
        port = load._free_port()
        with load._signals_held():  # a Ctrl-C or SIGTERM now lands once `server` is known, so it is stopped
            server, log = _start_server(port, args.workers, slots)
        load._wait_ready(port, args.start_timeout, server, log, sys.stderr)
        out.write(f"Load average before: {load.load_average()}\n")
        window = Window()
        listeners: list[threading.Thread] = []

        def listen(table: Table) -> None:  # each person's stream, open from the moment their table is dealt
            for p in table.people:
                thread = threading.Thread(target=_listen, args=(p, window, tally), daemon=True)
                thread.start()
                listeners.append(thread)

        seating = time.monotonic()
        tables = _seat_everyone(port, args.tables, args.seed, tally, listen)
        seating = time.monotonic() - seating
        deadline = time.monotonic() + args.seconds
        window.end = deadline + SETTLE
        time.sleep(0.5)  # the last table's streams open before the first move
        cpu_before = load._cpu_seconds(server.pid)
        started = time.monotonic()
        players = [threading.Thread(target=_play, args=(p, deadline, args.think, tally), daemon=True) for t in tables for p in t.people]
        for thread in players:
            thread.start()
        for thread in players:
            thread.join(args.seconds + 60)
        cpu_after = load._cpu_seconds(server.pid)
        played = time.monotonic() - started
        for thread in listeners:
            thread.join(SETTLE + 60)
        found: list[float] = []
        missed = 0
        for table in tables:
            d, m = delays(table)
            found += d
            missed += m
        moves = sum(len(t.moves) for t in tables)
        cpu = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
        refused = sum(p.refused_streams for t in tables for p in t.people)
        away = sum(len(t.away) for t in tables)
        figures = {
            "tables": args.tables, "people": people, "seconds": round(played, 1), "think": args.think, "workers": args.workers,
            "moves": moves, "moves_per_second": round(moves / played, 2) if played else 0.0, "hands": tally.hands,
            "deliveries": len(found), "missed": missed,
            "p50_ms": _ms(load._percentile(found, 0.5)), "p95_ms": _ms(load._percentile(found, 0.95)),
            "max_ms": _ms(max(found) if found else float("nan")),
            "server_cpu_ms_per_move": None if cpu is None or not moves else round(cpu / moves * 1000, 2),
            "server_cpu_share": None if cpu is None or not played else round(cpu / played, 3),
            "requests": tally.requests, "stale": tally.stale, "errors": tally.errors, "streams_refused": refused,
            "seconds_seating": round(seating, 1), "people_seen_away": away,
            "load_average_after": load.load_average(),
        }
        out.write(
            f"{args.tables} tables of 4 simulated people ({people} streams), each thinking {0.5 * args.think:g}-{1.5 * args.think:g} s, "
            f"{played:.0f} s, {args.workers} server workers:\n"
            f"  moves acknowledged: {moves} ({figures['moves_per_second']}/s), hands dealt: {tally.hands}\n"
            f"  delay from a move's answer to \"moved\" at each other person of its table ({len(found)} deliveries): "
            f"p50 {figures['p50_ms']} ms, p95 {figures['p95_ms']} ms, max {figures['max_ms']} ms; missed (over {LATE:.0f} s): {missed}\n"
            f"  server CPU per move (every request and stream of the run): {figures['server_cpu_ms_per_move']} ms; "
            f"server CPU over the run: {figures['server_cpu_share']} cores\n"
            f"  requests {tally.requests}, stale moves (409; sent again when still offered) {tally.stale}, errors {tally.errors}, "
            f"streams refused (204) {refused}\n"
            f"  seating and dealing every table took {seating:.1f} s; people a fetch found away: {away} of {people}\n"
            f"Load average after: {figures['load_average_after']}\n"
        )
        if args.json:
            with open(args.json, "w", encoding="utf-8") as written:
                json.dump(figures, written)
    finally:
        if server is not None:
            load._stop(server)
    return 0


def _ms(seconds: float) -> float | None:
    return None if math.isnan(seconds) else round(seconds * 1000, 1)
