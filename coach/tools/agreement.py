"""`python -m coach.tools.agreement`: the hint, the review and the replay agree.

A measurement (issue 24): computer players play N hands; at every
decision of one seat (East) the three ways a learner meets the coach are
asked, each from scratch (the evaluation's memory emptied in between, so
each works the position out for itself):

- the table's hint (`coach.play.review.hint`) on the hand as it stands;
- the review of the whole hand (`coach.play.review.review`), its coach's
  move at that decision;
- the replayed position (`coach.play.positions`), rebuilt from the seed
  and the actions before the decision.

It prints how many positions there were and on how many all three named
the same move (the goal: every one), with what each cost in process CPU:
the hint at each position (p50, p95) and the review of each whole hand,
each from scratch.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TextIO

from coach.common.blas import one_blas_thread
from coach.notation.card import Card, house_card
from coach.play import evaluation
from coach.play.bots import STRENGTHS, play
from coach.play.hand import SEATS, Action, deal
from coach.play.positions import coach_move, position_at, rebuild
from coach.play.review import hint, review
from coach.rules.table_rules import LEAGUE, TableRules

SEAT = "East"


def _forget(fresh: bool) -> None:
    if fresh:
        evaluation.forget()


def agreement(
    card: Card, hands: int, first_seed: int, fresh: bool = True, out: TextIO | None = None, clocks: dict[str, list[float]] | None = None,
    rules: TableRules = LEAGUE,
) -> tuple[int, int]:
    """(positions, positions where hint, review and replay agree) over `hands` hands played
    under the table's `rules`; `clocks` gets each hint's and each review's process CPU
    seconds ("hint", "review", "decisions"). A decision the review leaves ungraded (a
    pass that sends a blank, TR1) is no position."""
    positions = agreed = 0
    clocks = clocks if clocks is not None else {}
    for number in range(hands):
        seed = first_seed + number
        # East plays each strength in turn, so the positions are not only the coach's own.
        bots = {seat: STRENGTHS[(number + i) % len(STRENGTHS)] for i, seat in enumerate(SEATS)}
        played = play(card, seed, bots, rules=rules)
        actions = list(played.actions)
        begun = time.process_time()
        reviewed = _fresh_review(card, seed, actions, fresh, rules)
        clocks.setdefault("review", []).append(time.process_time() - begun)
        clocks.setdefault("decisions", []).append(len(reviewed))
        by_number = {d.number: d.coach for d in reviewed}
        hand = deal(card, seed, rules)
        for n, action in enumerate(actions):
            if action.seat == SEAT and n in by_number:
                _forget(fresh)
                begun = time.process_time()
                said = hint(hand, SEAT)[0]
                clocks.setdefault("hint", []).append(time.process_time() - begun)
                position = position_at(seed, actions, n, SEAT, rules)
                _forget(fresh)
                replayed = coach_move(rebuild(card, position), position)
                positions += 1
                if said == by_number[n] == replayed:
                    agreed += 1
                elif out is not None:
                    out.write(f"seed {seed} decision {n}: hint {said}, review {by_number[n]}, replay {replayed}\n")
            hand.apply(action)
    return positions, agreed


def _fresh_review(card: Card, seed: int, actions: list[Action], fresh: bool, rules: TableRules = LEAGUE) -> tuple:
    _forget(fresh)
    return review(card, seed, actions, SEAT, rules=rules).decisions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m coach.tools.agreement", description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="", metavar="CODE", help='table rules, e.g. "b4.cold" (default: the League\'s)')
    args = parser.parse_args(argv)
    one_blas_thread()
    clocks: dict[str, list[float]] = {}
    rules = TableRules.from_code(args.rules)
    positions, agreed = agreement(house_card(), args.hands, args.seed, out=sys.stdout, clocks=clocks, rules=rules)
    share = agreed / positions if positions else 1.0
    print(f"{args.hands} hands, {positions} positions of {SEAT}: hint = review = replay on {agreed} ({share:.1%}).")
    hints = sorted(clocks.get("hint", [0.0]))
    print(f"Hint, from scratch (process CPU): p50 {1000 * hints[len(hints) // 2]:.1f} ms, "
          f"p95 {1000 * hints[int(len(hints) * 0.95)]:.1f} ms, max {1000 * hints[-1]:.1f} ms over {len(hints)} positions.")
    reviews, decisions = clocks.get("review", [0.0]), clocks.get("decisions", [0])
    longest = max(range(len(reviews)), key=lambda i: decisions[i])
    print(f"Review of a whole hand, from scratch: mean {sum(reviews) / len(reviews):.2f} s for {sum(decisions) / len(decisions):.0f} "
          f"decisions, max {max(reviews):.2f} s; the longest hand ({decisions[longest]} decisions) {reviews[longest]:.2f} s.")
    return 0 if agreed == positions else 1


if __name__ == "__main__":
    raise SystemExit(main())
