"""A drill's question asked inside a session: today's practice or an assignment.

The question's forms carry `session` ("today" or "assignment") and the
slot (partials/session_fields.html), so that its verdict's "Next" moves
that session on instead of asking another question of the same drill.
An assignment's answers are graded and kept by the classes' own code,
which the app hands to the drills' answer route (`install_assignment_answers`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask, current_app, url_for
from flask.typing import ResponseReturnValue
from werkzeug.datastructures import MultiDict

ASSIGNMENT_ANSWERS = "assignment_answers"  # app.extensions key: the classes' answer function

AssignmentAnswer = Callable[[str, MultiDict[str, str], Any], ResponseReturnValue]


def today_context(slot: int) -> dict[str, Any]:
    """What a drill's stage and verdict need to stay inside today's session."""
    return {"in_session": True, "slot": slot, "next_url": url_for("daily.next_slot")}


def assignment_context(assignment_id: int, slot: int) -> dict[str, Any]:
    """What a drill's stage and verdict need to stay inside an assignment:
    answers carry it (see partials/session_fields.html), and "Next" goes on
    to this assignment's next question."""
    return {
        "in_session": True,
        "session_kind": "assignment",
        "assignment_id": assignment_id,
        "slot": slot,
        "next_url": url_for("classes.next_question", assignment_id=assignment_id),
    }


def from_form(form: Any, kinds: tuple[str, ...] = ("today", "assignment")) -> dict[str, Any]:
    """The session an answer form says it belongs to (one of `kinds`), as its context;
    {} for a lone question or a form whose numbers are not whole numbers."""
    kind = form.get("session")
    if kind not in kinds:
        return {}
    try:
        slot = int(form.get("slot", ""))
        assignment_id = int(form.get("assignment", "")) if kind == "assignment" else 0
    except ValueError:
        return {}
    if kind == "assignment":
        return assignment_context(assignment_id, slot)
    return today_context(slot)


def install_assignment_answers(app: Flask, answer: AssignmentAnswer) -> None:
    """The classes' answer function, called by the drills' answer route for
    `session=assignment`: the drill pages do not know classes."""
    app.extensions[ASSIGNMENT_ANSWERS] = answer


def answer_in_assignment(name: str, form: MultiDict[str, str], given: Any) -> ResponseReturnValue:
    """An answer to a question of an assignment, graded and kept by the classes' code."""
    answer: AssignmentAnswer = current_app.extensions[ASSIGNMENT_ANSWERS]
    return answer(name, form, given)
