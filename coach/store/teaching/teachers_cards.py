"""Teachers' cards: card files a teacher keeps, checked when stored, and who
may be asked questions on one.

Every getter takes the id of the person asking and returns None for what
is not theirs: the web layer turns that into a 404.
"""

from __future__ import annotations

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from coach.notation.card import Card, parse_card
from coach.store.models import Assignment, ClassHand, Classroom, DrillSetRow, Membership, TeacherCard
from coach.store.teaching.errors import TeachingError
from drills.sets import HOUSE

MAX_CARD_BYTES = 64 * 1024


def card_key(row: TeacherCard) -> str:
    """The name a teacher's card goes by in questions and tokens: its own
    name and its number, so two teachers' "Spring class" cards never mix."""
    return f"{row.name} #{row.id}"


def card_id_in(key: str) -> int | None:
    """The card number in a key made by `card_key`, or None."""
    head, sep, number = key.rpartition(" #")
    if not sep or not head or not number.isdigit() or len(number) > 12:
        return None
    return int(number)


def parsed_card(row: TeacherCard) -> Card:
    """The card a row holds, named by its key (see `card_key`)."""
    card = parse_card(row.source, source=row.name)
    return Card(name=card_key(row), year=card.year, sections=card.sections)


def add_card(session: Session, teacher_id: int, text: str, source: str = "card", card: Card | None = None) -> TeacherCard:
    """Store a teacher's card after validating it; CardError lists every problem.
    `card`: `text` already parsed by the caller, so a request parses it once."""
    if len(text.encode("utf-8")) > MAX_CARD_BYTES:
        raise TeachingError(f"A card file can be at most {MAX_CARD_BYTES // 1024} KB; this one is larger.")
    if card is None:
        card = parse_card(text, source=source)  # raises CardError naming each line
    name = card.name[:120]
    taken = session.exec(select(TeacherCard).where(TeacherCard.owner_id == teacher_id, TeacherCard.name == name)).first()
    if taken is not None:
        raise TeachingError(
            f"You already have a card named \u201c{name}\u201d. Change the name at the top of the file, "
            "or delete the old card first."
        )
    row = TeacherCard(owner_id=teacher_id, name=name, source=text, lines=len(card.lines))
    session.add(row)
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
        raise TeachingError(f"You already have a card named \u201c{name}\u201d.") from None
    session.refresh(row)
    return row


def cards_of(session: Session, teacher_id: int) -> list[TeacherCard]:
    return list(
        session.exec(select(TeacherCard).where(TeacherCard.owner_id == teacher_id).order_by(TeacherCard.name)).all()
    )


def card_of(session: Session, teacher_id: int, card_id: int) -> TeacherCard | None:
    row = session.get(TeacherCard, card_id)
    return row if row is not None and row.owner_id == teacher_id else None


def card_uses(session: Session, card_id: int) -> list[str]:
    """What would break without this card: the sets and assignments that name it."""
    sets = session.exec(select(DrillSetRow.title).where(DrillSetRow.card_id == card_id)).all()
    given = session.exec(
        select(Assignment.title, Classroom.name)
        .join(Classroom, col(Classroom.id) == Assignment.classroom_id)
        .where(Assignment.card_id == card_id)
    ).all()
    return [f"the set \u201c{t}\u201d" for t in sets] + [f"\u201c{t}\u201d assigned to {c}" for t, c in given]


def delete_card(session: Session, teacher_id: int, card_id: int) -> bool:
    """Delete a teacher's card; TeachingError while a set or assignment uses it."""
    row = card_of(session, teacher_id, card_id)
    if row is None:
        return False
    uses = card_uses(session, card_id)
    if uses:
        raise TeachingError(f"\u201c{row.name}\u201d is still used by {', '.join(uses)}. Delete those first.")
    name = row.name
    session.delete(row)  # learners' choice of it goes too (CardChoice's foreign key cascades)
    try:
        session.commit()
    except IntegrityError:  # a class hand is dealt on it (its foreign key says so)
        session.rollback()
        raise TeachingError(f"\u201c{name}\u201d is still used by a class hand. Delete the class hand first.") from None
    return True


def may_use_card(session: Session, learner_id: int | None, card_id: int) -> TeacherCard | None:
    """The card, when this person may be asked questions on it: its teacher,
    or a student in one of an assignment's classes that uses it."""
    row = session.get(TeacherCard, card_id)
    if row is None or learner_id is None:
        return None
    if row.owner_id == learner_id:
        return row
    member = session.exec(
        select(Membership.id)
        .join(Assignment, col(Assignment.classroom_id) == Membership.classroom_id)
        .where(Membership.learner_id == learner_id, Assignment.card_id == card_id)
    ).first()
    if member is None:  # a class hand dealt on the card counts too
        member = session.exec(
            select(Membership.id)
            .join(ClassHand, col(ClassHand.classroom_id) == Membership.classroom_id)
            .where(Membership.learner_id == learner_id, ClassHand.card_id == card_id)
        ).first()
    return row if member is not None else None



def card_names(session: Session, teacher_id: int) -> list[str]:
    """What a teacher's set may name as its card: the house card and theirs."""
    return [HOUSE] + [c.name for c in cards_of(session, teacher_id)]


def card_id_for(session: Session, teacher_id: int, name: str) -> int | None:
    if name == HOUSE:
        return None
    row = session.exec(select(TeacherCard).where(TeacherCard.owner_id == teacher_id, TeacherCard.name == name)).first()
    if row is None:
        raise TeachingError(f"\u201c{name}\u201d is not one of your cards.")
    return row.id


