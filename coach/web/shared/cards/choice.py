"""Which card a learner's drills deal from, as the drill pages and today's
practice read it (the routes that change it are in my_cards.py).

Read once a request, from the stored choice (coach/store/own_cards.py),
checked again each time: a card that is gone, or a class's card after
leaving the class, gives the house card back. Visitors and guests always
drill on the house card. A card that cannot make a question for some
drill (say, no line a first pass can aim at) falls back to the house card
for that question, and the page says so.
"""

from __future__ import annotations

from typing import Any

from flask import current_app, g, url_for
from flask_login import current_user

from coach.notation.card import Card
from coach.store import own_cards
from coach.web.infra import database
from coach.web.infra.redirects import safe_next
from coach.web.shared.cards import teachers as teacher_cards
from coach.web.shared.drilling import Asked, DrillError, Drilling
from coach.web.shared.learners import is_account
from coach.web.shared.table_rules import own_rules

HOUSE = "house"  # the picker's value for the house card


def _drilling() -> Drilling:
    return current_app.extensions["coach"]


def house_name() -> str:
    return _drilling().card.name


def account_id() -> int | None:
    return int(current_user.id) if is_account() else None


def _choice() -> tuple[int | None, Card | None]:
    """The chosen card's id and Card, (None, None) for the house card; read
    once a request (a drill page both asks and shows the picker)."""
    cached = getattr(g, "card_choice", None)
    if cached is not None:
        return cached
    learner_id = account_id()
    choice: tuple[int | None, Card | None] = (None, None)
    if learner_id is not None:
        with database.reading() as session:
            row = own_cards.chosen_row(session, learner_id)
            if row is not None:
                choice = (row.id, teacher_cards.card_of(row))
    g.card_choice = choice
    return choice


def chosen_card() -> Card | None:
    """The card this request's learner drills on; None: the house card
    (visitors, guests, and anyone whose chosen card is gone or no longer theirs)."""
    return _choice()[1]


def picker(next_url: str) -> dict[str, Any] | None:
    """The drill pages' card picker: the choices, the current one and the
    page to come back to; None for visitors and guests (who get a link to
    make an account instead)."""
    learner_id = account_id()
    if learner_id is None:
        return None
    chosen = _choice()[0]
    with database.reading() as session:
        options = own_cards.usable_cards(session, learner_id)
    return {
        "options": options,
        "current": chosen if chosen is not None else HOUSE,
        "house": house_name(),
        "next": safe_next(next_url) or url_for("pages.home"),
    }


def ask(name: str, seed: Any = None, level: Any = None) -> tuple[Asked, str | None]:
    """A question on the learner's chosen card, under their own table rules, and a
    note when it had to be asked on the house card instead. Bad input (drill,
    level, seed) is a DrillError whichever card is chosen."""
    drilling = _drilling()
    card = chosen_card()
    rules = own_rules()
    if card is None:
        return drilling.ask(name, seed=seed, level=level, rules=rules), None
    module = drilling.drill(name)
    level = drilling.level(module, level)
    seed = drilling.seed(seed)
    try:
        return drilling.ask(name, seed=seed, level=level, card=card, rules=rules), None
    except DrillError:
        note = (
            f"Your card \u201c{teacher_cards.title(card.name)}\u201d cannot make a question for "
            f"{module.TITLE}, level {level}, so this one is on the house card."
        )
        return drilling.ask(name, seed=seed, level=level, rules=rules), note
