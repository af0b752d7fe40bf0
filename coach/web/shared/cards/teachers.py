"""Teachers' own cards as the drills see them.

A question on a teacher's card names it "<card name> #<number>". To
grade such a question the card is looked up here, and only for someone
who may use it: the teacher, or a student of theirs whose class has an
assignment on it. Anyone else gets no card, so a token passed around
outside the class is refused.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

from flask_login import current_user

from coach.notation.card import Card
from coach.store.models import TeacherCard
from coach.store.teaching import teachers_cards
from coach.web.infra import database

CACHE_SIZE = 32
_parsed: OrderedDict[tuple[str, str], Card] = OrderedDict()
_lock = threading.Lock()


def content_key(row: TeacherCard) -> tuple[str, str]:
    """What a parsed card is cached under: its text (sha256) and the name its
    questions give it. Never the row's id or name alone: a card deleted and
    another stored under its id or name must never bring the old one back."""
    return hashlib.sha256(row.source.encode("utf-8")).hexdigest(), teachers_cards.card_key(row)


def card_of(row: TeacherCard) -> Card:
    """The row's card, parsed once: the same Card object each time, so the
    tables the analysis builds for it are built once too."""
    key = content_key(row)
    with _lock:
        card = _parsed.get(key)
        if card is not None:
            _parsed.move_to_end(key)
            return card
    card = teachers_cards.parsed_card(row)
    with _lock:
        card = _parsed.setdefault(key, card)
        while len(_parsed) > CACHE_SIZE:
            _parsed.popitem(last=False)
    return card


def title(name: str) -> str:
    """A card's name as a player reads it: a teacher's card without its number."""
    return name[: -len(suffix)] if (suffix := _number_suffix(name)) else name


def _number_suffix(name: str) -> str:
    head, sep, number = name.rpartition(" #")
    return sep + number if sep and head and number.isdigit() else ""


def current_id() -> int | None:
    if not current_user.is_authenticated:
        return None
    return int(current_user.id)


def find_card(key: str) -> Card | None:
    """The teacher's card a question names, if this request's person may use it."""
    card_id = teachers_cards.card_id_in(key)
    if card_id is None:
        return None
    with database.reading() as session:
        row = teachers_cards.may_use_card(session, current_id(), card_id)
        if row is None or teachers_cards.card_key(row) != key:
            return None
        return card_of(row)
