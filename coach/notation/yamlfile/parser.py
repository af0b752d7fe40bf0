"""The YAML parser behind `coach.notation.yamlfile.load`, kept apart so that PyYAML
is imported only when a file is really parsed: a command whose card's
tables come from the cache (coach.reading.disk_cache) starts without it (issue 13).
"""

from __future__ import annotations

import math
from typing import Any

import yaml
import yaml.reader
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.resolver import Resolver

from coach.notation.yamlfile import MAX_DEPTH, MAX_INT_DIGITS, MAX_VALUES, LineDict, YamlError, elide, show

try:  # libyaml's parser when it is there: the same events, several times faster
    from yaml._yaml import CParser as _Parser

    def _init_parser(loader: Any, text: str) -> None:
        _Parser.__init__(loader, text)

except ImportError:  # pragma: no cover - PyYAML without libyaml
    from yaml.parser import Parser as _Parser
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class _PyParser(Reader, Scanner, _Parser):
        pass

    def _init_parser(loader: Any, text: str) -> None:
        Reader.__init__(loader, text)
        Scanner.__init__(loader)
        _Parser.__init__(loader)

    _Parser = _PyParser


# What a scalar of each refused tag is called in a message.
ODD_TAGS = {
    "tag:yaml.org,2002:timestamp": "a date or time",
    "tag:yaml.org,2002:binary": "binary data",
    "tag:yaml.org,2002:set": "a set (!!set)",
    "tag:yaml.org,2002:omap": "an ordered map (!!omap)",
    "tag:yaml.org,2002:pairs": "a list of pairs (!!pairs)",
}


class _Loader(Composer, _Parser, SafeConstructor, Resolver):
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


def parse(text: str) -> Any:
    """Parse YAML text (already within the size cap) within the other caps; YamlError with a line otherwise."""
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
        from coach.notation.yamlfile import messages as yaml_words  # only a file that fails to parse needs it

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
