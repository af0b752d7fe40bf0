"""The class dashboard: per student, where they stand on each assignment;
per question, how the class answered it; and the same numbers as CSV."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import case, func
from sqlmodel import Session, col, select

from coach.common import clock
from coach.store.cells import cell
from coach.store.models import Assignment, AssignmentAnswer, AssignmentWork, Classroom, Learner, Membership
from coach.store.teaching.classrooms import students
from coach.store.teaching.drill_sets import drill_set_of
from coach.store.teaching.homework import assignments_of_class
from coach.store.teaching.roles import display_name
from coach.store.teaching.work_states import Standing, standing


@dataclass(frozen=True)
class StudentRow:
    learner: Learner
    name: str
    standings: dict[int, Standing]  # assignment id -> standing


@dataclass(frozen=True)
class WrongAnswer:
    text: str
    count: int
    explanation: tuple[str, ...]


@dataclass(frozen=True)
class QuestionStat:
    slot: int
    drill: str
    level: int
    answered: int
    right: int
    wrong: tuple[WrongAnswer, ...]  # the most common first
    same_for_all: bool  # fixed seeds: everyone had this very question


@dataclass(frozen=True)
class Dashboard:
    classroom: Classroom
    assignments: list[Assignment]
    rows: list[StudentRow]
    not_started: dict[int, list[str]] = field(default_factory=dict)  # assignment id -> names


def dashboard(session: Session, classroom: Classroom, now: datetime | None = None) -> Dashboard:
    """Per student, completion and accuracy on each of the class's assignments."""
    now = clock.as_utc(now or clock.now())
    assert classroom.id is not None
    given = assignments_of_class(session, classroom.id)
    people = students(session, classroom.id)
    ids = [a.id for a in given]
    works = {
        (w.assignment_id, w.learner_id): w
        for w in session.exec(select(AssignmentWork).where(col(AssignmentWork.assignment_id).in_(ids))).all()
    }
    counts: dict[tuple[int, int], tuple[int, int]] = {}
    for assignment_id, learner_id, answered, right in session.exec(
        select(
            AssignmentAnswer.assignment_id,
            AssignmentAnswer.learner_id,
            func.count(),
            func.sum(case((col(AssignmentAnswer.correct), 1), else_=0)),
        )
        .where(col(AssignmentAnswer.assignment_id).in_(ids))
        .group_by(col(AssignmentAnswer.assignment_id), col(AssignmentAnswer.learner_id))
    ).all():
        counts[(assignment_id, learner_id)] = (int(answered), int(right or 0))
    totals = {a.id: drill_set_of(a).total for a in given}
    rows = []
    not_started: dict[int, list[str]] = {a.id: [] for a in given if a.id is not None}
    for person in people:
        standings = {}
        for a in given:
            assert a.id is not None and person.id is not None
            answered, right = counts.get((a.id, person.id), (0, 0))
            work = works.get((a.id, person.id))
            standings[a.id] = standing(a, totals[a.id], answered, right, work.finished_at if work else None, now)
            if answered == 0:
                not_started[a.id].append(display_name(person))
        rows.append(StudentRow(person, display_name(person), standings))
    return Dashboard(classroom, given, rows, not_started)


def question_stats(session: Session, assignment: Assignment, class_only: bool = True) -> list[QuestionStat]:
    """Per question of an assignment: how many got it right, and the most
    common wrong answers with the coach's explanation of each. Only the
    answers of students still in the class count."""
    assert assignment.id is not None
    drill_set = drill_set_of(assignment)
    query = select(AssignmentAnswer).where(AssignmentAnswer.assignment_id == assignment.id)
    if class_only:
        query = query.join(
            Membership,
            (col(Membership.learner_id) == AssignmentAnswer.learner_id)
            & (Membership.classroom_id == assignment.classroom_id),
        )
    by_slot: dict[int, list[AssignmentAnswer]] = {}
    for row in session.exec(query.order_by(col(AssignmentAnswer.answered_at), col(AssignmentAnswer.id))).all():
        by_slot.setdefault(row.slot, []).append(row)
    stats = []
    for slot in drill_set.slots():
        answers = by_slot.get(slot.index, [])
        wrong = [a for a in answers if not a.correct]
        tally = Counter(a.answer_text for a in wrong)
        first_of: dict[str, AssignmentAnswer] = {}
        for a in wrong:
            first_of.setdefault(a.answer_text, a)
        common = tuple(
            WrongAnswer(text, count, tuple(json.loads(first_of[text].explanation)))
            for text, count in sorted(tally.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
        )
        stats.append(
            QuestionStat(
                slot=slot.index,
                drill=slot.drill,
                level=slot.level,
                answered=len(answers),
                right=len(answers) - len(wrong),
                wrong=common,
                same_for_all=drill_set.seeds == "fixed",
            )
        )
    return stats


CSV_COLUMNS = [
    "student",
    "email",
    "assignment",
    "due",
    "state",
    "answered",
    "questions",
    "correct",
    "completion_percent",
    "accuracy_percent",
]


def dashboard_csv(board: Dashboard) -> str:
    """The dashboard's numbers, one row per student and assignment."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for row in board.rows:
        for a in board.assignments:
            assert a.id is not None
            s = row.standings[a.id]
            due = a.due_at
            writer.writerow(
                [
                    cell(row.name),
                    cell(row.learner.email or ""),
                    cell(a.title),
                    due.isoformat() if due else "",
                    s.state + (" (late)" if s.turned_in_late else ""),
                    s.answered,
                    s.total,
                    s.correct,
                    round(100 * s.completion),
                    "" if s.accuracy is None else round(100 * s.accuracy),
                ]
            )
    return out.getvalue()

