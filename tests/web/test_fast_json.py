"""JSON bodies by orjson say what Flask's own provider said (coach/web/infra/fast_json.py)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime

from flask.json.provider import DefaultJSONProvider

from coach.web.infra.fast_json import OrjsonProvider


@dataclass
class Point:
    x: int
    label: str


VALUES = [
    {"correct": True, "score": 0.75, "headline": "\u201cSoap\u201d is the White Dragon", "reasons": ["5 Dot", None]},
    {"when": datetime(2026, 12, 1, 4, 30, tzinfo=UTC), "point": Point(3, "North Wind")},
    {1: "a key that is not text", "big": 2**70},  # orjson refuses both: Flask writes it
    [],
]


def test_bodies_hold_the_same_json_as_flasks_provider(app):
    fast = OrjsonProvider(app)
    plain = DefaultJSONProvider(app)
    plain.sort_keys = False
    with app.app_context():
        for value in VALUES:
            ours, theirs = fast.response(value), plain.response(value)
            assert ours.mimetype == theirs.mimetype == "application/json"
            assert json.loads(ours.get_data()) == json.loads(theirs.get_data()), value
            assert ours.get_data().endswith(b"\n")
    assert json.loads(fast.response(VALUES[1]).get_data())["when"] == "Tue, 01 Dec 2026 04:30:00 GMT"


def test_the_app_sends_its_answers_with_it(app, client):
    assert isinstance(app.json, OrjsonProvider)
    question = client.post("/api/drills/name-the-tile/questions", json={"seed": 5}).get_json()
    response = client.post("/api/drills/name-the-tile/answers", json={"token": question["token"], "answer": "soap"})
    assert response.status_code == 200
    data = json.loads(response.get_data())
    assert list(data)[:2] == ["correct", "score"] and data["counted"] is True  # the order the code writes
