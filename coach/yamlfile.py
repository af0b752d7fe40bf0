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

import yaml
import yaml.reader
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.resolver import Resolver

MAX_BYTES = 64 * 1024  # the web form's own limit too (MAX_CONTENT_LENGTH)
MAX_DEPTH = 10  # a card nests 6 deep (card, sections, section, hands, hand, numbers)
MAX_VALUES = 20_000  # scalars, lists and mappings in one file
MAX_INT_DIGITS = 12
MAX_PROBLEMS = 50  # messages listed; the rest are counted
SHOWN = 40  # at most this many characters of a value go into a message

try:  # libyaml's parser when it is there: the same events, several times faster
    from yaml._yaml import CParser as _Parser

    def _init_parser(loader: Any, text: str) -> None:
        _Parser.__init__(loader, text)

except ImportError:  # pragma: no cover - PyYAML without libyaml
    from yaml.parser import Parser as _Parser  # type: ignore[assignment]
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class _PyParser(Reader, Scanner, _Parser):  # type: ignore[misc,valid-type]
        pass

    def _init_parser(loader: Any, text: str) -> None:
        Reader.__init__(loader, text)
        Scanner.__init__(loader)
        _Parser.__init__(loader)

    _Parser = _PyParser  # type: ignore[misc]


class YamlError(ValueError):
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


# What a scalar of each refused tag is called in a message.
ODD_TAGS = {
    "tag:yaml.org,2002:timestamp": "a date or time",
    "tag:yaml.org,2002:binary": "binary data",
    "tag:yaml.org,2002:set": "a set (!!set)",
    "tag:yaml.org,2002:omap": "an ordered map (!!omap)",
    "tag:yaml.org,2002:pairs": "a list of pairs (!!pairs)",
}


class _Loader(Composer, _Parser, SafeConstructor, Resolver):  # type: ignore[misc,valid-type]
    """A SafeLoader that refuses anchors, aliases, deep nesting and odd
    scalars while composing, so nothing is ever expanded or built for them."""

    def __init__(self, text: str):
        _init_parser(self, text)
        Composer.__init__(self)
        SafeConstructor.__init__(self)
        Resolver.__init__(self)
        self.depth = 0
        self.values = 0
        self.problems: list[str] = []

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()
        line = event.start_mark.line + 1
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            raise YamlError(
                f"line {line}: anchors and aliases (& and *) are not allowed; write the value out in full"
            )
        self.values += 1
        if self.values > MAX_VALUES:
            raise YamlError(f"line {line}: more than {MAX_VALUES} values in one file (the cap)")
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                raise YamlError(f"line {line}: nested more than {MAX_DEPTH} levels deep (the cap)")
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1

    def odd(self, node: yaml.Node, message: str) -> None:
        """Record a value the formats never use; it loads as nothing.
        (At most MAX_VALUES of them: each message is short.)"""
        self.problems.append(f"line {node.start_mark.line + 1}: {message}")


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> LineDict:
    mapping = LineDict()
    mapping.line = node.start_mark.line + 1
    loader.flatten_mapping(node)
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            if key in mapping:
                raise YamlError(f"line {key_node.start_mark.line + 1}: key '{elide(str(key))}' appears twice")
            mapping.key_lines[key] = key_node.start_mark.line + 1
        except TypeError:  # an unhashable key such as a list
            raise YamlError(f"line {key_node.start_mark.line + 1}: a key must be text, not {show(key)}") from None
        mapping[key] = loader.construct_object(value_node, deep=True)
    return mapping


def _construct_int(loader: _Loader, node: yaml.ScalarNode) -> int | None:
    digits = sum(ch.isalnum() for ch in node.value)
    if digits > MAX_INT_DIGITS:
        loader.odd(node, f"a whole number has at most {MAX_INT_DIGITS} digits (the cap), not {digits}")
        return None
    return loader.construct_yaml_int(node)


def _construct_float(loader: _Loader, node: yaml.ScalarNode) -> float | None:
    value = loader.construct_yaml_float(node)
    if not math.isfinite(value):
        loader.odd(node, "a number that is not finite (.nan or .inf) is not allowed here")
        return None
    return value


def _construct_odd(loader: _Loader, node: yaml.Node) -> None:
    tag = node.tag or ""
    what = ODD_TAGS.get(tag) or f"the tag {show(tag)}"
    loader.odd(node, f"{what} is not allowed here; write text in quotes")


_Loader.add_constructor(Resolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor("tag:yaml.org,2002:int", _construct_int)
_Loader.add_constructor("tag:yaml.org,2002:float", _construct_float)
for _tag in ODD_TAGS:
    _Loader.add_constructor(_tag, _construct_odd)
_Loader.add_constructor(None, _construct_odd)  # any other tag: !!python/object, !custom, ...


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
    loader = None
    try:
        loader = _Loader(text)
        data = loader.get_single_data()
    except YamlError:
        raise
    except yaml.reader.ReaderError as error:
        line = text[: error.position].count("\n") + 1
        code = error.character if isinstance(error.character, int) else ord(str(error.character)[:1] or "?")
        raise YamlError(f"line {line}: the character #x{code:04x} is not allowed in a YAML file") from None
    except yaml.MarkedYAMLError as error:
        from coach import yaml_words  # only a file that fails to parse needs it

        raise YamlError(yaml_words.explain(text, error)) from None
    except (yaml.YAMLError, TypeError, ValueError) as error:
        raise YamlError(f"not valid YAML ({elide(' '.join(str(error).split()), 80)})") from None
    except RecursionError:
        raise YamlError(f"nested more than {MAX_DEPTH} levels deep (the cap)") from None
    finally:
        if loader is not None:
            loader.dispose()
    if loader is not None and loader.problems:
        raise YamlError(loader.problems)
    return data


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
