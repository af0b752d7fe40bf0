"""One short transaction per answer, safe when answers arrive at once.

A learner's answers are written one after another: each transaction first
takes the learner's row lock (`lock_learner`), so two answers never read
the same review schedule and both write it back (one review lost). The
count-once rules are the unique constraints themselves (`insert_once`),
with no query looking for a repeat first. Should the database still report
a collision (a deadlock, "database is locked" after the busy timeout, a key
taken by another process), `write` runs the whole transaction again.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlmodel import Session, SQLModel, select, update

from coach.store.models import Learner

T = TypeVar("T")
ATTEMPTS = 6
# PostgreSQL's serialization failure and deadlock; a unique key taken by a
# concurrent transaction; SQLite's busy database.
RETRY_STATES = {"40001", "40P01", "23505"}
RETRY_WORDS = ("database is locked", "database is busy", "UNIQUE constraint failed")


def _dialect(session: Session) -> str:
    return session.get_bind().dialect.name


def lock_learner(session: Session, learner_id: int) -> bool:
    """Hold this learner's row until the transaction ends; False when there is no such learner.

    Call it first in a transaction, before anything is read."""
    if _dialect(session) == "sqlite":
        # SQLite locks the whole database, and only at a transaction's first
        # write. Writing first (changing nothing) takes that lock now, so what
        # is read next cannot change before it is written, and a busy database
        # is waited for (the 30 s timeout) rather than failing on a stale read.
        nothing = update(Learner).where(Learner.id == learner_id).values(guest=Learner.guest)  # type: ignore[arg-type]
        return bool(session.exec(nothing).rowcount == 1)  # type: ignore[call-overload]
    found = session.exec(select(Learner.id).where(Learner.id == learner_id).with_for_update()).first()
    return found is not None


def insert_once(session: Session, model: type[SQLModel], values: dict[str, Any], key: Sequence[str]) -> bool:
    """Insert a row unless its unique `key` is taken; whether it was inserted.

    The unique constraint decides (INSERT ... ON CONFLICT DO NOTHING), so
    nothing is read first and a concurrent twin cannot slip in between."""
    table = model.__table__  # type: ignore[attr-defined]
    insert = sqlite_insert if _dialect(session) == "sqlite" else postgresql_insert
    statement = insert(table).values(**values).on_conflict_do_nothing(index_elements=list(key))
    return session.exec(statement.returning(table.c.id)).first() is not None  # type: ignore[call-overload]


def retryable(error: DBAPIError) -> bool:
    """A collision with another writer that the same transaction, run again, gets past."""
    state = getattr(error.orig, "sqlstate", None)
    return state in RETRY_STATES or any(word in str(error.orig) for word in RETRY_WORDS)


def write(session: Session, work: Callable[[], T]) -> T:
    """`work` and a commit, as one transaction, run again from the start on a collision."""
    for attempt in range(1, ATTEMPTS + 1):
        try:
            result = work()
            session.commit()
            return result
        except (OperationalError, IntegrityError) as error:
            session.rollback()
            if attempt == ATTEMPTS or not retryable(error):
                raise
            time.sleep(random.uniform(0, 0.005 * 2**attempt))  # apart, so the colliders do not meet again
    raise AssertionError("unreachable")


def write_as(session: Session, learner_id: int, add: Callable[[], bool]) -> bool:
    """`add` in a transaction of its own holding the learner's lock; False
    when there is no such learner, or when `add` says it added nothing."""
    return write(session, lambda: lock_learner(session, learner_id) and add())
