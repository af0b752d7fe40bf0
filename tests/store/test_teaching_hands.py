"""Class hands in the database (coach/store/teaching/hands.py): who may reach
what, one hand per student, and what happens when a guest signs in to an
account that has its own hand of the same class hand, or an account goes."""

from __future__ import annotations

import pytest
from sqlmodel import Session, select

from coach.store import accounts
from coach.store.models import ClassHand, ClassHandPlay, Classroom, Learner, PracticeHand
from coach.store.teaching import classrooms
from coach.store.teaching import hands as class_hands
from coach.store.teaching.errors import TeachingError
from tests.support.people import person

CARD = "Mahjong Coach House Card 2026"


@pytest.fixture
def scene(engine):
    teacher, ann, outsider = person(engine, "Tess", teacher=True), person(engine, "Ann"), person(engine, "Olga")
    with Session(engine) as session:
        room = classrooms.create_class(session, teacher, "Tuesday")
        classrooms.join_class(session, session.get(Learner, ann), room.join_code)
        given = class_hands.assign_hand(session, teacher, room.id, "  Week   3 ", "club", seed=4242)
        return engine, teacher, ann, outsider, room.id, given.id


def test_a_class_hand_is_reached_by_its_teacher_and_members_only(scene):
    engine, teacher, ann, outsider, class_id, hand_id = scene
    with Session(engine) as session:
        given = session.get(ClassHand, hand_id)
        assert given.title == "Week 3" and given.seed == 4242 and given.bots == "club" and given.card_id is None
        assert class_hands.hand_taught(session, teacher, hand_id) is not None
        assert class_hands.hand_taught(session, ann, hand_id) is None
        assert class_hands.hand_given(session, ann, hand_id) is not None
        assert class_hands.hand_given(session, outsider, hand_id) is None and class_hands.hand_given(session, teacher, hand_id) is None
        with pytest.raises(TeachingError, match="not one of yours"):
            class_hands.assign_hand(session, outsider, class_id, "Mine", "club")
        with pytest.raises(TeachingError, match="computer players"):
            class_hands.assign_hand(session, teacher, class_id, "Mine", "grandmaster")


def test_one_hand_per_student_and_a_second_start_resumes_it(scene):
    engine, teacher, ann, outsider, class_id, hand_id = scene
    with Session(engine) as session:
        given = session.get(ClassHand, hand_id)
        first, new = class_hands.start_hand(session, ann, given, CARD)
        again, new_again = class_hands.start_hand(session, ann, given, CARD)
        assert new and not new_again and again.id == first.id and first.seed == 4242 and first.bots == "club"
        assert [p.name for p in class_hands.plays_of(session, given)] == ["Ann"]
        assert class_hands.plays_of(session, given)[0].hand.id == first.id
        assert class_hands.student_hand(session, teacher, hand_id, ann)[3].id == first.id
        assert class_hands.student_hand(session, outsider, hand_id, ann) is None
        (listed,) = class_hands.hands_given(session, ann)
        assert listed.hand.id == first.id and class_hands.hands_given(session, outsider) == []


def test_a_guest_signing_in_keeps_the_accounts_own_hand_of_the_same_class_hand(scene):
    engine, teacher, ann, outsider, class_id, hand_id = scene
    guest = person(engine, guest=True)
    with Session(engine) as session:
        given = session.get(ClassHand, hand_id)
        classrooms.join_class(session, session.get(Learner, guest), session.get(Classroom, class_id).join_code)
        kept, _ = class_hands.start_hand(session, ann, given, CARD)
        guests, _ = class_hands.start_hand(session, guest, given, CARD)
        kept_id, guests_id = kept.id, guests.id
    with Session(engine) as session:
        accounts.merge_guest(session, guest, ann)
    with Session(engine) as session:
        (link,) = session.exec(select(ClassHandPlay)).all()
        assert link.learner_id == ann and link.hand_id == kept_id
        moved = session.get(PracticeHand, guests_id)
        assert moved is not None and moved.learner_id == ann  # nothing stored is lost: it is one of Ann's practice hands


def test_deleting_the_teachers_account_takes_the_class_hands_but_not_the_students_hands(scene):
    engine, teacher, ann, outsider, class_id, hand_id = scene
    with Session(engine) as session:
        hand, _ = class_hands.start_hand(session, ann, session.get(ClassHand, hand_id), CARD)
        hand_row = hand.id
    with Session(engine) as session:
        accounts.delete_learner(session, teacher)
    with Session(engine) as session:
        assert session.exec(select(ClassHand)).all() == [] and session.exec(select(ClassHandPlay)).all() == []
        assert session.get(PracticeHand, hand_row) is not None


def test_deleting_a_students_account_takes_their_hand_and_its_link(scene):
    engine, teacher, ann, outsider, class_id, hand_id = scene
    with Session(engine) as session:
        class_hands.start_hand(session, ann, session.get(ClassHand, hand_id), CARD)
    with Session(engine) as session:
        accounts.delete_learner(session, ann)
    with Session(engine) as session:
        assert session.exec(select(ClassHandPlay)).all() == [] and session.exec(select(PracticeHand)).all() == []
        assert session.get(ClassHand, hand_id) is not None
