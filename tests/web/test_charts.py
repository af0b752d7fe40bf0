"""The server-drawn SVG charts: well-formed, one point a day, labelled, escaped."""

from __future__ import annotations

import ast
import inspect
import re
import xml.etree.ElementTree as ET
from datetime import date, timedelta

import pytest

from coach.web.progress import charts
from coach.web.progress.charts import PLOT_BOTTOM, PLOT_TOP, DayResult, accuracy_chart, describe, goal_ring
from coach.web.shared.dates import short_date

SVG = "{http://www.w3.org/2000/svg}"
START = date(2026, 3, 1)


def parse(markup: str) -> ET.Element:
    root = ET.fromstring(markup)  # raises on anything that is not well-formed XML
    assert root.tag == f"{SVG}svg"
    return root


def days(n: int, step: int = 1, attempts: int = 4) -> list[DayResult]:
    return [DayResult(START + timedelta(days=i * step), attempts, (i * 3) % (attempts + 1)) for i in range(n)]


def points(root: ET.Element) -> list[ET.Element]:
    return [c for c in root.iter(f"{SVG}circle") if "chart__point" in c.get("class", "")]


def dates(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text") if "chart__date" in t.get("class", "")]


@pytest.mark.parametrize("n", [1, 2, 7, 31, 60])
def test_a_chart_is_well_formed_with_a_point_a_day(n):
    root = parse(accuracy_chart("Name the tile", days(n), "c"))
    assert len(points(root)) == n
    assert len([r for r in root.iter(f"{SVG}rect") if r.get("class") == "chart__bar"]) == n
    labels = dates(root)
    assert 1 <= len(labels) <= charts.MAX_TICKS
    assert labels[-1] == short_date(START + timedelta(days=n - 1))
    if n > 1:
        assert labels[0] == short_date(START)


def test_a_chart_is_an_image_named_and_described_for_screen_readers():
    root = parse(accuracy_chart("Name the tile: accuracy per day", days(3), "chart-x"))
    assert root.get("role") == "img"
    assert root.get("aria-labelledby") == "chart-x-title chart-x-desc"
    title = root.find(f"{SVG}title")
    desc = root.find(f"{SVG}desc")
    assert title is not None and title.get("id") == "chart-x-title"
    assert title.text == "Name the tile: accuracy per day"
    assert desc is not None and desc.get("id") == "chart-x-desc"
    assert "3 days of practice from 1 March 2026 to 3 March 2026" in (desc.text or "")
    # Every point carries its numbers as a tooltip.
    tips = [p.find(f"{SVG}title").text for p in points(root)]
    assert tips[0] == "1 March 2026: 0 of 4 answers right (0%)"


def test_the_axes_run_from_0_to_100_percent():
    root = parse(accuracy_chart("t", [DayResult(START, 4, 4), DayResult(START + timedelta(days=1), 4, 0)], "c"))
    first, second = points(root)
    assert float(first.get("cy")) == PLOT_TOP  # 100%
    assert float(second.get("cy")) == PLOT_BOTTOM  # 0%
    axis = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "chart__axis"]
    assert {"0%", "50%", "100%"} <= set(axis)
    value = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "chart__value"]
    assert value == ["0%"]  # the latest day's accuracy, by its point


def test_points_go_left_to_right_in_date_order_whatever_the_input_order():
    data = days(5)
    root = parse(accuracy_chart("t", list(reversed(data)), "c"))
    xs = [float(p.get("cx").rstrip("%")) for p in points(root)]
    assert xs == sorted(xs) and len(set(xs)) == 5
    assert all(0 <= x <= 100 for x in xs)
    assert "chart__point--latest" in points(root)[-1].get("class")


def test_a_single_day_sits_in_the_middle_with_no_line():
    root = parse(accuracy_chart("t", [DayResult(START, 3, 2)], "c"))
    (point,) = points(root)
    assert float(point.get("cx").rstrip("%")) == pytest.approx((charts.LEFT + charts.RIGHT) / 2)  # mid-plot
    assert not [p for p in root.iter(f"{SVG}path") if "chart__line" in p.get("class", "")]
    assert dates(root) == ["1 Mar"]
    assert "one day, 1 March 2026, 3 answers, 2 right (67%)" in root.find(f"{SVG}desc").text


def test_days_without_practice_are_gaps_drawn_dashed():
    data = [DayResult(START + timedelta(days=d), 2, c) for d, c in [(0, 1), (1, 2), (6, 0)]]
    root = parse(accuracy_chart("t", data, "c"))
    paths = {p.get("class"): p.get("d") for p in root.iter(f"{SVG}path")}
    assert paths["chart__line"].count("M") == 1  # day 1 to day 2
    assert paths["chart__line chart__line--gap"].count("M") == 1  # day 2 to day 7, across the gap
    xs = [float(p.get("cx").rstrip("%")) for p in points(root)]
    assert xs[2] - xs[1] == pytest.approx(5 * (xs[1] - xs[0]), abs=0.05)  # a slot per calendar day


def test_a_window_keeps_only_its_days_and_spans_to_its_end():
    data = days(10)
    root = parse(accuracy_chart("t", data, "c", start=START + timedelta(days=5), end=START + timedelta(days=20)))
    assert len(points(root)) == 5
    assert dates(root)[-1] == "21 Mar"  # the axis runs to the end of the window, today on the page


def test_sixty_days_stay_readable():
    root = parse(accuracy_chart("t", days(60), "c"))
    assert len(points(root)) == 60
    assert len(dates(root)) <= charts.MAX_TICKS
    radius = {float(p.get("r")) for p in points(root)[:-1]}
    assert max(radius) < 3  # smaller points when they crowd


def test_a_year_boundary_shows_the_years():
    data = [DayResult(date(2025, 12, 30), 1, 1), DayResult(date(2026, 1, 2), 1, 0)]
    labels = dates(parse(accuracy_chart("t", data, "c")))
    assert labels[0] == "30 Dec 2025" and labels[-1] == "2 Jan 2026"


def test_no_data_says_so():
    root = parse(accuracy_chart("t", [], "c"))
    assert points(root) == []
    assert "No answers yet" in "".join(root.itertext())
    assert describe("t", []) == "t: no answers yet."


def test_all_text_is_escaped():
    nasty = 'Tiles & <script>alert("x")</script> \'quoted\''
    markup = accuracy_chart(nasty, days(2), 'id"><script>')
    assert "<script>" not in markup
    root = parse(markup)
    assert root.find(f"{SVG}title").text == nasty
    assert root.get("id") == 'id"><script>'


def test_the_description_sums_up_the_data_in_words():
    data = [DayResult(START + timedelta(days=d), n, c) for d, n, c in [(0, 4, 1), (1, 4, 4), (2, 5, 4)]]
    text = describe("Name the tile", data)
    assert "13 answers, 69% right overall" in text
    assert "Best day 2 March 2026 (100%), lowest 1 March 2026 (25%)" in text
    assert "Latest day 3 March 2026: 4 of 5 right (80%), up from 25% on the first day" in text
    level = describe("t", [DayResult(START, 2, 1), DayResult(START + timedelta(days=1), 4, 2)])
    assert "Every day at 50%" in level and "level from 50%" in level


@pytest.mark.parametrize("done, goal, inner", [(0, 10, "0%"), (4, 10, "40%"), (10, 10, "✓"), (14, 10, "✓")])
def test_the_goal_ring(done, goal, inner):
    root = parse(goal_ring(done, goal, f"{done} of {goal} answers today"))
    assert root.get("role") == "img" and root.get("aria-label") == f"{done} of {goal} answers today"
    assert root.find(f"{SVG}text").text == inner
    arc = next(c for c in root.iter(f"{SVG}circle") if c.get("class") == "ring__done")
    filled, whole = (float(v) for v in arc.get("stroke-dasharray").split())
    assert filled == pytest.approx(whole * min(done / goal, 1), abs=0.01)


def test_the_charts_are_pure_functions_with_no_web_framework():
    tree = ast.parse(inspect.getsource(charts))
    imported = {
        (node.module or "") if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    }
    assert not {name for name in imported if re.match(r"(flask|jinja2|markupsafe|sqlmodel|sqlalchemy)\b", name)}
