"""The lean batch on the bar's mix (issue 26), as `coach bench` measures it, alone.

    python -m coach.tools.lean_bench [--rounds 3] [--against /path/to/other/tree]

Each round times the plain pure-Python reference for `--seconds` (its CPU a
rack, the way `bench` works it out), then the process `python -m coach
analyze --card FILE --json --fields id,distance` over the same `--racks`
racks of the bar's mix (`bench_goals.exposed_mix`: every second rack with a
pung exposed), its CPU read from the children's rusage, as `bench` does:
the ratio is the goal's figure (at least 30x in each round). With
`--against`, the same process is run from another source tree too (its
folder put first on PYTHONPATH) in the same round, in alternating order,
so that a change is seen beside what it changed; both trees' outputs are
compared byte for byte. The process with no rack at all (its start-up) is
timed too. Prints times and ratios; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from coach.notation import tiles
from coach.reading.disk_cache import house_card_cached
from coach.tools import bench, bench_goals

HOUSE_FILE = str(Path(__file__).parents[1] / "cards" / "house-2026.yaml")


def _run(argv: list[str], stdin: bytes, tree: str | None) -> tuple[float, bytes]:
    """CPU seconds (user + system, the child's rusage) of one process, and its output."""
    env = bench._process_env()
    if tree is not None:
        env["PYTHONPATH"] = tree + os.pathsep + env.get("PYTHONPATH", "") if env.get("PYTHONPATH") else tree
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, *argv], input=stdin, capture_output=True, env=env, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(done.stderr.decode(errors="replace")[-300:])
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, done.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m coach.tools.lean_bench", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=0.5, help="the plain reference's time a round (bench's default)")
    parser.add_argument("--racks", type=int, default=3000, help="racks piped through the process (bench's default)")
    parser.add_argument("--against", metavar="TREE", help="another source tree (e.g. main's) to time in the same rounds")
    args = parser.parse_args(argv)

    card = house_card_cached()
    racks = bench.deal_racks(8192)
    baseline = bench.PlainBaseline(card)
    mix_in = "".join(json.dumps(r) + "\n" for r in bench_goals.exposed_mix(racks[: args.racks])).encode()
    lean = ["-m", "coach", "analyze", "--card", HOUSE_FILE, "--json", "--fields", "id,distance"]
    trees: list[tuple[str, str | None]] = [("this tree", None)]
    if args.against:
        trees.append((f"against {args.against}", args.against))
    for _, tree in trees:  # each tree's bytecode and card tables cached first, as bench does
        _run(lean, b"", tree)
    outputs = {name: _run(lean, mix_in, tree)[1] for name, tree in trees}
    ratios: dict[str, list[float]] = {name: [] for name, _ in trees}
    start_ups: dict[str, list[float]] = {name: [] for name, _ in trees}
    for round_ in range(args.rounds):
        cpu_begin, wall_begin = time.process_time(), time.perf_counter()
        plain = 1 / bench._rate(bench._one_at_a_time(len(racks), lambda i: baseline.line_distances(racks[i])), args.seconds)
        plain_cpu = (time.process_time() - cpu_begin) * plain / (time.perf_counter() - wall_begin)
        order = trees if round_ % 2 == 0 else trees[::-1]
        line = [f"round {round_ + 1}: plain {plain_cpu * 1e3:.3f} ms CPU a rack"]
        for name, tree in order:
            cpu, _ = _run(lean, mix_in, tree)
            start_up, _ = _run(lean, b"", tree)
            ratios[name].append(plain_cpu * args.racks / cpu)
            start_ups[name].append(start_up)
            line.append(f"{name}: {cpu * 1e3:.0f} ms, {ratios[name][-1]:.1f}x (no rack {start_up * 1e3:.0f} ms)")
        print("; ".join(line), flush=True)
    print(f"\nThe lean batch on the bar's mix, {args.racks:,} racks (half exposed), CPU, x the plain reference (goal >= 30x in each round):")
    for name, _ in trees:
        each = ", ".join(f"{r:.1f}x" for r in ratios[name])
        print(f"  {name}: {each} (median {statistics.median(ratios[name]):.1f}x); start-up with no rack, median "
              f"{statistics.median(start_ups[name]) * 1e3:.0f} ms CPU")
    if len(trees) > 1:
        same = len(set(outputs.values())) == 1
        print(f"  outputs byte for byte: {'the same' if same else 'DIFFERENT'} ({len(outputs[trees[0][0]]):,} bytes)")
    print(f"  card {card.name}, {tiles.KINDS} tile kinds; load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":  # importing the module measures nothing
    raise SystemExit(main())
