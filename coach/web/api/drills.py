"""The JSON API, for tests and other tools.

    GET  /api/drills                    {"drills": [{"name", "title", "levels"}]}
    POST /api/drills/<name>/questions   {"seed"?, "level"?, "table_rules"?} -> 201 {"token", ...question, "hint"}
    POST /api/drills/<name>/answers     {"token", "answer", "time_ms"?} -> {"correct", "score", "headline", "reasons", ..., "counted"}

A question is asked under the table rules the body names ("table_rules",
an object of switches such as {"blanks": 4}, checked by
TableRules.from_json; {} is the League's), else under the learner's own
(the League's for a guest). A question and its verdict say which rules
they assumed ("table_rules") when those are not the League's; the token
carries them, so the answer is graded under the same rules.
    GET  /api/progress                  {"attempts", "correct", "streak", "skills": [...]}
    GET  /api/openapi.json              this API described in OpenAPI 3.1 (coach/web/api/openapi.py)

Bodies must be JSON sent as `Content-Type: application/json` (415
otherwise), which a cross-site HTML form cannot send; so the API takes
no CSRF form token. Every error answers {"error": "..."} with 400, 404,
405 or 415 (429 with Retry-After past a rate limit, see limits.py), and
anything unexpected a JSON 500 without a traceback.
"""

from __future__ import annotations

import math
from typing import Any

from flask import Blueprint, current_app, jsonify, request

import drills
from coach.rules.table_rules import LEAGUE, TableRules, TableRulesError
from coach.store.progress import summary
from coach.web.api import openapi
from coach.web.infra import database, inputs, limits
from coach.web.infra.errors import error_response
from coach.web.shared import learners
from coach.web.shared.drilling import DrillError, Drilling
from coach.web.shared.table_rules import own_rules

bp = Blueprint("api", __name__, url_prefix="/api")
MAX_TIME_MS = inputs.MAX_DB_INT  # about 24 days: the most the database's integer holds


class BodyError(DrillError):
    pass


def _drilling() -> Drilling:
    return current_app.extensions["coach"]


def read_body(allowed: set[str]) -> dict[str, Any]:
    """The request's JSON object, checked for content type, syntax and keys."""
    if request.mimetype != "application/json":
        raise BodyError("send the body as JSON with Content-Type: application/json", 415)
    raw = request.get_data(cache=True)
    if not raw.strip():
        raise BodyError("the body is empty: send a JSON object such as {}")
    try:
        data = inputs.json_body()  # bounded: depth, finite numbers, no control characters
    except inputs.InputError as error:
        raise BodyError(str(error)) from None
    if not isinstance(data, dict):
        raise BodyError("the body must be a JSON object, such as {\"level\": 1}")
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise BodyError(f'unknown key "{unknown[0]}" (allowed: {", ".join(sorted(allowed))})')
    return data


def _time_ms(value: Any) -> int | float | None:
    """The milliseconds an answer took: null, or a finite number from 0 to MAX_TIME_MS.
    (Past an hour the answer is kept without its time: a tab left open.)"""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not 0 <= value <= MAX_TIME_MS:
        raise BodyError(f'"time_ms" must be null or the milliseconds the answer took, a number from 0 to {MAX_TIME_MS}')
    return value


def _table_rules(data: dict[str, Any]) -> TableRules:
    """The rules a question body names; the learner's own when it names none (or null)."""
    given = data.get("table_rules")
    if given is None:
        return own_rules()
    if isinstance(given, dict):
        # JSON has one kind of number: 4.0 is the whole number 4, as for "seed" and "level".
        given = {k: int(v) if isinstance(v, float) and v.is_integer() else v for k, v in given.items()}
    try:
        return TableRules.from_json(given)
    except TableRulesError as error:
        raise BodyError(f'"table_rules": {error}') from None


@bp.errorhandler(DrillError)
def _drill_error(error: DrillError):
    return error_response(error.message, error.status)


@bp.get("/drills")
def list_drills():
    import drills

    return jsonify(
        drills=[
            {
                "name": module.NAME,
                "title": module.TITLE,
                "levels": [
                    {"number": level.number, "title": level.title, "description": level.description}
                    for level in module.LEVELS
                ],
            }
            for module in drills.DRILLS.values()
        ]
    )


@bp.post("/drills/<name>/questions")
@limits.drilling
def new_question(name: str):
    _drilling().drill(name)  # an unknown drill is a 404 before the body is read
    data = read_body({"seed", "level", "table_rules"})
    asked = _drilling().ask(name, seed=data.get("seed"), level=data.get("level"), rules=_table_rules(data))
    drills.prepare(asked.question)  # the answer's heavy part, while the learner reads the question
    return jsonify(token=asked.token, **asked.question.public(), hint=drills.hint(asked.question)), 201


@bp.post("/drills/<name>/answers")
@limits.drilling
def answer(name: str):
    _drilling().drill(name)
    data = read_body({"token", "answer", "time_ms"})
    if "token" not in data:
        raise BodyError('"token" is missing: send the token of the question you answer')
    if "answer" not in data:
        raise BodyError('"answer" is missing: send your answer, or null for "show me"')
    time_ms = _time_ms(data.get("time_ms"))
    asked, verdict = _drilling().grade(name, data["token"], data["answer"])
    stored = learners.record(asked.question, verdict, time_ms)
    rules = asked.question.rules
    echoed = {"table_rules": rules.to_json()} if rules != LEAGUE else {}  # the rules the question was graded under
    return jsonify(**verdict.public(), counted=stored, **echoed)


@bp.get("/progress")
def progress():
    """The learner's (or guest's) attempts, streak and skills."""
    with database.reading() as session:
        learner = learners.current_learner(session)
        if learner is None:
            return jsonify(attempts=0, correct=0, streak=0, today=0, skills=[])
        return jsonify(summary(session, learner))


@bp.get("/openapi.json")
def openapi_description():
    return jsonify(openapi.DESCRIPTION)
