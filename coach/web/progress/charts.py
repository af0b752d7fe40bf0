"""Charts drawn on the server as SVG markup: no JavaScript, no library.

Every function here is pure: data in, an SVG string out, all text escaped.
Each chart is an image to assistive technology (role="img") named by its
<title> and summarised in words by its <desc>.

The accuracy chart keeps its text at its real size on any screen: x
positions are percentages of the chart's width and y positions are CSS
pixels, so a label reads the same on a 320px phone and a wide desktop
(a viewBox would shrink the text with the chart). The line and its
shaded area, which need path data, sit in an inner SVG whose viewBox is
stretched across the width (preserveAspectRatio="none") with strokes
that do not scale.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from html import escape

from coach.web.shared.dates import long_date, short_date

# Colours of the app's palette (static/css/app.css), so a chart looks right
# even where the stylesheet does not reach it.
INK = "#1c2a24"
MUTED = "#5f6d66"
GRID = "#e4dfd2"
LINE = "#1f5c45"
AREA = "#2a7257"
BARS = "#cfe5d8"
GOLD = "#e0a526"

# The accuracy chart's geometry: y in pixels, x in percent of the width.
HEIGHT = 214
PLOT_TOP = 24  # the 100% line
PLOT_BOTTOM = 144  # the 0% line
BARS_TOP = 160
BARS_BOTTOM = 184
LABELS_Y = 204
# The days' span, in percent: the gutter on the left keeps the points clear
# of the 0-100% labels (about 27px on a 300px phone chart).
LEFT, RIGHT = 9.0, 98.5
MAX_TICKS = 5
NICE_STEPS = (1, 2, 3, 7, 14, 28, 56, 91, 182, 364)


@dataclass(frozen=True)
class DayResult:
    """One local day of answers to one drill."""

    day: date
    attempts: int
    correct: int

    @property
    def accuracy(self) -> float:
        return self.correct / self.attempts if self.attempts else 0.0


def _text(value: object) -> str:
    return escape(str(value), quote=True)


def _num(value: float) -> str:
    """A coordinate with no more digits than it needs."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def percent(value: float) -> str:
    return f"{round(value * 100)}%"


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def describe(title: str, days: Sequence[DayResult]) -> str:
    """The chart in words, for a screen reader: span, totals, best and worst day, trend."""
    if not days:
        return f"{title}: no answers yet."
    attempts = sum(d.attempts for d in days)
    correct = sum(d.correct for d in days)
    first, last = days[0], days[-1]
    if len(days) == 1:
        return (
            f"{title}: one day, {long_date(first.day)}, {plural(attempts, 'answer')}, "
            f"{correct} right ({percent(first.accuracy)})."
        )
    words = [
        f"{title}: {len(days)} days of practice from {long_date(first.day)} to {long_date(last.day)}, "
        f"{plural(attempts, 'answer')}, {percent(correct / attempts)} right overall."
    ]
    best = max(days, key=lambda d: (d.accuracy, d.attempts))
    worst = min(days, key=lambda d: (d.accuracy, -d.attempts))
    if best.accuracy != worst.accuracy:
        words.append(
            f"Best day {long_date(best.day)} ({percent(best.accuracy)}), "
            f"lowest {long_date(worst.day)} ({percent(worst.accuracy)})."
        )
    else:
        words.append(f"Every day at {percent(best.accuracy)}.")
    change = last.accuracy - first.accuracy
    trend = "up" if change > 0.005 else ("down" if change < -0.005 else "level")
    words.append(
        f"Latest day {long_date(last.day)}: {last.correct} of {last.attempts} right "
        f"({percent(last.accuracy)}), {trend} from {percent(first.accuracy)} on the first day."
    )
    return " ".join(words)


def _ticks(slots: int) -> list[int]:
    """Which day slots get a date label: at most MAX_TICKS, evenly stepped, always the last."""
    if slots <= 1:
        return [0]
    step = next((s for s in NICE_STEPS if math.ceil(slots / s) <= MAX_TICKS), None)
    if step is None:
        step = math.ceil(slots / MAX_TICKS)
    ticks = list(range(0, slots, step))
    last = slots - 1
    if ticks[-1] != last:
        if last - ticks[-1] < step * 0.6 and len(ticks) > 1:
            ticks[-1] = last  # too close to the last label: keep the last one only
        else:
            ticks.append(last)
    return ticks


def accuracy_chart(
    title: str,
    days: Sequence[DayResult],
    chart_id: str,
    start: date | None = None,
    end: date | None = None,
) -> str:
    """Accuracy per day as a line over a strip of bars (answers per day).

    `days` are the days with answers, in any order; the x axis runs from
    `start` to `end` (default: the first and last of them), one slot a day,
    so days without practice show as gaps. A point per day with answers."""
    days = sorted(days, key=lambda d: d.day)
    if start is not None or end is not None:
        days = [d for d in days if (start is None or d.day >= start) and (end is None or d.day <= end)]
    ident = _text(chart_id)
    summary = describe(title, days)
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="{ident}" width="100%" height="{HEIGHT}" '
        f'role="img" aria-labelledby="{ident}-title {ident}-desc" font-size="12" overflow="visible">'
        f'<title id="{ident}-title">{_text(title)}</title><desc id="{ident}-desc">{_text(summary)}</desc>'
    )
    parts = [head]
    # Gridlines at every quarter, labelled at 0, 50 and 100% just above the line.
    for quarter in range(5):
        y = PLOT_BOTTOM - (PLOT_BOTTOM - PLOT_TOP) * quarter / 4
        dash = "" if quarter == 0 else ' stroke-dasharray="3 4"'
        parts.append(
            f'<line class="chart__grid" x1="0" x2="100%" y1="{_num(y)}" y2="{_num(y)}" '
            f'stroke="{GRID}" stroke-width="1"{dash}/>'
        )
        if quarter % 2 == 0:
            parts.append(
                f'<text class="chart__axis" x="0" y="{_num(y - 6)}" fill="{MUTED}" font-size="11">'
                f"{quarter * 25}%</text>"
            )
    if not days:
        parts.append(
            f'<text class="chart__empty" x="50%" y="{_num((PLOT_TOP + PLOT_BOTTOM) / 2)}" text-anchor="middle" '
            f'fill="{MUTED}">No answers yet</text></svg>'
        )
        return "".join(parts)

    first = start or days[0].day
    last = max(end or days[-1].day, first)
    slots = (last - first).days + 1
    width = (RIGHT - LEFT) / slots

    def x_of(day: date) -> float:
        return LEFT + ((day - first).days + 0.5) * width

    def y_of(accuracy: float) -> float:
        return PLOT_BOTTOM - (PLOT_BOTTOM - PLOT_TOP) * accuracy

    # Answers per day: a strip of bars under the line.
    most = max(d.attempts for d in days)
    bar = min(width * 0.62, 7.0)
    parts.append(
        f'<text class="chart__axis" x="0" y="{BARS_TOP - 4}" fill="{MUTED}" font-size="11">Answers a day</text>'
    )
    parts.append(
        f'<line class="chart__grid" x1="0" x2="100%" y1="{BARS_BOTTOM}" y2="{BARS_BOTTOM}" stroke="{GRID}"/>'
    )
    for d in days:
        h = max(2.0, (BARS_BOTTOM - BARS_TOP - 4) * d.attempts / most)
        parts.append(
            f'<rect class="chart__bar" x="{_num(x_of(d.day) - bar / 2)}%" y="{_num(BARS_BOTTOM - h)}" '
            f'width="{_num(bar)}%" height="{_num(h)}" rx="1.5" fill="{BARS}"/>'
        )

    # The line: solid between consecutive days, dashed across days without practice.
    if len(days) > 1:
        solid: list[str] = []
        gaps: list[str] = []
        area: list[str] = []
        for a, b in zip(days, days[1:]):
            segment = (
                f"M{_num(x_of(a.day) * 10)} {_num(y_of(a.accuracy))}"
                f"L{_num(x_of(b.day) * 10)} {_num(y_of(b.accuracy))}"
            )
            (solid if (b.day - a.day).days == 1 else gaps).append(segment)
        area.append(f"M{_num(x_of(days[0].day) * 10)} {PLOT_BOTTOM}")
        area += [f"L{_num(x_of(d.day) * 10)} {_num(y_of(d.accuracy))}" for d in days]
        area.append(f"L{_num(x_of(days[-1].day) * 10)} {PLOT_BOTTOM}Z")
        parts.append(
            f'<svg x="0" y="0" width="100%" height="{HEIGHT}" viewBox="0 0 1000 {HEIGHT}" '
            f'preserveAspectRatio="none" overflow="visible" aria-hidden="true">'
            f'<path class="chart__area" d="{"".join(area)}" fill="{AREA}" fill-opacity="0.1"/>'
        )
        if gaps:
            parts.append(
                f'<path class="chart__line chart__line--gap" d="{"".join(gaps)}" fill="none" stroke="{LINE}" '
                f'stroke-width="2" stroke-dasharray="4 4" stroke-opacity="0.55" vector-effect="non-scaling-stroke"/>'
            )
        if solid:
            parts.append(
                f'<path class="chart__line" d="{"".join(solid)}" fill="none" stroke="{LINE}" stroke-width="2.5" '
                f'stroke-linejoin="round" stroke-linecap="round" vector-effect="non-scaling-stroke"/>'
            )
        parts.append("</svg>")

    # A point per day, its numbers in a tooltip; the latest day stands out.
    radius = 4 if len(days) <= 20 else (3 if len(days) <= 45 else 2.4)
    for n, d in enumerate(days):
        latest = n == len(days) - 1
        tip = f"{long_date(d.day)}: {d.correct} of {plural(d.attempts, 'answer')} right ({percent(d.accuracy)})"
        parts.append(
            f'<circle class="chart__point{" chart__point--latest" if latest else ""}" '
            f'cx="{_num(x_of(d.day))}%" cy="{_num(y_of(d.accuracy))}" r="{radius + 1.5 if latest else radius}" '
            f'fill="{GOLD if latest else "#fff"}" stroke="{LINE}" stroke-width="2">'
            f"<title>{_text(tip)}</title></circle>"
        )
    # The latest value above its point, haloed so the line never crosses it.
    newest = days[-1]
    lx, ly = x_of(newest.day), y_of(newest.accuracy)
    anchor = "end" if lx > 85 else ("start" if lx < 15 else "middle")
    dx = {"end": 8, "start": -8, "middle": 0}[anchor]
    parts.append(
        f'<text class="chart__value" x="{_num(lx)}%" dx="{dx}" y="{_num(ly - 11)}" text-anchor="{anchor}" '
        f'fill="{INK}" font-weight="700" font-size="13" stroke="#fff" stroke-width="4" stroke-linejoin="round" '
        f'paint-order="stroke">{percent(newest.accuracy)}</text>'
    )

    # Date labels under the bars: the ends hug the edges so they never clip.
    years = first.year != last.year
    for tick in _ticks(slots):
        day = date.fromordinal(first.toordinal() + tick)
        x = LEFT + (tick + 0.5) * width
        anchor = "middle"
        if slots > 1 and tick == 0 and x < 12:
            anchor, x = "start", 0.0
        elif slots > 1 and tick == slots - 1 and x > 88:
            anchor, x = "end", 100.0
        parts.append(
            f'<text class="chart__axis chart__date" x="{_num(x)}%" y="{LABELS_Y}" text-anchor="{anchor}" '
            f'fill="{MUTED}" font-size="11">{_text(short_date(day, years))}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def goal_ring(done: int, goal: int, label: str, size: int = 72) -> str:
    """Today's answers against the daily goal as a ring, full at the goal.

    The fills are the light theme's; theme.css repaints the track and the
    figure (`ring__track`, `ring__text`) in the page's own ink, dark or light."""
    goal = max(goal, 1)
    fraction = min(done / goal, 1.0)
    r = 30
    circumference = 2 * math.pi * r
    filled = circumference * fraction
    met = done >= goal
    colour = "#23744a" if met else GOLD
    inner = "✓" if met else percent(fraction)
    hidden = "" if done else ' stroke-opacity="0"'
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="ring" width="{size}" height="{size}" viewBox="0 0 72 72" '
        f'role="img" aria-label="{_text(label)}">'
        f'<circle class="ring__track" cx="36" cy="36" r="{r}" fill="none" stroke="{GRID}" stroke-width="8"/>'
        f'<circle class="ring__done" cx="36" cy="36" r="{r}" fill="none" stroke="{colour}" stroke-width="8" '
        f'stroke-linecap="round" stroke-dasharray="{_num(filled)} {_num(circumference)}" '
        f'transform="rotate(-90 36 36)"{hidden}/>'
        f'<text x="36" y="{42 if met else 41}" text-anchor="middle" font-size="{22 if met else 15}" font-weight="800" '
        f'fill="{INK}" class="ring__text" aria-hidden="true">{_text(inner)}</text>'
        "</svg>"
    )
