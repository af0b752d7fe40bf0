"""The drill protocol: every drill is a module with

    NAME: str                      # "name-the-tile": URL and API name
    TITLE: str                     # "Name the tile"
    LEVELS: tuple[Level, ...]      # numbered from 1
    generate(seed: int, level: int, card: Card) -> Question
    TABLE_RULES: bool              # optional: True when generate also takes `rules=`, a
                                   # TableRules, and asks under the table's own rules
                                   # (call it through drills.generate)
    grade(question: Question, answer: object) -> Verdict  # shaped by drills/kit/short.py
    hint(question: Question) -> str  # a nudge before the answer, never the answer
    TEMPLATE: str                  # optional: "choice" for drills answered by picking one
                                   # of `question.choices` (the shared page templates)

A question is rebuilt from (drill, seed, level, card, table rules) alone,
so the web layer never has to trust a client for what was asked: it signs
those and regenerates the question to grade an answer. The table rules
(coach.rules.table_rules) are the League's unless a learner or a class
chose their own; the question carries them (`rules`).

`answer` is what the learner sent, already decoded from JSON or a form:
the drill checks its shape and raises AnswerError with a message that
names the problem. `None` means "I don't know, show me": graded as not
correct, with the full explanation and the best answer.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import wraps
from typing import Any, TypeVar

from coach.common.errors import CoachError
from coach.common.kept import Kept
from coach.rules import scenes
from coach.rules.scenes import Scene
from coach.rules.table_rules import LEAGUE, TableRules


class AnswerError(CoachError, ValueError):
    """An answer of the wrong shape for its drill (the web layer's 400)."""


@dataclass(frozen=True)
class Level:
    number: int
    title: str
    description: str


@dataclass(frozen=True)
class Question:
    drill: str
    seed: int
    level: int
    card: str  # the card's name
    prompt: str
    rack: tuple[str, ...] = ()  # tile codes shown as the learner's rack
    exposed: tuple[tuple[str, ...], ...] = ()  # the learner's exposures, tile codes
    choices: tuple[str, ...] = ()  # answer choices, where the drill has them
    tile: str | None = None  # one tile shown on its own (name-the-tile)
    facts: tuple[str, ...] = ()  # the situation in short lines, for rules drills ("You are West.")
    items: tuple[str, ...] = ()  # finer skills this question exercises: "tile:5D", "rule:J2"
    key: Any = field(default=None, repr=False, compare=False)  # the drill's own answer key, never shown
    # Everything the question shows or names of the table, for the scene
    # checker; None means rack, exposed and tile are all of it. Never shown.
    scene: Scene | None = field(default=None, repr=False, compare=False)
    rules: TableRules = LEAGUE  # the table rules the question was asked under

    def table(self) -> Scene:
        """The scene to check: the drill's own, or the one rack, exposed and tile make."""
        return self.scene or scenes.of_question(self.rack, self.exposed, self.tile)

    def public(self) -> dict[str, Any]:
        """What a page or the API may show: never the answer key."""
        data: dict[str, Any] = {
            "drill": self.drill,
            "seed": self.seed,
            "level": self.level,
            "card": self.card,
            "prompt": self.prompt,
        }
        if self.rack:
            data["rack"] = list(self.rack)
        if self.exposed:
            data["exposed"] = [list(e) for e in self.exposed]
        if self.choices:
            data["choices"] = list(self.choices)
        if self.tile:
            data["tile"] = self.tile
        if self.facts:
            data["facts"] = list(self.facts)
        if self.rules != LEAGUE:
            data["table_rules"] = self.rules.to_json()
        return data


@dataclass(frozen=True)
class Verdict:
    correct: bool
    score: float  # 0 to 1
    explanation: tuple[str, ...]  # short sentences for a beginner, each citing its rule id
    rules: tuple[str, ...]  # rule ids of docs/rules.md the verdict rests on
    best: Any  # the best answer, in the API's answer shape
    answer: Any = None  # the learner's answer, normalised (None for "show me")
    items: tuple[tuple[str, bool], ...] = ()  # per finer skill: right or wrong
    detail: dict[str, Any] = field(default_factory=dict, compare=False)  # extra for pages (highlights...)
    # What a beginner reads first (drills/kit/short.py): one line saying right or
    # not and the answer, at most three short reasons without rule ids (the
    # ids are `rules`, shown once as chips), and the rest, "Why, in full".
    headline: str = ""
    reasons: tuple[str, ...] = ()
    details: tuple[str, ...] = ()

    def public(self) -> dict[str, Any]:
        return {
            "correct": self.correct,
            "score": round(self.score, 3),
            "headline": self.headline,
            "reasons": list(self.reasons),
            "details": list(self.details),
            "explanation": list(self.explanation),
            "rules": list(self.rules),
            "best": self.best,
        }


# Which try of `checked` is dealing: a question whose scene no real set
# could make is dealt again from the next derived random source.
_ATTEMPT: ContextVar[int] = ContextVar("scene_attempt", default=0)
ATTEMPTS = 50  # far more than needed: a drill that fails this often has a dealing bug


def rng_for(drill: str, seed: int, level: int) -> random.Random:
    """The question's random source: same drill, seed and level, same question."""
    attempt = _ATTEMPT.get()
    return random.Random(f"{drill}:{level}:{seed}" + (f":{attempt}" if attempt else ""))


class SceneError(CoachError, RuntimeError):
    """A drill dealt nothing but impossible scenes for one seed: a dealing bug."""


Generate = Callable[..., Question]  # (seed, level, card) -> Question, and rules= where TABLE_RULES


def checked(generate: Generate) -> Generate:
    """`generate`, asking only questions whose scene a real game could show
    (`coach.rules.scenes`): a failing scene is dealt again from the next derived
    random source, so every seed still gives one question, always the same."""
    if getattr(generate, "scene_checked", False):
        return generate

    @wraps(generate)
    def ask(seed: int, level: int, card: Any, **rules: Any) -> Question:
        found: list[str] = []
        for attempt in range(ATTEMPTS):
            token = _ATTEMPT.set(attempt)
            try:
                question = generate(seed, level, card, **rules)
            finally:
                _ATTEMPT.reset(token)
            found = scenes.problems(question.table())
            if not found:
                return question
        raise SceneError(f"{question.drill} level {level} seed {seed}: {'; '.join(found)}")

    ask.scene_checked = True  # type: ignore[attr-defined]  # a mark on the function, so it is never wrapped twice
    return ask


def check_level(levels: tuple[Level, ...], level: int) -> None:
    if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= len(levels):
        raise AnswerError(f"level must be a whole number from 1 to {len(levels)}")



T = TypeVar("T")
CARDS_KEPT = 8  # cards whose per-card results are kept: the house card and a few of a table's own


def per_card(compute: Callable[[Any], T]) -> Callable[[Any], T]:
    """`compute(card)`, worked out once per Card object: what a drill's deal
    reads on every try (the lines it deals from) need not be rebuilt each
    time. Keyed by id(card) with the card as its owner (coach.common.kept), so an id
    reused by another card is never mistaken for it; only the last CARDS_KEPT
    cards are kept, so a card uploaded once is not held for good. The result
    is shared: return something immutable."""
    kept: Kept[T] = Kept(CARDS_KEPT)

    @wraps(compute)
    def cached(card: Any) -> T:
        return kept.get(id(card), lambda: compute(card), owner=card)

    return cached
