"""People made straight in the store, for the teaching store's tests."""

from __future__ import annotations

from sqlmodel import Session

from coach.store.models import (
    Learner,
)


def person(engine, name: str = "", teacher: bool = False, guest: bool = False) -> int:
    with Session(engine) as session:
        row = Learner(
            guest=guest,
            name=name,
            email=None if guest else f"{name.lower() or 'x'}-{id(object())}@example.com",
            role="teacher" if teacher else "learner",
        )
        session.add(row)
        session.commit()
        assert row.id is not None
        return row.id
