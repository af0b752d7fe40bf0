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
    for rank, (new, old) in enumerate(zip(got["options"], frozen["advice"]["options"])):
        assert new == old, f"{name}: option {rank} differs"
