"""Safe YAML loading that remembers line numbers.

Card files and drill sets are written by people; an error that says
"line 12" is one they can fix. Mappings load as `LineDict`, a dict that
knows the line it started on and the line of each of its keys.
"""

from __future__ import annotations

from typing import Any

import yaml


class LineDict(dict):
    line: int = 0
    key_lines: dict  # key -> 1-based line of the key, set by the loader

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.key_lines = {}


class _Loader(yaml.SafeLoader):
    pass


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> LineDict:
    mapping = LineDict()
    mapping.line = node.start_mark.line + 1
    loader.flatten_mapping(node)
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in mapping:
            raise YamlError(f"line {key_node.start_mark.line + 1}: key '{key}' appears twice")
        mapping.key_lines[key] = key_node.start_mark.line + 1
        try:
            mapping[key] = loader.construct_object(value_node, deep=True)
        except TypeError as error:  # an unhashable key such as a list
            raise YamlError(f"line {key_node.start_mark.line + 1}: {error}") from None
    return mapping


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


class YamlError(ValueError):
    pass


def load(text: str) -> Any:
    """Parse YAML text safely; syntax errors become a YamlError with a line."""
    try:
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - _Loader is a SafeLoader
    except YamlError:
        raise
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        raise YamlError(f"{where}not valid YAML ({error.problem or error.context})") from None
    except (yaml.YAMLError, TypeError) as error:
        raise YamlError(f"not valid YAML ({error})") from None


def line_of(value: Any, default: int = 0) -> int:
    return getattr(value, "line", default)


def key_line(mapping: Any, key: Any, default: int = 0) -> int:
    """The line of `key` in `mapping`; the mapping's own line when the key is
    absent (a missing key is best reported where its mapping starts)."""
    try:
        return getattr(mapping, "key_lines", {})[key]
    except (KeyError, TypeError):  # TypeError: an unhashable key
        return line_of(mapping, default)
