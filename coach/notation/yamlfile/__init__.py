"""Safe, bounded YAML loading that remembers line numbers.

Card files and drill sets are written by people; an error that says
"line 12" is one they can fix. Mappings load as `LineDict`, a dict that
knows the line it started on and the line of each of its keys.

They are also uploaded by anyone with a teacher account, so loading does
bounded work whatever the text: a size cap checked before parsing;
anchors and aliases (`&a`, `*a`) refused as the parser meets them, before
anything is composed, so an alias bomb costs nothing; caps on nesting
depth, on the number of values and on the digits of a whole number; and
scalars the formats never use (dates, binary, sets, ordered maps, tags,
.nan and .inf) reported at their line instead of loaded. No message ever
quotes more than `SHOWN` characters of what the file holds (see `show`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from coach.common.errors import CoachError

MAX_BYTES = 64 * 1024  # the web form's own limit too (MAX_CONTENT_LENGTH)
MAX_DEPTH = 10  # a card nests 6 deep (card, sections, section, hands, hand, numbers)
MAX_VALUES = 20_000  # scalars, lists and mappings in one file
MAX_INT_DIGITS = 12
MAX_PROBLEMS = 50  # messages listed; the rest are counted
SHOWN = 40  # at most this many characters of a value go into a message

class YamlError(CoachError, ValueError):
    """A file that cannot be loaded; `problems` holds each message (short
    ones, and no more than MAX_VALUES: show them through `capped`)."""

    def __init__(self, problems: str | list[str]):
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        more = f" (and {len(self.problems) - 1} more problems)" if len(self.problems) > 1 else ""
        super().__init__(self.problems[0] + more)


class LineDict(dict):
    line: int = 0
    key_lines: dict  # key -> 1-based line of the key, set by the loader

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.key_lines = {}


def capped(problems: list[str], limit: int = MAX_PROBLEMS) -> list[str]:
    """At most `limit` problems, then one more line saying how many were left out."""
    if len(problems) <= limit:
        return problems
    return [*problems[:limit], f"and {len(problems) - limit} more problems"]


def elide(text: str, limit: int = SHOWN) -> str:
    """`text` cut to `limit` characters, with "..." when it was longer."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def show(value: Any) -> str:
    """A value as a message may show it: text quoted and cut to SHOWN
    characters, containers only by their kind, so a message never grows
    with what the file holds."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{elide(value)}"'
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, (int, float)):
        return elide(repr(value))
    return f"a {type(value).__name__}"


def too_large(size: int, max_bytes: int, what: str = "file") -> str | None:
    """The message for a text over the size cap, or None."""
    if size <= max_bytes:
        return None
    return f"the {what} is larger than {max_bytes // 1024} KB (the cap): it is {math.ceil(size / 1024)} KB"


def load(text: str, max_bytes: int = MAX_BYTES, what: str = "file") -> Any:
    """Parse YAML text safely and within the caps; YamlError with a line otherwise."""
    problem = too_large(len(text.encode("utf-8", "surrogatepass")), max_bytes, what)
    if problem:
        raise YamlError(problem)
    from coach.notation.yamlfile.parser import parse  # PyYAML only when a file is parsed: a cached card starts without it

    return parse(text)


def read_text(path: str | Path, max_bytes: int = MAX_BYTES, what: str = "file") -> str:
    """A file's text, reading no more than the cap allows; YamlError if it
    is larger, OSError or UnicodeDecodeError if it cannot be read."""
    with open(path, "rb") as handle:
        data = handle.read(max_bytes + 1)
        size = len(data) if len(data) <= max_bytes else max(Path(path).stat().st_size, len(data))
    problem = too_large(size, max_bytes, what)
    if problem:
        raise YamlError(problem)
    return data.decode("utf-8-sig")


def line_of(value: Any, default: int = 0) -> int:
    return getattr(value, "line", default)


def key_line(mapping: Any, key: Any, default: int = 0) -> int:
    """The line of `key` in `mapping`; the mapping's own line when the key is
    absent (a missing key is best reported where its mapping starts)."""
    try:
        return getattr(mapping, "key_lines", {})[key]
    except (KeyError, TypeError):  # TypeError: an unhashable key
        return line_of(mapping, default)
