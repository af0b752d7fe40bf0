"""A person's teaching data when accounts change: a guest's merged into
their account, everything exported, a teacher's deleted."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import delete
from sqlmodel import Session, col, select

from coach.store.models import (
    Assignment,
    AssignmentAnswer,
    AssignmentWork,
    CardChoice,
    Classroom,
    ClassRules,
    DrillSetRow,
    Membership,
    TeacherCard,
)
from coach.store.teaching import hands as class_hands
from coach.store.teaching.classrooms import class_rules, classes_joined, classes_taught, students
from coach.store.teaching.drill_sets import sets_of
from coach.store.teaching.roles import display_name
from coach.store.teaching.teachers_cards import cards_of


def merge_teaching(session: Session, guest_id: int, account_id: int) -> None:
    """A guest who signs in to their account brings their classes and
    assignment work; where the account already has the same, it keeps its own.
    The caller commits."""
    theirs = set(session.exec(select(Membership.classroom_id).where(Membership.learner_id == account_id)).all())
    for row in session.exec(select(Membership).where(Membership.learner_id == guest_id)).all():
        if row.classroom_id in theirs:
            session.delete(row)
        else:
            row.learner_id = account_id
            session.add(row)
    started = set(session.exec(select(AssignmentWork.assignment_id).where(AssignmentWork.learner_id == account_id)).all())
    for work in session.exec(select(AssignmentWork).where(AssignmentWork.learner_id == guest_id)).all():
        if work.assignment_id in started:
            session.exec(
                delete(AssignmentAnswer).where(
                    col(AssignmentAnswer.learner_id) == guest_id,
                    col(AssignmentAnswer.assignment_id) == work.assignment_id,
                )
            )
            session.delete(work)
        else:
            work.learner_id = account_id
            session.add(work)
            for answer in session.exec(
                select(AssignmentAnswer).where(
                    AssignmentAnswer.learner_id == guest_id, AssignmentAnswer.assignment_id == work.assignment_id
                )
            ).all():
                answer.learner_id = account_id
                session.add(answer)
    class_hands.merge_plays(session, guest_id, account_id)


def export_teaching(session: Session, learner_id: int) -> dict[str, Any]:
    """What a person's data export holds of teaching: classes joined, their
    assignment answers, and, for a teacher, their classes, sets and cards."""
    joined = [
        {"class": c.name, "teacher": display_name(t)} for c, t in classes_joined(session, learner_id)
    ]
    answers = [
        {
            "assignment": a.assignment_id,
            "question": a.slot + 1,
            "drill": a.drill,
            "level": a.level,
            "seed": a.seed,
            "answer": json.loads(a.answer),
            "correct": a.correct,
            "answered_at": a.answered_at.isoformat(),
        }
        for a in session.exec(
            select(AssignmentAnswer).where(col(AssignmentAnswer.learner_id) == learner_id).order_by(col(AssignmentAnswer.id))
        ).all()
    ]
    taught = [
        {"class": c.name, "join_code": c.join_code, "students": len(students(session, c.id or 0)), "table_rules": class_rules(session, c.id or 0).to_json()}
        for c in classes_taught(session, learner_id)
    ]
    return {
        "classes_joined": joined,
        "assignment_answers": answers,
        "classes_taught": taught,
        "drill_sets": [row.source for row in sets_of(session, learner_id)],
        "cards": [{"name": c.name, "source": c.source} for c in cards_of(session, learner_id)],
    }


def delete_teaching(session: Session, teacher_id: int) -> None:
    """A teacher's classes (with their assignments and answers), sets and
    cards, child rows first: this does not rely on the database's cascades.
    The caller commits."""
    rooms = select(Classroom.id).where(Classroom.teacher_id == teacher_id)
    given = select(Assignment.id).where(col(Assignment.classroom_id).in_(rooms))
    class_hands.delete_for_teacher(session, rooms)
    for statement in (
        delete(AssignmentAnswer).where(col(AssignmentAnswer.assignment_id).in_(given)),
        delete(AssignmentWork).where(col(AssignmentWork.assignment_id).in_(given)),
        delete(Assignment).where(col(Assignment.classroom_id).in_(rooms)),
        delete(Membership).where(col(Membership.classroom_id).in_(rooms)),
        delete(ClassRules).where(col(ClassRules.classroom_id).in_(rooms)),
        delete(Classroom).where(col(Classroom.teacher_id) == teacher_id),
        delete(DrillSetRow).where(col(DrillSetRow.owner_id) == teacher_id),
        delete(CardChoice).where(col(CardChoice.card_id).in_(select(TeacherCard.id).where(col(TeacherCard.owner_id) == teacher_id))),
        delete(TeacherCard).where(col(TeacherCard.owner_id) == teacher_id),
    ):
        session.exec(statement.execution_options(synchronize_session=False))
