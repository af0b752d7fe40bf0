"""The speed goals' verdicts and the speed page's generated section (issue 26).

No timing here: the bench measures, these check what it makes of its figures."""

from __future__ import annotations

from coach.notation import tiles
from coach.reading.tiles_away import read_holding
from coach.tools import bench_goals, speed_page
from coach.tools.bench import deal_racks


def _run(first_pass: float, other: float, learners: float) -> dict:
    return {
        "drills": {
            "first-pass": {"vs_hello_cpu": first_pass, "learners_per_core": learners, "answer_p95_ms": 80.0},
            "name-the-tile": {"vs_hello_cpu": other, "learners_per_core": 4 * learners, "answer_p95_ms": 20.0},
        },
        "load_average_after": "1.00 1.00 1.00",
    }


def test_efficiency_holds_first_pass_to_8x_and_the_others_to_3x_on_the_median_run() -> None:
    runs = [_run(7.9, 2.9, 30), _run(9.0, 3.5, 20), _run(7.0, 2.0, 40)]
    goals = {g.name: g for g in bench_goals.efficiency_goals(runs)}
    assert goals["efficiency: first-pass"].met is True  # median 7.9
    assert goals["efficiency: name-the-tile"].met is True  # median 2.9
    assert goals["capacity: first-pass"].met is True  # median 30
    worse = {g.name: g for g in bench_goals.efficiency_goals([_run(8.1, 3.1, 24)])}
    assert worse["efficiency: first-pass"].met is False
    assert worse["efficiency: name-the-tile"].met is False
    assert worse["capacity: first-pass"].met is False


def test_no_load_run_is_not_measured_rather_than_met() -> None:
    assert all(g.met is None and g.verdict == "not measured" for g in bench_goals.efficiency_goals([]))
    assert bench_goals.class_goal(None, None).met is None


def test_a_class_goal_names_the_worst_drill_and_says_when_the_machine_was_too_busy() -> None:
    goal = bench_goals.class_goal(_run(7, 2, 30), 3.2)
    assert goal.met is True and "first-pass" in goal.measured
    assert "did not hold" in goal.note
    assert "did not hold" not in bench_goals.class_goal(_run(7, 2, 30), 0.9).note


def test_the_lean_goal_must_hold_in_each_run() -> None:
    assert bench_goals.lean_goal([31.0, 35.0]).met is True
    assert bench_goals.lean_goal([31.0, 29.0]).met is False


def test_the_bars_mix_is_half_exposed_and_every_request_reads() -> None:
    mix = bench_goals.exposed_mix(deal_racks(40))
    assert sum("exposed" in r for r in mix) == 20
    for request in mix:
        exposed = request.get("exposed", [])
        read_holding(request["rack"], exposed, [], (13, 14))  # refuses more than four of a tile
        if exposed:
            group = tiles.parse(exposed[0])
            assert len(set(group)) == 1 and len(group) == 3


def test_help_goal_is_met() -> None:
    assert bench_goals.help_goal(dict(__import__("os").environ)).met is True


def test_the_speed_page_section_is_replaced_between_its_markers_only() -> None:
    page = f"# Speed\n\nintro\n\n{speed_page.BEGIN}\nold\n{speed_page.END}\n\n## Log\nkept\n"
    printed = "figures\n\nGoals of issue 26 (load):\n\n| goal | measured |\n"
    text = speed_page.section("python -m coach bench", printed, "2026-12-02 08:00 UTC", "0.50 0.40 0.30")
    new = speed_page.replace_section(page, text)
    assert new.startswith("# Speed\n\nintro\n\n") and new.endswith(f"{speed_page.END}\n\n## Log\nkept\n")
    assert "old" not in new and "| goal | measured |" in new and "figures" in new and "0.50 0.40 0.30" in new
    assert speed_page.replace_section(new, text) == new
    added = speed_page.replace_section("# Speed\n", text)
    assert added.count(speed_page.BEGIN) == 1


def test_the_practice_tables_goal_needs_identical_results_and_both_ratios():
    from coach.tools.benchmarks.practice_table import Figures

    def figures(call_new: float, shark_new: float, identical: bool = True) -> Figures:
        # 1.0 s of review before, 40% of it call checks (0.4 s); after, 0.8 s with call_new of it.
        return Figures(4, 1.0, 0.8, 0.4, call_new / 0.8, 100, 0.15, shark_new, 2.0, 1.4, identical, (5.0, 6.0))

    met = bench_goals.practice_goal(figures(0.2, 0.1))
    assert met.met is True and "call checks 2.00x" in met.measured and "shark's decision 1.50x" in met.measured
    assert "whole review 1.25x" in met.measured
    assert bench_goals.practice_goal(figures(0.3, 0.1)).met is False  # the call checks 1.33x
    assert bench_goals.practice_goal(figures(0.2, 0.12)).met is False  # the shark 1.25x
    assert bench_goals.practice_goal(figures(0.2, 0.1, identical=False)).verdict == "not met"
