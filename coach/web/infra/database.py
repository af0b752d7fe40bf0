"""The database of a request: a session to read, or one to write with the write lock.

    with database.reading() as session: ...   # reads (a write in it takes no turn: keep those in writing())
    with database.reading(strict=True) as s:  # reads only: the database itself refuses a write in it
    with database.writing() as session: ...   # this process's and this machine's turn to write, then the session

SQLite has one writer at a time: `writing` takes the turn first (see
`write_lock`), so that writers queue here instead of in SQLite's busy
handler. The store's own transaction helpers (coach/store/transaction.py)
run inside either. The turn is re-entrant within a thread: a `writing()`
inside another (a move that ends a hand starts its reviews) goes on at once
instead of waiting for itself.

A write in a plain `reading()` session waits in SQLite's busy handler, whose
sleeps grow to 100 ms, behind every writer queued for the turn: under load
(issue 28, 40 live tables) such writes waited seconds. The live tables read
in strict sessions and write only in `writing()` ones
(coach/web/shared/tables/moves.py); a write slipped into a strict session
fails at once ("attempt to write a readonly database") instead of queueing.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from typing import Any

from flask import current_app
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import Pool
from sqlmodel import Session

try:
    import fcntl  # file locks between gunicorn's worker processes (POSIX)
except ImportError:  # Windows: one server process, the in-process lock is enough
    fcntl = None  # type: ignore[assignment]


def engine() -> Engine:
    """The app's database engine (made and migrated by the app factory)."""
    return current_app.extensions["store"]


STRICT = "coach.reads_only"  # a Session's info key: its transactions are read-only


@contextlib.contextmanager
def reading(strict: bool = False) -> Iterator[Session]:
    """A session on the app's database, for a request that reads. `strict`: the
    database refuses any write in it (SQLite's `query_only`, PostgreSQL's read-only
    transaction), so a write that belongs in `writing()` fails instead of waiting."""
    with Session(engine(), info={STRICT: True} if strict else {}) as session:
        yield session


@event.listens_for(Session, "after_begin")
def _reads_only(session: Session, _transaction: object, connection: Connection) -> None:
    if not session.info.get(STRICT):
        return
    if connection.dialect.name == "sqlite":
        connection.exec_driver_sql("PRAGMA query_only = ON")
        connection.info[STRICT] = True  # the pool turns it off again when the connection goes back (`_writable_again`)
    elif connection.dialect.name == "postgresql":
        connection.exec_driver_sql("SET TRANSACTION READ ONLY")  # this transaction only


@event.listens_for(Pool, "checkin")
def _writable_again(dbapi_connection: Any, record: Any) -> None:
    """A connection a strict session used goes back to the pool writable, for the next session."""
    if dbapi_connection is not None and record.info.pop(STRICT, False):
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA query_only = OFF")
        finally:
            cursor.close()


@contextlib.contextmanager
def writing() -> Iterator[Session]:
    """The write lock, then a session: for a request that writes."""
    with write_lock(), Session(engine()) as session:
        yield session


# SQLite has one writer at a time; threads of one process take turns here
# instead of in SQLite's busy handler, whose sleeps grow to 100 ms.
_WRITES = threading.RLock()
_HELD = threading.local()  # how deep this thread is in its turn: the file lock is taken at the first level only
_LOCK_FILES: dict[tuple[int, str], int] = {}  # (process id, database file): the open lock file


def _lock_file(database: str) -> int:
    """This process's open lock file beside the database file (opened after
    gunicorn's fork: a file opened before would be one lock for all workers)."""
    key = (os.getpid(), database)
    fd = _LOCK_FILES.get(key)
    if fd is None:
        fd = os.open(database + ".write-lock", os.O_RDWR | os.O_CREAT, 0o600)
        _LOCK_FILES[key] = fd
    return fd


@contextlib.contextmanager
def _sqlite_turn(database: str | None) -> Any:
    """The process's turn (`_WRITES`), then the file's: gunicorn's workers are
    processes, and a writer waiting in SQLite's busy handler sleeps 1, 2, 5,
    10, ... 100 ms between tries, while one waiting on the file lock wakes as
    soon as it is let go."""
    with _WRITES:
        depth = getattr(_HELD, "depth", 0)
        if depth or fcntl is None or not database or database == ":memory:" or database.startswith("file:"):
            _HELD.depth = depth + 1  # already this thread's turn (or no file to lock): on at once
            try:
                yield
            finally:
                _HELD.depth = depth
            return
        try:
            fd = _lock_file(database)
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:  # no lock file (say, a read-only folder): SQLite's busy handler still serves
            yield
            return
        _HELD.depth = 1
        try:
            yield
        finally:
            _HELD.depth = 0
            fcntl.flock(fd, fcntl.LOCK_UN)


def write_lock() -> contextlib.AbstractContextManager[Any]:
    """This process's turn to write, and this machine's, for SQLite (see
    `_sqlite_turn`); other databases take concurrent writers themselves."""
    store = engine()
    return _sqlite_turn(store.url.database) if store.dialect.name == "sqlite" else contextlib.nullcontext()


@contextlib.contextmanager
def turn_if_free() -> Iterator[bool]:
    """This process's turn to write if no thread holds it now (True), else at
    once False: for bookkeeping that may be skipped rather than waited for."""
    if not _WRITES.acquire(blocking=False):
        yield False
        return
    try:
        yield True
    finally:
        _WRITES.release()
