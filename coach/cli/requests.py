"""A command's request: the same fields from flags or from a JSON line, read
and checked here; and the reply to a bad batch line."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from coach.common.errors import CoachError
from coach.notation import tiles

if TYPE_CHECKING:  # numpy loads only when a command reads a rack: `--help` imports none of it (issue 26)
    from coach.reading.tiles_away import Holding


class UsageError(CoachError):
    """A command line the parser or a command refuses: exit status 2, one line."""


def tiles_field(request: dict, key: str) -> str | list:
    value = request.get(key)
    if value is None:
        return ""
    if not isinstance(value, (str, list)):
        raise ValueError(f'"{key}" must be tiles as text such as "1D 2D N", or a list of codes')
    return value


def exposures_field(request: dict, key: str) -> list:
    value = request.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise ValueError(f'"{key}" must be a list of groups such as ["5D 5D J"]')
    return value


def request_holding(request: dict, sizes: tuple[int, ...], extra_seen: Sequence[str] = ()) -> tuple[Holding, tuple[int, ...]]:
    from coach.reading.tiles_away import read_holding

    rack = tiles_field(request, "rack")
    if rack == "" and "rack" not in request:
        raise ValueError('"rack" is missing')
    seen = tiles_field(request, "seen")
    seen_codes = tiles.parse(seen, what="seen") if isinstance(seen, str) else [tiles.code_of(c) for c in seen]
    return read_holding(rack, exposures_field(request, "exposed"), seen_codes + list(extra_seen), sizes)


def request_seed(request: dict) -> int:
    seed = request.get("seed", 0)
    if seed is None:
        return 0
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError('"seed" must be a whole number')
    return seed


def read_request(raw: str | bytes, keys: frozenset[str], loads: Callable[[str | bytes], object] = json.loads) -> dict:
    """One batch line as a request: a JSON object with known keys only."""
    return checked_request(loads(raw), keys)


def checked_request(obj: object, keys: frozenset[str]) -> dict:
    """A batch line's JSON value as a request: an object with known keys only."""
    if not isinstance(obj, dict):
        raise ValueError('each line must be a JSON object such as {"rack": "1D 2D ..."}')
    unknown = sorted(set(obj) - keys)
    if unknown:
        raise ValueError(f'unknown key "{unknown[0]}" (allowed: {", ".join(sorted(keys))})')
    return obj


BATCH_ERRORS = (ValueError, TypeError, RecursionError)  # json.JSONDecodeError is a ValueError


def error_reply(error: BaseException) -> dict:
    """The answer to a bad batch line: {"error": ...}, in plain words."""
    if isinstance(error, json.JSONDecodeError):
        return {"error": f"not valid JSON ({error.msg} at column {error.colno})"}
    if isinstance(error, RecursionError):
        return {"error": "not valid input: the JSON is nested too deeply"}
    return {"error": str(error)}
