"""What every drill answered by picking one of its choices shares: reading the
learner's pick, and finding the rule ids an explanation cites."""

from __future__ import annotations

import re

from drills.base import AnswerError, Question

# "(K1)" or "(P2, P4)" at the end of an explanation's sentence.
CITED = re.compile(r"\(([A-Z]\d(?:, [A-Z]\d)*)\)")


def json_type(value: object) -> str:
    """How a JSON value's type reads in a message."""
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def picked(question: Question, answer: object) -> str | None:
    """The choice the learner picked (case and spacing do not matter), None
    for "show me"; AnswerError for anything else."""
    if answer is None:
        return None
    if not isinstance(answer, str):
        raise AnswerError(f'the answer must be one of the choices as text (or null for "show me"), not {json_type(answer)}')
    wanted = " ".join(answer.split()).casefold()
    for choice in question.choices:
        if " ".join(choice.split()).casefold() == wanted:
            return choice
    listed = "; ".join(f'"{c}"' for c in question.choices)
    raise AnswerError(f'"{answer.strip()}" is not one of the choices: {listed}')


def cited(lines: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """The rule ids cited in these lines, in order of first mention."""
    ids: dict[str, None] = {}
    for line in lines:
        for group in CITED.findall(line):
            for rule_id in group.split(", "):
                ids[rule_id] = None
    return tuple(ids)
