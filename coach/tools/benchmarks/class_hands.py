"""What a class hand's dashboard costs (issue 16, part 6): prints times, asserts nothing.

    python -m coach.tools.benchmarks.class_hands [--students 40] [--rounds 3] [--seed 4242]

A class of N students plays one deal as the table plays it (the bots move
between the learner's decisions): most follow the coach, some slip once at
a discard, some stop early. Then coach/hand_compare.compare walks all the
hands together, and each unfinished hand is reviewed (what the dashboard
does before its cache holds them). Prints the hands' lengths and, per
round, the time of the comparison and of the N reviews.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from coach.notation import tiles
from coach.notation.card import house_card
from coach.play.bots import decide
from coach.play.compare import compare
from coach.play.hand import Action, deal
from coach.play.review import review
from coach.web.shared.practice.hands import SEAT, bots_play


def student(card, seed: int, number: int) -> list[Action]:
    """Student `number`: every 4th slips at their (number % 9)th discard; every 7th stops after 30 decisions."""
    hand = deal(card, seed)
    bots_play(hand, "club")
    slip_at, discards = number % 9, 0
    for n in range(30 if number % 7 == 6 else 400):
        if SEAT not in hand.waiting():
            break
        action = decide(hand, SEAT, "club", random.Random(f"student:{n}"))
        if action.kind == "discard":
            if number % 4 == 3 and discards == slip_at:
                other = sorted(t for t in set(hand.racks[SEAT]) if tiles.CODES[t] != action.tiles[0] and t != tiles.JOKER)
                action = Action(SEAT, "discard", (tiles.CODES[other[0]],))
            discards += 1
        hand.apply(action)
        bots_play(hand, "club")
    return list(hand.actions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=4242)
    args = parser.parse_args()
    card = house_card()
    started = time.perf_counter()
    hands = {f"s{n:02}": student(card, args.seed, n) for n in range(args.students)}
    lengths = [len(a) for a in hands.values()]
    print(f"{args.students} hands of deal {args.seed} played in {time.perf_counter() - started:.1f} s; "
          f"actions per hand: median {statistics.median(lengths)}, max {max(lengths)}")
    for round_ in range(1, args.rounds + 1):
        t0 = time.perf_counter()
        found = compare(card, args.seed, hands, SEAT)
        t1 = time.perf_counter()
        for actions in hands.values():
            review(card, args.seed, actions, SEAT)
        t2 = time.perf_counter()
        splits = sum(1 for s in found.steps if s.split)
        print(f"round {round_}: compare {1000 * (t1 - t0):.0f} ms ({len(found.steps)} decisions, {splits} splits); "
              f"{args.students} reviews {1000 * (t2 - t1):.0f} ms ({1000 * (t2 - t1) / args.students:.0f} ms each)")


if __name__ == "__main__":
    main()
