"""The cases tests/core/test_pass_eval_same.py compares with the frozen results
in tests/data/pass-eval-frozen.json (issue 13: no verdict may change when
the pass evaluation gets faster).

Regenerate the fixture only on purpose, from the code whose verdicts are
the reference: `python -m tests.support.pass_eval_cases > tests/data/pass-eval-frozen.json`.
"""

from __future__ import annotations

import json
from typing import Any

from coach.advice.passes import PassAdvice, evaluate_pass
from coach.advice.passes.evaluation import _EXACT
from coach.notation import tiles
from coach.notation.card import house_card
from drills import first_pass

RACKS = 20


def _advice_json(advice: PassAdvice) -> dict[str, Any]:
    # Floats go through JSON as repr: they come back bit for bit.
    return {
        "current": advice.current,
        "options": [
            [list(o.tiles), o.blind, o.expected, o.stderr, o.samples, o.flexibility, o.behind, o.behind_stderr, o.exact]
            for o in advice.options
        ],
    }


def cases() -> list[tuple[str, dict[str, Any]]]:
    """(name, arguments) for every evaluation compared: the drill's grade of a
    learner's pass (exact sums), a full evaluation, a blind and a courtesy pass."""
    card = house_card()
    out: list[tuple[str, dict[str, Any]]] = []
    for n in range(RACKS):
        rack = list(first_pass.generate(7000 + n, 1 + n % 3, card).key["rack"])
        naturals = sorted(t for t in rack if t != tiles.JOKER)
        pick = tuple(naturals[n % 4 : n % 4 + 3])  # anything legal: sometimes the best, mostly not
        out.append((f"grade-{n}", {"kind": "grade", "rack": rack, "seed": n, "include": list(pick)}))
        if n % 4 == 0:
            out.append((f"pass-{n}", {"kind": "pass", "rack": rack, "seed": n, "which": "first-right"}))
        if n % 10 == 1:
            out.append((f"blind-{n}", {"kind": "pass", "rack": rack, "seed": n, "which": "first-left"}))
        if n % 10 == 3:
            out.append((f"courtesy-{n}", {"kind": "pass", "rack": rack, "seed": n, "which": "courtesy"}))
    # Racks holding three or four of a tile, flowers and jokers: passes that give a kind away twice or thrice.
    for n, text in enumerate(("F F F N N N N GD GD J S S 5D 9C", "3D 3D 3D 7D 1B 1B 1B 1C 2C 2C J J F")):
        rack = [tiles.INDEX[tiles.code_of(code)] for code in text.split()]
        out.append((f"held-{n}", {"kind": "pass", "rack": rack, "seed": n, "which": "first-left"}))
        out.append((f"held-grade-{n}", {"kind": "grade", "rack": rack, "seed": n, "include": rack[:3]}))
    return out


def run(args: dict[str, Any]) -> PassAdvice:
    card = house_card()
    _EXACT.clear()  # every case computes its exact sums afresh
    if args["kind"] == "grade":
        return first_pass.evaluate(card, tuple(args["rack"]), args["seed"], tuple(args["include"]))
    return evaluate_pass(card, args["rack"], args["which"], seed=args["seed"])


if __name__ == "__main__":
    frozen = {name: {"args": args, "advice": _advice_json(run(args))} for name, args in cases()}
    print("{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in frozen.items()) + "\n}")  # a line a case
