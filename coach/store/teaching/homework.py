"""Assignments: a copy of a drill set given to a class, each student's
work on it (their seed) and their answers, the first answer to each
question counting."""

from __future__ import annotations

import json
import secrets
from datetime import datetime
from typing import Any

from sqlalchemy import func
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from coach.common import clock
from coach.notation import tiles
from coach.store.models import Assignment, AssignmentAnswer, AssignmentWork, Classroom
from coach.store.teaching.classrooms import class_taught, membership
from coach.store.teaching.drill_sets import drill_set_of
from coach.store.teaching.errors import TeachingError
from coach.store.teaching.teachers_cards import card_id_for
from coach.store.transaction import insert_once, write_as
from drills.kit.base import Question, Verdict
from drills.sets import DrillSet, Slot, dump_set

FRESH_SEED = 2**31  # a fresh set's seeds stay within what every database's integer holds


def assign(
    session: Session, teacher_id: int, class_id: int, drill_set: DrillSet, due_at: datetime | None = None
) -> Assignment:
    """Give a class a set (a copy of it, as it is now)."""
    room = class_taught(session, teacher_id, class_id)
    if room is None:
        raise TeachingError("That class is not one of yours.")
    card_id = card_id_for(session, teacher_id, drill_set.card)
    row = Assignment(
        classroom_id=class_id,
        title=drill_set.title,
        source=dump_set(drill_set),
        card_id=card_id,
        due_at=clock.as_utc(due_at) if due_at is not None else None,
    )
    session.add(row)
    session.commit()
    session.refresh(row)
    return row


def assignments_of_class(session: Session, class_id: int) -> list[Assignment]:
    return list(
        session.exec(
            select(Assignment).where(col(Assignment.classroom_id) == class_id).order_by(col(Assignment.created_at), col(Assignment.id))
        ).all()
    )


def assignment_taught(session: Session, teacher_id: int, assignment_id: int) -> tuple[Assignment, Classroom] | None:
    row = session.get(Assignment, assignment_id)
    if row is None:
        return None
    room = class_taught(session, teacher_id, row.classroom_id)
    return (row, room) if room is not None else None


def assignment_given(session: Session, learner_id: int, assignment_id: int) -> tuple[Assignment, Classroom] | None:
    """An assignment of a class this student is in."""
    row = session.get(Assignment, assignment_id)
    if row is None or membership(session, learner_id, row.classroom_id) is None:
        return None
    room = session.get(Classroom, row.classroom_id)
    return (row, room) if room is not None else None


def delete_assignment(session: Session, teacher_id: int, assignment_id: int) -> bool:
    found = assignment_taught(session, teacher_id, assignment_id)
    if found is None:
        return False
    session.delete(found[0])
    session.commit()
    return True


def work_of(session: Session, assignment: Assignment, learner_id: int, create: bool = False) -> AssignmentWork | None:
    """A student's copy of an assignment, made when they start it."""
    row = session.exec(
        select(AssignmentWork).where(
            AssignmentWork.assignment_id == assignment.id, AssignmentWork.learner_id == learner_id
        )
    ).first()
    if row is not None or not create:
        return row
    drill_set = drill_set_of(assignment)
    seed = drill_set.seed if drill_set.seeds == "fixed" else secrets.randbelow(FRESH_SEED)
    assert assignment.id is not None
    row = AssignmentWork(assignment_id=assignment.id, learner_id=learner_id, seed=seed)
    session.add(row)
    try:
        session.commit()
    except IntegrityError:  # started twice at once: keep the first
        session.rollback()
        return work_of(session, assignment, learner_id)
    session.refresh(row)
    return row


def slots_of(assignment: Assignment, work: AssignmentWork | None) -> tuple[Slot, ...]:
    drill_set = drill_set_of(assignment)
    return drill_set.slots(work.seed if work is not None else drill_set.seed)


def answers_of(session: Session, assignment_id: int, learner_id: int) -> dict[int, AssignmentAnswer]:
    rows = session.exec(
        select(AssignmentAnswer).where(
            AssignmentAnswer.assignment_id == assignment_id, AssignmentAnswer.learner_id == learner_id
        )
    ).all()
    return {row.slot: row for row in rows}


def describe_answer(value: Any) -> str:
    """An answer as a teacher reads it: tile names rather than codes."""
    if value is None:
        return "No answer (asked to be shown)"
    if isinstance(value, list):
        return ", ".join(describe_answer(v) for v in value) or "(nothing picked)"
    if isinstance(value, str):
        return tiles.name(value) if value in tiles.INDEX else value
    return json.dumps(value)


def record_assignment_answer(
    session: Session,
    assignment: Assignment,
    learner_id: int,
    slot: Slot,
    question: Question,
    verdict: Verdict,
    when: datetime | None = None,
) -> bool:
    """Keep a student's answer to one question of an assignment, in its own
    transaction; False when that question already has one (the first answer
    counts). The web keeps it with the student's progress in one transaction
    instead (add_assignment_answer with progress.add_answer)."""
    add = lambda: add_assignment_answer(session, assignment, learner_id, slot, question, verdict, when)  # noqa: E731
    return write_as(session, learner_id, add)


def add_assignment_answer(
    session: Session,
    assignment: Assignment,
    learner_id: int,
    slot: Slot,
    question: Question,
    verdict: Verdict,
    when: datetime | None = None,
) -> bool:
    """Add a student's answer to one question of an assignment to a
    transaction holding the student's lock (transaction.lock_learner);
    False when that question already has one (the unique constraint says so)."""
    assert assignment.id is not None
    when = clock.as_utc(when or clock.now())
    work = work_of(session, assignment, learner_id)
    if work is None:  # answered before it was opened: start it here, in this transaction
        drill_set = drill_set_of(assignment)
        seed = drill_set.seed if drill_set.seeds == "fixed" else secrets.randbelow(FRESH_SEED)
        work = AssignmentWork(assignment_id=assignment.id, learner_id=learner_id, seed=seed, started_at=when)
        session.add(work)
        session.flush()
    counted = insert_once(
        session,
        AssignmentAnswer,
        {
            "assignment_id": assignment.id,
            "learner_id": learner_id,
            "slot": slot.index,
            "drill": question.drill,
            "level": question.level,
            "seed": question.seed,
            "answer": json.dumps(verdict.answer),
            "answer_text": describe_answer(verdict.answer)[:240],
            "correct": verdict.correct,
            "score": float(verdict.score),
            "explanation": json.dumps(list(verdict.explanation)),
            "answered_at": when,
        },
        ("assignment_id", "learner_id", "slot"),
    )
    if not counted:
        return False
    if work.finished_at is None:
        answered = session.exec(
            select(func.count())
            .select_from(AssignmentAnswer)
            .where(AssignmentAnswer.assignment_id == assignment.id, AssignmentAnswer.learner_id == learner_id)
        ).one()
        if answered >= len(slots_of(assignment, work)):
            work.finished_at = when
            session.add(work)
    return True

