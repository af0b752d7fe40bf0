"""Asking and grading, shared by the pages and the API.

A question travels as a signed token of its drill, seed, level and card
name, and its table rules when they are not the League's (a "rules" entry,
`TableRules.code()`), nothing else: grading checks the signature,
regenerates the question from those and grades the answer against it. The
client never says what was asked, so it cannot change the question. A
token without "rules" means the League's rules, so every token issued
before table rules existed still stands for the same question.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from itsdangerous import BadData

import drills
from coach.common.errors import CoachError
from coach.notation.card import Card
from coach.notation.yamlfile import elide
from coach.rules.table_rules import LEAGUE, TableRules, TableRulesError
from coach.web.infra.inputs import whole_number
from coach.web.shared.drilling.tokens import QuestionTokens
from drills.kit.base import AnswerError, Question, Verdict
from drills.sets import MAX_SEED  # 2**31 - 1, as in set files: answers keep seeds in PostgreSQL's integer

TOKEN_SALT = "question"
CACHE_SIZE = 512
DIGESTS_SIZE = 64  # cards whose digest is remembered (the app's and teachers' in use)


MAX_QUOTED = 60  # characters of a quoted value (an answer, a name) kept in a message
MAX_MESSAGE = 500  # characters of a whole message
_QUOTED = re.compile(rf'"([^"]{{{MAX_QUOTED + 1},}})"')


def excerpt(message: str) -> str:
    """`message` with every long quoted value cut short, and at most MAX_MESSAGE
    characters: an error never echoes more than an excerpt of what was sent
    (issue 26: a 60 KB answer came back whole in its error)."""
    message = _QUOTED.sub(lambda found: f'"{elide(found.group(1), MAX_QUOTED)}"', message)
    return elide(message, MAX_MESSAGE)


class DrillError(CoachError, ValueError):
    """A request the drills cannot serve; `status` is the HTTP status to answer.
    Its message is an excerpt: long values it quotes are cut short."""

    def __init__(self, message: str, status: int = 400):
        message = excerpt(message)
        super().__init__(message)
        self.message = message
        self.status = status


class NoSuchDrill(DrillError):
    """A drill name no drill has: a 404 whose message names the drills by their slugs
    (the API's words); a page names them by their titles instead."""

    def __init__(self, message: str):
        super().__init__(message, 404)


class AnswerProblem(DrillError):
    """An answer of the wrong shape for a good question (four tiles for a
    pass of three): the page asks again with the message, the API answers 400."""


@dataclass(frozen=True)
class Asked:
    """A question and the token that stands for it."""

    question: Question
    token: str
    module: ModuleType
    card: Card  # the card the question was asked on


CardFinder = Callable[[str], "Card | None"]


class Drilling:
    """The app's card, its token signer and a small cache of questions.

    Questions are asked on the app's card unless a caller passes another
    one (a teacher's card, for an assignment). A token names its card; to
    grade it, a card that is not the app's is looked up with `find_card`,
    which the web layer sets to a function that also checks that the
    person answering may use that card."""

    def __init__(self, card: Card, secret_key: str, find_card: CardFinder | None = None):
        self.card = card
        self.find_card = find_card
        self.signer = QuestionTokens(secret_key, TOKEN_SALT)  # URLSafeSerializer's tokens, its HMAC keyed once
        self._cache: OrderedDict[tuple[str, int, int, str, str], Question] = OrderedDict()
        self._digests: OrderedDict[int, tuple[Card, str]] = OrderedDict()
        self._lock = threading.Lock()

    def card_named(self, name: str) -> Card:
        if name == self.card.name:
            return self.card
        found = self.find_card(name) if self.find_card is not None else None
        if found is None:
            raise DrillError(
                f'this question was asked on the card "{name}", which you cannot use here '
                f'(the coach now uses "{self.card.name}"): ask for a new question'
            )
        return found

    # -- drills, levels, seeds ------------------------------------------------

    @staticmethod
    def drill(name: str) -> ModuleType:
        try:
            return drills.get(name)
        except KeyError as error:
            raise NoSuchDrill(error.args[0]) from None

    @staticmethod
    def level(module: ModuleType, value: Any) -> int:
        if value is None:
            return 1
        count = len(module.LEVELS)
        level = whole_number(value)
        if level is None or not 1 <= level <= count:
            raise DrillError(f'"level" must be a whole number from 1 to {count} for {module.NAME}, not {repr(value)[:40]}')
        return level

    @staticmethod
    def seed(value: Any) -> int:
        if value is None:
            return secrets.randbelow(2**31)
        seed = whole_number(value)
        if seed is None or not 0 <= seed <= MAX_SEED:
            raise DrillError(f'"seed" must be a whole number from 0 to {MAX_SEED}, not {repr(value)[:40]}')
        return seed

    # -- asking ---------------------------------------------------------------

    def question(
        self, module: ModuleType, seed: int, level: int, card: Card | None = None, rules: TableRules = LEAGUE
    ) -> Question:
        """The question for (drill, seed, level) on a card (the app's by default)
        under a table's rules (the League's by default), cached."""
        card = card or self.card
        key = (module.NAME, seed, level, self.digest(card), rules.code())
        with self._lock:
            cached = self._cache.get(key)
            if cached is not None:
                self._cache.move_to_end(key)
                return cached
        if card is self.card:
            question = drills.generate(module, seed, level, card, rules)
        else:
            question = generate_on(module, seed, level, card, rules)
        with self._lock:
            self._cache[key] = question
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        return question

    def digest(self, card: Card) -> str:
        """The card's content as a cache key (sha256), never its name: a
        teacher's card deleted and another made under its name and number
        must never be asked with the old card's questions. Worked out once
        per Card object, which is kept alongside so its id() stays its own."""
        with self._lock:
            known = self._digests.get(id(card))
            if known is not None and known[0] is card:
                self._digests.move_to_end(id(card))
                return known[1]
        digest = hashlib.sha256(repr(card).encode("utf-8")).hexdigest()
        with self._lock:
            self._digests[id(card)] = (card, digest)
            while len(self._digests) > DIGESTS_SIZE:
                self._digests.popitem(last=False)
        return digest

    def ask(
        self, name: str, seed: Any = None, level: Any = None, card: Card | None = None, rules: TableRules = LEAGUE
    ) -> Asked:
        module = self.drill(name)
        level = self.level(module, level)
        seed = self.seed(seed)
        question = self.question(module, seed, level, card, rules)
        return Asked(question, self.token(question), module, card or self.card)

    def token(self, question: Question) -> str:
        payload: dict[str, Any] = {"drill": question.drill, "seed": question.seed, "level": question.level, "card": question.card}
        if question.rules != LEAGUE:  # only then: a League token is the same as before table rules
            payload["rules"] = question.rules.code()
        return str(self.signer.dumps(payload))

    @staticmethod
    def rules_in(payload: dict[str, Any]) -> TableRules:
        """The table rules a token's payload names: the League's when it names none."""
        if "rules" not in payload:
            return LEAGUE
        code = payload["rules"]
        try:
            if not isinstance(code, str) or not code:  # the League's are never written as a code
                raise TableRulesError("no code")
            return TableRules.from_code(code)
        except TableRulesError:
            raise DrillError(
                "the question token names table rules this coach does not know: ask for a new question"
            ) from None

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
        if not isinstance(payload, dict) or set(payload) - {"rules"} != {"drill", "seed", "level", "card"}:
            raise DrillError("the question token is not valid: ask for a new question")
        if payload["drill"] != module.NAME:
            raise DrillError(f'this token is for the drill "{payload["drill"]}", not "{module.NAME}"')
        if not isinstance(payload["card"], str):
            raise DrillError("the question token is not valid: ask for a new question")
        card = self.card_named(payload["card"])
        if payload["level"] is None or payload["seed"] is None:
            raise DrillError("the question token is not valid: ask for a new question")
        level = self.level(module, payload["level"])
        seed = self.seed(payload["seed"])
        rules = self.rules_in(payload)
        question = self.question(module, seed, level, card, rules)
        return Asked(question, token, module, card)

    def grade(self, name: str, token: Any, answer: Any) -> tuple[Asked, Verdict]:
        asked = self.from_token(name, token)
        try:
            verdict = asked.module.grade(asked.question, answer)
        except AnswerError as error:
            raise AnswerProblem(str(error)) from None
        return asked, verdict


def generate_on(module: ModuleType, seed: int, level: int, card: Card, rules: TableRules = LEAGUE) -> Question:
    """A question on a card a teacher wrote. The house card is known to
    serve every drill; another card may lack what a drill needs (say, no
    line a first pass can aim at), which is the card's problem to report,
    not a crash."""
    try:
        return drills.generate(module, seed, level, card, rules)
    except Exception as error:
        raise DrillError(
            f'{module.TITLE} cannot make a level-{level} question from the card "{card.name}" '
            f"({error}). Choose another drill or level for this card."
        ) from None
