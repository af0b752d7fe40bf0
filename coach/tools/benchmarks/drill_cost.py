"""Server CPU per drill request against the bare /healthz route, in process: prints ratios, asserts nothing.

    python -m coach.tools.benchmarks.drill_cost [--rounds 7] [--trips 40] [--drills nearest-hand first-pass]

The efficiency goal of issue 26 (`python -m coach load --clients 16
--drills all`) measured without a server: one app from `create_app` on a
throwaway data folder, the drilling limits lifted as `load` lifts them,
`drills.warm` on its card, then Flask test-client round trips as `load`
makes them: a new question (a fresh seed, a random level) and its answer
(`coach.tools.load._answer_for`), both through the JSON API. Each round
runs every drill and /healthz (two bare requests a round trip) in turn,
in a rotated order, and reads the process's CPU time around each; a
drill's figure is its CPU per request over /healthz's in the same round,
and the median over rounds is printed, with the question and the answer
apart. Absolute times swing 2-3x on a shared machine; ratios much less.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from coach.common import settings

HEALTHZ = "healthz"
DEFAULT_DRILLS = ("name-the-tile", "nearest-hand", "first-pass")  # name-the-tile: the cheap drill, for scale


def _lift_limits() -> None:
    """Lift the drilling limits as `coach load` does (one learner, far past a human's pace)."""
    lifted = (settings.LIMIT_DRILL_LEARNER, settings.LIMIT_DRILL_ADDRESS, settings.LIMIT_FIRST_PASS_ADDRESS)
    os.environ.update(dict.fromkeys((limit.name for limit in lifted), "1000000/minute"))


def _trips(client: Any, drill: str, count: int, seeds: random.Random, answers: random.Random, levels: int) -> tuple[float, float]:
    """`count` round trips of `drill` (or of two /healthz requests): the CPU seconds of the questions and of the answers."""
    from coach.tools.load import _answer_for

    asking = answering = 0.0
    for _ in range(count):
        if drill == HEALTHZ:
            started = time.process_time()
            for _ in range(2):
                response = client.get("/healthz")
                assert response.status_code == 200, response.status_code
            asking += time.process_time() - started
            continue
        started = time.process_time()
        response = client.post(f"/api/drills/{drill}/questions", json={"seed": seeds.randrange(1_000_000_000), "level": seeds.randint(1, levels)})
        asking += time.process_time() - started
        assert response.status_code == 201, response.get_data(as_text=True)
        question = response.get_json()
        body = {"token": question["token"], "answer": _answer_for(drill, question, answers)}
        started = time.process_time()
        response = client.post(f"/api/drills/{drill}/answers", json=body)
        answering += time.process_time() - started
        assert response.status_code == 200, response.get_data(as_text=True)
    return asking, answering


def measure(rounds: int, trips: int, names: tuple[str, ...], out: Callable[[str], None] = print) -> dict[str, float]:
    """The median over rounds of each drill's CPU per request over /healthz's; printed as it goes."""
    _lift_limits()
    with tempfile.TemporaryDirectory() as folder:
        os.environ[settings.DATA_DIR.name] = folder
        import drills
        from coach.web import create_app

        app = create_app()
        drills.warm(app.extensions["coach"].card)
        client = app.test_client()
        seeds = {name: random.Random(f"seeds:{name}") for name in names}
        answers = {name: random.Random(f"answers:{name}") for name in names}
        levels = {name: len(drills.get(name).LEVELS) for name in names}
        order = (HEALTHZ, *names)
        for name in names:  # a few trips first: the learner's row, the first question of each drill
            _trips(client, name, 3, seeds[name], answers[name], levels[name])
        ratios: dict[str, list[float]] = defaultdict(list)
        per_request: list[float] = []
        parts: dict[str, list[tuple[float, float]]] = defaultdict(list)
        for number in range(rounds):
            asked: dict[str, float] = defaultdict(float)
            answered: dict[str, float] = defaultdict(float)
            # One round trip of each in turn, the order turning each time: a
            # change in the machine's load falls on all of them alike.
            for trip in range(trips):
                shift = (number + trip) % len(order)
                for name in order[shift:] + order[:shift]:
                    rng = random.Random() if name == HEALTHZ else seeds[name]
                    asking, answering = _trips(client, name, 1, rng, answers.get(name, rng), levels.get(name, 1))
                    asked[name] += asking
                    answered[name] += answering
            cpu = {name: (asked[name] + answered[name]) / (2 * trips) for name in order}
            for name in names:
                ratios[name].append(cpu[name] / cpu[HEALTHZ])
                parts[name].append((asked[name] / trips, answered[name] / trips))
            per_request.append(cpu[HEALTHZ])
            out(f"round {number + 1}: /healthz {cpu[HEALTHZ] * 1000:.3f} ms/request; "
                + ", ".join(f"{name} {ratios[name][-1]:.2f}x" for name in names))
        healthz = statistics.median(per_request)
        out(f"\nmedian of {rounds} rounds, {trips} round trips of each; /healthz {healthz * 1000:.3f} ms CPU a request")
        medians = {}
        for name in names:
            medians[name] = statistics.median(ratios[name])
            ask = statistics.median(a for a, _ in parts[name]) * 1000
            answer = statistics.median(b for _, b in parts[name]) * 1000
            out(f"{name:<14} {medians[name]:5.2f}x /healthz a request  (question {ask:.2f} ms, answer {answer:.2f} ms CPU)")
        return medians


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--trips", type=int, default=40, help="round trips of each drill a round")
    parser.add_argument("--drills", nargs="+", default=list(DEFAULT_DRILLS))
    args = parser.parse_args()
    measure(args.rounds, args.trips, tuple(args.drills))


if __name__ == "__main__":
    main()
