"""Finding card lines by words: "pair of north", "flowers", "quint", "any 3 suits".

Each line gets a small index: phrases a beginner might type, built from its
pattern (the groups and what they are of), its suits, its numbers, concealed
or exposed, its value, id, section and note. Phrases are kept apart by " | "
so that a phrase never runs on into the next one.

`matches` is the search the card's search box runs (static/js/app.js does the
same in the browser): a line matches when its index holds the typed words as
one phrase; when no line at all does, a line matches when it holds each typed
word (small words like "of" aside), so "north pair" still finds pairs of North.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from coach.notation.card import GROUP_NAMES, Line, Token, parse_token, shifts_for

SEPARATOR = " | "
SMALL_WORDS = frozenset({"of", "a", "an", "the", "and", "with", "in"})
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")

# What a symbol is called, most specific first; the last word is its family.
_SYMBOL_WORDS: dict[str, tuple[str, ...]] = {
    "N": ("north", "norths", "north wind", "north winds", "winds", "wind"),
    "E": ("east", "easts", "east wind", "east winds", "winds", "wind"),
    "W": ("west", "wests", "west wind", "west winds", "winds", "wind"),
    "S": ("south", "souths", "south wind", "south winds", "winds", "wind"),
    "R": ("red", "reds", "red dragon", "red dragons", "dragons", "dragon"),
    "G": ("green", "greens", "green dragon", "green dragons", "dragons", "dragon"),
    "D": ("dragon", "dragons"),
    "0": ("soap", "soaps", "0", "white dragon", "white dragons", "zero", "zeros", "dragons", "dragon"),
    "F": ("flower", "flowers"),
}


def _symbol_words(symbol: str) -> tuple[str, ...]:
    if symbol in "123456789":
        word = NUMBER_WORDS[int(symbol)]
        return (symbol, f"{symbol}s", word, word + ("es" if word.endswith("x") else "s"), "numbers")
    return _SYMBOL_WORDS.get(symbol, ())


def _token_phrases(token: Token) -> list[str]:
    if token.is_group:
        kind = GROUP_NAMES[len(token.symbols)]
        kinds = (kind, kind + "s")
        words = _symbol_words(token.symbols[0])
        return [*kinds, *words, *(f"{k} of {w}" for k in kinds for w in words)]
    # A run like 2026 or 13579: the run as printed, and each symbol's own words.
    phrases = [token.symbols, "singles"]
    for symbol in dict.fromkeys(token.symbols):
        phrases += _symbol_words(symbol)
    return phrases


def _tokens(pattern: str) -> list[Token]:
    found = []
    for word in pattern.split():
        try:
            token = parse_token(word)
        except ValueError:
            continue
        if token is not None:
            found.append(token)
    return found


def _number_phrases(tokens: list[Token], numbers: str | tuple[int, ...]) -> list[str]:
    digits = [int(s) for t in tokens for s in t.symbols if s.isdigit() and s != "0"]
    if not digits:
        return ["no numbers"]
    phrases = []
    distinct = sorted(set(digits))
    if len(distinct) == 1:
        phrases += ["like numbers", "like number"]
    if len(distinct) > 1 and distinct == list(range(distinct[0], distinct[-1] + 1)):
        phrases += ["consecutive", "consecutive numbers", "run"]
    if all(d % 2 for d in distinct):
        phrases.append("odd")
    if not any(d % 2 for d in distinct):
        phrases.append("even")
    phrases.append("any numbers" if numbers == "any" else ("fixed numbers" if numbers == "fixed" else "numbers shift"))
    try:
        shifts = shifts_for(tokens, numbers)
    except ValueError:
        shifts = [0]
    # A line whose numbers move (1111a as any like number) is found by each number it can take.
    for number in sorted({d + k for d in distinct for k in shifts} - set(distinct)):
        phrases += [str(number), f"{number}s"]
    return phrases


def line_words(line: Line, section: str | None = None) -> str:
    """The line's word index: lower-case phrases joined by " | "."""
    tokens = _tokens(line.pattern)
    suits = len({t.suit for t in tokens if t.suit})
    phrases: list[str] = [line.id, section or line.section, line.note, str(line.value)]
    if suits:
        plural = "suit" if suits == 1 else "suits"
        phrases += [f"any {suits} {plural}", f"{suits} {plural}", f"{NUMBER_WORDS[suits]} {plural}"]
    phrases += ["concealed", "c"] if line.concealed else ["exposed", "x"]
    for token in tokens:
        phrases += _token_phrases(token)
    phrases += _number_phrases(tokens, line.numbers)
    if line.singles_and_pairs:
        phrases += ["singles and pairs", "pairs"]
    return SEPARATOR.join(_normal(p) for p in dict.fromkeys(p for p in phrases if p))


def _normal(text: str) -> str:
    return " ".join(re.sub(r"[^\w&-]+", " ", text.lower()).split())


def _words(query: str) -> list[str]:
    return [w for w in _normal(query).split() if w not in SMALL_WORDS]


def matches(index: str, query: str, loose: bool = False) -> bool:
    """Whether a line's index matches the query: as one phrase starting at a word
    ("flo" finds flowers while it is typed; a number is a whole number: "5"
    finds 5s, not 55, 2026 or 2468-5), or (`loose`) word by word."""
    phrase = _normal(query)
    if not phrase:
        return True
    if not loose:
        return re.search(r"(?:^|[ |])" + re.escape(phrase) + r"(?![0-9])", index) is not None
    held = set(index.replace("|", " ").split())
    return all(word in held for word in _words(query))


def search(indexes: Iterable[tuple[str, str]], query: str) -> list[str]:
    """The ids of the lines (id, index) a query finds, as the search box shows them."""
    pairs = list(indexes)
    found = [line_id for line_id, index in pairs if matches(index, query)]
    if found:
        return found
    return [line_id for line_id, index in pairs if matches(index, query, loose=True)]
