"""Class hands: a practice hand a teacher gives a whole class, the same
deal for everyone (issue 16, part 6).

A class hand fixes the seed, the computer players' strength and the card;
each student's hand of it is an ordinary PracticeHand (so it plays on the
same table and is reviewed the same way), linked to the class hand by a
ClassHandPlay row: one per student, and starting again resumes it.

As everywhere in coach/store/teaching, every getter takes the id of the person
asking and returns None for what is not theirs: a teacher reaches only
the class hands of their own classes, a student only those of classes
they are in, and only their own hand of it.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from coach.common import clock
from coach.play.bots import STRENGTHS as BOTS
from coach.store.hands import SEED_RANGE
from coach.store.models import ClassHand, ClassHandPlay, Classroom, Learner, Membership, PracticeHand, TeacherCard
from coach.store.table_rules import hand_rules, stored
from coach.store.teaching import classrooms, roles, teachers_cards
from coach.store.teaching.errors import TeachingError

MAX_TITLE = 80


def title_problem(title: str) -> str | None:
    if not title:
        return "Give the hand a title, such as \u201cWeek 3: the same deal for everyone\u201d."
    if len(title) > MAX_TITLE:
        return f"A title can be at most {MAX_TITLE} characters."
    return None


def assign_hand(
    session: Session,
    teacher_id: int,
    class_id: int,
    title: str,
    bots: str = "club",
    seed: int | None = None,
    card_id: int | None = None,
    due_at: datetime | None = None,
) -> ClassHand:
    """Give a class a hand: the seed as chosen, else drawn, under the class's
    table rules as they are now (kept with the hand); TeachingError says what is wrong."""
    room = classrooms.class_taught(session, teacher_id, class_id)
    if room is None:
        raise TeachingError("That class is not one of yours.")
    title = " ".join(title.split())
    problem = title_problem(title)
    if problem:
        raise TeachingError(problem)
    if bots not in BOTS:
        raise TeachingError(f"The computer players are {', '.join(BOTS)}.")
    if seed is not None and not 0 <= seed < SEED_RANGE:
        raise TeachingError(f"A deal number is a whole number from 0 to {SEED_RANGE - 1}.")
    if card_id is not None and teachers_cards.card_of(session, teacher_id, card_id) is None:
        raise TeachingError("That card is not one of yours.")
    row = ClassHand(
        classroom_id=class_id,
        title=title,
        seed=secrets.randbelow(SEED_RANGE) if seed is None else seed,
        bots=bots,
        card_id=card_id,
        due_at=clock.as_utc(due_at) if due_at is not None else None,
        rules=stored(classrooms.class_rules(session, class_id)),
    )
    session.add(row)
    session.commit()
    session.refresh(row)
    return row


def hands_of_class(session: Session, class_id: int) -> list[ClassHand]:
    return list(
        session.exec(
            select(ClassHand).where(col(ClassHand.classroom_id) == class_id).order_by(col(ClassHand.created_at), col(ClassHand.id))
        ).all()
    )


def hand_taught(session: Session, teacher_id: int, class_hand_id: int) -> tuple[ClassHand, Classroom] | None:
    row = session.get(ClassHand, class_hand_id)
    if row is None:
        return None
    room = classrooms.class_taught(session, teacher_id, row.classroom_id)
    return (row, room) if room is not None else None


def hand_given(session: Session, learner_id: int, class_hand_id: int) -> tuple[ClassHand, Classroom] | None:
    """A class hand of a class this student is in."""
    row = session.get(ClassHand, class_hand_id)
    if row is None or classrooms.membership(session, learner_id, row.classroom_id) is None:
        return None
    room = session.get(Classroom, row.classroom_id)
    return (row, room) if room is not None else None


def delete_hand(session: Session, teacher_id: int, class_hand_id: int) -> bool:
    """Take a class hand back; each student's hand of it stays theirs, among their practice hands."""
    found = hand_taught(session, teacher_id, class_hand_id)
    if found is None:
        return False
    session.exec(delete(ClassHandPlay).where(col(ClassHandPlay.class_hand_id) == class_hand_id).execution_options(synchronize_session=False))
    session.delete(found[0])
    session.commit()
    return True


def card_of_hand(session: Session, row: ClassHand) -> TeacherCard | None:
    """The teacher's card a class hand is dealt on; None: the house card."""
    return session.get(TeacherCard, row.card_id) if row.card_id is not None else None


def play_of(session: Session, class_hand_id: int, learner_id: int) -> PracticeHand | None:
    """The student's own hand of a class hand, if they have started it."""
    return session.exec(
        select(PracticeHand)
        .join(ClassHandPlay, col(ClassHandPlay.hand_id) == PracticeHand.id)
        .where(ClassHandPlay.class_hand_id == class_hand_id, ClassHandPlay.learner_id == learner_id)
    ).first()


def start_hand(session: Session, learner_id: int, class_hand: ClassHand, card: str) -> tuple[PracticeHand, bool]:
    """The student's hand of a class hand, made on the first start (True)
    or the one they have (False): the hand and its link in one transaction.
    The hand is dealt under the class hand's table rules, stored with it."""
    assert class_hand.id is not None
    found = play_of(session, class_hand.id, learner_id)
    if found is not None:
        return found, False
    row = PracticeHand(
        learner_id=learner_id, seed=class_hand.seed, card=card[:120], bots=class_hand.bots, rules=stored(hand_rules(class_hand))
    )
    session.add(row)
    try:
        session.flush()
        assert row.id is not None
        session.add(ClassHandPlay(class_hand_id=class_hand.id, learner_id=learner_id, hand_id=row.id))
        session.commit()
    except IntegrityError:  # started twice at once: keep the first
        session.rollback()
        again = play_of(session, class_hand.id, learner_id)
        assert again is not None
        return again, False
    session.refresh(row)
    return row, True


@dataclass(frozen=True)
class Played:
    """One student of the class and their hand of a class hand (None: not started)."""

    learner: Learner
    name: str
    hand: PracticeHand | None

    @property
    def result(self) -> dict:
        if self.hand is None:
            return {}
        return json.loads(self.hand.result or "null") or {}


def plays_of(session: Session, class_hand: ClassHand) -> list[Played]:
    """Every student now in the class, with their hand of this class hand."""
    assert class_hand.id is not None
    hands = {
        play.learner_id: hand
        for play, hand in session.exec(
            select(ClassHandPlay, PracticeHand)
            .join(PracticeHand, col(PracticeHand.id) == ClassHandPlay.hand_id)
            .where(ClassHandPlay.class_hand_id == class_hand.id)
        ).all()
    }
    return [
        Played(person, roles.display_name(person), hands.get(person.id or 0))
        for person in classrooms.students(session, class_hand.classroom_id)
    ]


def student_hand(
    session: Session, teacher_id: int, class_hand_id: int, learner_id: int
) -> tuple[ClassHand, Classroom, Learner, PracticeHand] | None:
    """A student's hand of a class hand, for their teacher to read."""
    found = hand_taught(session, teacher_id, class_hand_id)
    if found is None or classrooms.membership(session, learner_id, found[1].id or 0) is None:
        return None
    hand = play_of(session, class_hand_id, learner_id)
    person = session.get(Learner, learner_id)
    if hand is None or person is None:
        return None
    return found[0], found[1], person, hand


@dataclass(frozen=True)
class GivenHand:
    """A class hand as the student's class page lists it."""

    class_hand: ClassHand
    classroom: Classroom
    hand: PracticeHand | None


def hands_given(session: Session, learner_id: int) -> list[GivenHand]:
    """The class hands of every class the student is in, with their own hand of each."""
    rows = session.exec(
        select(ClassHand, Classroom)
        .join(Classroom, col(Classroom.id) == ClassHand.classroom_id)
        .join(Membership, col(Membership.classroom_id) == Classroom.id)
        .where(Membership.learner_id == learner_id)
        .order_by(col(ClassHand.created_at), col(ClassHand.id))
    ).all()
    return [GivenHand(given, room, play_of(session, given.id or 0, learner_id)) for given, room in rows]


def merge_plays(session: Session, guest_id: int, account_id: int) -> None:
    """A guest signing in brings their class hands; where the account has
    its own hand of the same one, the account's stays linked (the guest's
    hand stays among the practice hands). The caller commits."""
    theirs = set(session.exec(select(ClassHandPlay.class_hand_id).where(ClassHandPlay.learner_id == account_id)).all())
    for play in session.exec(select(ClassHandPlay).where(ClassHandPlay.learner_id == guest_id)).all():
        if play.class_hand_id in theirs:
            session.delete(play)
        else:
            play.learner_id = account_id
            session.add(play)


def delete_for_teacher(session: Session, rooms: Any) -> None:
    """The class hands of these classes (a select of class ids), links first. The caller commits."""
    given = select(ClassHand.id).where(col(ClassHand.classroom_id).in_(rooms))
    session.exec(delete(ClassHandPlay).where(col(ClassHandPlay.class_hand_id).in_(given)).execution_options(synchronize_session=False))
    session.exec(delete(ClassHand).where(col(ClassHand.classroom_id).in_(rooms)).execution_options(synchronize_session=False))
