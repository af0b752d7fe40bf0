"""The JSON API described in OpenAPI 3.1, served at GET /api/openapi.json.

Written by hand (the API is small) as a Python dict; tests/web/test_openapi.py
keeps it true: every /api route of the app is here with its methods, and
real responses validate against these schemas. The drill names come from
the drills package, so a new drill is described without an edit here.
"""

from __future__ import annotations

from typing import Any

import drills
from coach.play.bots import STRENGTHS
from coach.play.hand import SEATS
from coach.play.people import MOST_TIMER
from coach.rules.table_rules import SWITCHES, Switch
from coach.web.infra.inputs import MAX_DB_INT, MAX_JSON_DEPTH

# The most levels any drill has: a body's "level" is at most this (and at most
# its own drill's count, which the description of GET /api/drills gives).
MAX_LEVEL = max(len(module.LEVELS) for module in drills.DRILLS.values())

JSON = "application/json"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {JSON: {"schema": schema}}}


def _errors(*statuses: int) -> dict[str, Any]:
    said = {
        400: "The body or a value is refused; the message says which and why",
        404: "No such drill, hand or table (or someone else's hand, or a class table not yours) or route",
        409: "Not now: too many hands going, the review before the hand is over, or the hand moved on in another request",
        413: "The body is larger than 64 KB",
        415: "The body is not sent as application/json",
        500: "An unexpected error, logged; the answer says nothing of its cause",
        503: "The review could not be made just now; it is tried again later (Retry-After)",
    }
    return {str(status): _json(_ref("Error"), said[status]) for status in statuses}


TILES = {"type": "array", "items": {"type": "string"}, "description": 'Tile codes such as "5D", "N", "J"'}


def _switch(switch: Switch) -> dict[str, Any]:
    """One table rule's value: its choices, the League's first (coach/rules/table_rules.py)."""
    choices = list(switch.choices)
    kind = "boolean" if isinstance(choices[0], bool) else "integer" if isinstance(choices[0], int) else "string"
    return {"type": kind, "enum": choices, "description": f"{switch.rule_id} {switch.title}: {switch.description} League: {switch.league}"}

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
    "TableRules": {
        "type": "object",
        "description": (
            "A table's own rules (docs/table-rules.md, /rules/table): only the switches away from the League's rules,"
            " so {} is the League's. An unknown switch or a value not among its choices answers 400 naming the switch"
        ),
        "properties": {s.name: _switch(s) for s in SWITCHES},
        "additionalProperties": False,
    },
    "Seed": {"type": "integer", "minimum": 0, "maximum": MAX_DB_INT},
    "QuestionRequest": {
        "type": "object",
        "properties": {
            "seed": {"anyOf": [_ref("Seed"), {"type": "null"}], "description": "The same seed and level give the same question; none: a random one"},
            "level": {
                "anyOf": [{"type": "integer", "minimum": 1, "maximum": MAX_LEVEL}, {"type": "null"}],
                "description": f"From 1 to the drill's number of levels (GET /api/drills; {MAX_LEVEL} at most); none: 1",
            },
            "table_rules": {
                "anyOf": [_ref("TableRules"), {"type": "null"}],
                "description": (
                    "The table rules to ask under ({} for the League's); none: your own, as set on your account"
                    " (a guest's: the League's). The token carries them, so the answer is graded under the same rules"
                ),
            },
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
            "level": {"type": "integer", "minimum": 1, "maximum": MAX_LEVEL},
            "card": {"type": "string", "description": "The name of the card the question is asked on"},
            "prompt": {"type": "string"},
            "rack": TILES,
            "exposed": {"type": "array", "items": TILES},
            "choices": {"type": "array", "items": {"type": "string"}},
            "tile": {"type": "string"},
            "facts": {"type": "array", "items": {"type": "string"}},
            "hint": {"type": "string", "description": "A nudge toward the answer, never the answer: show it before \"show me\""},
            "table_rules": {**_ref("TableRules"), "description": "The table rules the question is asked under; absent: the League's"},
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
            "table_rules": {**_ref("TableRules"), "description": "The table rules the question was graded under; absent: the League's"},
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

# -- practice hands (coach/web/api/hands.py) ------------------------------------------------------

_SMALL = {"type": "integer", "minimum": 0, "maximum": 99}
SCHEMAS.update({
    "Refusal": {
        "type": "object",
        "required": ["error", "rule"],
        "properties": {
            "error": {"type": "string", "description": "Why the action is refused, for a person to read"},
            "rule": {"type": "string", "description": "The rule id that forbids it, such as C4 (see /rules)"},
        },
        "additionalProperties": False,
    },
    "HandRequest": {
        "type": "object",
        "properties": {
            "seed": {"anyOf": [_ref("Seed"), {"type": "null"}], "description": "The same seed deals the same hand; none: a random one"},
            "bots": {"anyOf": [{"type": "string", "enum": list(STRENGTHS)}, {"type": "null"}], "description": "The computer players' strength; none: club"},
            "card": {
                "anyOf": [{"type": "integer", "minimum": 1, "maximum": MAX_DB_INT}, {"type": "null"}],
                "description": "The number of a card you may drill on (your own or a class's); none: the house card",
            },
        },
        "additionalProperties": False,
    },
    "Action": {
        "type": "object",
        "description": "One move, exactly as a state's \"legal\" list gives it (only the fields its kind uses)",
        "required": ["seat", "kind"],
        "properties": {
            "seat": {"type": "string", "enum": list(SEATS)},
            "kind": {"type": "string", "enum": ["pass", "vote", "offer", "courtesy", "call", "no-call", "discard", "exchange", "blank", "mahjong"]},
            "tiles": {**TILES, "maxItems": 14},
            "blind": {**_SMALL, "description": (
                "A pass on the last pass of a Charleston: how many of the three tiles coming to you in this same pass "
                "go straight on unseen, never entering your rack; \"tiles\" then holds 3 - blind of your own (C5). "
                "If all four send all three on, nothing moves and the Charleston goes on; with the table rule C6, it ends and East discards"
            )},
            "go": {"type": "boolean", "description": "A vote: true to play the second Charleston (C2)"},
            "count": {**_SMALL, "description": "An offer: tiles offered in the courtesy pass (C3)"},
            "size": {**_SMALL, "description": "A call: the exposure's size; absent: Mah Jongg (K2, K3)"},
            "owner": {"type": "string", "description": "An exchange: whose exposure the joker comes from (J4)"},
            "group": {**_SMALL, "description": "An exchange: which of the owner's exposures"},
            "place": {
                "type": "integer", "minimum": 0, "maximum": 999,
                "description": "A blank swap (TR1): which tile of the discards, by its place in the order thrown; \"tiles\" names it",
            },
        },
        "additionalProperties": False,
    },
    "ActionRequest": {
        "type": "object",
        "required": ["action", "move"],
        "properties": {
            "action": _ref("Action"),
            "move": {
                "type": "integer", "minimum": 0, "maximum": MAX_DB_INT,
                "description": "The \"move\" of the state the action was chosen on; another number answers 409, nothing played",
            },
        },
        "additionalProperties": False,
    },
    "Stale": {
        "type": "object",
        "description": "The action was chosen on a state the hand has moved on from (a repeat, a retry, another tab): nothing was played",
        "required": ["error", "state"],
        "properties": {"error": {"type": "string"}, "state": _ref("HandState")},
        "additionalProperties": False,
    },
    "Move": {
        "type": "object",
        "description": (
            "A past move, as a player in your seat saw it: another seat's passed tiles, and its vote or offer until"
            " all have given theirs, stay hidden; another seat's silent no-call is never listed"
        ),
        "required": ["seat", "kind"],
        "properties": {
            **{key: {} for key in ("tiles", "blind", "go", "count", "size", "owner", "group", "place")},
            "seat": {"type": "string", "enum": list(SEATS)},
            "kind": {"type": "string"},
            "words": {"type": "string", "description": "The move in words, as the table shows it"},
        },
        "additionalProperties": False,
    },
    "HandState": {
        "type": "object",
        "required": ["id", "card", "bots", "seat", "phase", "step", "turn", "owed", "wall", "rack", "received", "courtesy",
                     "seats", "latest", "move", "last_moves", "hints", "legal", "over"],
        "properties": {
            "id": {"type": "integer", "minimum": 1},
            "card": {"type": "string"},
            "bots": {"type": "string", "enum": list(STRENGTHS)},
            "seat": {"type": "string", "enum": list(SEATS), "description": "Your seat"},
            "phase": {"type": "string", "enum": ["charleston", "play", "over"]},
            "step": {"type": ["string", "null"], "description": "The Charleston's step, such as first-right or vote"},
            "step_words": {"type": ["string", "null"]},
            "turn": {"type": ["string", "null"], "description": "Whose turn in play (null while a discard may be called)"},
            "owed": {"type": ["string", "null"], "description": "The kind of move you owe now; null: none (the hand is over)"},
            "wall": {"type": "integer", "minimum": 0, "description": "Tiles left in the wall"},
            "rack": {**TILES, "description": "Your concealed tiles, sorted"},
            "received": {**TILES, "description": "The tiles the last Charleston pass put in your rack (never those you sent on unseen, C5)"},
            "courtesy": {"type": "integer", "minimum": 0, "maximum": 3, "description": "Tiles you pass in the courtesy pass"},
            "seats": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["seat", "tiles", "exposures", "discards"],
                    "properties": {
                        "seat": {"type": "string", "enum": list(SEATS)},
                        "tiles": {"type": "integer", "minimum": 0, "description": "How many concealed tiles the seat holds"},
                        "exposures": {"type": "array", "items": TILES},
                        "discards": TILES,
                    },
                    "additionalProperties": False,
                },
            },
            "latest": {
                "anyOf": [
                    {"type": "object", "required": ["seat", "tile"], "properties": {"seat": {"type": "string"}, "tile": {"type": "string"}}, "additionalProperties": False},
                    {"type": "null"},
                ],
                "description": "The discard that may be called now",
            },
            "move": {
                "type": "integer", "minimum": 0,
                "description": "How many moves you have made: send it back with your action (a repeated one answers 409)",
            },
            "last_moves": {"type": "array", "items": _ref("Move"), "description": "The moves you saw since your own last one"},
            "hints": {"type": "integer", "minimum": 0},
            "legal": {"type": "array", "items": _ref("Action"), "description": "Every action you may take now: post one back as it is"},
            "over": {"type": "boolean"},
            "table_rules": {
                **_ref("TableRules"),
                "description": "The table rules the hand is played under (your own when it was dealt); absent: the League's",
            },
            "next_tile": {
                "type": "string",
                "description": "At a table that allows picking ahead (TR5): the next wall tile, which you looked at while the discard may be called",
            },
            "result": {
                "type": "object",
                "required": ["winner", "how", "line", "pays", "rules"],
                "properties": {
                    "winner": {"type": ["string", "null"]},
                    "how": {"type": "string", "enum": ["discard", "self", "exchange", "wall"]},
                    "line": {"type": ["string", "null"]},
                    "pays": {"type": "object", "additionalProperties": {"type": "integer"}},
                    "rules": {"type": "array", "items": {"type": "string"}},
                },
                "additionalProperties": False,
            },
            "record": {
                "type": "array",
                "items": _ref("Action"),
                "description": "Once the hand is over: every action of every seat, passes and no-calls included, in order",
            },
        },
        "additionalProperties": False,
    },
    "ReviewProgress": {
        "type": "object",
        "required": ["status", "done", "total"],
        "properties": {
            "status": {"type": "string", "enum": ["waiting", "running"], "description": "waiting: about to start; running: being graded"},
            "done": {"type": "integer", "minimum": 0, "description": "Decisions graded so far"},
            "total": {"type": "integer", "minimum": 0, "description": "Decisions to grade (0 until the first is graded)"},
        },
        "additionalProperties": False,
    },
    "HandReview": {
        "type": "object",
        "required": ["decisions", "summary"],
        "properties": {
            "decisions": {
                "type": "array",
                "description": "One per action you took, in order",
                "items": {
                    "type": "object",
                    "required": [
                        "number", "seat", "kind", "played", "coach", "grade", "cost", "unit", "missed_win", "reason", "rules", "wall",
                        "rack", "exposed",
                    ],
                    "properties": {
                        "number": {"type": "integer", "minimum": 0, "description": "The action's place in the hand"},
                        "seat": {"type": "string"},
                        "kind": {"type": "string"},
                        "played": _ref("Action"),
                        "coach": _ref("Action"),
                        "grade": {"type": "string", "enum": ["best", "good", "inaccuracy", "mistake"]},
                        "cost": {
                            "type": "number", "minimum": 0,
                            "description": "What the move gave up against the coach's, in `unit`: points of expected payment in play, tiles in the Charleston",
                        },
                        "unit": {"type": "string", "enum": ["points", "tiles"]},
                        "missed_win": {"type": "boolean", "description": "The hand was complete (E1, K3, or through a joker exchange, J4) and was not declared"},
                        "reason": {"type": "string"},
                        "rules": {"type": "array", "items": {"type": "string"}},
                        "wall": {"type": "integer", "minimum": 0},
                        "rack": TILES,
                        "exposed": {"type": "array", "items": TILES},
                        "step": {
                            "type": "string",
                            "description": "A Charleston pass: which one (first-right ... second-right, C1, C2); empty for any other decision",
                        },
                    },
                    "additionalProperties": False,
                },
            },
            "summary": {
                "type": "object",
                "required": ["accuracy", "decisions", "grades", "costliest", "winner", "line", "hints"],
                "properties": {
                    "accuracy": {"type": "number", "minimum": 0, "maximum": 1, "description": "The share graded best or good"},
                    "decisions": {"type": "integer", "minimum": 0},
                    "grades": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
                    "costliest": {"type": "array", "items": {"type": "integer"}, "maxItems": 3, "description": "The numbers of the three costliest decisions"},
                    "winner": {"type": ["string", "null"]},
                    "line": {"type": ["string", "null"]},
                    "hints": {"type": "integer", "minimum": 0},
                },
                "additionalProperties": False,
            },
        },
        "additionalProperties": False,
    },
})

_HAND = {"name": "hand_id", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1, "maximum": MAX_DB_INT},
         "description": "A hand's id, from POST /api/hands"}
HAND_PATHS: dict[str, Any] = {
    "/api/hands": {
        "post": {
            "operationId": "newHand",
            "summary": "Deal a practice hand against three computer players; you sit East",
            "requestBody": {"required": True, "content": {JSON: {"schema": _ref("HandRequest")}}},
            "responses": {
                "201": _json(_ref("HandState"), "The hand as you see it, the computer players' first moves made"),
                **_errors(400, 409, 413, 415, 500),
            },
        }
    },
    "/api/hands/{hand_id}": {
        "get": {
            "operationId": "handState",
            "summary": "The hand as you see it: your rack, the table, and your legal actions",
            "parameters": [_HAND],
            "responses": {"200": _json(_ref("HandState"), "The state"), **_errors(404, 409, 500)},
        }
    },
    "/api/hands/{hand_id}/actions": {
        "post": {
            "operationId": "handAction",
            "summary": "Take one of the legal actions; the computer players then move up to your next decision",
            "parameters": [_HAND],
            "requestBody": {"required": True, "content": {JSON: {"schema": _ref("ActionRequest")}}},
            "responses": {
                "200": _json(_ref("HandState"), "The new state"),
                "400": _json(
                    {"anyOf": [_ref("Refusal"), _ref("Error")]},
                    "An action not in the legal list (with the rule id that forbids it), or a bad body (no \"move\", say)",
                ),
                "409": _json(
                    {"anyOf": [_ref("Stale"), _ref("Error")]},
                    "The hand is no longer at the \"move\" sent (a repeated action, a retry, another tab): nothing was"
                    " played, and the state is the hand as it stands now",
                ),
                **_errors(404, 413, 415, 500),
            },
        }
    },
    "/api/hands/{hand_id}/review": {
        "get": {
            "operationId": "handReview",
            "summary": "Once the hand is over: each of your decisions graded against the coach's",
            "description": (
                "The review is computed once, in the background, from the moment the hand ends, and kept. "
                "Until it is done the answer is 202 with how far it has got (and Retry-After: 1): ask again."
            ),
            "parameters": [_HAND],
            "responses": {
                "200": _json(_ref("HandReview"), "The review"),
                "202": _json(_ref("ReviewProgress"), "Not done yet: the decisions graded so far, of how many; ask again"),
                **_errors(404, 409, 500, 503),
            },
        }
    },
}

# -- live tables (coach/web/api/tables.py) ---------------------------------------------------------

_SEAT_NAMES = [name for seat in SEATS for name in (seat.lower(), seat)]  # east or East, as the API reads them
_NULLABLE_SEAT = {"type": ["string", "null"], "enum": [*list(SEATS), None]}
SCHEMAS.update({
    "TableRequest": {
        "type": "object",
        "properties": {
            "strength": {"anyOf": [{"type": "string", "enum": list(STRENGTHS)}, {"type": "null"}], "description": "The computer players' strength; none: club"},
            "auto_pass": {"type": ["boolean", "null"], "description": "Pass for a person who cannot call a discard (on unless false)"},
            "kind": {
                "anyOf": [{"type": "string", "enum": ["friends", "waits"]}, {"type": "null"}],
                "description": "friends (the coach plays for someone away; the default) or waits (the table waits for everyone)",
            },
            "turn_timer": {
                "anyOf": [{"type": "integer", "minimum": 5, "maximum": MOST_TIMER}, {"type": "null"}],
                "description": "Seconds a person has for a decision before the coach makes it; none: no timer",
            },
            "sit": {"anyOf": [{"type": "string", "enum": _SEAT_NAMES}, {"type": "null"}], "description": "Sit at once in this seat; none: host without a seat"},
        },
        "additionalProperties": False,
    },
    "SeatRequest": {
        "type": "object",
        "required": ["seat"],
        "properties": {"seat": {"type": "string", "enum": _SEAT_NAMES}},
        "additionalProperties": False,
    },
    "Empty": {"type": "object", "properties": {}, "additionalProperties": False},
    "TableActionRequest": {
        "type": "object",
        "required": ["action", "move"],
        "properties": {
            "action": _ref("Action"),
            "move": {
                "type": "integer", "minimum": 0, "maximum": MAX_DB_INT,
                "description": "The \"move\" of your hand's view the action was chosen on; another number answers 409, nothing played",
            },
        },
        "additionalProperties": False,
    },
    "SeatHand": {
        "type": "object",
        "description": "The current hand as your seat sees it, and nothing more: never another rack or the wall",
        "required": ["number", "seat", "phase", "step", "rules", "rack", "received", "courtesy_count", "seats", "floor", "latest",
                     "calling", "turn", "wall", "last_wall", "next_tile", "owed", "choices", "answered", "move", "log", "result"],
        "properties": {
            "number": {"type": "integer", "minimum": 1, "description": "The table's hands counted from 1"},
            "seat": {"type": "string", "enum": list(SEATS), "description": "Your seat"},
            "phase": {"type": "string", "enum": ["charleston", "play", "over"]},
            "step": {"type": ["string", "null"]},
            "rules": _ref("TableRules"),
            "rack": {**TILES, "description": "Your concealed tiles, sorted"},
            "received": TILES,
            "courtesy_count": {"type": "integer", "minimum": 0, "maximum": 3},
            "seats": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["name", "you", "tiles_held", "exposures", "discards", "on_turn", "person"],
                    "properties": {
                        "name": {"type": "string", "enum": list(SEATS)},
                        "you": {"type": "boolean"},
                        "tiles_held": {"type": "integer", "minimum": 0},
                        "exposures": {"type": "array", "items": TILES},
                        "discards": TILES,
                        "on_turn": {"type": "boolean"},
                        "person": {"type": "boolean", "description": "A person plays this seat (else a computer player)"},
                    },
                    "additionalProperties": False,
                },
            },
            "floor": {"type": "array", "items": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "string"}], "items": False}},
            "latest": {
                "anyOf": [
                    {"type": "object", "required": ["seat", "tile"], "properties": {"seat": {"type": "string"}, "tile": {"type": "string"}}, "additionalProperties": False},
                    {"type": "null"},
                ],
            },
            "calling": {"type": "boolean", "description": "The latest discard may be called now"},
            "turn": {"type": ["string", "null"]},
            "wall": {"type": "integer", "minimum": 0},
            "last_wall": {"type": ["integer", "null"], "description": "In the wall's last tiles at a cold-wall table (TR2): how many"},
            "next_tile": {"type": ["string", "null"], "description": "At a table that allows picking ahead (TR5): the next wall tile"},
            "owed": {"type": ["string", "null"], "description": "The kind of decision you owe now; null: none"},
            "choices": {"type": "array", "items": _ref("Action"), "description": "Every action you may take now: post one back as it is"},
            "answered": {"anyOf": [_ref("Action"), {"type": "null"}], "description": "Your answer held until everyone owing one has answered"},
            "move": {"type": "integer", "minimum": 0, "description": "Send it back with your action (a stale one answers 409)"},
            "log": {"type": "array", "items": {"type": "string"}, "description": "The hand's moves as your seat saw them, in words"},
            "result": {
                "anyOf": [
                    {
                        "type": "object",
                        "required": ["winner", "how", "pays", "line", "winner_rack"],
                        "properties": {
                            "winner": {"type": ["string", "null"]},
                            "how": {"type": "string"},
                            "pays": {"type": "object", "additionalProperties": {"type": "integer"}},
                            "line": {"type": ["string", "null"]},
                            "winner_rack": TILES,
                        },
                        "additionalProperties": False,
                    },
                    {"type": "null"},
                ],
            },
        },
        "additionalProperties": False,
    },
    "Table": {
        "type": "object",
        "required": ["code", "kind", "version", "host", "seat", "going", "hands", "settings", "seats", "hand"],
        "properties": {
            "code": {"type": "string", "description": "The join code"},
            "kind": {"type": "string", "enum": ["friends", "waits", "class"]},
            "version": {"type": "integer", "description": "Changes whenever anything shown changes (the events' data); compare, never order"},
            "host": {"type": "boolean", "description": "You host this table"},
            "seat": {**_NULLABLE_SEAT, "description": "Your seat, or null"},
            "going": {"type": "boolean", "description": "A hand is being played"},
            "hands": {"type": "integer", "minimum": 0, "description": "Hands dealt so far"},
            "settings": {
                "type": "object",
                "required": ["strength", "auto_pass", "waits_for_everyone", "turn_timer"],
                "properties": {
                    "strength": {"type": "string", "enum": list(STRENGTHS)},
                    "auto_pass": {"type": "boolean"},
                    "waits_for_everyone": {"type": "boolean"},
                    "turn_timer": {"type": ["integer", "null"]},
                },
                "additionalProperties": False,
            },
            "seats": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["seat", "person", "present", "you"],
                    "properties": {
                        "seat": {"type": "string", "enum": list(SEATS)},
                        "person": {"type": "boolean", "description": "A person holds it (else a computer player)"},
                        "present": {"type": "boolean", "description": "That person is at the table now"},
                        "you": {"type": "boolean"},
                    },
                    "additionalProperties": False,
                },
            },
            "hand": {"anyOf": [_ref("SeatHand"), {"type": "null"}], "description": "Null without a seat or before the first hand"},
            "rulings": {"type": "array", "items": {"type": "string"}, "description": "After a move: who got a discard several called, and by which rule (K4, TR6)"},
        },
        "additionalProperties": False,
    },
    "NewTable": {
        "type": "object",
        "required": ["code", "table"],
        "properties": {"code": {"type": "string"}, "table": _ref("Table")},
        "additionalProperties": False,
    },
    "TableStale": {
        "type": "object",
        "description": "The move was chosen on a view the table has moved on from: nothing was played",
        "required": ["error", "table"],
        "properties": {"error": {"type": "string"}, "table": _ref("Table")},
        "additionalProperties": False,
    },
})

_CODE = {"name": "code", "in": "path", "required": True, "schema": {"type": "string", "pattern": "^[A-Za-z0-9]{1,16}$"},
         "description": "The table's join code (case does not matter)"}
_FORBIDDEN = {"403": _json(_ref("Error"), "Not yours to do: only the person in a seat plays it, only the host deals")}
TABLE_PATHS: dict[str, Any] = {
    "/api/tables": {
        "post": {
            "operationId": "openTable",
            "summary": "Open a table you host, computer players in every seat but yours; others join with its code",
            "requestBody": {"required": True, "content": {JSON: {"schema": _ref("TableRequest")}}},
            "responses": {"201": _json(_ref("NewTable"), "The table and its join code"), **_errors(400, 413, 415, 500)},
        }
    },
    "/api/tables/{code}": {
        "get": {
            "operationId": "tableState",
            "summary": "The table as you see it: the seats, and the hand as your seat sees it",
            "parameters": [_CODE],
            "responses": {"200": _json(_ref("Table"), "The table"), **_errors(404, 500)},
        }
    },
    "/api/tables/{code}/seats": {
        "post": {
            "operationId": "takeSeat",
            "summary": "Take a free seat (a computer player's), mid-hand too",
            "parameters": [_CODE],
            "requestBody": {"required": True, "content": {JSON: {"schema": _ref("SeatRequest")}}},
            "responses": {
                "200": _json(_ref("Table"), "The table, you in the seat"),
                **_errors(400, 404, 413, 415, 500),
                "409": _json(_ref("Error"), "A person holds the seat already, or you hold another seat here"),
            },
        }
    },
    "/api/tables/{code}/start": {
        "post": {
            "operationId": "startHand",
            "summary": "The host deals the next hand",
            "parameters": [_CODE],
            "requestBody": {"required": True, "content": {JSON: {"schema": _ref("Empty")}}},
            "responses": {
                "200": _json(_ref("Table"), "The table, the computer players' first moves made"),
                **_FORBIDDEN,
                **_errors(400, 404, 413, 415, 500),
                "409": _json(_ref("Error"), "A hand is being played: finish it first"),
            },
        }
    },
    "/api/tables/{code}/actions": {
        "post": {
            "operationId": "tableAction",
            "summary": "Your move: one of your hand's choices; the computer players then play up to the next decision a person owes",
            "parameters": [_CODE],
            "requestBody": {"required": True, "content": {JSON: {"schema": _ref("TableActionRequest")}}},
            "responses": {
                "200": _json(_ref("Table"), "The table after the move"),
                "400": _json({"anyOf": [_ref("Refusal"), _ref("Error")]}, "A move not among your choices (with the rule id that forbids it), or a bad body"),
                **_FORBIDDEN,
                "409": _json(
                    {"anyOf": [_ref("TableStale"), _ref("Error")]},
                    "The table is no longer at the \"move\" sent (a repeat, or another's move first): nothing played; or no hand is going",
                ),
                **_errors(404, 413, 415, 500),
            },
        }
    },
    "/api/tables/{code}/events": {
        "get": {
            "operationId": "tableEvents",
            "summary": "Server-sent events: \"moved\" (data: the table's version) when the stream opens and whenever the table changes",
            "description": (
                "Fetch the table after each \"moved\". A stream ends after about 25 seconds; open it again (an EventSource does). "
                "\"gone\": the table was closed. 204: the server has no stream free just now; poll the table instead."
            ),
            "parameters": [_CODE],
            "responses": {
                "200": {"description": "The event stream", "content": {"text/event-stream": {"schema": {"type": "string"}}}},
                "204": {"description": "No stream free now: poll GET /api/tables/{code}"},
                **_errors(404, 500),
            },
        }
    },
    "/api/tables/{code}/hands/{number}/review": {
        "get": {
            "operationId": "tableHandReview",
            "summary": "Once hand `number` is over: each of your own decisions in it graded against the coach's",
            "description": "Computed once in the background when the hand ends; 202 with how far it has got until it is done (Retry-After: 1).",
            "parameters": [_CODE, {"name": "number", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1, "maximum": MAX_DB_INT}}],
            "responses": {
                "200": _json(_ref("HandReview"), "Your review"),
                "202": _json(_ref("ReviewProgress"), "Not done yet; ask again"),
                **_errors(404, 409, 500, 503),
            },
        }
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
            "see your progress; play a practice hand against three computer players and read its review; "
            "open a table for friends, play it live (server-sent events) and read your review of each hand. Bodies are JSON sent as application/json (so no CSRF token), at most "
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
        **HAND_PATHS,
        **TABLE_PATHS,
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
