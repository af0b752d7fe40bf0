"""Issue 13: a faster pass evaluation changes no verdict.

Every case of tests/support/pass_eval_cases.py (the drill's grade of a learner's
pass with its exact sums, full evaluations, a blind and a courtesy pass) is
evaluated again and compared with the results frozen from the code before
the speed-ups: the same options in the same order, the same means, errors,
gaps and flexibility to float equality, the same exact flags.
"""

import json

import pytest

from tests.support.pass_eval_cases import _advice_json, cases, run
from tests.support.paths import DATA

FLEX = 5  # flexibility's place in a frozen option (tests.support.pass_eval_cases._advice_json)
FROZEN = json.loads((DATA / "pass-eval-frozen.json").read_text())


def test_the_frozen_fixture_covers_every_case():
    assert sorted(FROZEN) == sorted(name for name, _ in cases())


@pytest.mark.parametrize("name,args", cases(), ids=[name for name, _ in cases()])
def test_the_same_advice_as_before(name, args):
    frozen = FROZEN[name]
    assert frozen["args"] == args
    got = json.loads(json.dumps(_advice_json(run(args))))
    assert got["current"] == frozen["advice"]["current"]
    if args["kind"] == "grade":
        # The drill's grade (drills.first_pass.advice_for) now evaluates the
        # question without the learner's pass and then works that pass out
        # exactly beside it (coach.advice.passes.with_pass), and leaves
        # flexibility out. What a verdict reads must be as before: the best
        # pass, first, with its exact expectation; the learner's pass, its
        # exact expectation and how far behind the best it is.
        def verdict(rows):
            best = rows[0]
            mine = next(row for row in rows if row[0] == sorted(args["include"]) and row[1] == 0)
            return (best[0], best[2], best[8]), (mine[0], mine[2], mine[6], mine[8])

        assert all(row[FLEX] is None for row in got["options"])
        assert verdict(got["options"]) == verdict(frozen["advice"]["options"]), f"{name}: the verdict differs"
        return
    assert len(got["options"]) == len(frozen["advice"]["options"])
    for rank, (new, old) in enumerate(zip(got["options"], frozen["advice"]["options"])):
        assert new == old, f"{name}: option {rank} differs"
