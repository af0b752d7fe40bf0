"""A learner's recent mistakes, as the progress page and today's summary list
them, and the words their answers are told in (tile names, drill and level titles).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from types import ModuleType
from typing import Any
from zoneinfo import ZoneInfo

from flask import current_app, url_for

import drills
from coach.notation import tiles
from coach.notation.card import Card
from coach.rules import catalog as rules
from coach.rules.table_rules import TableRules, TableRulesError
from coach.store.models import Attempt
from coach.store.progress import rules_of_key
from coach.web.shared.cards import teachers as teacher_cards
from coach.web.shared.dates import short_date
from coach.web.shared.drilling import Drilling
from coach.web.shared.table_rules import own_rules

RECENT_MISTAKES = 10


@dataclass
class Mistake:
    drill: str
    title: str
    level: int
    level_title: str
    when: str
    prompt: str | None
    tile: str | None
    answer: str | None  # None: the learner asked to be shown
    best: str | None
    explanation: list[str]
    rules: list[str]
    replay_url: str | None  # the same question; None when the card has changed
    fresh_url: str | None
    card: str = ""  # the card it was asked on, as players name it


def drill_module(name: str) -> ModuleType | None:
    return drills.DRILLS.get(name)


def drill_title(name: str) -> str:
    module = drill_module(name)
    return module.TITLE if module else name.replace("-", " ").capitalize()


def level_title(name: str, level: int) -> str:
    module = drill_module(name)
    if module and 1 <= level <= len(module.LEVELS):
        return module.LEVELS[level - 1].title
    return ""


def level_ok(name: str, level: int) -> bool:
    module = drill_module(name)
    return module is not None and 1 <= level <= len(module.LEVELS)


def tile_label(code: str) -> str:
    return "Soap (White Dragon)" if code == "WD" else tiles.name(code)


def answer_text(raw: str) -> str | None:
    """A stored answer (JSON) in words: tile names for tile codes, lists joined."""
    try:
        value = json.loads(raw)
    except (TypeError, ValueError):
        return str(raw)
    if value is None:
        return None
    if isinstance(value, list):
        return ", ".join(answer_text(json.dumps(v)) or "" for v in value)
    if isinstance(value, str) and value in tiles.CODES:
        return tile_label(value)
    return str(value)


def json_list(raw: str) -> list[Any]:
    try:
        value = json.loads(raw)
    except (TypeError, ValueError):
        return []
    return value if isinstance(value, list) else []


def known_rule(rule_id: str) -> bool:
    return rule_id in rules.RULES


def when_text(moment: datetime, today: date, tz: ZoneInfo) -> str:
    local = moment.astimezone(tz)
    day = local.date()
    clock = local.strftime("%H:%M")
    if day == today:
        return f"Today, {clock}"
    if day == today - timedelta(days=1):
        return f"Yesterday, {clock}"
    return f"{short_date(day, day.year != today.year)}, {clock}"


def asked_under(attempt: Attempt) -> TableRules | None:
    """The table rules an answer's question was asked under (its key says, see
    coach.store.progress.question_key); None when the key names rules no longer known."""
    try:
        return rules_of_key(attempt.question, attempt.card)
    except TableRulesError:
        return None


def recent_mistakes(attempts: list[Attempt], today: date, tz: ZoneInfo, card: Card) -> list[Mistake]:
    drilling: Drilling = current_app.extensions["coach"]
    playing = own_rules()  # "Try again" asks under the learner's rules now: only the same question if they are the same
    out = []
    for a in reversed(attempts):
        if a.correct:
            continue
        known = level_ok(a.drill, a.level)
        asked = asked_under(a)
        same_card = a.card == card.name
        prompt = tile = None
        if known and same_card and asked is not None:
            module = drill_module(a.drill)
            assert module is not None
            try:
                q = drilling.question(module, a.seed, a.level, card, asked)
            except Exception:  # a question that cannot be rebuilt is shown without its prompt
                q = None
            if q is not None:
                prompt, tile = q.prompt, q.tile
        out.append(
            Mistake(
                drill=a.drill,
                title=drill_title(a.drill),
                level=a.level,
                level_title=level_title(a.drill, a.level),
                when=when_text(a.answered_at, today, tz),
                prompt=prompt,
                tile=tile,
                answer=answer_text(a.answer),
                best=answer_text(a.best),
                explanation=[str(line) for line in json_list(a.explanation)],
                rules=[r for r in json_list(a.rules) if isinstance(r, str) and known_rule(r)],
                replay_url=(
                    url_for("pages.drill_page", name=a.drill, level=a.level, seed=a.seed)
                    if known and same_card and asked == playing
                    else None
                ),
                fresh_url=url_for("pages.drill_page", name=a.drill, level=a.level) if known else None,
                card=teacher_cards.title(a.card),
            )
        )
        if len(out) == RECENT_MISTAKES:
            break
    return out
