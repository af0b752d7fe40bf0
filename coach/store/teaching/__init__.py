"""Teaching: classes and join codes, teachers' cards, drill sets,
assignments, the students' answers to them and the class dashboard.

Every function that reads a teacher's or a student's things takes the id
of the person asking and returns None (or nothing) for what is not
theirs: the web layer turns that into a 404, so a stranger cannot even
learn that a class, set or card exists. Nothing here knows of Flask.
"""

from __future__ import annotations

import csv
import io
import json
import secrets
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import case, delete, func
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from coach.notation import tiles
from coach.notation.card import Card, parse_card
from coach.store.cells import cell
from coach.store.progress import as_utc
from coach.store.transaction import insert_once, write_as
from coach.store.models import (
    Assignment,
    AssignmentAnswer,
    AssignmentWork,
    CardChoice,
    Classroom,
    DrillSetRow,
    Learner,
    Membership,
    TeacherCard,
    utcnow,
)
from drills.kit.base import Question, Verdict
from drills.sets import HOUSE, DrillSet, Slot, dump_set, parse_set

TEACHER = "teacher"
LEARNER = "learner"
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I: codes are read aloud and typed
CODE_LENGTH = 6
MAX_CLASS_NAME = 80
MAX_CARD_BYTES = 64 * 1024
FRESH_SEED = 2**31  # a fresh set's seeds stay within what every database's integer holds


class TeachingError(ValueError):
    """Something a teacher or student asked for that cannot be done, said plainly."""


def _aware(moment: datetime | None) -> datetime | None:
    return None if moment is None else as_utc(moment)


def is_teacher(learner: Learner | None) -> bool:
    return bool(learner is not None and not learner.guest and learner.role == TEACHER)


def display_name(learner: Learner) -> str:
    """How a student shows on a teacher's pages: their name, else their email, else a number."""
    return learner.name.strip() or (learner.email or "") or f"Student {learner.id}"


# -- cards ---------------------------------------------------------------------------


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


def add_card(session: Session, teacher_id: int, text: str, source: str = "card") -> TeacherCard:
    """Store a teacher's card after validating it; CardError lists every problem."""
    if len(text.encode("utf-8")) > MAX_CARD_BYTES:
        raise TeachingError(f"A card file can be at most {MAX_CARD_BYTES // 1024} KB; this one is larger.")
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
        .join(Classroom, Classroom.id == Assignment.classroom_id)  # type: ignore[arg-type]
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
        .join(Assignment, Assignment.classroom_id == Membership.classroom_id)  # type: ignore[arg-type]
        .where(Membership.learner_id == learner_id, Assignment.card_id == card_id)
    ).first()
    if member is None:
        from coach.store.teaching import hands as class_hands  # a class hand dealt on the card counts too

        return row if class_hands.member_of_card(session, learner_id, card_id) else None
    return row


# -- classes -------------------------------------------------------------------------


def _new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(raw: str) -> str:
    """A join code as typed or pasted: case, spaces and dashes do not matter."""
    return "".join(ch for ch in raw.upper() if ch.isalnum())


def class_name_problem(name: str) -> str | None:
    if not name:
        return "Give the class a name, such as \u201cTuesday beginners\u201d."
    if len(name) > MAX_CLASS_NAME:
        return f"A class name can be at most {MAX_CLASS_NAME} characters."
    return None


def create_class(session: Session, teacher_id: int, name: str) -> Classroom:
    name = " ".join(name.split())
    problem = class_name_problem(name)
    if problem:
        raise TeachingError(problem)
    for _ in range(20):  # a clash among 887 million codes is rare; try again when it happens
        row = Classroom(teacher_id=teacher_id, name=name, join_code=_new_code())
        session.add(row)
        try:
            session.commit()
        except IntegrityError:
            session.rollback()
            continue
        session.refresh(row)
        return row
    raise TeachingError("Could not make a join code; please try again.")


def new_join_code(session: Session, teacher_id: int, class_id: int) -> Classroom | None:
    """A fresh code for a class (the old one stops working); students stay in."""
    row = class_taught(session, teacher_id, class_id)
    if row is None:
        return None
    for _ in range(20):
        row.join_code = _new_code()
        session.add(row)
        try:
            session.commit()
        except IntegrityError:
            session.rollback()
            row = class_taught(session, teacher_id, class_id)
            assert row is not None
            continue
        session.refresh(row)
        return row
    raise TeachingError("Could not make a join code; please try again.")


def rename_class(session: Session, teacher_id: int, class_id: int, name: str) -> Classroom | None:
    row = class_taught(session, teacher_id, class_id)
    if row is None:
        return None
    name = " ".join(name.split())
    problem = class_name_problem(name)
    if problem:
        raise TeachingError(problem)
    row.name = name
    session.add(row)
    session.commit()
    session.refresh(row)
    return row


def delete_class(session: Session, teacher_id: int, class_id: int) -> bool:
    row = class_taught(session, teacher_id, class_id)
    if row is None:
        return False
    session.delete(row)  # memberships, assignments and their answers go with it (ON DELETE CASCADE)
    session.commit()
    return True


def classes_taught(session: Session, teacher_id: int) -> list[Classroom]:
    return list(
        session.exec(
            select(Classroom).where(Classroom.teacher_id == teacher_id).order_by(Classroom.created_at, Classroom.id)  # type: ignore[arg-type]
        ).all()
    )


def class_taught(session: Session, teacher_id: int, class_id: int) -> Classroom | None:
    row = session.get(Classroom, class_id)
    return row if row is not None and row.teacher_id == teacher_id else None


def class_by_code(session: Session, code: str) -> Classroom | None:
    code = normal_code(code)
    if not code or len(code) > 16:
        return None
    return session.exec(select(Classroom).where(Classroom.join_code == code)).first()


def join_class(session: Session, learner: Learner, code: str) -> Classroom:
    """Put a learner in the class with this code (joining twice is fine)."""
    row = class_by_code(session, code)
    if row is None:
        raise TeachingError(
            f"No class has the code \u201c{normal_code(code)[:16]}\u201d. Check it with your teacher: "
            f"codes are {CODE_LENGTH} letters and digits."
        )
    assert learner.id is not None and row.id is not None
    if row.teacher_id == learner.id:
        raise TeachingError("You teach this class, so you cannot join it as a student.")
    if membership(session, learner.id, row.id) is None:
        session.add(Membership(classroom_id=row.id, learner_id=learner.id))
        try:
            session.commit()
        except IntegrityError:  # joined twice at once: once is enough
            session.rollback()
    return row


def membership(session: Session, learner_id: int, class_id: int) -> Membership | None:
    return session.exec(
        select(Membership).where(Membership.learner_id == learner_id, Membership.classroom_id == class_id)
    ).first()


def leave_class(session: Session, learner_id: int, class_id: int) -> bool:
    row = membership(session, learner_id, class_id)
    if row is None:
        return False
    session.delete(row)
    session.commit()
    return True


def remove_student(session: Session, teacher_id: int, class_id: int, learner_id: int) -> bool:
    if class_taught(session, teacher_id, class_id) is None:
        return False
    return leave_class(session, learner_id, class_id)


def classes_joined(session: Session, learner_id: int) -> list[tuple[Classroom, Learner]]:
    """The classes a student is in, each with its teacher."""
    rows = session.exec(
        select(Classroom, Learner)
        .join(Membership, Membership.classroom_id == Classroom.id)  # type: ignore[arg-type]
        .join(Learner, Learner.id == Classroom.teacher_id)  # type: ignore[arg-type]
        .where(Membership.learner_id == learner_id)
        .order_by(Membership.joined_at, Membership.id)  # type: ignore[arg-type]
    ).all()
    return [(c, t) for c, t in rows]


def students(session: Session, class_id: int) -> list[Learner]:
    rows = session.exec(
        select(Learner)
        .join(Membership, Membership.learner_id == Learner.id)  # type: ignore[arg-type]
        .where(Membership.classroom_id == class_id)
        .order_by(Membership.joined_at, Membership.id)  # type: ignore[arg-type]
    ).all()
    return list(rows)


# -- drill sets ----------------------------------------------------------------------


def card_names(session: Session, teacher_id: int) -> list[str]:
    """What a teacher's set may name as its card: the house card and theirs."""
    return [HOUSE] + [c.name for c in cards_of(session, teacher_id)]


def _card_id_for(session: Session, teacher_id: int, name: str) -> int | None:
    if name == HOUSE:
        return None
    row = session.exec(select(TeacherCard).where(TeacherCard.owner_id == teacher_id, TeacherCard.name == name)).first()
    if row is None:
        raise TeachingError(f"\u201c{name}\u201d is not one of your cards.")
    return row.id


def save_set(session: Session, teacher_id: int, drill_set: DrillSet, set_id: int | None = None) -> DrillSetRow:
    """Store a new set, or replace one of the teacher's sets (set_id)."""
    card_id = _card_id_for(session, teacher_id, drill_set.card)
    if set_id is None:
        row = DrillSetRow(owner_id=teacher_id, title=drill_set.title, source=dump_set(drill_set), card_id=card_id)
    else:
        found = set_of(session, teacher_id, set_id)
        if found is None:
            raise TeachingError("That set is not one of yours.")
        row = found
        row.title, row.source, row.card_id, row.updated_at = drill_set.title, dump_set(drill_set), card_id, utcnow()
    session.add(row)
    session.commit()
    session.refresh(row)
    return row


def sets_of(session: Session, teacher_id: int) -> list[DrillSetRow]:
    return list(
        session.exec(
            select(DrillSetRow).where(DrillSetRow.owner_id == teacher_id).order_by(DrillSetRow.title, DrillSetRow.id)  # type: ignore[arg-type]
        ).all()
    )


def set_of(session: Session, teacher_id: int, set_id: int) -> DrillSetRow | None:
    row = session.get(DrillSetRow, set_id)
    return row if row is not None and row.owner_id == teacher_id else None


def drill_set_of(row: DrillSetRow | Assignment) -> DrillSet:
    """The set a stored row holds (valid when it was saved; its card was
    checked then, and is kept by number in the row)."""
    return parse_set(row.source, cards=None)


def delete_set(session: Session, teacher_id: int, set_id: int) -> bool:
    """Delete a set; assignments made from it keep their own copy."""
    row = set_of(session, teacher_id, set_id)
    if row is None:
        return False
    session.delete(row)
    session.commit()
    return True


# -- assignments ---------------------------------------------------------------------


def assign(
    session: Session, teacher_id: int, class_id: int, drill_set: DrillSet, due_at: datetime | None = None
) -> Assignment:
    """Give a class a set (a copy of it, as it is now)."""
    room = class_taught(session, teacher_id, class_id)
    if room is None:
        raise TeachingError("That class is not one of yours.")
    card_id = _card_id_for(session, teacher_id, drill_set.card)
    row = Assignment(
        classroom_id=class_id,
        title=drill_set.title,
        source=dump_set(drill_set),
        card_id=card_id,
        due_at=_aware(due_at),
    )
    session.add(row)
    session.commit()
    session.refresh(row)
    return row


def assignments_of_class(session: Session, class_id: int) -> list[Assignment]:
    return list(
        session.exec(
            select(Assignment).where(Assignment.classroom_id == class_id).order_by(Assignment.created_at, Assignment.id)  # type: ignore[arg-type]
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
    when = _aware(when) or utcnow()
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


# -- where a student stands --------------------------------------------------------

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
    due = _aware(assignment.due_at)
    finished_at = _aware(finished_at)
    if total and answered >= total:
        late = bool(due and finished_at and finished_at > due)
        return Standing(total, answered, correct, TURNED_IN, late, finished_at)
    if due is not None and _aware(now) > due:  # type: ignore[operator]
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
    now = _aware(now) or utcnow()
    rows = session.exec(
        select(Assignment, Classroom)
        .join(Classroom, Classroom.id == Assignment.classroom_id)  # type: ignore[arg-type]
        .join(Membership, Membership.classroom_id == Classroom.id)  # type: ignore[arg-type]
        .where(Membership.learner_id == learner_id)
    ).all()
    out = []
    for assignment, room in rows:
        out.append(my_assignment(session, assignment, room, learner_id, now))
    order = {LATE: 0, IN_PROGRESS: 1, ASSIGNED: 1, TURNED_IN: 2}
    far = datetime.max.replace(tzinfo=timezone.utc)
    out.sort(key=lambda m: (order[m.standing.state], _aware(m.assignment.due_at) or far, m.assignment.id or 0))
    return out


def my_assignment(session: Session, assignment: Assignment, room: Classroom, learner_id: int, now: datetime | None = None) -> MyAssignment:
    now = _aware(now) or utcnow()
    assert assignment.id is not None
    work = work_of(session, assignment, learner_id)
    slots = slots_of(assignment, work)
    answers = answers_of(session, assignment.id, learner_id)
    correct = sum(1 for a in answers.values() if a.correct)
    state = standing(assignment, len(slots), len(answers), correct, work.finished_at if work else None, now)
    next_slot = next((s.index for s in slots if s.index not in answers), None)
    return MyAssignment(assignment, room, state, next_slot)


# -- the class dashboard -------------------------------------------------------------


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
    now = _aware(now) or utcnow()
    assert classroom.id is not None
    given = assignments_of_class(session, classroom.id)
    people = students(session, classroom.id)
    ids = [a.id for a in given]
    works = {
        (w.assignment_id, w.learner_id): w
        for w in session.exec(select(AssignmentWork).where(AssignmentWork.assignment_id.in_(ids))).all()  # type: ignore[union-attr]
    }
    counts: dict[tuple[int, int], tuple[int, int]] = {}
    for assignment_id, learner_id, answered, right in session.exec(
        select(
            AssignmentAnswer.assignment_id,
            AssignmentAnswer.learner_id,
            func.count(),
            func.sum(case((AssignmentAnswer.correct, 1), else_=0)),  # type: ignore[arg-type]
        )
        .where(AssignmentAnswer.assignment_id.in_(ids))  # type: ignore[union-attr]
        .group_by(AssignmentAnswer.assignment_id, AssignmentAnswer.learner_id)
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
            (Membership.learner_id == AssignmentAnswer.learner_id)  # type: ignore[arg-type]
            & (Membership.classroom_id == assignment.classroom_id),
        )
    by_slot: dict[int, list[AssignmentAnswer]] = {}
    for row in session.exec(query.order_by(AssignmentAnswer.answered_at, AssignmentAnswer.id)).all():  # type: ignore[arg-type]
        by_slot.setdefault(row.slot, []).append(row)
    stats = []
    for slot in drill_set.slots():
        answers = by_slot.get(slot.index, [])
        wrong = [a for a in answers if not a.correct]
        tally = Counter(a.answer_text for a in wrong)
        first_of = {}
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
            due = _aware(a.due_at)
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


# -- accounts: merging a guest, exporting, deleting ---------------------------------


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
            session.exec(  # type: ignore[call-overload]
                delete(AssignmentAnswer).where(
                    AssignmentAnswer.learner_id == guest_id,  # type: ignore[arg-type]
                    AssignmentAnswer.assignment_id == work.assignment_id,  # type: ignore[arg-type]
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
    from coach.store.teaching import hands as class_hands

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
            "answered_at": _aware(a.answered_at).isoformat(),  # type: ignore[union-attr]
        }
        for a in session.exec(
            select(AssignmentAnswer).where(AssignmentAnswer.learner_id == learner_id).order_by(AssignmentAnswer.id)  # type: ignore[arg-type]
        ).all()
    ]
    taught = [
        {"class": c.name, "join_code": c.join_code, "students": len(students(session, c.id or 0))}
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
    given = select(Assignment.id).where(Assignment.classroom_id.in_(rooms))  # type: ignore[union-attr]
    from coach.store.teaching import hands as class_hands

    class_hands.delete_for_teacher(session, rooms)
    for statement in (
        delete(AssignmentAnswer).where(AssignmentAnswer.assignment_id.in_(given)),  # type: ignore[attr-defined]
        delete(AssignmentWork).where(AssignmentWork.assignment_id.in_(given)),  # type: ignore[attr-defined]
        delete(Assignment).where(Assignment.classroom_id.in_(rooms)),  # type: ignore[attr-defined]
        delete(Membership).where(Membership.classroom_id.in_(rooms)),  # type: ignore[attr-defined]
        delete(Classroom).where(Classroom.teacher_id == teacher_id),  # type: ignore[arg-type]
        delete(DrillSetRow).where(DrillSetRow.owner_id == teacher_id),  # type: ignore[arg-type]
        delete(CardChoice).where(CardChoice.card_id.in_(select(TeacherCard.id).where(TeacherCard.owner_id == teacher_id))),  # type: ignore[attr-defined]
        delete(TeacherCard).where(TeacherCard.owner_id == teacher_id),  # type: ignore[arg-type]
    ):
        session.exec(statement.execution_options(synchronize_session=False))  # type: ignore[call-overload]
