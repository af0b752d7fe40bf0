"""The exact sums that grade a first pass (issue 26): the quick sum by kind
(`Scorer.exact_mean`, what `evaluate_pass` and `with_pass` call) against the
readable one, triple by triple (`Scorer.exact_sum` over `_every_three`), on
many seeded first-pass racks: every level (East's fourteen, jokers on the
rack), the passes a question works out exactly and learners' own passes
picked at random, good and bad. Whole-number sums, so equal means equal."""

import random

import numpy as np
import pytest

from coach.advice.passes import candidate_passes, unseen_pool, with_pass
from coach.advice.passes.kernel import Scorer, _every_three, racks_after
from coach.notation import tiles
from drills import first_pass
from tests.support.cards import CARD

SEEDS = range(26_000, 26_060)


def _readable(scorer: Scorer, i: int, pool: list[int]) -> float:
    """Pass i's expectation summed triple by triple over every three tiles the pool can give."""
    threes, ways, total = _every_three(pool, scorer.relevant(i))
    return scorer.exact_sum(i, threes, ways) / total


@pytest.mark.parametrize("level", [1, 2, 3])
def test_C1_the_exact_sum_by_kind_is_the_triple_by_triple_sum_on_seeded_racks(level):
    picks = random.Random(f"learners:{level}")
    checked = 0
    for seed in SEEDS:
        q = first_pass.generate(seed, level, CARD)
        rack = list(q.key["rack"])
        candidates = candidate_passes(rack, "first-right")
        scorer = Scorer(CARD, rack, candidates, racks_after(rack, candidates))
        pool = unseen_pool(rack)
        left = np.bincount(pool, minlength=tiles.KINDS)
        index = {own: i for i, (own, _) in enumerate(candidates)}
        # The passes the question's evaluation works out exactly, and two a learner might give.
        exact = [index[o.tiles] for o in first_pass.evaluate_question(CARD, q.key["rack"], seed).options]
        for i in exact + picks.sample(range(len(candidates)), 2):
            assert scorer.exact_mean(i, left) == _readable(scorer, i, pool), (seed, candidates[i])
            checked += 1
    assert checked >= 3 * len(SEEDS)


def test_C1_a_learners_own_pass_is_graded_on_the_triple_by_triple_sum():
    """Through the grade's own door: the value `with_pass` gives a learner's pass."""
    picks = random.Random("learners")
    for seed in SEEDS[:8]:
        q = first_pass.generate(seed, 2, CARD)
        rack = list(q.key["rack"])
        own = tuple(sorted(picks.sample([t for t in rack if t != tiles.JOKER], 3)))
        graded = with_pass(first_pass.evaluate_question(CARD, q.key["rack"], seed), own).option(own)
        candidates = [(own, 0)]
        scorer = Scorer(CARD, rack, candidates, racks_after(rack, candidates))
        assert graded.exact and graded.expected == _readable(scorer, 0, unseen_pool(rack))
