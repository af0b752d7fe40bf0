"""Where a student stands on an assignment (assigned, in progress, turned
in, late) and a student's own list of assignments."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, select

from coach.common import clock
from coach.store.models import Assignment, Classroom, Membership
from coach.store.teaching.homework import answers_of, slots_of, work_of

ASSIGNED, IN_PROGRESS, TURNED_IN, LATE = "assigned", "in progress", "turned in", "late"


@dataclass(frozen=True)
class Standing:
    """One student's state on one assignment."""

    total: int
    answered: int
    correct: int
    state: str  # assigned | in progress | turned in | late
    turned_in_late: bool = False
    finished_at: datetime | None = None

    @property
    def completion(self) -> float:
        return self.answered / self.total if self.total else 0.0

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.answered if self.answered else None


def standing(assignment: Assignment, total: int, answered: int, correct: int, finished_at: datetime | None, now: datetime) -> Standing:
    """Turned in once every question has an answer; late when the due
    time has passed before that (a late finish still says so)."""
    due = assignment.due_at
    if total and answered >= total:
        late = bool(due and finished_at and finished_at > due)
        return Standing(total, answered, correct, TURNED_IN, late, finished_at)
    if due is not None and clock.as_utc(now) > due:
        return Standing(total, answered, correct, LATE)
    return Standing(total, answered, correct, IN_PROGRESS if answered else ASSIGNED)


@dataclass(frozen=True)
class MyAssignment:
    assignment: Assignment
    classroom: Classroom
    standing: Standing
    next_slot: int | None  # the first question without an answer


def my_assignments(session: Session, learner_id: int, now: datetime | None = None) -> list[MyAssignment]:
    """A student's assignments in every class they are in: the ones to do
    first (late, then by due date), the turned-in ones last."""
    now = clock.as_utc(now or clock.now())
    rows = session.exec(
        select(Assignment, Classroom)
        .join(Classroom, col(Classroom.id) == Assignment.classroom_id)
        .join(Membership, col(Membership.classroom_id) == Classroom.id)
        .where(Membership.learner_id == learner_id)
    ).all()
    out = []
    for assignment, room in rows:
        out.append(my_assignment(session, assignment, room, learner_id, now))
    order = {LATE: 0, IN_PROGRESS: 1, ASSIGNED: 1, TURNED_IN: 2}
    far = datetime.max.replace(tzinfo=clock.UTC)
    out.sort(key=lambda m: (order[m.standing.state], m.assignment.due_at or far, m.assignment.id or 0))
    return out


def my_assignment(session: Session, assignment: Assignment, room: Classroom, learner_id: int, now: datetime | None = None) -> MyAssignment:
    now = clock.as_utc(now or clock.now())
    assert assignment.id is not None
    work = work_of(session, assignment, learner_id)
    slots = slots_of(assignment, work)
    answers = answers_of(session, assignment.id, learner_id)
    correct = sum(1 for a in answers.values() if a.correct)
    state = standing(assignment, len(slots), len(answers), correct, work.finished_at if work else None, now)
    next_slot = next((s.index for s in slots if s.index not in answers), None)
    return MyAssignment(assignment, room, state, next_slot)

