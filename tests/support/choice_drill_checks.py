"""Checks shared by the tests of the rules drills that ask a multiple-choice
question (template "choice"): jokers, mahjong-or-not, setup-and-turns,
charleston-rules, payment, dead-or-alive, hot-or-safe and calls.

Plain functions: each takes the drill module and whatever else it needs (the
card, a question, a level, seeds, or `ask`, the test file's own way of making
a question from a level and a seed), makes its assertions, and returns what
the calling test may still want to look at. What one drill checks in its own
way stays in that drill's test file.

A test file imports this module as `checks`; the web tests' fixture comes in
with `registered = checks.registered`.
"""

from __future__ import annotations

import re

import pytest
from markupsafe import escape

import drills
from coach.rules.catalog import RULES
from drills.kit.base import AnswerError

# A rule citation in an explanation line: "(J1)" or "(J4, E3)".
CITATION = re.compile(r"\(([A-Z]{1,2}\d(?:, [A-Z]{1,2}\d)*)\)")  # the table rules too: "(TR1)"


def cited_ids(line: str) -> list[str]:
    """The rule ids cited in `line`, in order, repeats kept."""
    return [rule_id for group in CITATION.findall(line) for rule_id in group.split(", ")]


def cited(line: str) -> set[str]:
    """The rule ids cited in `line`, as a set."""
    return set(cited_ids(line))


# -- the protocol ---------------------------------------------------------------------


def check_level_refused(drill, card, level) -> None:
    """Asking `drill` for a question at a `level` it does not have is an AnswerError."""
    with pytest.raises(AnswerError):
        drill.generate(1, level, card)


def check_same_seed_same_question(drill, card, level: int, seeds) -> None:
    """For each of `seeds`, generating twice at `level` gives the same question,
    the same key and the same public view."""
    for seed in seeds:
        first, second = drill.generate(seed, level, card), drill.generate(seed, level, card)
        assert first == second and first.key == second.key and first.public() == second.public()


def check_valid_choice_question(q) -> None:
    """`q` offers 2 to 5 distinct choices, the best among them, states 1 to 5
    facts none of them blank, and asks at least one item, each a rule of the digest."""
    assert 2 <= len(q.choices) <= 5 and len(set(q.choices)) == len(q.choices)
    assert q.key["best"] in q.choices
    assert 1 <= len(q.facts) <= 5 and all(line.strip() for line in q.facts)
    assert q.items and all(item.startswith("rule:") and item[5:] in RULES for item in q.items)


def rules_asked(ask, levels, seeds) -> dict[int, set[str]]:
    """The rule ids each of `levels` asks over `seeds`, by level, where
    `ask(level, seed)` makes a question."""
    return {level: {item[5:] for seed in seeds for item in ask(level, seed).items} for level in levels}


# -- grading --------------------------------------------------------------------------


def check_every_choice_grades_with_its_rule(drill, q, *, half_credit: bool = False, wrong_items: bool = True):
    """Grade every choice of `q`, for the drills that cite a rule on every line.

    The best choice is correct, with full marks and the answer as given, and
    its explanation opens "Right". Every line of every verdict cites a rule id,
    and the ids cited are among the verdict's rules, which are all rules of the
    digest. Every other choice is not correct and scores 0, opening "Not quite"
    (with `half_credit` it may instead score 0.5, opening "Half right"); its
    second line cites one of its rules, and with `wrong_items` each of the
    question's items is marked as missed.

    Returns the verdict for the best choice.
    """
    best = q.key["best"]
    right = drill.grade(q, best)
    assert right.correct and right.score == 1.0 and right.answer == best
    assert right.explanation[0].startswith("Right")
    scores = (0.0, 0.5) if half_credit else (0.0,)
    for choice in q.choices:
        verdict = drill.grade(q, choice)
        for line in verdict.explanation:
            assert cited(line), f"no rule cited in: {line}"
            assert cited(line) <= set(verdict.rules) <= set(RULES)
        if choice == best:
            continue
        assert not verdict.correct and verdict.score in scores
        assert verdict.explanation[0].startswith("Half right" if verdict.score else "Not quite")
        assert cited(verdict.explanation[1]) & set(verdict.rules)
        if wrong_items:
            assert verdict.items == tuple((item, False) for item in q.items)
    return right


def grade_right(drill, q):
    """Grade the best choice of `q`: correct, full marks, and the verdict gives
    that choice as both the best and the answer. Returns the verdict."""
    best = q.key["best"]
    right = drill.grade(q, best)
    assert right.correct and right.score == 1.0 and right.best == best and right.answer == best
    return right


def grade_wrong(drill, q, choice: str):
    """Grade `choice`, a choice of `q` other than the best: not correct, no
    marks, and the verdict gives the best choice and the answer as given.
    Returns the verdict."""
    wrong = drill.grade(q, choice)
    assert not wrong.correct and wrong.score == 0.0 and wrong.best == q.key["best"] and wrong.answer == choice
    return wrong


def picked_line(verdict, choice: str) -> str:
    """The line of the explanation on the learner's pick: 'You picked "<choice>"...'."""
    return next(line for line in verdict.explanation if line.startswith(f'You picked "{choice}"'))


def check_pick_cites_its_rule(wrong, choice: str) -> None:
    """The line on the learner's pick cites one of the verdict's rules."""
    mine = picked_line(wrong, choice)
    assert any(rule_id in wrong.rules for rule_id in cited_ids(mine)), mine


def grade_show_me(drill, q):
    """'Show me' (no answer) for `q`: not correct, no marks, no answer, and the
    verdict gives the best choice. Returns the verdict."""
    shown = drill.grade(q, None)
    assert not shown.correct and shown.score == 0.0 and shown.best == q.key["best"] and shown.answer is None
    return shown


def check_show_me(drill, q):
    """As grade_show_me, and the explanation's first line names the best choice.
    Returns the verdict."""
    shown = grade_show_me(drill, q)
    assert shown.best in shown.explanation[0]
    return shown


def check_answers_ignore_case_and_spaces(drill, q, shouted: str) -> None:
    """`shouted`, the best choice of `q` in capitals with spaces around it, is
    graded correct, and the best choice in lower case is read as the best choice."""
    best = q.key["best"]
    assert drill.grade(q, shouted).correct
    assert drill.grade(q, best.lower()).answer == best


def check_answer_refused(drill, q, answer, match: str | None = None) -> None:
    """Grading `answer` for `q` is an AnswerError (with a message matching
    `match`, when given)."""
    with pytest.raises(AnswerError, match=match):
        drill.grade(q, answer)


# -- through the web ------------------------------------------------------------------


@pytest.fixture
def registered(request, monkeypatch):
    """Put the test module's `drill` in drills.DRILLS for one test, so the web
    app serves it."""
    drill = request.module.drill
    monkeypatch.setitem(drills.DRILLS, drill.NAME, drill)


def api_question(client, drill, level: int, seed: int) -> dict:
    """Ask the JSON API for `drill`'s question at `level` and `seed`; check it
    is made (201) and return its JSON."""
    made = client.post(f"/api/drills/{drill.NAME}/questions", json={"seed": seed, "level": level})
    assert made.status_code == 201
    return made.get_json()


def api_answer(client, drill, token: str, answer):
    """Send `answer` to the question `token` through the JSON API; return the response."""
    return client.post(f"/api/drills/{drill.NAME}/answers", json={"token": token, "answer": answer})


def check_api_right(client, drill, token: str, best: str):
    """Answering `best` through the JSON API is accepted (200) and correct.
    Returns the response."""
    right = api_answer(client, drill, token, best)
    assert right.status_code == 200 and right.get_json()["correct"] is True
    return right


def check_api_wrong(client, drill, token: str, choices, best: str):
    """Answering the first of `choices` that is not `best` through the JSON API
    is not correct, and the reply gives `best`. Returns the response."""
    wrong = api_answer(client, drill, token, next(c for c in choices if c != best))
    data = wrong.get_json()
    assert data["correct"] is False and data["best"] == best
    return wrong


def drill_page(client, drill, level: int, seed: int) -> str:
    """GET `drill`'s page at `level` and `seed`; check it is served (200) and
    return its HTML."""
    page = client.get(f"/drills/{drill.NAME}?level={level}&seed={seed}")
    assert page.status_code == 200
    return page.get_data(as_text=True)


def check_page_shows(html: str, texts) -> None:
    """Each of `texts`, HTML-escaped, is in `html`."""
    for text in texts:
        assert str(escape(text)) in html
