"""The advice for every Charleston pass (the rules themselves: coach.rules.charleston).

A pass is scored by what it is expected to leave: the best tiles-away of
the rack after giving the tiles and receiving as many from the tiles the
player cannot see. The expectation is a Monte Carlo average over seeded
samples of incoming tiles; every candidate pass is scored on the same
samples, so differences between passes are not noise of the draw.

The package, by concern: `candidates` (the legal passes and the unseen
tiles), `kernel` (the numpy scoring of many passes on many draws, sampled
or summed exactly), `evaluation` (`evaluate_pass`, `with_pass` and the
advice they give, in stages: see there), `words` (the advice in English)
and `vote` (stopping the second Charleston, C2).

The public entry points are re-exported here; import them from here.
"""

from coach.advice.passes.candidates import candidate_passes, unseen_pool
from coach.advice.passes.evaluation import (
    CLOSE,
    GRADES,
    MARGIN,
    EvaluationOptions,
    PassAdvice,
    PassOption,
    broken_sets,
    courtesy_advice,
    evaluate_pass,
    pass_grade,
    question_options,
    with_pass,
)
from coach.advice.passes.vote import StopVote, courtesy_offer, second_charleston_vote, stop_vote
from coach.advice.passes.words import broken_words, explain_pass, gap_words, shown_decimals

__all__ = [
    "CLOSE",
    "GRADES",
    "MARGIN",
    "PassAdvice",
    "PassOption",
    "EvaluationOptions",
    "StopVote",
    "broken_sets",
    "broken_words",
    "candidate_passes",
    "courtesy_advice",
    "courtesy_offer",
    "evaluate_pass",
    "explain_pass",
    "gap_words",
    "pass_grade",
    "question_options",
    "second_charleston_vote",
    "shown_decimals",
    "stop_vote",
    "unseen_pool",
    "with_pass",
]
