"""A class round with its server killed mid-hand (issue 28: "a kill -9 of a server during
a class table loses no acknowledged move; the table resumes").

Everything goes through a real `python -m coach serve` (gunicorn, two workers) on a
SQLite file, as a browser and the JSON API send it: a teacher signs up, makes a class,
six students join it (guests with a name), the teacher seats the class (the form posted
twice, as a retried post: one round) and starts the hand, so two tables of three
students each play one deal, a computer player in each fourth seat. The students move
at random through the API, then gunicorn and its workers get SIGKILL with moves in
flight. Every move answered 2xx must be in its table's stored hand, in the order the
student made them; after a restart on the same file each student's state number is
where their last answer left it at least, and both tables play on to the end.
"""

from __future__ import annotations

import http.client
import json
import random
import re
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session

from coach.store import tables as table_store
from coach.store.db import make_engine
from coach.tools import load, load_tables
from tests.support.pages import META
from tests.support.servers import free_port, kill_group, serve_on_file
from tests.support.teaching import PASSWORD

pytestmark = pytest.mark.server  # a server process of its own, killed and started again

SECRET = "the-class-tables-kill-test-key"
ENV = {
    "COACH_SECRET_KEY": SECRET,
    "COACH_LIMIT_DRILL_LEARNER": "100000/minute", "COACH_LIMIT_DRILL_ADDRESS": "100000/minute",  # seven people on one address
}
STUDENTS = 6  # two tables of three, the coach's computer player in each fourth seat
BEFORE_KILL = 60  # moves answered 2xx before the kill: past the Charleston (about 8 decisions a student), into the play
TO_THE_END = 45.0  # seconds the tables have to finish after the restart (about 15 s on an idle machine)


class Browser:
    """One person's browser: cookies kept, forms posted with the session's CSRF token."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.jar = load_tables.Jar()
        self.conn = http.client.HTTPConnection(load.HOST, port, timeout=30)

    def get(self, path: str) -> tuple[int, str, str]:
        return self._send("GET", path, None, {})

    def post(self, path: str, fields: list[tuple[str, str]]) -> tuple[int, str, str]:
        _, _, page = self.get("/rules")  # the token of this session as it stands (signing in starts a new one)
        token = META.search(page)
        assert token, "no CSRF token on /rules"
        body = urllib.parse.urlencode([("csrf_token", token.group(1)), *fields])
        return self._send("POST", path, body, {"Content-Type": "application/x-www-form-urlencoded"})

    def _send(self, method: str, path: str, body: str | None, headers: dict[str, str]) -> tuple[int, str, str]:
        response = load._request(self.conn, method, path, body, {**self.jar.header(), **headers})
        text = response.read().decode("utf-8", "replace")
        self.jar.keep(response)
        return response.status, response.getheader("Location") or "", text

    def close(self) -> None:
        self.conn.close()


@dataclass
class Student:
    browser: Browser
    code: str = ""  # their table's
    seat: str = ""
    rng: random.Random = field(default_factory=random.Random)


@dataclass
class Moves:
    """Every move answered 2xx, per (table code, seat), in the order made; and each seat's state number after its last."""

    answered: dict[tuple[str, str], list[dict[str, Any]]] = field(default_factory=dict)
    numbers: dict[tuple[str, str], int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, student: Student, action: dict[str, Any], number: int) -> None:
        key = (student.code, student.seat)
        with self.lock:
            self.answered.setdefault(key, []).append(action)
            self.numbers[key] = max(self.numbers.get(key, 0), number)

    def count(self) -> int:
        with self.lock:
            return sum(len(v) for v in self.answered.values())


def _class_seated_and_dealt(port: int) -> list[Student]:
    """The teacher's and the students' part, through the pages; the students with their tables and seats."""
    teacher = Browser(port)
    status, _, page = teacher.post("/signup", [("email", "tess@example.org"), ("password", PASSWORD), ("name", "Tess"), ("teacher", "1")])
    assert status == 303, page[-500:]
    status, where, _ = teacher.post("/teach/classes", [("name", "Thursday beginners")])
    class_id = int(re.fullmatch(r"/teach/classes/(\d+)", where).group(1))
    _, _, page = teacher.get(where)
    code = re.search(r'<p class="join-code"><span aria-hidden="true">(\w+)</span>', page).group(1)
    students = []
    for n in range(STUDENTS):
        student = Student(Browser(port), rng=random.Random(7000 + n))
        student.browser.get(f"/join/{code}")
        status, _, page = student.browser.post("/join", [("code", code), ("name", f"Student {n}")])
        assert status == 303, page[-500:]
        students.append(student)
    _, _, page = teacher.get(f"/teach/classes/{class_id}")
    ids = re.findall(r'name="students" value="(\d+)" checked', page)
    assert len(ids) == STUDENTS
    form = [("students", i) for i in ids] + [("tables_card", "house"), ("tables_bots", "club")]
    status, round_page, _ = teacher.post(f"/teach/classes/{class_id}/tables", form)
    assert status == 303 and re.fullmatch(rf"/teach/classes/{class_id}/rounds/\d+", round_page), round_page
    assert teacher.post(f"/teach/classes/{class_id}/tables", form)[:2] == (303, round_page)  # a retried post: the same round
    status, _, _ = teacher.post(f"{round_page}/start", [])
    assert status == 303
    _, _, page = teacher.get(round_page)
    assert "The hand is dealt at 2 tables" in page, page[-1500:]
    teacher.close()
    for student in students:
        _, _, page = student.browser.get("/classes")
        found = re.search(r'Your class table: <span class="code-chip">(\w+)</span>, seat (\w+)', page)
        assert found, page[-1500:]
        student.code, student.seat = found.group(1), found.group(2)
    assert len({s.code for s in students}) == 2 and len({(s.code, s.seat) for s in students}) == STUDENTS
    return students


def _play(student: Student, moves: Moves, until: threading.Event, deadline: float, over: set[str] | None = None) -> None:
    """The student's moves, chosen at random among their choices, until `until` is set, the
    deadline passes, the server is gone, or (with `over`) their table's hand has ended."""
    api = load_tables.Api(student.browser.port, student.browser.jar)
    try:
        while not until.is_set() and time.monotonic() < deadline:
            status, seen = api.send("GET", f"/api/tables/{student.code}")
            assert status == 200, seen
            hand = seen["hand"]
            if hand["phase"] == "over":
                if over is not None:
                    over.add(student.code)
                    return
            if not hand["owed"] or not hand["choices"]:
                time.sleep(0.03)
                continue
            choice = student.rng.choice(hand["choices"])
            status, after = api.send("POST", f"/api/tables/{student.code}/actions", {"action": choice, "move": hand["move"]})
            if 200 <= status < 300:
                moves.add(student, choice, after["hand"]["move"])
            else:
                assert status == 409, (status, after)  # stale: another person's move came first; look again
    except (OSError, http.client.HTTPException, ValueError):  # the server killed mid-answer
        if over is not None:
            raise  # after the restart the server stays up
    finally:
        api.close()


def _kept(folder: Path, codes: set[str]) -> dict[str, list[dict[str, Any]]]:
    """Each table's stored hand, read from the file the killed server left: its actions, then the answers held."""
    engine = make_engine(f"sqlite:///{folder / 'coach.sqlite3'}")
    try:
        with Session(engine) as session:
            out = {}
            for code in codes:
                table = table_store.table_by_code(session, code)
                assert table is not None and table.id is not None
                hand = table_store.current_hand(session, table.id)
                assert hand is not None
                out[code] = json.loads(hand.actions) + json.loads(hand.held)
            return out
    finally:
        engine.dispose()


def _same(made: dict[str, Any], kept: dict[str, Any]) -> bool:
    return all(kept.get(key) == value for key, value in made.items() if key != "seat")


def test_a_class_round_killed_mid_hand_keeps_every_acknowledged_move_and_plays_to_the_end(tmp_path):
    port = free_port()
    server = serve_on_file(tmp_path, port, ENV)
    moves = Moves()
    try:
        students = _class_seated_and_dealt(port)
        stop = threading.Event()
        threads = [threading.Thread(target=_play, args=(s, moves, stop, time.monotonic() + 60), daemon=True) for s in students]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 40
        while moves.count() < BEFORE_KILL and time.monotonic() < deadline:
            time.sleep(0.02)
        kill_group(server)  # SIGKILL mid-hand: the students' requests in flight
        for thread in threads:
            thread.join(30)
        stop.set()
        assert moves.count() >= BEFORE_KILL, moves.answered
    finally:
        if server.poll() is None:
            kill_group(server)

    # Every acknowledged move is stored, in the order its student made them (a no-call, held until
    # the discard's answers were all in, leaves no action of its own). A move in flight at the kill
    # may be stored unanswered: the check is that the answered ones are there, in order.
    kept = _kept(tmp_path, {s.code for s in students})
    assert any(a["kind"] == "discard" for code in kept for a in kept[code])  # killed in the play, not in the Charleston
    for (code, seat), made in moves.answered.items():
        stored = iter([a for a in kept[code] if a["seat"] == seat])
        for action in made:
            if action["kind"] == "no-call":
                continue
            assert any(_same(action, k) for k in stored), (code, seat, action, kept[code])
    assert {code for code, _ in moves.answered} == {s.code for s in students}  # both tables had moved

    server = serve_on_file(tmp_path, port, ENV)  # the same file, after the kill
    try:
        for student in students:
            api = load_tables.Api(port, student.browser.jar)
            status, seen = api.send("GET", f"/api/tables/{student.code}")
            api.close()
            assert status == 200 and seen["hand"]["seat"] == student.seat and seen["hand"]["phase"] != "over"
            assert seen["hand"]["move"] >= moves.numbers.get((student.code, student.seat), 0)  # never fell: nothing lost
        before, over, errors = moves.count(), set(), []

        def play_on(student: Student) -> None:
            try:
                _play(student, moves, threading.Event(), time.monotonic() + TO_THE_END, over)
            except Exception as error:  # reported below, with the student (an assert in the thread too)
                errors.append((student.code, student.seat, repr(error)))

        threads = [threading.Thread(target=play_on, args=(s,), daemon=True) for s in students]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(TO_THE_END + 30)
        assert errors == []
        assert over == {s.code for s in students}, f"not over after {TO_THE_END} s: {over}"
        assert moves.count() > before  # the tables went on after the restart
        for student in students:
            api = load_tables.Api(port, student.browser.jar)
            status, seen = api.send("GET", f"/api/tables/{student.code}")
            api.close()
            assert status == 200 and seen["hand"]["phase"] == "over" and seen["hand"]["result"] is not None
        print(f"class round killed after {before} acknowledged moves; {moves.count() - before} more after the restart, both tables to the end")
    finally:
        server.terminate()
        server.wait(30)
        for student in students:
            student.browser.close()
    text = "".join(path.read_text(errors="replace") for path in tmp_path.glob("server-*.log"))
    assert "Traceback" not in text, text[-3000:]
