"""`python -m coach bench`: how fast the analysis is, against a plain baseline.

Absolute times on a shared machine swing 2-3x, so every figure is a ratio
to a baseline measured in the same round: the plain pure-Python
implementation of the same distances (`PlainBaseline`) for the analysis,
a bare Python start for whole processes, the bare /healthz route for web
answers. The measures run interleaved, round after round, and each prints
the min and the median over the rounds (issue 13). Racks are dealt from a
shuffled 152-tile wall with a fixed seed. Nothing here is a test: the
tests check answers, this prints times.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import numpy as np

from coach.advice.passes import candidate_passes, evaluate_pass, unseen_pool
from coach.advice.passes.kernel import scores_by_matrix
from coach.notation import tiles
from coach.notation.card import Card
from coach.reading.analysis import analyze
from coach.reading.tiles_away import HAND_SIZE, Holding, tables_for
from coach.tools import bench_goals


def deal_racks(count: int, seed: int = 2026) -> list[list[int]]:
    """Racks of 13 tiles (14 for every fourth, as East) from shuffled walls."""
    rng = random.Random(seed)
    wall = list(tiles.WALL)
    racks = []
    for n in range(count):
        rng.shuffle(wall)
        racks.append(wall[: 14 if n % 4 == 0 else 13])
    return racks


class PlainBaseline:
    """Tiles away the straightforward way: every reading, tile by tile, in Python."""

    def __init__(self, card: Card):
        self.lines = []
        for line in card.lines:
            readings = []
            for reading in line.readings:
                need: dict[int, int] = {}
                small: dict[int, int] = {}
                for g in reading.groups:
                    need[g.tile] = need.get(g.tile, 0) + g.size
                    if not g.takes_jokers:
                        small[g.tile] = small.get(g.tile, 0) + g.size
                readings.append([(t, n, small.get(t, 0)) for t, n in need.items()])
            self.lines.append(readings)

    def line_distances(self, rack: list[int]) -> list[int]:
        counts = [0] * tiles.KINDS
        for t in rack:
            counts[t] += 1
        jokers = counts[tiles.JOKER]
        out = []
        for readings in self.lines:
            best = HAND_SIZE
            for reading in readings:
                placed = 0
                room = 0
                for tile, need, small in reading:
                    naturals = min(counts[tile], need)
                    placed += naturals
                    room += need - small - max(0, naturals - small)
                placed += min(jokers, room)
                best = min(best, HAND_SIZE - placed)
            out.append(best)
        return out


def _rate(work: Callable[[], int], seconds: float) -> float:
    """Items per second: repeat `work` (which returns items done) for `seconds`."""
    done = 0
    start = time.perf_counter()
    while True:
        done += work()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


@dataclass
class Figure:
    """One measure over the rounds: seconds per item, and its baseline's in the same round."""

    label: str
    baseline: str  # what the ratio is to
    times: list[float] = field(default_factory=list)
    ratios: list[float] = field(default_factory=list)  # baseline time / this time: > 1 is faster

    def add(self, seconds: float, baseline_seconds: float) -> None:
        self.times.append(seconds)
        self.ratios.append(baseline_seconds / seconds)


def _one_at_a_time(count: int, fn: Callable[[int], object]) -> Callable[[], int]:
    index = [0]

    def work() -> int:
        for _ in range(64):
            fn(index[0] % count)
            index[0] += 1
        return 64

    return work


def first_pass_figures(card: Card, racks: list[list[int]]) -> tuple[list[float], list[float], list[int]]:
    """Per deal: seconds for a full `pass` evaluation, seconds to score the
    same number of (pass, draw) racks by a full matrix product each (the
    old scoring), and that number. The two run interleaved, deal by deal."""
    new_times, old_times, pairs = [], [], []
    for n, rack in enumerate(racks):
        begin = time.perf_counter()
        advice = evaluate_pass(card, rack, "first-right", seed=n)
        new_times.append(time.perf_counter() - begin)
        count = sum(o.samples for o in advice.options) + sum(o.samples for o in advice.options if o.flexibility is not None)
        candidates = candidate_passes(rack, "first-right")
        counts = np.array(tiles.counts(rack), dtype=np.int16)
        after = np.array([counts - np.array(tiles.counts(own), dtype=np.int16) for own, _ in candidates])
        takes = np.full(len(candidates), 3)
        rng = np.random.default_rng(n)
        pool = np.array(unseen_pool(rack))
        draws = pool[np.argpartition(rng.random((count, len(pool))), 3, axis=1)[:, :3]]
        cands = np.arange(count) % len(candidates)
        begin = time.perf_counter()
        scores_by_matrix(card, after, takes, cands, draws)
        old_times.append(time.perf_counter() - begin)
        pairs.append(count)
    return new_times, old_times, pairs


# -- whole processes: `python -m coach ...` as a user runs it -----------------


def _process_env() -> dict[str, str]:
    """Processes start with their bytecode compiled once, as an installed package's
    is; where PYTHONDONTWRITEBYTECODE is set, every start would compile every module
    from source. The bytecode goes to the cache folder, not into the source tree."""
    from coach.reading.disk_cache import cache_folder

    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(cache_folder() / "pycache")
    return env


def _process_seconds(argv: list[str], stdin: bytes = b"", cpu: list[float] | None = None) -> float:
    """Wall seconds of a whole process; its CPU seconds (user + system) go to `cpu`:
    on a crowded machine the wall time is mostly waiting for a core, the CPU time is not."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    begin = time.perf_counter()
    done = subprocess.run(
        [sys.executable, *argv], input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        env=_process_env(), check=False,
    )
    seconds = time.perf_counter() - begin
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv[:3])} failed: {done.stderr.decode(errors='replace')[-300:]}")
    if cpu is not None:
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return seconds


# -- web answers in process (the Flask test client) ---------------------------


def _web_client():
    """An app on a throwaway SQLite file, its answers stored as in use."""
    from coach.common.settings import DATA_DIR, SERVER_TIMING

    os.environ[DATA_DIR.name] = tempfile.mkdtemp(prefix="coach-bench-")
    from coach.web import create_app

    app = create_app(
        {"TESTING": True, "SECRET_KEY": "bench-" + "x" * 40, "RATELIMIT_ENABLED": False, SERVER_TIMING.name: True}
    )
    return app.test_client()


def _web_answer_seconds(client, drill: str, seed: int, cpu: list[float] | None = None, level: int = 1) -> float:
    """One answer to a fresh question (the question itself is not timed);
    the app's own CPU for it (its Server-Timing) appended to `cpu`."""
    from coach.tools.load import _answer_for
    from coach.web.infra.server_timing import HEADER, parse

    question = client.post(f"/api/drills/{drill}/questions", json={"seed": seed, "level": level}).get_json()
    choices = question.get("choices")
    answer = choices[0] if choices else _answer_for(drill, question, random.Random(seed))
    begin = time.perf_counter()
    response = client.post(f"/api/drills/{drill}/answers", json={"token": question["token"], "answer": answer})
    seconds = time.perf_counter() - begin
    if response.status_code != 200:
        raise RuntimeError(f"{drill}: answer got {response.status_code}")
    if cpu is not None:
        cpu.append(parse(response.headers.get(HEADER))["cpu"] / 1000)
    return seconds


def _bare_seconds(client, cpu: list[float] | None = None) -> float:
    from coach.web.infra.server_timing import HEADER, parse

    begin = time.perf_counter()
    response = client.get("/healthz")
    seconds = time.perf_counter() - begin
    if cpu is not None:
        cpu.append(parse(response.headers.get(HEADER))["cpu"] / 1000)
    return seconds


# -- the run --------------------------------------------------------------------


def run(args: argparse.Namespace, out: TextIO, cli_main: Callable[..., int]) -> int:
    """Measure and print the figures; `cli_main` is the command line's own entry
    point (the CLI passes it in: tools sit below the CLI and never import it)."""
    from coach.reading.disk_cache import house_card_cached, load_card_cached

    card_path = getattr(args, "card", None)
    card = load_card_cached(card_path) if card_path else house_card_cached()
    card_file = str(card_path or Path(__file__).parents[1] / "cards" / "house-2026.yaml")
    seconds = max(0.05, float(getattr(args, "seconds", 0.5) or 0.5))
    rounds = max(1, int(getattr(args, "rounds", 3) or 3))
    process_racks = max(1, int(getattr(args, "racks", 3000) or 3000))
    web = not getattr(args, "no_web", False)
    tables = tables_for(card)
    racks = deal_racks(8192)
    counts = np.array([tiles.counts(r) for r in racks], dtype=np.int16)
    holdings = [Holding.of(r) for r in racks]
    baseline = PlainBaseline(card)

    sample = range(0, len(racks), 97)
    agree = all(list(tables.line_distances(holdings[i])) == baseline.line_distances(racks[i]) for i in sample)
    ranking = tables.batch_rank(counts[:512])
    agree = agree and all(list(ranking.distance[i]) == baseline.line_distances(racks[i]) for i in range(0, 512, 31))

    chunk = 256  # the batch path's own chunk (coach.cli.batch.CHUNK)
    position = [0]

    def batch() -> int:
        start = position[0] % len(racks)
        tables.batch_rank(counts[start : start + chunk])
        position[0] += chunk
        return min(chunk, len(racks) - start)

    def explained(i: int) -> None:
        result = analyze(card, holdings[i])
        for r in result.lines[:5]:
            r.to_json()  # the nearest five lines with reading, used, missing, unused

    lines_in = "".join(json.dumps({"rack": tiles.format_tiles(r)}) + "\n" for r in racks[:400])

    def cli_batch() -> int:
        cli_main(["analyze"], stdin=io.StringIO(lines_in), stdout=io.StringIO())
        return 400

    in_process = [
        ("batch: distances, best readings, live outs, ranked", batch),
        ("one rack at a time, distances to every line", _one_at_a_time(len(racks), lambda i: tables.line_distances(holdings[i]))),
        ("one rack, full analysis + nearest 5 explained", _one_at_a_time(len(racks), explained)),
        ("CLI batch in process, every line explained", cli_batch),
    ]
    racks_in = "".join(json.dumps({"rack": tiles.format_tiles(r)}) + "\n" for r in racks[:process_racks]).encode()
    analyze_argv = ["-m", "coach", "analyze", "--card", card_file, "--json"]
    processes = [
        (f"process, {process_racks:,} racks, --fields id,distance", analyze_argv + ["--fields", "id,distance"]),
        (f"process, {process_racks:,} racks, every line explained", analyze_argv),
    ]
    # The bar's mix (issue 26): every second rack with a pung exposed, as after a call.
    mix_in = "".join(json.dumps(request) + "\n" for request in bench_goals.exposed_mix(racks[:process_racks])).encode()
    mix_label = f"process, {process_racks:,} racks, half exposed (the bar's mix), --fields id,distance, CPU time"
    figures: dict[str, Figure] = {}

    def figure(label: str, against: str) -> Figure:
        return figures.setdefault(label, Figure(label, against))

    plain_label = "plain pure-Python baseline, one rack at a time"
    client = _web_client() if web else None
    drill_names: list[str] = []
    if client is not None:
        import drills

        drill_names = list(drills.DRILLS)
    _process_seconds(["-m", "coach", "analyze", "--card", card_file, "--rack", "1D 1D 2D 2D 3D 3D N N E E W W S"])  # the cache
    for round_ in range(rounds):
        cpu_begin, wall_begin = time.process_time(), time.perf_counter()
        plain = 1 / _rate(_one_at_a_time(len(racks), lambda i: baseline.line_distances(racks[i])), seconds)
        # CPU seconds a rack: the CPU spent over the racks done (wall spent / wall a rack).
        plain_cpu = (time.process_time() - cpu_begin) * plain / (time.perf_counter() - wall_begin)
        figure(plain_label, "itself").add(plain, plain)
        for label, work in in_process:
            figure(label, "plain").add(1 / _rate(work, seconds), plain)
        for label, argv in processes:
            cpu: list[float] = []
            figure(label, "plain").add(_process_seconds(argv, racks_in, cpu) / process_racks, plain)
            figure(label + ", CPU time", "plain, CPU").add(cpu[0] / process_racks, plain_cpu)
        cpu = []
        _process_seconds(processes[0][1], mix_in, cpu)
        figure(mix_label, "plain, CPU").add(cpu[0] / process_racks, plain_cpu)
        # The same command with no rack at all: its start-up (interpreter, numpy,
        # the card from the cache) shared over as many racks is the ceiling
        # any per-rack speed-up could reach.
        cpu = []
        figure(NO_RACK, "plain").add(_process_seconds(processes[0][1], b"", cpu) / process_racks, plain)
        figure(NO_RACK + ", CPU time", "plain, CPU").add(cpu[0] / process_racks, plain_cpu)
        bare_cpu: list[float] = []
        bare_python = _process_seconds(["-c", "pass"], cpu=bare_cpu)
        rack = tiles.format_tiles(racks[round_])
        cpu = []
        start_up = _process_seconds(["-m", "coach", "analyze", "--card", card_file, "--rack", rack], cpu=cpu)
        figure(START_UP, "python -c pass").add(start_up, bare_python)
        figure(START_UP + ", CPU time", "python -c pass, CPU").add(cpu[0], bare_cpu[0])
        if client is not None:
            bare_app: list[float] = []
            bare = min(_bare_seconds(client, bare_app) for _ in range(5))
            for drill in drill_names:
                answer = min(_web_answer_seconds(client, drill, 1000 * round_ + k) for k in range(3))
                figure(f"web answer in process: {drill}", "/healthz").add(answer, bare)
            # The goal's own measure: a first-pass answer's CPU in the app (its
            # Server-Timing, the test client's work left out), median of several
            # fresh questions of every level, against the bare route's the same way.
            app_cpu: list[float] = []
            for k in range(FIRST_PASS_ANSWERS):
                _web_answer_seconds(client, "first-pass", 100_000 + FIRST_PASS_ANSWERS * round_ + k, app_cpu, k % 3 + 1)
            figure(FIRST_PASS_SERVER, "/healthz, server CPU").add(statistics.median(app_cpu), statistics.median(bare_app))
        _first_pass(card, racks, round_, figure, plain, plain_cpu)

    out.write(f"Card: {card.name}: {len(card.lines)} lines, {len(tables.readings)} readings; "
              f"{rounds} rounds, interleaved; {seconds:g} s a measure a round\n")
    out.write(f"Fast tables agree with the baseline on the sampled racks: {'yes' if agree else 'NO'}\n\n")
    _table(out, list(figures.values()))
    lean = figures[processes[0][0] + ", CPU time"]
    full = figures[processes[1][0] + ", CPU time"]
    lean_vs_full = statistics.median(f / t for f, t in zip(full.times, lean.times))
    out.write(
        f"\nGoals, by CPU time: the lean process >= 30x the plain baseline (median {statistics.median(lean.ratios):.1f}x: "
        f"{'met' if statistics.median(lean.ratios) >= 30 else 'not met'}) and >= 10x every line explained "
        f"(median {lean_vs_full:.1f}x: {'met' if lean_vs_full >= 10 else 'not met'}); "
        f"one rack as a whole process < 250 ms (median "
        f"{statistics.median(figures[START_UP].times) * 1000:.0f} ms wall, "
        f"{statistics.median(figures[START_UP + ', CPU time'].times) * 1000:.0f} ms CPU); "
        f"a full pass evaluation < 30 ms (median {statistics.median(figures[FULL_PASS].times) * 1000:.1f} ms CPU)"
        + (
            f"; a first-pass answer < 10 ms in the server (median {statistics.median(figures[FIRST_PASS_SERVER].times) * 1000:.1f} ms CPU)"
            if FIRST_PASS_SERVER in figures else ""
        )
        + ".\n"
        f"The lean command's start-up alone, with no rack, is "
        f"{statistics.median(figures[NO_RACK + ', CPU time'].times) * process_racks * 1000:.0f} ms CPU: "
        f"shared over {process_racks:,} racks it caps the lean ratio at "
        f"{statistics.median(figures[NO_RACK + ', CPU time'].ratios):.1f}x even if the racks took no time.\n"
    )
    _goals(args, out, figures, lean_mix=figures[mix_label].ratios, every_line=full)
    return 0 if agree else 1


def _goals(args: argparse.Namespace, out: TextIO, figures: dict[str, Figure], lean_mix: list[float], every_line: Figure) -> None:
    """Issue 26's goals, each with its ratio and "met" or "not met": the efficiency and
    capacity from `coach load` runs (median of --load-runs), a class's answers at its
    pace, the lean batch on the bar's mix in each round, `--help` without numpy."""
    env = _process_env()
    efficiency: list[dict] = []
    class_run: dict | None = None
    class_load: float | None = None
    if not getattr(args, "no_load", False):
        seconds = f"{float(getattr(args, 'load_seconds', 2.0) or 2.0):g}"
        efficiency = bench_goals.load_runs(
            ["--clients", "16", "--drills", "all", "--seconds", seconds], max(1, int(getattr(args, "load_runs", 3) or 3)), env
        )
        class_load = bench_goals.load_average()
        class_seconds = f"{float(getattr(args, 'class_seconds', 5.0) or 5.0):g}"
        class_run = bench_goals.load_runs(["--clients", "32", "--think", "1", "--drills", "all", "--seconds", class_seconds], 1, env)[0]
    goals = [
        *bench_goals.efficiency_goals(efficiency),
        bench_goals.class_goal(class_run, class_load),
        bench_goals.lean_goal(lean_mix),
        bench_goals.peer_goal(statistics.median(every_line.times) * 1000),
        bench_goals.help_goal(env),
        bench_goals.practice_goal(),
    ]
    load = bench_goals.load_average()
    out.write(f"\nGoals of issue 26 (load average at the end: {'?' if load is None else f'{load:.2f}'}; "
              f"efficiency and capacity from {len(efficiency)} run(s) of `coach load --clients 16 --drills all`):\n\n")
    out.write(bench_goals.table(goals))


START_UP = "process, one rack (--rack), start-up included"
FULL_PASS = "first-pass evaluation, CPU time"
FIRST_PASS_SERVER = "web first-pass answer, CPU in the app (Server-Timing)"
FIRST_PASS_ANSWERS = 9  # fresh first-pass questions answered a round for FIRST_PASS_SERVER
NO_RACK = "process, no rack: start-up alone, per rack of the batch"


def _first_pass(
    card: Card, racks: list[list[int]], round_: int, figure: Callable[[str, str], Figure], plain: float, plain_cpu: float
) -> None:
    """The first-pass evaluation (every legal pass), against the plain baseline
    scoring the same (pass, draw) racks one by one, and against the old
    scoring by a full matrix product each (first_pass_figures); then by CPU
    time, which a crowded machine inflates far less than wall time, with a
    first-pass grade: the drill's own evaluation of a learner's pass, on a
    question not graded before (nothing cached)."""
    new_times, old_times, pairs = first_pass_figures(card, [racks[100 + round_]])
    figure("first-pass evaluation, every legal pass", "plain").add(new_times[0], pairs[0] * plain)
    figure("first-pass evaluation, against the old matrix scoring", "old scoring").add(new_times[0], old_times[0])
    begin = time.process_time()
    evaluate_pass(card, racks[100 + round_], "first-right", seed=round_)
    figure(FULL_PASS, "plain, CPU").add(time.process_time() - begin, pairs[0] * plain_cpu)
    from drills import first_pass

    rack = first_pass.generate(5000 + round_, 2, card).key["rack"]
    pick = tuple(sorted(t for t in rack if t != tiles.JOKER)[:3])
    begin = time.process_time()
    first_pass.evaluate(card, rack, 5000 + round_, pick)
    figure("first-pass grade (a learner's pass), CPU time", "plain, CPU, 1 rack").add(time.process_time() - begin, plain_cpu)


def _table(out: TextIO, figures: list[Figure]) -> None:
    width = max(len(f.label) for f in figures)
    out.write(f"{'measure'.ljust(width)}  {'median':>10}  {'min':>10}  {'x base median':>13}  {'x base min':>10}  base\n")
    for f in figures:
        out.write(
            f"{f.label.ljust(width)}  {_time(statistics.median(f.times)):>10}  {_time(min(f.times)):>10}  "
            f"{statistics.median(f.ratios):>13.2f}  {min(f.ratios):>10.2f}  {f.baseline}\n"
        )


def _time(seconds: float) -> str:
    if seconds >= 0.1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-4:
        return f"{seconds * 1000:.2f} ms"
    return f"{seconds * 1e6:.1f} us"
