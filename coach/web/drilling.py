"""Asking and grading, shared by the pages and the API.

A question travels as a signed token of its drill, seed, level and card
name, nothing else: grading checks the signature, regenerates the
question from those four and grades the answer against it. The client
never says what was asked, so it cannot change the question.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from itsdangerous import BadData, URLSafeSerializer

import drills
from coach.card import Card
from drills.base import AnswerError, Question, Verdict

TOKEN_SALT = "question"
MAX_SEED = 2**53 - 1  # the largest whole number JSON carries exactly
CACHE_SIZE = 512


class DrillError(ValueError):
    """A request the drills cannot serve; `status` is the HTTP status to answer."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass(frozen=True)
class Asked:
    """A question and the token that stands for it."""

    question: Question
    token: str
    module: ModuleType


class Drilling:
    """The app's card, its token signer and a small cache of questions."""

    def __init__(self, card: Card, secret_key: str):
        self.card = card
        self.signer = URLSafeSerializer(secret_key, salt=TOKEN_SALT)
        self._cache: OrderedDict[tuple[str, int, int], Question] = OrderedDict()
        self._lock = threading.Lock()

    # -- drills, levels, seeds ------------------------------------------------

    @staticmethod
    def drill(name: str) -> ModuleType:
        try:
            return drills.get(name)
        except KeyError as error:
            raise DrillError(error.args[0], 404) from None

    @staticmethod
    def level(module: ModuleType, value: Any) -> int:
        if value is None:
            return 1
        count = len(module.LEVELS)
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= count:
            raise DrillError(f'"level" must be a whole number from 1 to {count} for {module.NAME}, not {value!r}')
        return value

    @staticmethod
    def seed(value: Any) -> int:
        if value is None:
            return secrets.randbelow(2**31)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SEED:
            raise DrillError(f'"seed" must be a whole number from 0 to {MAX_SEED}, not {value!r}')
        return value

    # -- asking ---------------------------------------------------------------

    def question(self, module: ModuleType, seed: int, level: int) -> Question:
        """The question for (drill, seed, level) on this app's card, cached."""
        key = (module.NAME, seed, level)
        with self._lock:
            cached = self._cache.get(key)
            if cached is not None:
                self._cache.move_to_end(key)
                return cached
        question = module.generate(seed, level, self.card)
        with self._lock:
            self._cache[key] = question
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        return question

    def ask(self, name: str, seed: Any = None, level: Any = None) -> Asked:
        module = self.drill(name)
        level = self.level(module, level)
        seed = self.seed(seed)
        question = self.question(module, seed, level)
        return Asked(question, self.token(question), module)

    def token(self, question: Question) -> str:
        payload = {"drill": question.drill, "seed": question.seed, "level": question.level, "card": question.card}
        return str(self.signer.dumps(payload))

    # -- grading --------------------------------------------------------------

    def from_token(self, name: str, token: Any) -> Asked:
        """The question a token stands for, regenerated; DrillError if the
        token was altered, forged, or belongs to another drill or card."""
        module = self.drill(name)
        if not isinstance(token, str) or not token:
            raise DrillError('"token" must be the question token the server gave, as text')
        try:
            payload = self.signer.loads(token)
        except BadData:
            raise DrillError(
                "the question token is not valid: it was altered, or this server did not issue it. "
                "Ask for a new question."
            ) from None
        if not isinstance(payload, dict) or set(payload) != {"drill", "seed", "level", "card"}:
            raise DrillError("the question token is not valid: ask for a new question")
        if payload["drill"] != module.NAME:
            raise DrillError(f'this token is for the drill "{payload["drill"]}", not "{module.NAME}"')
        if payload["card"] != self.card.name:
            raise DrillError(
                f'this question was asked on the card "{payload["card"]}", but the coach now uses '
                f'"{self.card.name}": ask for a new question'
            )
        if payload["level"] is None or payload["seed"] is None:
            raise DrillError("the question token is not valid: ask for a new question")
        level = self.level(module, payload["level"])
        seed = self.seed(payload["seed"])
        question = self.question(module, seed, level)
        return Asked(question, token, module)

    def grade(self, name: str, token: Any, answer: Any) -> tuple[Asked, Verdict]:
        asked = self.from_token(name, token)
        try:
            verdict = asked.module.grade(asked.question, answer)
        except AnswerError as error:
            raise DrillError(str(error)) from None
        return asked, verdict
