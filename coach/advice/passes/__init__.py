"""The Charleston (C1-C6) and the advice for every pass.

A pass is scored by what it is expected to leave: the best tiles-away of
the rack after giving the tiles and receiving as many from the tiles the
player cannot see. The expectation is a Monte Carlo average over seeded
samples of incoming tiles; every candidate pass is scored on the same
samples, so differences between passes are not noise of the draw.

Stages keep it fast and stable: every legal pass on a first set of
samples, then the most promising ones again on more samples, with their
spread (how many lines stay within reach); then the calls that matter
are made firm: sampled on, in doubling batches, until the one-sided 95%
interval of the paired gap to the best lies clear of MARGIN (or CAP), or,
for a graded first pass, worked out exactly over every three tiles that
could come back. A pass is as good as the best unless it is, at that
confidence, more than MARGIN (a tenth of a tile) worse.

Scoring adds the received tiles' rows of the card table to the pass's
own row, over only the readings that three tiles could make nearest,
instead of a full matrix product per sample.

The package, by concern: `candidates` (the legal passes and the unseen
tiles), `kernel` (the numpy scoring of many passes on many draws, sampled
or summed exactly), `evaluation` (`evaluate_pass`, `with_pass` and the
advice they give), `words` (the advice in English) and `vote` (stopping
the second Charleston, C2). The Charleston's own rules are
`coach.rules.charleston`.

The public entry points are re-exported here; import them from here.
"""

from coach.advice.passes.candidates import candidate_passes, unseen_pool
from coach.advice.passes.evaluation import (
    EvaluationOptions,
    PassAdvice,
    PassOption,
    courtesy_advice,
    evaluate_pass,
    with_pass,
)
from coach.advice.passes.vote import StopVote, second_charleston_vote, stop_vote
from coach.advice.passes.words import explain_pass, gap_words

__all__ = [
    "PassAdvice",
    "PassOption",
    "EvaluationOptions",
    "StopVote",
    "candidate_passes",
    "courtesy_advice",
    "evaluate_pass",
    "explain_pass",
    "gap_words",
    "second_charleston_vote",
    "stop_vote",
    "unseen_pool",
    "with_pass",
]
