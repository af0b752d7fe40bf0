"""Issue 13: a faster pass evaluation changes no verdict.

Every case of tests/pass_eval_cases.py (the drill's grade of a learner's
pass with its exact sums, full evaluations, a blind and a courtesy pass) is
evaluated again and compared with the results frozen from the code before
the speed-ups: the same options in the same order, the same means, errors,
gaps and flexibility to float equality, the same exact flags.
"""

import json
from pathlib import Path

import pytest

from tests.pass_eval_cases import _advice_json, cases, run

FLEX = 5  # flexibility's place in a frozen option (tests.pass_eval_cases._advice_json)
FROZEN = json.loads((Path(__file__).parent / "data" / "pass-eval-frozen.json").read_text())


def test_the_frozen_fixture_covers_every_case():
    assert sorted(FROZEN) == sorted(name for name, _ in cases())


@pytest.mark.parametrize("name,args", cases(), ids=[name for name, _ in cases()])
def test_the_same_advice_as_before(name, args):
    frozen = FROZEN[name]
    assert frozen["args"] == args
    got = json.loads(json.dumps(_advice_json(run(args))))
    assert got["current"] == frozen["advice"]["current"]
    assert len(got["options"]) == len(frozen["advice"]["options"])
    if args["kind"] == "grade":
        # The drill's grade leaves flexibility out (drills.first_pass.FLEXIBILITY):
        # it reads the best pass, first, and the learner's; flexibility only
        # ordered the passes equally far behind among themselves.
        def graded(rows):
            return [row[:FLEX] + row[FLEX + 1 :] for row in rows]

        assert all(row[FLEX] is None for row in got["options"])
        new, old = graded(got["options"]), graded(frozen["advice"]["options"])
        assert new[0] == old[0], f"{name}: the best pass differs"
        assert sorted(new) == sorted(old), f"{name}: an option differs"
        return
    for rank, (new, old) in enumerate(zip(got["options"], frozen["advice"]["options"])):
        assert new == old, f"{name}: option {rank} differs"
