"""Pass evaluation against an older revision (issue 13, part 2): prints CPU times, asserts only equality.

    python -m coach.tools.benchmarks.pass_eval [--base main] [--racks 30] [--rounds 3] [--changed]

Fixed racks (first-pass questions 9000-9029 at level 2, the house card)
are scored by this tree's `coach.advice.passes` and by the one at `--base`
(read with `git show` and loaded beside it, so both run in one process),
interleaved rack by rack, in alternating order: a full evaluation
(`evaluate_pass`, every legal pass, default arguments) and the drill's
grade of a learner's pass (the arguments of `drills.first_pass.evaluate`,
with the exact sums' cache emptied first, as for a question never graded).
Both must give the same advice. Each rack's time is its fastest round;
printed: the median and p90 over racks of each side, and the median of
the per-rack ratios (base / this: above 1 is faster). Absolute times
swing 2-3x on a shared machine; the ratios much less.
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from coach.advice import passes as charleston
from coach.notation import tiles
from coach.notation.card import house_card
from drills import first_pass


def load_base(revision: str) -> ModuleType:
    """The pass evaluation as it stands at `revision`, as a module of its own
    beside this tree's: coach/advice/passes.py, or the package
    coach/advice/passes/ it became (its own imports pointed at the copy)."""
    root = Path(__file__).resolve().parents[3]  # the repository: git shows paths relative to where it runs

    def show(path: str) -> str:
        return subprocess.run(["git", "show", f"{revision}:{path}"], capture_output=True, text=True, check=True, cwd=root).stdout

    listed = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", revision, "coach/advice/"], capture_output=True, text=True, check=True, cwd=root,
    ).stdout.split()
    folder = Path(tempfile.mkdtemp())
    if "coach/advice/passes.py" in listed:
        (folder / "base_charleston.py").write_text(show("coach/advice/passes.py"))
    else:
        package = folder / "base_charleston"
        package.mkdir()
        for path in listed:
            if path.startswith("coach/advice/passes/") and path.endswith(".py"):
                (package / Path(path).name).write_text(show(path).replace("coach.advice.passes", "base_charleston"))
    sys.path.insert(0, str(folder))  # dataclasses look their module up
    return importlib.import_module("base_charleston")


def exact_sums(module: ModuleType) -> Any:
    """The kept exact sums of a revision's pass evaluation (a module, or the package's evaluation)."""
    if hasattr(module, "_EXACT"):
        return module._EXACT
    return importlib.import_module(module.__name__ + ".evaluation")._EXACT


def evaluate(module: ModuleType, *args: Any, **effort: Any) -> Any:
    """evaluate_pass with the effort as keywords (older revisions) or as EvaluationOptions."""
    if hasattr(module, "EvaluationOptions"):
        return module.evaluate_pass(*args, options=module.EvaluationOptions(**effort))
    if "flexibility" not in inspect.signature(module.evaluate_pass).parameters:
        effort.pop("flexibility", None)  # older still: flexibility always worked out
    return module.evaluate_pass(*args, **effort)


def options(advice) -> list[tuple]:
    return [(o.tiles, o.blind, o.expected, o.stderr, o.samples, o.flexibility, o.behind, o.behind_stderr, o.exact) for o in advice.options]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="main")
    parser.add_argument("--racks", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--changed", action="store_true",
        help="the advice is meant to differ from the base's (issue 24: no joker comes back, C4): time only, compare nothing",
    )
    args = parser.parse_args()
    card = house_card()
    base = load_base(args.base)
    racks = [list(first_pass.generate(9000 + n, 2, card).key["rack"]) for n in range(args.racks)]
    picks = [tuple(sorted(t for t in rack if t != tiles.JOKER)[:3]) for rack in racks]

    def full(module: ModuleType, n: int):
        return evaluate(module, card, racks[n], "first-right", n)

    def grade(module: ModuleType, n: int):
        exact_sums(module).clear()
        # As the drill calls it: without flexibility where the revision can leave it out.
        return evaluate(
            module, card, racks[n], "first-right", n, samples=64, refine=8, refine_samples=192,
            screen=first_pass.SCREEN, include=[picks[n]], firm=[picks[n]], exact=True, flexibility=first_pass.FLEXIBILITY,
        )

    def graded(advice) -> tuple:
        """What a grade reads: the best pass first, then every option but its flexibility (which orders ties only)."""
        rows = [row[:5] + row[6:] for row in options(advice)]
        return rows[0], sorted(rows)

    for n in range(args.racks):  # warm-up, and the advice must not change
        if args.changed:
            full(base, n), full(charleston, n), grade(base, n), grade(charleston, n)
            continue
        assert options(full(base, n)) == options(full(charleston, n)), f"rack {n}: the advice differs"
        assert graded(grade(base, n)) == graded(grade(charleston, n)), f"rack {n}: the grade's advice differs"
    times: dict[tuple[str, str], list[list[float]]] = {
        (kind, side): [[] for _ in racks] for kind in ("full", "grade") for side in ("base", "this")
    }
    for round_ in range(args.rounds):
        for n in range(args.racks):
            sides = [("base", base), ("this", charleston)]
            if (n + round_) % 2:
                sides.reverse()
            for kind, run in (("full", full), ("grade", grade)):
                for side, module in sides:
                    begin = time.process_time()
                    run(module, n)
                    times[kind, side][n].append(time.process_time() - begin)
    print(f"{args.racks} racks, {args.rounds} rounds, CPU ms a rack (fastest round); base = {args.base}")
    for kind, label in (("full", "evaluate_pass, every legal pass"), ("grade", "first-pass grade (first_pass.evaluate)")):
        old = [min(t) * 1e3 for t in times[kind, "base"]]
        new = [min(t) * 1e3 for t in times[kind, "this"]]
        ratio = statistics.median(a / b for a, b in zip(old, new))
        print(
            f"{label:40s} base median {np.median(old):6.2f} p90 {np.percentile(old, 90):6.2f} | "
            f"this median {np.median(new):6.2f} p90 {np.percentile(new, 90):6.2f} | base/this {ratio:.2f}x"
        )


if __name__ == "__main__":
    main()
