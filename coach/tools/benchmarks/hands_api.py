"""What a practice hand costs through the JSON API: prints times and sizes, asserts nothing.

    python -m coach.tools.benchmarks.hands_api [--hands 5] [--seed 1] [--bots club]

Whole hands played through the Flask test client on a throwaway SQLite
file, always the first legal action: per request the wall time (the
computer players' moves, saving, the legal list and the state included),
the body size and the number of legal actions, by what the learner owed;
then the review of each finished hand, and legal_actions alone.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections import defaultdict

from sqlmodel import Session

from coach.common import settings
from coach.play.hand import replay
from coach.play.legal import legal_actions
from coach.store.models import PracticeHand


def _line(name: str, values: list[float], unit: str = "ms", scale: float = 1000.0) -> str:
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
    return (f"{name:<28} n={len(values):<5} p50 {statistics.median(values) * scale:8.1f} {unit}"
            f"  p95 {p95 * scale:8.1f} {unit}  max {values[-1] * scale:8.1f} {unit}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="club")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ[settings.DATA_DIR.name] = folder
        from coach.web import create_app
        from coach.web.shared.practice.hands import SEAT, load

        app = create_app({"TESTING": True, "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False})  # measured, not limited
        client = app.test_client()
        times: dict[str, list[float]] = defaultdict(list)
        sizes: dict[str, list[float]] = defaultdict(list)
        counts: dict[str, list[float]] = defaultdict(list)
        reviews, legal_times = [], []
        for number in range(args.hands):
            started = time.perf_counter()
            response = client.post("/api/hands", json={"seed": args.seed + number, "bots": args.bots})
            times["new hand"].append(time.perf_counter() - started)
            state = response.get_json()
            while not state["over"]:
                owed = state["owed"]
                sizes[owed].append(len(response.data))
                counts[owed].append(len(state["legal"]))
                started = time.perf_counter()
                response = client.post(f"/api/hands/{state['id']}/actions", json={"action": state["legal"][0], "move": state["move"]})
                times[f"action, owed {owed}"].append(time.perf_counter() - started)
                state = response.get_json()
            started = time.perf_counter()
            client.get(f"/api/hands/{state['id']}")
            times["state (cached)"].append(time.perf_counter() - started)
            started = time.perf_counter()
            client.get(f"/api/hands/{state['id']}/review")
            reviews.append(time.perf_counter() - started)
            with app.test_request_context():
                with Session(app.extensions["store"]) as session:
                    row = session.get(PracticeHand, state["id"])
                    assert row is not None  # the hand this run just made
                    hand = load(row)
                for cut in range(0, len(hand.actions), 7):  # legal_actions alone, along the hand
                    position = replay(hand.card, hand.seed, hand.actions[:cut])
                    for seat in position.waiting():
                        started = time.perf_counter()
                        legal_actions(position, seat)
                        legal_times.append(time.perf_counter() - started)
        print(f"{args.hands} hands, bots {args.bots}, seeds from {args.seed}; wall time through the test client")
        for name in sorted(times):
            print(_line(name, times[name]))
        print(_line("review (GET .../review)", reviews))
        print(_line("legal_actions alone", legal_times))
        for owed in sorted(sizes):
            print(_line(f"state bytes, owed {owed}", sizes[owed], "KB", 1 / 1024))
            print(f"{'  legal actions':<28} p50 {statistics.median(counts[owed]):.0f}  max {max(counts[owed]):.0f}")
        print(f"learner: {SEAT}")


if __name__ == "__main__":
    main()
