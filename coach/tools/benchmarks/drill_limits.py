"""What the drilling limits cost a drill request (issue 26): prints CPU times and ratios, asserts nothing.

    python -m coach.tools.benchmarks.drill_limits [--rounds 7] [--trips 40] [--drill name-the-tile] [--storage sqlite]

In one process, through the Flask test client on a throwaway instance
folder, a guest (signed in by its cookie, so the per-learner count applies
too) asks and answers questions of the JSON API in rounds, interleaved with
bare /healthz requests: each round measures the process's CPU a request for
/healthz, for a round trip with the drilling limits checked leanly
(coach.web.infra.lean_limits) and for one with Flask-Limiter's own check
(`limits.drilling.lean = False`, the path before issue 26). Then the
drilling limits' check alone, in a request context of an answer, both ways.
Medians over the rounds; the limits are raised so that none refuses (every
request is still counted). `--storage memory` counts in the process's memory
instead of the shared SQLite file; `--drill first-pass` adds its third count.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable

from coach.common import settings

HIGH = "1000000/minute"  # counted, never refused


def _cpu_per_call(run: Callable[[], object], calls: int) -> float:
    started = time.process_time()
    for _ in range(calls):
        run()
    return (time.process_time() - started) / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--trips", type=int, default=40, help="round trips a round (two requests each)")
    parser.add_argument("--drill", default="name-the-tile")
    parser.add_argument("--storage", choices=("sqlite", "memory"), default="sqlite")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ[settings.DATA_DIR.name] = folder
        from coach.web import create_app
        from coach.web.infra import limits

        config = {
            "TESTING": True, "SECRET_KEY": "bench-" + "x" * 40,
            settings.LIMIT_DRILL_LEARNER.name: HIGH, settings.LIMIT_DRILL_ADDRESS.name: HIGH,
            settings.LIMIT_FIRST_PASS_ADDRESS.name: HIGH,
        }
        if args.storage == "memory":
            config[settings.RATELIMIT_STORAGE_URI.name] = "coach-memory://"
        app = create_app(config)
        client = app.test_client()
        base = f"/api/drills/{args.drill}"

        def trip() -> None:
            asked = client.post(f"{base}/questions", json={})
            assert asked.status_code == 201, asked.status_code
            answered = client.post(f"{base}/answers", json={"token": asked.get_json()["token"], "answer": None})
            assert answered.status_code == 200, answered.status_code

        def hello() -> None:
            assert client.get("/healthz").status_code == 200

        def tripping(lean: bool) -> Callable[[], None]:
            def run() -> None:
                limits.drilling.lean = lean
                trip()
            return run

        trip()  # the guest is made at its first answer: from here on its cookie signs it in
        for _ in range(3):  # warm: the question caches, the connections, the plans
            trip()
            hello()
        kinds: dict[str, Callable[[], object]] = {"/healthz": hello, "lean": tripping(True), "Flask-Limiter": tripping(False)}
        calls = {"/healthz": 2 * args.trips, "lean": args.trips, "Flask-Limiter": args.trips}
        per_request: dict[str, list[float]] = {kind: [] for kind in kinds}
        for number in range(args.rounds):
            order = list(kinds) if number % 2 == 0 else list(reversed(kinds))  # interleaved both ways
            for kind in order:
                requests = 1 if kind == "/healthz" else 2
                per_request[kind].append(_cpu_per_call(kinds[kind], calls[kind]) / requests)
        limits.drilling.lean = True

        # The check alone, in an answer's request context (the guest's cookie, so every count applies).
        cookie = client.get_cookie("session")
        assert cookie is not None, "no session cookie: the guest was not made"
        view = app.view_functions["api.answer"]
        name = f"{view.__module__}.{view.__name__}.{view.__qualname__}"
        checks: dict[str, list[float]] = {"lean": [], "Flask-Limiter": []}
        with app.test_request_context(f"{base}/answers", method="POST", headers={"Cookie": f"session={cookie.value}"}):
            assert limits._learner(), "the guest's session is not signed in"
            check = {
                "lean": lambda: limits.drilling._checked(name),
                "Flask-Limiter": lambda: limits.limiter._check_request_limit(in_middleware=False, callable_name=name),
            }
            for number in range(args.rounds):
                for kind in (list(checks) if number % 2 == 0 else list(reversed(checks))):
                    checks[kind].append(_cpu_per_call(check[kind], 4 * args.trips))

        hello_cpu = statistics.median(per_request["/healthz"])
        print(f"drill {args.drill}, storage {args.storage}: {args.rounds} interleaved rounds, "
              f"{args.trips} round trips (question and answer) a round; CPU of this process a request, median")
        print(f"{'request':<30} {'CPU ms':>8} {'x hello':>8}   median of each round's ratio")
        for kind, seconds in per_request.items():
            ratios = [value / hello for value, hello in zip(seconds, per_request["/healthz"], strict=True)]
            label = "/healthz" if kind == "/healthz" else f"drill request, {kind}"
            print(f"{label:<30} {statistics.median(seconds) * 1000:8.3f} {statistics.median(seconds) / hello_cpu:8.2f}"
                  f"   {statistics.median(ratios):.2f}")
        saved = statistics.median(
            [flask - lean for flask, lean in zip(per_request["Flask-Limiter"], per_request["lean"], strict=True)])
        print(f"saved a drill request: {saved * 1000:.3f} ms")
        print("the drilling limits' check alone (every count of an answer), CPU ms a check:")
        for kind, seconds in checks.items():
            print(f"  {kind:<14} {statistics.median(seconds) * 1000:8.3f}")
        print(f"  ratio          {statistics.median(checks['Flask-Limiter']) / statistics.median(checks['lean']):8.2f}x")


if __name__ == "__main__":
    main()
