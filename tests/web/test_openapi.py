"""GET /api/openapi.json (issue 11, point 7): the description stays true, and
generated bodies thrown at every API route never get a 500.

The description is checked against the app itself: every /api route with
its methods, and real responses of every drill (questions, verdicts,
progress, errors) validated against the schemas. The fuzz test loads the
description with Schemathesis through the WSGI app and sends valid and
invalid requests (positive and negative generation) to every operation.
"""

from __future__ import annotations

import re

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings

import drills
from coach.web.api.openapi import DESCRIPTION, SCHEMAS
from tests.support.examples import examples
from tests.support.openapi import assert_valid, validator

EXAMPLES_PER_OPERATION = examples(40)  # per generation mode: the whole fuzz test stays well under a minute


def openapi_path(rule: str) -> str:
    return re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule)


def test_the_description_is_served_and_is_openapi_3_1(client):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert response.get_json() == DESCRIPTION
    assert DESCRIPTION["openapi"].startswith("3.1.")


def test_every_api_route_is_described_with_its_methods(app):
    routes: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        if rule.rule == "/api" or rule.rule.startswith("/api/"):
            routes.setdefault(openapi_path(rule.rule), set()).update(rule.methods - {"HEAD", "OPTIONS"})
    described = {path: {method.upper() for method in item} for path, item in DESCRIPTION["paths"].items()}
    assert routes == described
    assert SCHEMAS["DrillName"]["enum"] == list(drills.DRILLS)


def test_real_responses_of_every_drill_validate_against_the_schemas(client):
    assert_valid("Progress", client.get("/api/progress").get_json())
    listed = client.get("/api/drills").get_json()
    assert_valid("Drills", listed)
    for entry in listed["drills"]:
        for level in entry["levels"]:
            response = client.post(f"/api/drills/{entry['name']}/questions", json={"seed": 11, "level": level["number"]})
            assert response.status_code == 201
            question = response.get_json()
            assert_valid("Question", question)
            answered = client.post(f"/api/drills/{entry['name']}/answers", json={"token": question["token"], "answer": None})
            assert answered.status_code == 200
            assert_valid("Verdict", answered.get_json())
    progress = client.get("/api/progress").get_json()
    assert progress["attempts"] > 0 and progress["skills"]
    assert_valid("Progress", progress)


def test_requests_and_errors_validate_too(client):
    assert_valid("QuestionRequest", {"seed": 2**31 - 1, "level": 2})
    assert not validator("QuestionRequest").is_valid({"seed": 2**31})
    assert not validator("AnswerRequest").is_valid({"token": "t", "answer": "5D", "time_ms": -1})
    errors = [
        client.post("/api/drills/no-such-drill/questions", json={}),
        client.post("/api/drills/name-the-tile/questions", json={"seed": 2**31}),
        client.post("/api/drills/name-the-tile/questions", data="{}", content_type="text/plain"),
        client.post("/api/drills/name-the-tile/questions", data=b"[" * 70000, content_type="application/json"),
        client.delete("/api/progress"),
    ]
    assert [r.status_code for r in errors] == [404, 400, 415, 413, 405]
    for response in errors:
        assert_valid("Error", response.get_json())


def test_a_level_the_description_refuses_is_refused_and_one_it_takes_is_taken(client):
    # issue 26: the description said "integer, at least 1", and level 348.0 passed it.
    request = validator("QuestionRequest")
    for level in (348, 348.0, 5, 0, 2.5, True, "2"):
        assert not request.is_valid({"level": level}), level
        refused = client.post("/api/drills/name-the-tile/questions", json={"level": level})
        assert refused.status_code == 400 and "level" in refused.get_json()["error"]
    for level in (2, 2.0):  # JSON Schema's "integer" counts 2.0 as 2, and so does the API
        assert request.is_valid({"seed": 3.0, "level": level})
        asked = client.post("/api/drills/name-the-tile/questions", json={"seed": 3.0, "level": level})
        assert asked.status_code == 201 and (asked.get_json()["seed"], asked.get_json()["level"]) == (3, 2)
    hand = client.post("/api/hands", json={"seed": 7.0})
    assert hand.status_code == 201, hand.get_json()



def test_an_actions_whole_numbers_the_description_takes_are_taken(client):
    # The description says "integer" for an action's blind, count, size, group and place,
    # and JSON Schema counts 0.0 as one; the API refused it ("a small whole number").
    hand = client.post("/api/hands", json={"seed": 1}).get_json()
    request, action = validator("ActionRequest"), hand["legal"][0]
    for value in (0.5, True, "0", 100, 100.0):  # what the description refuses, the API refuses
        for key in ("blind", "count", "size", "group", "place"):
            body = {"action": {**action, key: value}, "move": hand["move"]}
            if key != "place" or value not in (100, 100.0):  # a place goes up to 999
                assert not request.is_valid(body), (key, value)
                assert client.post(f"/api/hands/{hand['id']}/actions", json=body).status_code == 400, (key, value)
    body = {"action": {**action, "blind": 0.0, "count": 0.0, "size": 0.0, "group": 0.0, "place": 0.0}, "move": float(hand["move"])}
    assert request.is_valid(body)
    played = client.post(f"/api/hands/{hand['id']}/actions", json=body)
    assert played.status_code == 200, played.get_json()
    assert played.get_json()["move"] == hand["move"] + 1

@pytest.fixture
def api_schema(app):
    return schemathesis.openapi.from_wsgi("/api/openapi.json", app)


@pytest.mark.parametrize("mode", list(schemathesis.GenerationMode), ids=lambda m: m.value)
def test_generated_requests_never_get_a_500(api_schema, mode, caplog):
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert {f"{op.method.upper()} {op.path}" for op in operations} >= {
        "POST /api/drills/{name}/questions", "POST /api/drills/{name}/answers", "GET /api/progress",
        "POST /api/hands", "GET /api/hands/{hand_id}", "POST /api/hands/{hand_id}/actions", "GET /api/hands/{hand_id}/review",
    }
    if mode is schemathesis.GenerationMode.NEGATIVE:  # a GET without parameters has no invalid request to make
        operations = [op for op in operations if len(op.body) or len(op.path_parameters)]
    seen: dict[int, int] = {}
    for operation in operations:

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(max_examples=EXAMPLES_PER_OPERATION, database=None,
                  suppress_health_check=list(HealthCheck))
        def call(case):
            response = case.call()
            seen[response.status_code] = seen.get(response.status_code, 0) + 1
            assert response.status_code < 500, (case.method, case.formatted_path, case.body, response.text[:300])

        call()
    print(f"{mode.value}: status codes seen {dict(sorted(seen.items()))}")
    assert sum(seen.values()) >= len(operations)
    assert [r.getMessage() for r in caplog.records if r.levelno >= 40] == []  # nothing logged as unexpected
