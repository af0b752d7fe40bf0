"""Classes: making, renaming and deleting them, join codes, and who is in each.

Every getter takes the id of the person asking and returns None for what
is not theirs: the web layer turns that into a 404, so a stranger cannot
even learn that a class exists.
"""

from __future__ import annotations

import json
import secrets

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from coach.common import clock
from coach.rules.table_rules import LEAGUE, TableRules
from coach.store.models import Classroom, ClassRules, Learner, Membership
from coach.store.table_rules import stored
from coach.store.teaching.errors import TeachingError
from coach.store.transaction import insert_once, write

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I: codes are read aloud and typed
CODE_LENGTH = 6
MAX_CLASS_NAME = 80


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


def class_rules(session: Session, class_id: int) -> TableRules:
    """A class's table rules, as its teacher set them (the League's until then).
    Not owner-checked: for a class the caller has already reached through one
    of the checked getters (its teacher's `class_taught`, a student's `membership`)."""
    text = session.exec(select(ClassRules.rules).where(ClassRules.classroom_id == class_id)).first()
    return LEAGUE if text is None else TableRules.from_json(json.loads(text))


def table_rules_taught(session: Session, teacher_id: int, class_id: int) -> TableRules | None:
    """The table rules of one of this teacher's classes; None for anyone else's."""
    return class_rules(session, class_id) if class_taught(session, teacher_id, class_id) is not None else None


def set_table_rules(session: Session, teacher_id: int, class_id: int, rules: TableRules) -> TableRules | None:
    """Set a class's table rules, in one transaction: its assignments' questions from
    now on, and the class hands given after, use them (a class hand keeps the rules it
    was given with). None for a class that is not this teacher's."""
    if class_taught(session, teacher_id, class_id) is None:
        return None
    text = stored(rules)

    def put() -> None:
        now = clock.now()
        if not insert_once(session, ClassRules, {"classroom_id": class_id, "rules": text, "updated_at": now}, ("classroom_id",)):
            session.exec(
                update(ClassRules)
                .where(col(ClassRules.classroom_id) == class_id)
                .values(rules=text, updated_at=now)
                .execution_options(synchronize_session=False)
            )

    write(session, put)
    return rules


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
            select(Classroom).where(col(Classroom.teacher_id) == teacher_id).order_by(col(Classroom.created_at), col(Classroom.id))
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
        .join(Membership, col(Membership.classroom_id) == Classroom.id)
        .join(Learner, col(Learner.id) == Classroom.teacher_id)
        .where(Membership.learner_id == learner_id)
        .order_by(col(Membership.joined_at), col(Membership.id))
    ).all()
    return [(c, t) for c, t in rows]


def students(session: Session, class_id: int) -> list[Learner]:
    rows = session.exec(
        select(Learner)
        .join(Membership, col(Membership.learner_id) == Learner.id)
        .where(Membership.classroom_id == class_id)
        .order_by(col(Membership.joined_at), col(Membership.id))
    ).all()
    return list(rows)

