"""`python -m coach load-tables` (coach/tools/load_tables.py): how a move's delay at
each other person is counted, and a short real run that keeps the tool working."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from coach.tools import load_tables
from tests.support.paths import ROOT


def _table(moves: list[tuple[float, int, str]], events: dict[str, list[tuple[float, int]]]) -> load_tables.Table:
    table = load_tables.Table(code="ABCDEF", moves=moves)
    for seat in load_tables.SEATS:
        table.people.append(load_tables.Person(table, seat, 0, random.Random(0), events=events.get(seat, [])))
    return table


def test_a_moves_delay_is_counted_at_each_other_person_from_its_answer_to_their_moved():
    table = _table(
        [(10.0, 111, "east"), (12.0, 222, "south")],
        {
            "south": [(10.05, 111)],
            "west": [(9.99, 111), (12.5, 222)],  # the push came before East's own answer: 0
            "north": [(12.2, 222)],  # 111 overtaken by 222 before North's stream brought it
            "east": [(12.1, 222)],
        },
    )
    found, missed = load_tables.delays(table)
    assert missed == 0
    assert sorted(round(d, 2) for d in found) == sorted([0.05, 0.0, 2.2, 0.1, 0.5, 0.2])


def test_a_move_nobody_else_hears_of_is_missed():
    table = _table([(10.0, 111, "east")], {"south": [(10.1, 111)], "west": [(25.0, 111)]})
    found, missed = load_tables.delays(table)
    assert [round(d, 2) for d in found] == [0.1] and missed == 2  # West's came too late, North's never


def test_any_moved_after_the_answer_delivers_the_move_whatever_its_number():
    """Issue 28: a version is a checksum. A seat's presence changed right after East's
    move (999): its "moved" was matched only by the table's next move, seconds later.
    A page fetches the table as it stands on any "moved": one after the answer delivers."""
    table = _table([(10.0, 111, "east"), (14.0, 222, "south")], {"south": [(10.1, 999)], "west": [(10.2, 999), (14.1, 222)]})
    found, missed = load_tables.delays(table)
    assert sorted(round(d, 2) for d in found) == [0.1, 0.1, 0.2]  # South and West of East's move; West of South's
    assert missed == 3  # North heard of neither, East never of South's


def test_a_moved_before_the_answer_delivers_only_the_move_or_a_later_state():
    """Before the answer, only a version known to be the move's or later counts (as 0):
    a later move's, or one that a fetch begun after the answer returned."""
    table = _table(
        [(10.0, 111, "east"), (10.5, 222, "west")],
        {"south": [(9.9, 555)], "north": [(9.95, 777)], "west": [(9.97, 777)]},
    )
    table.saw({"version": 777}, began=10.01)  # a fetch begun after East's answer returned 777
    table.saw({"version": 555}, began=9.8)  # the table before East's move
    table.saw({"error": "gone"}, began=12.0)
    found, missed = load_tables.delays(table)
    assert sorted(found) == [0.0, 0.0]  # East's at North and West by 777; South's 555 was the table before
    assert missed == 4  # East's at South; West's at South, North (777 is before it) and East


def test_each_tables_streams_open_as_soon_as_it_is_dealt_not_once_every_table_is(monkeypatch):
    """Issue 28: 40 tables took more than the 20 s grace to seat, and the first tables'
    people, unheard from meanwhile, were marked away (the coach played for them: 409s).
    Each table is handed on (to open its people's streams) before the next is opened."""
    calls: list[str] = []

    class FakeApi:
        made = 0

        def __init__(self, port, jar) -> None:
            pass

        def send(self, method, path, body=None):
            calls.append(f"{method} {path}")
            if path == "/api/tables":
                FakeApi.made += 1
                return 201, {"code": f"T{FakeApi.made}"}
            return 200, {}

        def close(self) -> None:
            pass

    monkeypatch.setattr(load_tables, "Api", FakeApi)
    made = load_tables._seat_everyone(0, 2, 1, load_tables.Tally(), lambda table: calls.append(f"streams {table.code}"))
    assert [t.code for t in made] == ["T1", "T2"]
    assert calls.index("streams T1") == calls.index("POST /api/tables/T1/start") + 1  # dealt, then its streams
    assert calls.index("streams T1") < calls.index("POST /api/tables", calls.index("POST /api/tables") + 1)  # before table 2
    assert calls[-1] == "streams T2"


def test_a_person_a_fetch_finds_away_is_counted_once_and_a_computer_players_seat_never():
    table = _table([], {})
    seats = [{"seat": "South", "person": True, "present": False}, {"seat": "West", "person": False, "present": False},
             {"seat": "North", "person": True, "present": True}]
    table.saw({"version": 1, "seats": seats}, began=1.0)
    table.saw({"version": 2, "seats": seats}, began=2.0)
    assert table.away == {"South"}


def test_a_stream_window_stays_open_until_its_end_is_known_and_passed():
    window = load_tables.Window()
    assert window.open() and window.left() == load_tables.Window.UNTIL_KNOWN
    window.end = 0.0  # long past
    assert not window.open() and window.left() == 0.0


@pytest.mark.server
def test_a_short_run_plays_and_measures(tmp_path):
    out = tmp_path / "figures.json"
    run = subprocess.run(
        [sys.executable, "-m", "coach", "load-tables", "--tables", "2", "--seconds", "10", "--think", "0.5", "--json", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    figures = json.loads(out.read_text())
    assert figures["moves"] > 0 and figures["errors"] == 0 and figures["missed"] == 0
    assert figures["deliveries"] == 3 * figures["moves"] and figures["p95_ms"] is not None
    assert figures["server_cpu_ms_per_move"] is not None
    assert "p95" in run.stdout and "server CPU per move" in run.stdout
