"""What every drill answered by picking one of its choices shares: reading the
learner's pick, and finding the rule ids an explanation cites."""

from __future__ import annotations

import re

from drills.base import AnswerError, Question, Verdict

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


def verdict_with_reasons(question: Question, answer: object) -> Verdict:
    """The verdict for a key {best, reason: [lines], rules, wrong: {choice: (why, rules)}, partial?}.

    The first reason line says why the best choice is right; a wrong pick
    adds why it is wrong and the rules that decide it."""
    key = question.key
    pick = picked(question, answer)
    best = key["best"]
    reason: list[str] = list(key["reason"])
    rules: list[str] = list(key["rules"])
    correct = pick == best
    score = 1.0 if correct else float(key.get("partial", {}).get(pick, 0.0))
    if pick is None:
        lines = [f"The answer is \u201c{best}\u201d. {reason[0]}"] + reason[1:]
    elif correct:
        lines = [f"Right: {reason[0]}"] + reason[1:]
    else:
        why, why_rules = key["wrong"][pick]
        opening = "Half right" if score else "Not quite"
        lines = [f"{opening}: the answer is \u201c{best}\u201d. {reason[0]}", f"You picked \u201c{pick}\u201d: {why}"] + reason[1:]
        rules += [r for r in why_rules if r not in rules]
    return Verdict(
        correct=correct, score=score, explanation=tuple(lines),
        rules=tuple(dict.fromkeys(rules)), best=best, answer=pick,
        items=tuple((item, correct) for item in question.items),
    )


def verdict_with_why(question: Question, answer: object) -> Verdict:
    """The verdict for a key {best, why: [lines], wrong: {choice: sentence}}; its
    rules are those the lines cite and those the question asks."""
    key = question.key
    best, why = key["best"], list(key["why"])
    pick = picked(question, answer)
    correct = pick == best
    if correct:
        lines = [f"Right: {why[0]}", *why[1:]]
    elif pick is None:
        lines = [f'The answer is "{best}": {why[0]}', *why[1:]]
    else:
        lines = [f"Not quite. {key['wrong'][pick]}", f'The answer is "{best}": {why[0]}', *why[1:]]
    asked = tuple(item[5:] for item in question.items if item.startswith("rule:"))
    return Verdict(
        correct=correct,
        score=1.0 if correct else 0.0,
        explanation=tuple(lines),
        rules=tuple(dict.fromkeys(cited(lines) + asked)),
        best=best,
        answer=pick,
        items=tuple((item, correct) for item in question.items),
    )
