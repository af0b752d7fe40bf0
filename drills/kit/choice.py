"""What every drill answered by picking one of its choices shares: one record
for a drawn situation (`Draft`), one question builder (`question`, and
`asking` for a drill that is a header plus a table of situation builders),
one answer key (`answer_key`), one `grade`, and one retry loop (`dealt`).

Only the phrasing of a verdict differs between drills (`Voice`), so each
drill keeps the wording its learners and tests know."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from coach.common.errors import CoachError
from coach.rules.scenes import Scene
from coach.rules.table_rules import LEAGUE, TableRules
from drills.kit import hints, short
from drills.kit.base import AnswerError, Level, Question, Verdict, check_level, rng_for

# "(K1)" or "(P2, P4)" at the end of an explanation's sentence.
CITED = re.compile(r"\(([A-Z]{1,2}\d(?:, [A-Z]{1,2}\d)*)\)")  # the table rules too: "(TR1)"


def json_type(value: object) -> str:
    """How a JSON value's type reads in a message."""
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def picked(question: Question, answer: object) -> str | None:
    """The choice the learner picked (case and spacing do not matter), None
    for "show me"; AnswerError for anything else."""
    if answer is None:
        return None
    if not isinstance(answer, str):
        raise AnswerError(f'the answer must be one of the choices as text (or null for "show me"), not {json_type(answer)}')
    wanted = " ".join(answer.split()).casefold()
    for choice in question.choices:
        if " ".join(choice.split()).casefold() == wanted:
            return choice
    listed = "; ".join(f'"{c}"' for c in question.choices)
    raise AnswerError(f'"{answer.strip()}" is not one of the choices: {listed}')


def cited(lines: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """The rule ids cited in these lines, in order of first mention."""
    ids: dict[str, None] = {}
    for line in lines:
        for group in CITED.findall(line):
            for rule_id in group.split(", "):
                ids[rule_id] = None
    return tuple(ids)


@dataclass(frozen=True)
class Voice:
    """How a drill's verdicts read: the same facts, said in the drill's own
    long-standing phrasing (the tests and learners know each drill's)."""

    right: str  # "Right: {reason}"
    shown: str  # for "show me": 'The answer is "{best}". {reason}'
    wrong: tuple[str, ...]  # lines for a wrong pick: {opening}, {best}, {reason}, {pick}, {why}
    also: str = '"{also}" is right too. {why}'  # another choice the rules allow as well


# Rules drills whose reasons run on from a colon, with curly quotes.
COLON = Voice(
    right="Right: {reason}", shown="The answer is \u201c{best}\u201d. {reason}",
    wrong=("{opening}: the answer is \u201c{best}\u201d. {reason}", "You picked \u201c{pick}\u201d: {why}"),
)
# Drills whose wrong pick is answered first, then the right one.
WHY_FIRST = Voice(
    right="Right: {reason}", shown='The answer is "{best}": {reason}',
    wrong=("Not quite. {why}", 'The answer is "{best}": {reason}'),
)
# Drills that say each reason as a sentence of its own.
SENTENCE = Voice(
    right="Right. {reason}", shown='The answer is "{best}". {reason}',
    wrong=('{opening}: the answer is "{best}". {reason}', 'You picked "{pick}". {why}'),
)


def answer_key(
    best: str,
    why: dict[str, str],
    more: list[str] | tuple[str, ...] = (),
    *,
    voice: Voice,
    rules: list[str] | tuple[str, ...] | None = None,
    why_rules: dict[str, list[str]] | None = None,
    also: list[str] | tuple[str, ...] = (),
    partial: dict[str, float] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """The one answer key of every choice question.

    `why` says, for every choice, why it is right or wrong (the best's is the
    verdict's first line); `more` are the lines every verdict ends with;
    `rules` the rules the verdict rests on (None: those its lines cite and
    the question asks), and `why_rules` those a wrong pick adds; `also` other choices the rules allow
    as well; `partial` the credit of a half-right choice. `extra` keeps what a
    drill's tests check the question against."""
    return {
        "best": best, "why": dict(why), "more": list(more), "voice": voice, "rules": None if rules is None else list(rules),
        "why_rules": dict(why_rules or {}), "also": list(also), "partial": dict(partial or {}), **extra,
    }


def grade(question: Question, answer: object) -> Verdict:
    """The verdict on a pick among the choices, from the question's `answer_key`."""
    key = question.key
    voice: Voice = key["voice"]
    pick = picked(question, answer)
    best: str = key["best"]
    also: list[str] = list(key["also"])
    correct = pick == best or pick in also
    score = 1.0 if correct else float(key["partial"].get(pick, 0.0))
    reason = key["why"][best]
    if pick is None:
        lines = [voice.shown.format(best=best, reason=reason)]
    elif correct:
        lines = [voice.right.format(reason=key["why"][pick])]
        also = [best] + [a for a in also if a != pick] if pick != best else also
    else:
        opening = "Half right" if score else "Not quite"
        lines = [line.format(opening=opening, best=best, reason=reason, pick=pick, why=key["why"][pick]) for line in voice.wrong]
    lines += [voice.also.format(also=a, why=key["why"][a]) for a in also if a != pick]
    lines += key["more"]
    if key["rules"] is None:
        rules = [*cited(lines), *(item[5:] for item in question.items if item.startswith("rule:"))]
    else:
        rules = key["rules"] + ([] if correct else key["why_rules"].get(pick, []))
    verdict = Verdict(
        correct=correct, score=score, explanation=tuple(lines),
        rules=tuple(dict.fromkeys(rules)), best=best, answer=pick,
        items=tuple((item, correct) for item in question.items),
    )
    # Short: the answer in the headline, why it is right, why the pick is not, then the drill's own lines.
    reasons = [key["why"][pick if correct and pick is not None else best]]
    if pick is not None and not correct:
        reasons.append(f"You picked \u201c{pick}\u201d: {key['why'][pick]}")
    also_lines = [voice.also.format(also=a, why=key["why"][a]) for a in also if a != pick]
    return short.shaped(
        verdict, short.headline(short.kind_of(correct, pick is not None, score), f"\u201c{pick if correct else best}\u201d"),
        [*reasons, *key["more"]], [*also_lines, *key["more"]],
    )


def hint(question: Question) -> str:
    """A nudge before the answer: the question kind's own when it has one,
    else toward the rule the right choice rests on (the first its reason
    cites, else the first the question exercises)."""
    key = question.key
    if key.get("hint"):
        return str(key["hint"])
    return hints.for_rules([*cited([key["why"][key["best"]]]), *(key["rules"] or ()),
                            *(item[5:] for item in question.items if item.startswith("rule:"))])


@dataclass(frozen=True)
class Draft:
    """A drawn situation, before its choices are shuffled: what the learner is
    shown, the right choice with the lines that explain it, and every other
    choice with why it is wrong (citing the deciding rule)."""

    prompt: str
    facts: tuple[str, ...]
    best: str
    why: tuple[str, ...]  # the truth; the first line follows "Right: " or "The answer is ..."
    wrong: dict[str, str]  # wrong choice -> why it is wrong
    rules: tuple[str, ...]  # the rule ids the question exercises
    rack: tuple[str, ...] = ()
    exposed: tuple[tuple[str, ...], ...] = ()
    situation: dict[str, Any] = field(default_factory=dict)  # what a drill's tests check the key against
    scene: Scene | None = None  # the whole table shown, when rack and exposed are not all of it
    partial: dict[str, float] = field(default_factory=dict)  # half-right choice -> its credit
    also: tuple[str, ...] = ()  # other choices the rules allow as well
    # choice -> the rules its reason rests on, when not just those it cites: a wrong pick adds them to
    # the verdict's rules (with stated_rules), and the items list them after `rules`, in the order shown
    choice_rules: dict[str, tuple[str, ...]] = field(default_factory=dict)
    exercised: tuple[str, ...] = ()  # further rules the question exercises (its items) that no verdict rests on
    tile: str | None = None  # one tile shown on its own
    order: tuple[str, ...] = ()  # the choices before shuffling, when not the best then the wrong ones
    # The nudge of this kind of question, when the nudge of its rule would speak to another question
    # (issue 25: "May East change the discard?" is not about what East does differently). Never the answer.
    hint: str = ""
    # Which kind of question this is (a builder's name by default, see `asking`): questions of one kind ask
    # the same thing of different deals, so they share one hint, and the tests tell kinds apart by it.
    kind: str = ""


def question(rng: random.Random, drill: str, seed: int, level: int, card: str, draft: Draft, voice: Voice,
             stated_rules: bool = False) -> Question:
    """The question a draft asks, its choices shuffled by `rng`. With
    `stated_rules` a verdict rests on the draft's rules and those a wrong
    pick's reason cites; otherwise on every rule its lines cite."""
    choices = list(draft.order) or [draft.best, *draft.wrong]
    if len(set(choices)) != len(choices):
        raise AssertionError(f"choices repeat: {choices}")
    rng.shuffle(choices)
    key = answer_key(
        draft.best, {**draft.wrong, draft.best: draft.why[0]}, draft.why[1:], voice=voice,
        rules=draft.rules if stated_rules else None,
        why_rules={c: list(draft.choice_rules[c] if c in draft.choice_rules else cited([why])) for c, why in draft.wrong.items()} if stated_rules else None,
        also=draft.also, partial=draft.partial, situation=dict(draft.situation), hint=draft.hint, kind=draft.kind,
    )
    return Question(
        drill=drill, seed=seed, level=level, card=card, prompt=draft.prompt, rack=draft.rack,
        exposed=draft.exposed, choices=tuple(choices), tile=draft.tile, facts=draft.facts,
        items=tuple(f"rule:{r}" for r in dict.fromkeys([*draft.rules, *(r for c in choices for r in draft.choice_rules.get(c, ())), *draft.exercised])),
        key=key, scene=draft.scene,
    )


ATTEMPTS = 400  # deals tried per kind of situation; a few dozen at most are needed in practice
T = TypeVar("T")
# A situation builder: deals one situation of its kind from the question's random source.
Builder = Callable[[random.Random, Any], Draft]


class DealError(CoachError, RuntimeError):
    """No situation of the kind asked for after ATTEMPTS deals (a card too small for it)."""


def dealt(what: str, *kinds: Callable[[], T | None]) -> T:
    """The first situation dealt: each kind of deal (None when a deal misses)
    is tried ATTEMPTS times before the next, so a card of the table's own that
    lacks what one kind needs gets another kind of the level."""
    for deal in kinds:
        for _ in range(ATTEMPTS):
            found = deal()
            if found is not None:
                return found
    raise DealError(f"no {what} after {ATTEMPTS} deals" + (" of each kind" if len(kinds) > 1 else ""))


# Under a table's own rules: the builder of a level's question, drawn by the drill (drills/kit/table.py).
Under = Callable[[random.Random, TableRules, int], Builder]


def asking(drill: str, levels: tuple[Level, ...], builders: dict[int, tuple[Builder, ...]], voice: Voice,
           stated_rules: bool = False, under: Under | None = None) -> Callable[..., Question]:
    """The `generate` of a rules drill that is a header plus a table of
    situation builders per level: one builder drawn at random (no draw when
    a level has only one) deals the draft that `question` asks. With
    `under`, the drill also asks under a table's own rules (`rules=`): the
    League's rules take the League path untouched, any other rules let
    `under` draw the builder; the question carries the rules it was asked under."""

    def generate(seed: int, level: int, card: Any, rules: TableRules = LEAGUE) -> Question:
        check_level(levels, level)
        rng = rng_for(drill, seed, level)
        if rules != LEAGUE and under is not None:
            build = under(rng, rules, level)
        else:
            kinds = builders[level]
            build = kinds[0] if len(kinds) == 1 else rng.choice(kinds)
        draft = build(rng, card)
        if not draft.kind:
            draft = replace(draft, kind=getattr(build, "__name__", "").lstrip("_"))
        asked = question(rng, drill, seed, level, card.name, draft, voice, stated_rules)
        return asked if rules == LEAGUE else replace(asked, rules=rules)

    return generate
