"""The speed goals of issue 26, each with its measured ratio and "met" or "not met".

`coach bench` measures (coach/tools/bench.py); this module holds what the
goals are, reads the figures they need from `coach load --json` runs and
the bench's own, and writes the table that `bench` prints and
docs/speed.md keeps (coach/tools/speed_page.py). Every figure is a ratio
to a baseline timed in the same run, or a time beside the load average it
was measured under: on a shared machine absolute times swing 2-3x.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from coach.notation import tiles

if TYPE_CHECKING:
    from coach.tools.benchmarks.practice_table import Figures

# The goals' bars (issue 26).
STORED_VS_HELLO = 3.0  # a stored-answer drill's server CPU a request, over /healthz's
FIRST_PASS_VS_HELLO = 8.0  # first-pass's, which evaluates every legal pass
LEARNERS_PER_CORE = 25.0  # at 50% of a core, each learner one round trip a second
CLASS_P95_MS = 100.0  # every answer's p95 at a class's pace (32 clients, --think 1) ...
CLASS_LOAD = 1.5  # ... at a load average under this
LEAN_VS_PLAIN = 30.0  # the lean batch over the plain reference, on the bar's mix, in each run
PRACTICE_RATIO = 1.4  # the review's call checks and a shark's decisions, batched, over one analysis a candidate (the prototypes)
HEAVY_DRILLS = ("first-pass",)  # drills held to FIRST_PASS_VS_HELLO


@dataclass(frozen=True)
class Goal:
    """One goal: what was measured, the bar, and whether it was met (None: not measured here)."""

    name: str
    measured: str
    bar: str
    met: bool | None
    note: str = ""

    @property
    def verdict(self) -> str:
        return "not measured" if self.met is None else "met" if self.met else "not met"


def load_average() -> float | None:
    try:
        return os.getloadavg()[0]
    except OSError:
        return None


def exposed_mix(racks: list[list[int]], seed: int = 26) -> list[dict[str, object]]:
    """The bar's mix: batch requests for the racks, every second one with a pung
    exposed (three of a suit tile the rack holds at most one of) and three
    tiles fewer in the rack, as a player who has called once holds."""
    rng = random.Random(seed)
    suits = [t for t, code in enumerate(tiles.CODES) if code[0].isdigit()]
    out: list[dict[str, object]] = []
    for n, rack in enumerate(racks):
        if n % 2 == 0:
            out.append({"rack": tiles.format_tiles(rack)})
            continue
        kept = rack[: len(rack) - 3]
        held = tiles.counts(kept)
        kind = rng.choice([t for t in suits if held[t] <= 1])
        out.append({"rack": tiles.format_tiles(kept), "exposed": [tiles.format_tiles([kind] * 3)]})
    return out


def load_runs(drill_args: list[str], runs: int, env: dict[str, str]) -> list[dict]:
    """`coach load` run `runs` times with these arguments, each run's --json figures."""
    results = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="coach-bench-load-") as folder:
            target = Path(folder) / "load.json"
            subprocess.run(
                [sys.executable, "-m", "coach", "load", *drill_args, "--json", str(target)],
                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True, timeout=1800,
            )
            results.append(json.loads(target.read_text()))
    return results


def efficiency_goals(runs: list[dict]) -> list[Goal]:
    """Each drill's server CPU a request over /healthz's (median of the runs), and
    the learners a core serves at 50% (median), from `load --clients 16` runs."""
    if not runs:
        return [
            Goal("efficiency: server CPU a request vs /healthz", "", "<= 3x stored, <= 8x first-pass", None, "--no-load"),
            Goal("capacity: learners per core at 50%", "", f">= {LEARNERS_PER_CORE:.0f} every drill", None, "--no-load"),
        ]
    goals = []
    drills = list(runs[0]["drills"])
    for drill in drills:
        ratios = [r["drills"][drill]["vs_hello_cpu"] for r in runs if r["drills"][drill]["vs_hello_cpu"] is not None]
        bar = FIRST_PASS_VS_HELLO if drill in HEAVY_DRILLS else STORED_VS_HELLO
        if ratios:
            ratio = statistics.median(ratios)
            spread = f" ({min(ratios):.1f}-{max(ratios):.1f})" if len(ratios) > 1 else ""
            goals.append(Goal(f"efficiency: {drill}", f"{ratio:.2f}x /healthz{spread}", f"<= {bar:g}x", ratio <= bar))
        else:
            goals.append(Goal(f"efficiency: {drill}", "", f"<= {bar:g}x", None, "no server CPU (no /proc)"))
    for drill in drills:
        counts = [r["drills"][drill]["learners_per_core"] for r in runs if r["drills"][drill]["learners_per_core"]]
        if counts:
            count = statistics.median(counts)
            goals.append(Goal(f"capacity: {drill}", f"{count:.0f} learners a core", f">= {LEARNERS_PER_CORE:.0f}", count >= LEARNERS_PER_CORE))
    return goals


def class_goal(run: dict | None, load_before: float | None) -> Goal:
    """Every drill's answer p95 at a class's pace, beside the load average it met."""
    name = "what a class feels: every answer p95, 32 clients, --think 1"
    if run is None:
        return Goal(name, "", f"< {CLASS_P95_MS:g} ms at load < {CLASS_LOAD}", None, "--no-load")
    worst_drill, worst = max(((d, f["answer_p95_ms"]) for d, f in run["drills"].items()), key=lambda x: x[1])
    load = "?" if load_before is None else f"{load_before:.2f}"
    quiet = load_before is not None and load_before < CLASS_LOAD
    note = f"load average {load} before, {run['load_average_after']} after"
    if not quiet:
        note += f": above {CLASS_LOAD}, so the goal's condition did not hold"
    return Goal(name, f"worst {worst:.0f} ms ({worst_drill})", f"< {CLASS_P95_MS:g} ms at load < {CLASS_LOAD}", worst < CLASS_P95_MS, note)


def help_goal(env: dict[str, str]) -> Goal:
    """`python -m coach --help` (and a command's) without importing numpy."""
    code = (
        "import sys\nfrom coach.cli import main\n"
        "for argv in (['--help'], ['analyze', '--help'], ['bench', '--help']):\n"
        "    try:\n        main(argv)\n    except SystemExit:\n        pass\n"
        "print('numpy' in sys.modules, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    imported = done.stderr.strip().splitlines()[-1] == "True"
    return Goal("`--help` without importing numpy", "numpy imported" if imported else "numpy not imported", "not imported", not imported)


def lean_goal(ratios: list[float]) -> Goal:
    """The lean batch over the plain reference on the bar's mix, CPU time, in each run."""
    if not ratios:
        return Goal("lean batch vs plain, the bar's mix", "", f">= {LEAN_VS_PLAIN:g}x in each run", None)
    each = ", ".join(f"{r:.1f}x" for r in ratios)
    return Goal(
        "lean batch vs plain, the bar's mix (half exposed), CPU", each, f">= {LEAN_VS_PLAIN:g}x in each run",
        min(ratios) >= LEAN_VS_PLAIN,
    )


def peer_goal(every_line_ms: float | None) -> Goal:
    """Every line explained against the peer engine's full-card rank: no peer engine
    is in the repository, so only this side is measured."""
    measured = "" if every_line_ms is None else f"{every_line_ms:.2f} ms CPU a rack (every line explained, whole process)"
    return Goal(
        "every line explained vs the peer engine's full-card rank", measured, "no slower than the peer", None,
        "no peer engine in the repository to time beside it (the issue's host: 2.5 ms a rack)",
    )


def practice_goal(found: Figures | None = None) -> Goal:
    """The practice table's batched analyses against the one-at-a-time path in the
    same process (coach.tools.benchmarks.practice_table, measured here when no
    figures are given): what was batched, the review's call checks (its call and
    no-call decisions) and a shark's decisions, each at least PRACTICE_RATIO
    faster by CPU, with the same results. The whole review's ratio is printed
    beside them: the rest of a review is mostly the Charleston's pass
    evaluation, which this goal does not touch."""
    if found is None:
        from coach.notation.card import house_card
        from coach.tools.benchmarks import practice_table

        found = practice_table.measure(house_card(), hands=4, rounds=3, shark_hands=2)
    measured = (
        f"call checks {found.call_ratio:.2f}x (whole review {found.review_ratio:.2f}x), shark's decision {found.shark_ratio:.2f}x; "
        f"results {'identical' if found.identical else 'DIFFERENT'}"
    )
    met = found.identical and min(found.call_ratio, found.shark_ratio) >= PRACTICE_RATIO
    return Goal(
        "practice table: review's call checks and shark's analyses batched", measured,
        f"batched, identical results, call checks and shark >= {PRACTICE_RATIO:g}x each", met,
        f"CPU, old path in the same process; {found.hands} hands, {found.decisions} shark decisions, "
        f"load average {found.load[0]:.1f}",
    )


def table(goals: list[Goal]) -> str:
    """The goals as a Markdown table: what bench prints and docs/speed.md keeps."""
    rows = ["| goal | measured | bar | verdict | note |", "|---|---|---|---|---|"]
    rows += [f"| {g.name} | {g.measured} | {g.bar} | {g.verdict} | {g.note} |" for g in goals]
    return "\n".join(rows) + "\n"
