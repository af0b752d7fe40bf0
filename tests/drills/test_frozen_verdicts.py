"""Cheaper questions and grading change no word (issue 26): many seeds of the
two heaviest drills, nearest-hand and first-pass, frozen before their own
work was cut, are asked and graded again and must come out the same.

`test_frozen.py` keeps a few questions of every drill with the "show me"
verdict; this keeps more seeds of these two, each graded for several
answers (right, wrong, near, malformed), with every field of the question
(less its key), the hint and every field of each verdict, details included.
Each case is kept as a digest of that JSON, so the file stays small; a
failure names the drill, level and seed, and `described(...)` prints it in
full to compare.

When a question or verdict changes on purpose, write the file again with
`python -m tests.drills.test_frozen_verdicts` and say why in the commit.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from typing import Any

import pytest

import drills
from coach.notation.card import house_card
from drills.kit.base import AnswerError, Question
from tests.support.paths import DATA

FROZEN_FILE = DATA / "drill-verdicts-frozen.json"
SEEDS = {"nearest-hand": range(100, 160), "first-pass": range(100, 130)}
LOAD_LINES = ("2026-1", "2468-1", "LIKE-1", "RUN-2", "SP-3", "WD-2")  # coach load's answers, some not on the card


def _answers(question: Question, rng: random.Random) -> list[Any]:
    """What a learner might send: "show me", the best answer, wrong ones, malformed ones."""
    if question.drill == "nearest-hand":
        lines = [r.line.id for r in question.key.lines]
        concealed = [r.line.id for r in question.key.lines if r.line.concealed]
        return [None, lines[0], lines[1], lines[-1], lines[len(lines) // 2].lower(), *concealed[:1], *LOAD_LINES,
                rng.choice(lines), "", "no-such-line", 7]
    naturals = [code for code in question.rack if code != "J"]
    picks = []
    for _ in range(4):
        rng.shuffle(naturals)
        picks.append(naturals[:3])
    joker = [["J", *naturals[:2]]] if "J" in question.rack else []
    return [None, *picks, *joker, naturals[:4], [naturals[0]] * 3, ["5D", "5D", "5D"], "7C"]


def _fields(value: Any) -> dict[str, Any]:
    return {f.name: getattr(value, f.name) for f in dataclasses.fields(value) if f.name not in ("key", "scene")}


def described(name: str, level: int, seed: int) -> dict[str, Any]:
    """One question asked and graded several ways, in plain JSON."""
    module = drills.get(name)
    question = module.generate(seed, level, house_card())
    drills.prepare(question)
    graded = []
    for answer in _answers(question, random.Random(f"{name}:{level}:{seed}")):
        try:
            graded.append(_fields(module.grade(question, answer)))
        except AnswerError as error:
            graded.append({"error": str(error)})
    if name == "first-pass":
        graded.append({"best": _fields(module.grade(question, list(module.grade(question, None).best)))})
    shown = {"question": _fields(question), "public": question.public(), "hint": module.hint(question), "graded": graded}
    return json.loads(json.dumps(shown, default=repr))


def digest(shown: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(shown, sort_keys=True).encode()).hexdigest()[:16]


def cases() -> list[tuple[str, int, int]]:
    return [(name, level, seed) for name, seeds in SEEDS.items()
            for level in range(1, len(drills.get(name).LEVELS) + 1) for seed in seeds]


def _id(case: tuple[str, int, int]) -> str:
    return "{}/{}/{}".format(*case)


FROZEN = json.loads(FROZEN_FILE.read_text()) if FROZEN_FILE.exists() else {}


def test_the_frozen_file_covers_every_case():
    assert sorted(FROZEN) == sorted(_id(c) for c in cases())


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_the_same_questions_and_verdicts_as_before(name):
    changed = [_id(case) for case in cases() if case[0] == name and digest(described(*case)) != FROZEN[_id(case)]]
    assert not changed, f"{len(changed)} cases read differently, first {changed[:5]}"


if __name__ == "__main__":
    FROZEN_FILE.write_text(json.dumps({_id(c): digest(described(*c)) for c in cases()}, indent=1, sort_keys=True) + "\n")
