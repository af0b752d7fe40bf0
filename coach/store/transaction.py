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

import functools
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from sqlalchemy import bindparam, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.sql.dml import Insert
from sqlmodel import Session, SQLModel

from coach.store.models import Learner
from coach.store.prepared import Prepared

T = TypeVar("T")
ATTEMPTS = 6
# PostgreSQL's serialization failure and deadlock; a unique key taken by a
# concurrent transaction; SQLite's busy database.
RETRY_STATES = {"40001", "40P01", "23505"}
RETRY_WORDS = ("database is locked", "database is busy", "UNIQUE constraint failed")


# Statements run on every answer are built once and compiled once for each
# database (coach/store/prepared.py): a request pays neither for building them,
# nor for the ORM, nor for Core's work around each execution.
_LEARNER = Learner.__table__  # type: ignore[attr-defined]  # SQLModel sets __table__ at class creation
# SQLite: a write that changes nothing (see `lock_learner`).
_TOUCH_LEARNER = Prepared(update(_LEARNER).where(_LEARNER.c.id == bindparam("learner_id")).values(guest=_LEARNER.c.guest))
_LOCK_LEARNER = Prepared(select(_LEARNER.c.id).where(_LEARNER.c.id == bindparam("learner_id")).with_for_update())


def connection_of(session: Session | Connection) -> Connection:
    """The connection to run plain statements on: a session's (objects added to it
    written first, as a query would autoflush them), or the connection itself."""
    if isinstance(session, Session):
        session.flush()
        return session.connection()
    return session


def lock_learner(session: Session | Connection, learner_id: int) -> bool:
    """Hold this learner's row until the transaction ends; False when there is no such learner.

    Call it first in a transaction, before anything is read."""
    connection = connection_of(session)
    if connection.dialect.name == "sqlite":
        # SQLite locks the whole database, and only at a transaction's first
        # write. Writing first (changing nothing) takes that lock now, so what
        # is read next cannot change before it is written, and a busy database
        # is waited for (the 30 s timeout) rather than failing on a stale read.
        return _TOUCH_LEARNER.rowcount(connection, {"learner_id": learner_id}) == 1
    return _LOCK_LEARNER.first(connection, {"learner_id": learner_id}) is not None


@functools.cache
def _insert_once_statement(model: type[SQLModel], dialect: str, key: tuple[str, ...], columns: tuple[str, ...]) -> Prepared:
    table = model.__table__  # type: ignore[attr-defined]  # SQLModel sets __table__ at class creation
    insert = sqlite_insert if dialect == "sqlite" else postgresql_insert
    statement: Insert = insert(table).on_conflict_do_nothing(index_elements=list(key)).returning(table.c.id)
    return Prepared(statement, columns)


def insert_once(session: Session | Connection, model: type[SQLModel], values: dict[str, Any], key: Sequence[str]) -> bool:
    """Insert a row unless its unique `key` is taken; whether it was inserted.

    The unique constraint decides (INSERT ... ON CONFLICT DO NOTHING), so
    nothing is read first and a concurrent twin cannot slip in between."""
    connection = connection_of(session)
    statement = _insert_once_statement(model, connection.dialect.name, tuple(key), tuple(values))
    if statement.ready(connection.dialect):
        return statement.first(connection, values) is not None
    return connection.execute(statement.statement, values).first() is not None  # a column default left to Core


def retryable(error: DBAPIError) -> bool:
    """A collision with another writer that the same transaction, run again, gets past."""
    state = getattr(error.orig, "sqlstate", None)
    return state in RETRY_STATES or any(word in str(error.orig) for word in RETRY_WORDS)


def write(session: Session | Connection, work: Callable[[], T]) -> T:
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


def move_learner_rows(session: Session, model: type[SQLModel], guest_id: int, account_id: int) -> int:
    """A guest signing in keeps what they made: `model`'s rows move to the
    account, in the caller's transaction. How many moved."""
    column = model.learner_id  # type: ignore[attr-defined]  # every model moved here has a learner_id column
    return session.exec(
        update(model).where(column == guest_id).values(learner_id=account_id).execution_options(synchronize_session=False)
    ).rowcount
