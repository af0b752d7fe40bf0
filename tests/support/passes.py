"""Every legal first pass scored, for tests that want a runner-up (or the worst
pass) to answer with."""

from __future__ import annotations

from coach.notation.card import Card
from drills import first_pass
from tests.support.cards import CARD


def every_pass(card: Card, rack, seed: int):
    """The first-pass drill's evaluation of a question with every legal pass
    it scored listed (its grade lists only those worked out exactly): for
    tests that want a runner-up or a clearly worse pass to answer with."""
    from coach.advice.passes import evaluate_pass
    from drills import first_pass

    options = first_pass.question_options(flexibility=True, exact_only=False)
    return evaluate_pass(card, list(rack), "first-right", seed=seed, options=options)


def best_and_worst(seed: int, level: int):
    q = first_pass.generate(seed, level, CARD)
    advice = every_pass(CARD, q.key["rack"], q.seed)
    assert advice.best.tiles == first_pass.advice_for(CARD, q.key["rack"], q.seed).best.tiles
    return q, advice.best.codes, advice.options[-1].codes
