"""Everyone's own cards: saving a card anyone with an account wrote, and
which card a learner's drills deal from.

A card is a `TeacherCard` row whoever owns it (the table predates learners'
cards): private to its owner and to the students of a class whose
assignment uses it (`teachers_cards.may_use_card`). A learner's choice is kept
in `CardChoice` and checked again every time it is read, so a card that
was deleted, or a class that was left, quietly gives the house card back.
Nothing here knows of Flask.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, literal, union_all
from sqlmodel import Session, col, select

from coach.notation.card import Card, CardError, parse_card
from coach.store.models import Assignment, CardChoice, Classroom, Membership, TeacherCard
from coach.store.teaching import teachers_cards
from coach.store.teaching.errors import TeachingError
from drills.weight import weight_problem

DEFAULT_SOURCE = "Your card"


@dataclass(frozen=True)
class CardProblems:
    """Why a card was not saved: each problem at its line, and how many
    there were in all (the list may be capped)."""

    problems: list[str]
    total: int = 0

    @property
    def count(self) -> int:
        return self.total or len(self.problems)


def save_card(
    session: Session, owner_id: int, text: str, source: str = DEFAULT_SOURCE, card: Card | CardError | None = None
) -> TeacherCard | CardProblems:
    """Check a card's text and store it for its owner, or say what is wrong.

    The checks every upload gets, teacher's or learner's: the card format
    line by line within its size caps (coach.notation.card), then one first-pass question
    timed (drills.weight), so nobody ever waits on a card too heavy to
    drill on. Nothing is stored while there is any problem. `card`: what
    parsing `text` gave already in this request (the card or its refusal),
    so the text is parsed once; else it is parsed here, once."""
    if card is None:
        try:
            card = parse_card(text, source=source)
        except CardError as error:
            card = error
    if isinstance(card, CardError):
        return CardProblems(list(card.problems), card.total)
    heavy = weight_problem(card)
    if heavy:
        return CardProblems([heavy])
    try:
        return teachers_cards.add_card(session, owner_id, text, source=source, card=card)
    except CardError as error:
        return CardProblems(list(error.problems), error.total)
    except TeachingError as error:
        return CardProblems([str(error)])


@dataclass(frozen=True)
class CardOption:
    """A card a learner may drill on, as the picker lists it."""

    card_id: int
    name: str
    where: str  # "Your card" or "From <class name>"


def usable_cards(session: Session, learner_id: int) -> list[CardOption]:
    """The learner's own cards, then the cards of their classes' assignments
    (each once), by name: every card but the house card they may choose.
    One query of ids and names (every drill page lists these), never the cards' text."""
    own = select(TeacherCard.id, TeacherCard.name, literal(None).label("room")).where(TeacherCard.owner_id == learner_id)
    given: Select[*tuple[Any, ...]] = (  # mypy cannot infer the labelled column's type
        select(TeacherCard.id, TeacherCard.name, col(Classroom.name).label("room"))
        .join(Assignment, col(Assignment.card_id) == TeacherCard.id)
        .join(Classroom, col(Classroom.id) == Assignment.classroom_id)
        .join(Membership, col(Membership.classroom_id) == Classroom.id)
        .where(Membership.learner_id == learner_id)
    )
    rows = list(session.execute(union_all(own, given)).all())  # a list, to sort in place
    rows.sort(key=lambda r: (r[2] is not None, r[1], r[2] or "", r[0]))  # own cards first, then by name
    options: list[CardOption] = []
    seen: set[int] = set()
    for card_id, name, room in rows:
        if card_id not in seen:
            seen.add(card_id)
            options.append(CardOption(card_id, name, "Your card" if room is None else f"From {room}"))
    return options


def _choice_of(session: Session, learner_id: int) -> CardChoice | None:
    return session.exec(select(CardChoice).where(CardChoice.learner_id == learner_id)).first()


def chosen_row(session: Session, learner_id: int | None) -> TeacherCard | None:
    """The card the learner chose, while they may still use it; None: the house card."""
    if learner_id is None:
        return None
    choice = _choice_of(session, learner_id)
    if choice is None:
        return None
    return teachers_cards.may_use_card(session, learner_id, choice.card_id)


def choose(session: Session, learner_id: int, card_id: int | None) -> TeacherCard | None:
    """Deal the learner's drills from this card (None: the house card).
    TeachingError for a card they may not use: someone else's private card
    and a missing one get the same answer."""
    current = _choice_of(session, learner_id)
    if card_id is None:
        if current is not None:
            session.delete(current)
            session.commit()
        return None
    row = teachers_cards.may_use_card(session, learner_id, card_id)
    if row is None:
        raise TeachingError("There is no such card among the cards you may drill on.")
    if current is None:
        current = CardChoice(learner_id=learner_id, card_id=card_id)
    else:
        current.card_id = card_id
    session.add(current)
    session.commit()
    return row

