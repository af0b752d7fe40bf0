"""YAML syntax errors in plain words, at the line where the problem starts.

PyYAML says "expected <block end>, but found '<scalar>'" and, for a quote
that is never closed, often names a line far below the quote (the scanner
reads on to the next quote it finds). A teacher typing a card needs
"line 4: a quote is opened and never closed". So when a file does not
parse, `explain` first looks for the usual slips line by line (a tab used
to indent, a quote or bracket left open) at or above the line the parser
stopped at, and otherwise turns the parser's own problem into words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

OPENERS = {"[": "]", "{": "}"}
CLOSERS = {"]": "[", "}": "{"}
# A quote opens a quoted value only where a value can start; elsewhere
# ("note: it's fine") it is an ordinary character of a plain value.
VALUE_STARTS = {"", ":", "-", "[", "{", ",", "?"}


@dataclass(frozen=True)
class Slip:
    line: int  # 1-based
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


def explain(text: str, error: Any) -> str:
    """A one-line message for a MarkedYAMLError raised while parsing `text`."""
    problem = str(getattr(error, "problem", "") or "")
    context = str(getattr(error, "context", "") or "")
    problem_line = _line(getattr(error, "problem_mark", None), text)
    context_line = _line(getattr(error, "context_mark", None), text)
    stop = max(problem_line or 0, context_line or 0) or text.count("\n") + 1
    slip = first_slip(text, stop, flow="flow" in context)
    if slip is not None:
        return str(slip)
    return str(_from_parser(problem, context, problem_line, context_line, _char_at(text, error)))


def first_slip(text: str, stop: int, flow: bool = False) -> Slip | None:
    """The first tab indent or unclosed quote on lines 1..stop, or (when the
    parser was inside a [ ] or { } list) the bracket left open."""
    open_brackets: list[tuple[str, int]] = []
    for number, line in enumerate(text.splitlines()[:stop], start=1):
        indent = line[: len(line) - len(line.lstrip(" \t"))]
        if "\t" in indent and line.strip():
            return Slip(number, "a tab is used to indent this line; YAML needs spaces")
        quote, brackets = _scan(line)
        if quote:
            return Slip(number, f"a quote ({quote}) is opened and never closed on this line")
        for char in brackets:
            if char in OPENERS:
                open_brackets.append((char, number))
            elif open_brackets and open_brackets[-1][0] == CLOSERS[char]:
                open_brackets.pop()
            else:
                return Slip(number, f"a closing {char} with no {CLOSERS[char]} before it")
    if flow and open_brackets:
        char, number = open_brackets[0]
        return Slip(number, f"a {char} is opened and never closed with {OPENERS[char]} (or a comma is missing)")
    return None


def _scan(line: str) -> tuple[str | None, list[str]]:
    """The quote left open at the end of `line` (or None) and the brackets
    found outside quotes and comments, in order."""
    quote: str | None = None
    brackets: list[str] = []
    previous = ""  # the last character outside quotes that is not a space
    index = 0
    while index < len(line):
        char = line[index]
        if quote == '"':
            if char == "\\":
                index += 1
            elif char == '"':
                quote = None
                previous = '"'
        elif quote == "'":
            if char == "'" and line[index + 1 : index + 2] == "'":
                index += 1  # '' is a quote inside a single-quoted value
            elif char == "'":
                quote = None
                previous = "'"
        elif char == "#" and (index == 0 or line[index - 1] in " \t"):
            break
        elif char in "\"'" and previous in VALUE_STARTS:
            quote = char
        elif char in OPENERS and previous in VALUE_STARTS or char in CLOSERS:
            brackets.append(char)
            previous = char
        elif not char.isspace():
            previous = char if char in VALUE_STARTS else "x"
        index += 1
    return quote, brackets


def _line(mark: Any, text: str) -> int | None:
    if mark is None:
        return None
    last = text.count("\n") + 1
    return min(mark.line + 1, last)


def _from_parser(problem: str, context: str, problem_line: int | None, context_line: int | None, char: str) -> Slip:
    line = problem_line or context_line or 1
    if "quoted scalar" in context:
        return Slip(context_line or line, "a quote is opened and never closed")
    if "could not find expected ':'" in problem:
        return Slip(context_line or line, "a colon is missing: write it as `name: value`")
    if "mapping values are not allowed" in problem:
        return Slip(line, "a colon where none can go: check this line's indentation, or put a value that "
                    "holds a colon in quotes")
    if "cannot start any token" in problem:
        shown = f"the character {char!r}" if char else "this character"
        return Slip(line, f"a value cannot start with {shown}: put the value in quotes")
    if "expected '-' indicator" in problem:
        return Slip(line, "this line is indented differently from the list items above it")
    if "block sequence entries are not allowed" in problem:
        return Slip(line, "a list item (-) where it cannot go: start it on a line of its own, indented")
    if "expected key" in problem or "expected <block end>" in problem:
        return Slip(line, "this line is indented differently from the lines above it")
    if "expected ',' or" in problem or "flow" in context:
        return Slip(context_line or line, "a [ or { is opened and never closed (or a comma is missing)")
    if "document" in problem or "document" in context:
        return Slip(line, "a second document (---) or stray text after the card: a file holds one")
    return Slip(line, "this line is not valid YAML")


def _char_at(text: str, error: Any) -> str:
    """The character the parser stopped at, if it is a printable one."""
    mark = getattr(error, "problem_mark", None)
    index = getattr(mark, "index", None)
    if not isinstance(index, int) or not 0 <= index < len(text):
        return ""
    char = text[index]
    return char if char.isprintable() and not char.isspace() else ""
