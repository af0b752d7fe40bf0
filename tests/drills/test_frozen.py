"""Faster question dealing changes no question: a few questions of every
drill and level on the house card, frozen from the code before the deals
were sped up, are asked again and must read the same (what the page shows,
the hint, and the "show me" verdict, which reads the answer key).

When a question changes on purpose, write the file again with
`python -m tests.drills.test_frozen` and say why in the commit.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import drills
from coach.notation.card import house_card
from tests.support.paths import DATA

FROZEN_FILE = DATA / "drill-questions-frozen.json"
SEEDS = range(4)


def asked(name: str, level: int, seed: int) -> dict[str, Any]:
    """One question as a learner meets it, in plain JSON."""
    module = drills.get(name)
    question = module.generate(seed, level, house_card())
    shown = {"question": question.public(), "hint": module.hint(question), "verdict": module.grade(question, None).public()}
    return json.loads(json.dumps(shown, default=repr))


def cases() -> list[tuple[str, int, int]]:
    return [
        (name, level, seed)
        for name, module in drills.DRILLS.items()
        for level in range(1, len(module.LEVELS) + 1)
        for seed in SEEDS
    ]


def _id(case: tuple[str, int, int]) -> str:
    return "{}/{}/{}".format(*case)


FROZEN = json.loads(FROZEN_FILE.read_text()) if FROZEN_FILE.exists() else {}


def test_the_frozen_file_covers_every_drill_and_level():
    assert sorted(FROZEN) == sorted(_id(c) for c in cases())


@pytest.mark.parametrize("case", cases(), ids=_id)
def test_the_same_question_as_before(case):
    assert asked(*case) == FROZEN[_id(case)]


if __name__ == "__main__":
    FROZEN_FILE.write_text(json.dumps({_id(c): asked(*c) for c in cases()}, indent=1, sort_keys=True) + "\n")
