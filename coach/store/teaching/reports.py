"""What a teacher reads about a class beyond the dashboard: one student's
answers, the rules and drills the class gets wrong most, and due dates
that move. Every getter takes the teacher's id and checks the class is
theirs (as the rest of coach/store/teaching does): a stranger gets None.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, select

from coach.common import clock
from coach.store.models import Assignment, AssignmentAnswer, Attempt, Classroom, Learner, Membership
from coach.store.teaching.classrooms import class_taught, membership
from coach.store.teaching.drill_sets import drill_set_of
from coach.store.teaching.homework import assignment_taught, assignments_of_class, slots_of, work_of
from coach.store.teaching.work_states import Standing, standing

WEAK_SHOWN = 5  # rules and drills listed as the class's weakest
WEAK_MIN_ANSWERS = 2  # fewer answers than this say nothing about a class


def set_due(session: Session, teacher_id: int, assignment_id: int, due: datetime | None) -> Assignment | None:
    """Move (or clear) an assignment's due date; None if it is not this teacher's.
    Turned-in work stays turned in; whether it was late is worked out again
    from the new date, as the dashboard always does."""
    found = assignment_taught(session, teacher_id, assignment_id)
    if found is None:
        return None
    assignment, _room = found
    assignment.due_at = due
    session.add(assignment)
    session.commit()
    session.refresh(assignment)
    return assignment


@dataclass(frozen=True)
class AnsweredQuestion:
    number: int  # 1-based, as the student saw it
    drill: str
    level: int
    answer_text: str
    correct: bool
    explanation: tuple[str, ...]
    answered_at: datetime


@dataclass(frozen=True)
class StudentAssignment:
    assignment: Assignment
    standing: Standing
    answers: tuple[AnsweredQuestion, ...]


@dataclass(frozen=True)
class StudentReport:
    classroom: Classroom
    learner: Learner
    assignments: tuple[StudentAssignment, ...]

    @property
    def answered(self) -> int:
        return sum(len(a.answers) for a in self.assignments)

    @property
    def right(self) -> int:
        return sum(1 for a in self.assignments for q in a.answers if q.correct)


def student_report(
    session: Session, teacher_id: int, class_id: int, learner_id: int, now: datetime | None = None
) -> StudentReport | None:
    """Every answer and verdict of one student in one class, assignment by
    assignment; None unless the class is this teacher's and the student in it."""
    room = class_taught(session, teacher_id, class_id)
    if room is None or membership(session, learner_id, class_id) is None:
        return None
    learner = session.get(Learner, learner_id)
    if learner is None:
        return None
    now = now or clock.now()
    out = []
    for assignment in assignments_of_class(session, class_id):
        rows = session.exec(
            select(AssignmentAnswer)
            .where(AssignmentAnswer.assignment_id == assignment.id, AssignmentAnswer.learner_id == learner_id)
            .order_by(col(AssignmentAnswer.slot))
        ).all()
        work = work_of(session, assignment, learner_id)
        total = len(slots_of(assignment, work)) if work is not None else drill_set_of(assignment).total
        right = sum(1 for row in rows if row.correct)
        state = standing(assignment, total, len(rows), right, work.finished_at if work else None, now)
        answers = tuple(
            AnsweredQuestion(
                number=row.slot + 1,
                drill=row.drill,
                level=row.level,
                answer_text=row.answer_text,
                correct=row.correct,
                explanation=tuple(str(line) for line in json.loads(row.explanation or "[]")),
                answered_at=row.answered_at,
            )
            for row in rows
        )
        out.append(StudentAssignment(assignment, state, answers))
    return StudentReport(room, learner, tuple(out))


@dataclass(frozen=True)
class Weakness:
    """A rule id or a drill name, and how the class did on questions about it."""

    key: str
    answered: int
    wrong: int

    @property
    def accuracy(self) -> float:
        return (self.answered - self.wrong) / self.answered if self.answered else 0.0


@dataclass(frozen=True)
class WeakSpots:
    rules: tuple[Weakness, ...]
    drills: tuple[Weakness, ...]
    answers: int  # answers counted (students still in the class)


def _weakest(tally: dict[str, list[int]]) -> tuple[Weakness, ...]:
    found = [Weakness(key, answered, wrong) for key, (answered, wrong) in tally.items() if answered >= WEAK_MIN_ANSWERS and wrong]
    found.sort(key=lambda w: (w.accuracy, -w.answered, w.key))
    return tuple(found[:WEAK_SHOWN])


def weak_spots(
    session: Session, teacher_id: int, class_id: int, card_name_of: Callable[[Assignment], str]
) -> WeakSpots | None:
    """The rules and drills the class answers wrong most often, over every
    assignment and the students still in the class. A question's rules are
    the ones its stored attempt cites (the same question, so the same
    rules); `card_name_of` names the card an assignment's questions were
    asked on, as the attempt's question key spells it."""
    if class_taught(session, teacher_id, class_id) is None:
        return None
    given = {a.id: a for a in assignments_of_class(session, class_id)}
    if not given:
        return WeakSpots((), (), 0)
    rows = session.exec(
        select(AssignmentAnswer)
        .join(
            Membership,
            (col(Membership.learner_id) == AssignmentAnswer.learner_id)
            & (Membership.classroom_id == class_id),
        )
        .where(col(AssignmentAnswer.assignment_id).in_(list(given)))
    ).all()
    card_names = {assignment_id: card_name_of(a) for assignment_id, a in given.items()}
    keys = {(row.learner_id, f"{row.drill}|{row.level}|{row.seed}|{card_names[row.assignment_id]}") for row in rows}
    rules_of: dict[tuple[int, str], list[str]] = {}
    learners = sorted({learner for learner, _ in keys})
    questions = sorted({question for _, question in keys})
    for start in range(0, len(questions), 500):  # bounded IN lists
        for learner_id, question, rules in session.exec(
            select(Attempt.learner_id, Attempt.question, Attempt.rules).where(
                col(Attempt.learner_id).in_(learners),
                col(Attempt.question).in_(questions[start : start + 500]),
            )
        ).all():
            rules_of[(learner_id, question)] = [str(r) for r in json.loads(rules or "[]")]
    by_rule: dict[str, list[int]] = {}
    by_drill: dict[str, list[int]] = {}
    for row in rows:
        key = (row.learner_id, f"{row.drill}|{row.level}|{row.seed}|{card_names[row.assignment_id]}")
        for rule_id in dict.fromkeys(rules_of.get(key, [])):
            tally = by_rule.setdefault(rule_id, [0, 0])
            tally[0] += 1
            tally[1] += not row.correct
        tally = by_drill.setdefault(row.drill, [0, 0])
        tally[0] += 1
        tally[1] += not row.correct
    return WeakSpots(_weakest(by_rule), _weakest(by_drill), len(rows))
