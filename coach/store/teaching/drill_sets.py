"""A teacher's drill sets: stored as the text of the set, with the card it is asked on."""

from __future__ import annotations

from sqlmodel import Session, col, select

from coach.common import clock
from coach.store.models import Assignment, DrillSetRow
from coach.store.teaching.errors import TeachingError
from coach.store.teaching.teachers_cards import card_id_for
from drills.sets import DrillSet, dump_set, parse_set


def save_set(session: Session, teacher_id: int, drill_set: DrillSet, set_id: int | None = None) -> DrillSetRow:
    """Store a new set, or replace one of the teacher's sets (set_id)."""
    card_id = card_id_for(session, teacher_id, drill_set.card)
    if set_id is None:
        row = DrillSetRow(owner_id=teacher_id, title=drill_set.title, source=dump_set(drill_set), card_id=card_id)
    else:
        found = set_of(session, teacher_id, set_id)
        if found is None:
            raise TeachingError("That set is not one of yours.")
        row = found
        row.title, row.source, row.card_id, row.updated_at = drill_set.title, dump_set(drill_set), card_id, clock.now()
    session.add(row)
    session.commit()
    session.refresh(row)
    return row


def sets_of(session: Session, teacher_id: int) -> list[DrillSetRow]:
    return list(
        session.exec(
            select(DrillSetRow).where(col(DrillSetRow.owner_id) == teacher_id).order_by(col(DrillSetRow.title), col(DrillSetRow.id))
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

