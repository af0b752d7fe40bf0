"""Live tables across servers, and a server killed mid-hand (issue 28, "Done when").

Two `python -m coach serve` processes (gunicorn, two workers each) share one
private PostgreSQL and one private Redis (the push goes through Redis pub/sub:
COACH_PUSH_URL unset takes the rate limits' Redis). Four people, two on each
server, each with their own cookies and their own event stream on their own
server, play through the JSON API: every acknowledged move reaches every
other person's stream as "moved" within a second.

Then a server on a SQLite file is killed (SIGKILL to gunicorn and its workers)
while the people of a "waits" table are moving: after a restart on the same
file, every move that had been answered 200 is in the hand, and the table goes on.
"""

from __future__ import annotations

import json
import random
import subprocess
import threading
import time
from pathlib import Path

import pytest
from sqlmodel import Session, select

from coach.store.db import make_engine
from coach.store.models import TableHand
from coach.tools import load, load_tables
from tests.support.postgres import postgres_server
from tests.support.redis_server import redis_server
from tests.support.servers import coach_server, free_port, kill_group, serve_on_file

pytestmark = pytest.mark.server  # server processes, PostgreSQL and Redis of their own

SECRET = "one-key-for-every-server-of-this-site"
LIFTED = {"COACH_LIMIT_DRILL_LEARNER": "100000/minute", "COACH_LIMIT_DRILL_ADDRESS": "100000/minute"}  # four quick people on one address
WITHIN = 1.0  # seconds: issue 28's "within one second"
PLAY = 15.0  # seconds the people play (under push.HOLD: each stream stays open throughout; load-tables measures reopening)


def _port(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


def _people(ports: list[int], seed: int = 3) -> load_tables.Table:
    """A table hosted by the first person (East); the others sit South, West, North; dealt."""
    table = load_tables.Table()
    for n, (seat, port) in enumerate(zip(load_tables.SEATS, ports, strict=True)):
        table.people.append(load_tables.Person(table, seat, port, random.Random(seed * 10 + n)))
    host = load_tables.Api(ports[0], table.people[0].jar)
    status, body = host.send("POST", "/api/tables", {"sit": "east", "kind": "waits"})
    assert status == 201, body
    table.code = body["code"]
    for person in table.people[1:]:
        api = load_tables.Api(person.port, person.jar)
        status, body = api.send("POST", f"/api/tables/{table.code}/seats", {"seat": person.seat})
        api.close()
        assert status == 200, body
    status, body = host.send("POST", f"/api/tables/{table.code}/start", {})
    host.close()
    assert status == 200, body
    return table


def _play(table: load_tables.Table, seconds: float, think: float) -> load_tables.Tally:
    """Everyone's stream open, then everyone plays for `seconds`; the streams stay a moment longer."""
    tally = load_tables.Tally()
    deadline = time.monotonic() + seconds
    listeners = [threading.Thread(target=load_tables._listen, args=(p, load_tables.Window(deadline + 2), tally), daemon=True) for p in table.people]
    for thread in listeners:
        thread.start()
    time.sleep(0.5)
    players = [threading.Thread(target=load_tables._play, args=(p, deadline, think, tally), daemon=True) for p in table.people]
    for thread in players:
        thread.start()
    for thread in players + listeners:
        thread.join(seconds + 30)
    return tally


@pytest.fixture(scope="module")
def two_servers(tmp_path_factory):
    with postgres_server() as database, redis_server() as shared:
        env = {"COACH_DATABASE_URL": database, "COACH_RATELIMIT_STORAGE_URI": shared, "COACH_SECRET_KEY": SECRET, **LIFTED}
        folder = tmp_path_factory.mktemp("table-servers")
        with coach_server(env, folder / "a") as (a, log_a), coach_server(env, folder / "b") as (b, log_b):
            yield a, b
        for log in (log_a, log_b):
            text = log.read_text(errors="replace")
            assert "Traceback" not in text and "unexpected error" not in text, text[-3000:]


def test_every_move_reaches_every_other_person_on_either_server_within_a_second(two_servers):
    a, b = two_servers
    table = _people([_port(a), _port(a), _port(b), _port(b)])
    tally = _play(table, PLAY, think=0.3)
    delays, missed = load_tables.delays(table)
    moves = len(table.moves)
    assert tally.errors == 0 and missed == 0
    assert moves >= 10 and len(delays) == 3 * moves  # each move, at each of the three others
    movers = {seat for _, _, seat in table.moves}
    assert movers == set(load_tables.SEATS)  # people on both servers moved
    p95 = load._percentile(delays, 0.95)
    print(f"two servers, {moves} moves, {len(delays)} deliveries: p50 {load._percentile(delays, 0.5) * 1000:.1f} ms, "
          f"p95 {p95 * 1000:.1f} ms, max {max(delays) * 1000:.1f} ms")
    assert max(delays) < WITHIN, sorted(delays)[-5:]


def _start(folder: Path, port: int) -> subprocess.Popen:
    return serve_on_file(folder, port, {**LIFTED, "COACH_SECRET_KEY": SECRET})


def _killed(process: subprocess.Popen) -> None:
    kill_group(process)


def test_a_server_killed_mid_hand_loses_no_acknowledged_move_and_the_table_goes_on(tmp_path):
    port = free_port()
    server = _start(tmp_path, port)
    try:
        table = _people([port] * 4, seed=5)
        tally = load_tables.Tally()
        stop = time.monotonic() + 60
        answered: list[tuple[str, dict]] = []  # (seat, action) of every move answered 200
        numbers: dict[str, int] = {}  # each seat's state number after its last move answered 200
        lock = threading.Lock()

        def person(p: load_tables.Person) -> None:
            api = load_tables.Api(port, p.jar)
            while time.monotonic() < stop:
                try:
                    status, seen = api.send("GET", f"/api/tables/{table.code}")
                    hand = seen["hand"]
                    if not hand["owed"] or not hand["choices"]:
                        time.sleep(0.05)
                        continue
                    choice = p.rng.choice(hand["choices"])
                    status, after = api.send("POST", f"/api/tables/{table.code}/actions", {"action": choice, "move": hand["move"]})
                    if status == 200:
                        with lock:
                            answered.append((p.seat.title(), choice))
                            numbers[p.seat.title()] = max(numbers.get(p.seat.title(), 0), after["hand"]["move"])
                except (OSError, ValueError, TypeError, KeyError, load_tables.http.client.HTTPException):
                    return  # the server is gone
            api.close()

        threads = [threading.Thread(target=person, args=(p,), daemon=True) for p in table.people]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 30
        while len(answered) < 12 and time.monotonic() < deadline:
            time.sleep(0.05)
        _killed(server)  # mid-hand, requests in flight
        for thread in threads:
            thread.join(30)
        assert len(answered) >= 12, tally
    finally:
        if server.poll() is None:
            _killed(server)

    engine = make_engine(f"sqlite:///{tmp_path / 'coach.sqlite3'}")
    with Session(engine) as session:
        hand = session.exec(select(TableHand)).one()
        kept = json.loads(hand.actions) + json.loads(hand.held)
    engine.dispose()
    for seat, action in answered:  # every answered move is in the hand (or held for the decision still open)
        if action["kind"] == "no-call":
            continue  # a held "no call" is dropped as its discard enters the hand: the numbers below count it
        assert any(k["seat"] == seat and k["kind"] == action["kind"] and k.get("tiles") == action.get("tiles") for k in kept), (seat, action)

    server = _start(tmp_path, port)  # the same file, after the kill
    try:
        for p in table.people:
            api = load_tables.Api(port, p.jar)
            status, seen = api.send("GET", f"/api/tables/{table.code}")
            assert status == 200 and seen["hand"]["seat"] == p.seat.title()
            assert seen["hand"]["move"] >= numbers.get(p.seat.title(), 0)  # a seat's number never falls: none of its moves was lost
            if seen["hand"]["owed"] and seen["hand"]["choices"]:
                status, after = api.send(
                    "POST", f"/api/tables/{table.code}/actions", {"action": seen["hand"]["choices"][0], "move": seen["hand"]["move"]},
                )
                assert status == 200, after  # the table goes on
                api.close()
                break
            api.close()
        else:
            pytest.fail("nobody owed a move after the restart")
    finally:
        server.terminate()
        server.wait(30)
    text = "".join(path.read_text(errors="replace") for path in tmp_path.glob("server-*.log"))
    assert "Traceback" not in text, text[-3000:]
