"""The JSON API described in OpenAPI 3.1, served at GET /api/openapi.json.

Written by hand (the API is small) as a Python dict; tests/test_openapi.py
keeps it true: every /api route of the app is here with its methods, and
real responses validate against these schemas. The drill names come from
the drills package, so a new drill is described without an edit here.
"""

from __future__ import annotations

from typing import Any

import drills
from coach.web.inputs import MAX_DB_INT, MAX_JSON_DEPTH

JSON = "application/json"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {JSON: {"schema": schema}}}


def _errors(*statuses: int) -> dict[str, Any]:
    said = {
        400: "The body or a value is refused; the message says which and why",
        404: "No such drill (or route)",
        413: "The body is larger than 64 KB",
        415: "The body is not sent as application/json",
        500: "An unexpected error, logged; the answer says nothing of its cause",
    }
    return {str(status): _json(_ref("Error"), said[status]) for status in statuses}


TILES = {"type": "array", "items": {"type": "string"}, "description": 'Tile codes such as "5D", "N", "J"'}

SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object",
        "required": ["error"],
        "properties": {"error": {"type": "string", "description": "What went wrong, for a person to read"}},
        "additionalProperties": False,
    },
    "Level": {
        "type": "object",
        "required": ["number", "title", "description"],
        "properties": {"number": {"type": "integer", "minimum": 1}, "title": {"type": "string"}, "description": {"type": "string"}},
        "additionalProperties": False,
    },
    "Drills": {
        "type": "object",
        "required": ["drills"],
        "properties": {
            "drills": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["name", "title", "levels"],
                    "properties": {
                        "name": _ref("DrillName"),
                        "title": {"type": "string"},
                        "levels": {"type": "array", "items": _ref("Level"), "minItems": 1},
                    },
                    "additionalProperties": False,
                },
            }
        },
        "additionalProperties": False,
    },
    "DrillName": {"type": "string", "enum": list(drills.DRILLS)},
    "Seed": {"type": "integer", "minimum": 0, "maximum": MAX_DB_INT},
    "QuestionRequest": {
        "type": "object",
        "properties": {
            "seed": {"anyOf": [_ref("Seed"), {"type": "null"}], "description": "The same seed and level give the same question; none: a random one"},
            "level": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}], "description": "From 1 to the drill's number of levels; none: 1"},
        },
        "additionalProperties": False,
    },
    "Question": {
        "type": "object",
        "required": ["token", "drill", "seed", "level", "card", "prompt", "hint"],
        "properties": {
            "token": {"type": "string", "description": "Signed: send it back with the answer"},
            "drill": _ref("DrillName"),
            "seed": _ref("Seed"),
            "level": {"type": "integer", "minimum": 1},
            "card": {"type": "string", "description": "The name of the card the question is asked on"},
            "prompt": {"type": "string"},
            "rack": TILES,
            "exposed": {"type": "array", "items": TILES},
            "choices": {"type": "array", "items": {"type": "string"}},
            "tile": {"type": "string"},
            "facts": {"type": "array", "items": {"type": "string"}},
            "hint": {"type": "string", "description": "A nudge toward the answer, never the answer: show it before \"show me\""},
        },
        "additionalProperties": False,
    },
    "AnswerRequest": {
        "type": "object",
        "required": ["token", "answer"],
        "properties": {
            "token": {"type": "string", "description": "The question's token, as the server gave it"},
            "answer": {"description": "The answer as the drill takes it (a tile code, a line id, a list of tiles...), or null for \"show me\""},
            "time_ms": {
                "anyOf": [{"type": "number", "minimum": 0, "maximum": MAX_DB_INT}, {"type": "null"}],
                "description": "Milliseconds taken; over an hour the answer is kept without its time",
            },
        },
        "additionalProperties": False,
    },
    "Verdict": {
        "type": "object",
        "required": ["correct", "score", "headline", "reasons", "details", "explanation", "rules", "best", "counted"],
        "properties": {
            "correct": {"type": "boolean"},
            "score": {"type": "number", "minimum": 0, "maximum": 1},
            "headline": {"type": "string", "description": "One line: right or not, and the answer"},
            "reasons": {"type": "array", "items": {"type": "string"}, "maxItems": 3, "description": "At most three short reasons, without rule ids"},
            "details": {"type": "array", "items": {"type": "string"}, "description": "Everything else: \"Why, in full\""},
            "explanation": {"type": "array", "items": {"type": "string"}, "description": "Every line in full, each citing its rule ids (kept for older clients)"},
            "rules": {"type": "array", "items": {"type": "string"}, "description": "Rule ids such as J1 (see /rules)"},
            "best": {"description": "The best answer, in the form the drill takes answers"},
            "counted": {"type": "boolean", "description": "False when this question was already answered: a question counts once"},
        },
        "additionalProperties": False,
    },
    "Progress": {
        "type": "object",
        "required": ["attempts", "correct", "streak", "today", "skills"],
        "properties": {
            "attempts": {"type": "integer", "minimum": 0},
            "correct": {"type": "integer", "minimum": 0},
            "streak": {"type": "integer", "minimum": 0},
            "today": {"type": "integer", "minimum": 0},
            "daily_goal": {"type": "integer"},
            "time_zone": {"type": "string"},
            "skills": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["skill", "level", "attempts", "accuracy", "mastery", "due"],
                    "properties": {
                        "skill": {"type": "string"},
                        "level": {"type": ["integer", "null"]},
                        "attempts": {"type": "integer", "minimum": 0},
                        "accuracy": {"type": "number", "minimum": 0, "maximum": 1},
                        "mastery": {"type": "string"},
                        "due": {"type": ["string", "null"], "format": "date-time"},
                    },
                    "additionalProperties": False,
                },
            },
        },
        "additionalProperties": False,
    },
}

_DRILL = {"name": "name", "in": "path", "required": True, "schema": _ref("DrillName"), "description": "A drill's name, from GET /api/drills"}



def _drill_post(operation: str, summary: str, request: str, status: str, response: str, said: str) -> dict[str, Any]:
    """A POST to one drill: a JSON body in, a JSON answer or an error out."""
    return {
        "post": {
            "operationId": operation,
            "summary": summary,
            "parameters": [_DRILL],
            "requestBody": {"required": True, "content": {JSON: {"schema": _ref(request)}}},
            "responses": {status: _json(_ref(response), said), **_errors(400, 404, 413, 415, 500)},
        }
    }


DESCRIPTION: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {
        "title": "Mahjong Coach API",
        "version": "1",
        "description": (
            "Drills of American mahjong (National Mah Jongg League rules): ask a question, answer it, "
            "see your progress. Bodies are JSON sent as application/json (so no CSRF token), at most "
            f"64 KB, nested at most {MAX_JSON_DEPTH} deep, with finite numbers and no control characters "
            "in strings. Answers count for the signed-in learner, or for a guest made by the first answer "
            "(a session cookie)."
        ),
    },
    "paths": {
        "/api/drills": {
            "get": {
                "operationId": "listDrills",
                "summary": "Every drill and its levels",
                "responses": {"200": _json(_ref("Drills"), "The drills")},
            }
        },
        "/api/drills/{name}/questions": _drill_post("askQuestion", "A new question of a drill", "QuestionRequest", "201", "Question", "The question and its token"),
        "/api/drills/{name}/answers": _drill_post(
            "answerQuestion", "Grade an answer and keep it in the learner's progress", "AnswerRequest", "200", "Verdict", "The verdict, explained"
        ),
        "/api/progress": {
            "get": {
                "operationId": "progress",
                "summary": "The learner's attempts, streak and skills (all zero for a visitor)",
                "responses": {"200": _json(_ref("Progress"), "The progress")},
            }
        },
        "/api/openapi.json": {
            "get": {
                "operationId": "openapi",
                "summary": "This description",
                "responses": {"200": {"description": "OpenAPI 3.1", "content": {JSON: {"schema": {"type": "object"}}}}},
            }
        },
    },
    "components": {"schemas": SCHEMAS},
}
