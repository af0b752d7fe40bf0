"""Which card a practice hand is played on: the house card, or a card the
learner may use (their own, or a class's) named by its key "Name #id".

A hand keeps its card's name (PracticeHand.card); each request finds the
card again and checks the hand's learner may still use it, as the drills
do with a chosen card (coach/web/card_choice.py). A card that is gone, or
a class's card after leaving the class, ends the hand's play: 409.
"""

from __future__ import annotations

from flask import abort, current_app
from sqlmodel import Session

from coach.card import Card
from coach.store import teaching
from coach.store.models import PracticeHand
from coach.web import learners, teacher_cards


def house() -> Card:
    return current_app.extensions["coach"].card


def usable(session: Session, learner_id: int | None, card_id: int) -> Card | None:
    """The card with this id when the learner may play on it, else None."""
    row = teaching.may_use_card(session, learner_id, card_id)
    return teacher_cards.card_of(row) if row is not None else None


def card_of_hand(row: PracticeHand) -> Card:
    """The card `row` was dealt on, or a 409 saying why it cannot go on."""
    card = house()
    if row.card == card.name:
        return card
    card_id = teaching.card_id_in(row.card)
    if card_id is not None:
        with Session(learners.engine()) as session:
            found = usable(session, row.learner_id, card_id)
        if found is not None and found.name == row.card:
            return found
    abort(409, description=f'This hand was dealt on "{row.card}", which you can no longer play on: start a new one.')
