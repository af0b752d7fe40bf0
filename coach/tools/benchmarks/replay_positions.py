"""How long a replay position takes to ask and grade: rebuilt from its hand, the
question built, an answer graded (CPU time). Run: python -m coach.tools.benchmarks.replay_positions"""

from __future__ import annotations

import statistics
import time

from coach.notation.card import house_card
from coach.play.positions import position_at, rebuild, to_replay
from coach.play.review import review
from coach.tools.benchmarks.careless_hands import careless
from drills import replay_position as rp


def main() -> None:
    card = house_card()
    times = []
    for seed in range(12):
        hand = careless(card, seed)
        for n in to_replay(review(card, seed, hand.actions, "East")):
            t = time.process_time()
            pos = position_at(seed, hand.actions, n, "East")
            board = rebuild(card, pos)
            q = rp.ask(card, board, pos)
            rp.grade(q, rp.as_answer(pos.played, q.key))
            times.append(time.process_time() - t)
    times.sort()
    print(f"{len(times)} positions: rebuild+ask+grade median {statistics.median(times)*1000:.0f} ms, max {times[-1]*1000:.0f} ms (CPU)")


if __name__ == "__main__":  # importing the module measures nothing
    main()
