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


def test_a_version_fetched_after_the_move_delivers_it_though_its_number_differs():
    """Issue 28: a version is a checksum. A seat's presence changed right after East's
    move (999), and South's move (333) was answered after West's (444), which was
    saved after it: both were matched only by the table's next move, seconds later.
    A version that a fetch begun after the move's answer returned shows the move."""
    table = _table(
        [(10.0, 111, "east"), (11.0, 444, "west"), (11.1, 333, "south")],
        {"south": [(10.1, 999), (11.4, 444)], "west": [(10.2, 999), (11.5, 444)], "north": [(10.3, 999), (11.2, 444)],
         "east": [(11.3, 444)]},
    )
    table.saw({"version": 999}, began=10.05)  # a fetch begun after East's answer returned 999
    table.saw({"version": 444}, began=11.15)  # and one after South's returned 444
    table.saw({"version": 777}, began=9.0)  # before every move: says nothing of them
    table.saw({"error": "gone"}, began=12.0)
    found, missed = load_tables.delays(table)
    assert missed == 0
    east = [0.1, 0.2, 0.3]  # by 999
    west = [0.3, 0.4, 0.2]  # at East, South, North by 444 itself
    south = [0.2, 0.4, 0.1]  # at East, West, North by 444, fetched after South's answer
    assert sorted(round(d, 2) for d in found) == sorted(east + west + south)


def test_a_version_fetched_before_the_move_never_delivers_it():
    table = _table([(10.0, 111, "east")], {"south": [(10.1, 555)]})
    table.saw({"version": 555}, began=9.9)  # the table before East's move
    found, missed = load_tables.delays(table)
    assert found == [] and missed == 3


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
