"""Verdicts a beginner reads in five seconds: a headline, a few reasons,
and the rest kept for "Why, in full".

A drill's `grade` explains itself in full sentences, each citing its rule
("... (J2)."), and quotes the rules it rests on word for word. That stays
the verdict's `explanation` (kept for teachers and the API). `shaped` adds
what a page shows first: a one-line headline (right or not, and the
answer), at most MAX_REASONS reasons without rule ids, since the ids are
shown once as chips, and the details. A rule quoted word for word is never
a reason or a detail: its chip links to it, so the same fact (say, the 152
tiles of a set) is not repeated under every answer.

Only wording lives here; the drills decide what is right.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from functools import lru_cache

from coach.rules import catalog as rulebook
from drills.kit.base import Verdict
from drills.kit.wording import capitalised

MAX_REASONS = 3
LONG = 200  # characters: a reason past this keeps its first sentences, the rest goes to the details
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\u201c\"])")

# "(K1)" or "(P2, P4)", with the space before it, wherever a line cites.
CITATION = re.compile(r"\s*\([A-Z]{1,2}\d(?:, [A-Z]{1,2}\d)*\)")  # "(TR1)" too


@lru_cache(maxsize=1)
def _quoted_rules() -> frozenset[str]:
    return frozenset(rulebook.cite(rule_id) for rule_id in rulebook.RULES)


def quotes_a_rule(line: str) -> bool:
    """Whether the line is a rule of the digest quoted word for word (`coach.rules.catalog.cite`)."""
    return line in _quoted_rules()


SPACE_BEFORE_STOP = re.compile(r"\s+([.,;:])")
DOUBLE_STOP = re.compile(r"\.\.$")


@lru_cache(maxsize=1024)
def plain(line: str) -> str:
    """The line without its rule ids, starting with a capital: "Play passes to the right.".
    Kept for the last lines made plain: a verdict makes each of its lines
    plain two or three times (reasons, details, what they must not repeat)."""
    text = CITATION.sub("", line).strip()
    text = SPACE_BEFORE_STOP.sub(r"\1", text)
    text = DOUBLE_STOP.sub(".", text)
    if text and text[-1] not in ".?!":
        text += "."
    return capitalised(text)


def headline(kind: str, words: str, what: str = "the answer is") -> str:
    """The verdict in one line. `kind` is "right", "half", "wrong" or "shown";
    `words` the answer as a beginner reads it ("the 9 Bam", "“12”")."""
    said = {
        "right": f"Right: {words}",
        "half": f"Half right: {what.replace('the answer', 'the best answer')} {words}",
        "wrong": f"Not quite: {what} {words}",
        "shown": f"{capitalised(what)} {words}",
    }[kind]
    return said if said[-1] in ".?!" else said + "."


def kind_of(correct: bool, answered: bool, score: float = 0.0) -> str:
    """Which headline a verdict takes."""
    if correct:
        return "right"
    if not answered:
        return "shown"
    return "half" if score > 0 else "wrong"


def _unique(lines: Iterable[str], skip: set[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        if quotes_a_rule(line):
            continue
        text = plain(line)
        if len(text) > 1 and text not in skip and text not in out:
            out.append(text)
    return out


def brief(reason: str) -> tuple[str, str]:
    """A long reason cut after its first sentences that fit in LONG
    characters (always one at least), and what is left of it."""
    if len(reason) <= LONG:
        return reason, ""
    sentences = SENTENCE_END.split(reason)
    kept = sentences[0]
    for i, sentence in enumerate(sentences[1:], 1):
        if len(kept) + 1 + len(sentence) > LONG:
            return kept, " ".join(sentences[i:])
        kept += " " + sentence
    return kept, ""


def shaped(verdict: Verdict, title: str, reasons: Iterable[str], details: Iterable[str] | None = None) -> Verdict:
    """The verdict with its headline, its first MAX_REASONS reasons and its
    details: `details` (by default the explanation's lines) less what the
    short part says already and the rules quoted word for word. Reasons past
    MAX_REASONS, and the tail of a long one, move to the front of the details."""
    short = _unique(reasons, {plain(title)})
    cut = [brief(reason) for reason in short[:MAX_REASONS]]
    kept = [head for head, _ in cut]
    rest = [tail for _, tail in cut if tail] + short[MAX_REASONS:]
    more = _unique([*rest, *(verdict.explanation if details is None else details)], {plain(title), *kept})
    return dataclasses.replace(verdict, headline=title, reasons=tuple(kept), details=tuple(more))
