"""Checking a JSON body against a schema of the API's OpenAPI description."""

from __future__ import annotations

from typing import Any

import jsonschema_rs

from coach.web.api.openapi import SCHEMAS


def assert_valid(name: str, instance: Any) -> None:
    errors = [f"{e.instance_path}: {e.message}" for e in validator(name).iter_errors(instance)]
    assert not errors, (name, errors[:5], instance)


def validator(name: str) -> Any:
    """A validator for one of the description's schemas, its $refs resolved in the document."""
    return jsonschema_rs.Draft202012Validator({"$ref": f"#/components/schemas/{name}", "components": {"schemas": SCHEMAS}})
