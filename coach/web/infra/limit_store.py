"""Rate limits counted in one SQLite file that every worker of a server shares (issue 26).

gunicorn runs a worker per core; with limits counted in each worker's
memory, every limit was as many times looser as there were workers (20
join-code misses a minute became 40 on two cores). Redis counts across
workers and servers, but is a service to run; one machine needs none:
this store keeps the counts in a SQLite file in the instance folder
(`ratelimits.sqlite3`), which the workers (and servers sharing the folder)
all write. It is a `limits` storage like the library's own, registered
under the scheme `coach-sqlite://` (`coach-sqlite:///abs/path/file`), with
what the app's moving window needs (`MovingWindowSupport`) and the fixed
window's counters besides.

- Each hit is a row (key, time, expiry, amount). Taking one is a single
  `BEGIN IMMEDIATE` transaction of two statements: drop the key's rows that
  have left the window (and a few expired rows of any key, below), then
  add the new row only if it fits, the check inside the insert itself
  (`INSERT ... SELECT ... WHERE`); two workers cannot both take the last
  place. What the window holds is kept as a running sum per key (`tally`),
  which triggers in the file keep equal to the key's rows, whoever writes
  them: a hit costs the same however many hits its window holds (summing
  the rows each time cost 0.8 ms a hit at 9,000 of them, the address key
  of a busy server, where a drill request's own work is about 1.5 ms;
  issue 26), in four calls into SQLite. Each row is dropped once, so that
  is constant on average; the first hit after a quiet spell drops what its
  key's last window held. A file from before the tally has it filled from
  its rows once, when it is set up.
- Several hits at once (`acquire_entries`: a drill request's two or three
  drilling limits, coach.web.infra.lean_limits) are one transaction of
  three statements however many: the keys' old rows dropped, their tallies
  read, the hits that fit added, up to the first that does not; the same
  answers and counts as `acquire_entry` for each in turn.
  A fixed-window counter is one `INSERT ... ON CONFLICT DO UPDATE`.
- WAL and `synchronous=NORMAL`: readers never wait for a writer and a
  commit costs no disk flush (a crash of the machine may forget the last
  few hits; a limit is not a ledger). A 1 s busy timeout: the write lock is
  held for microseconds at a time, but on a saturated machine its holder
  waits for the GIL between statements (every thread of the worker competes
  for it), and 160 live tables' requests once kept the file locked past 5 s.
- A hit or count that meets the file still locked is not an error: that one
  is counted in this process's memory instead (`_fallback`, as the limiter's
  own `in_memory_fallback` counts, per worker), logged once per process, and
  the next hit tries the file again. The request is answered either way, never
  a 500 (issue 28); a limit stays a limit, only per worker for that moment.
- Expired rows go a few at a time with each hit (`SWEEP` rows at most, by
  their expiry's index): the file stays as small as the live windows, and
  no hit pays for a long sweep. A row is expired once past its window, so
  a sweep never changes what a window holds.
- One connection a process, used by one thread at a time (a lock around
  each transaction and read), made again after gunicorn's fork. SQLite
  empties a connection's page cache whenever another connection wrote the
  file since its last transaction: with a connection per thread (eight a
  worker), nearly every hit began by reading its pages again (about 30
  page reads a drill request; issue 26). With one a process, a hit reads
  again only after the other workers' hits, and the threads of a worker
  wait for each other on the lock, woken at once, instead of in SQLite's
  busy handler, which sleeps 1, 2, 5 ... ms between tries.
  A thread waits for its turn no longer than the busy timeout, then counts
  its hit in memory as a locked file's is.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from limits.errors import StorageError
from limits.storage import MemoryStorage, MovingWindowSupport, Storage

from coach.common.file_lock import locked

SCHEME = "coach-sqlite"
DEFAULT = f"{SCHEME}://"  # the setting's default: the instance folder's file (coach.web.infra.limits)
FILE_NAME = "ratelimits.sqlite3"
SWEEP = 16  # expired rows removed at most per hit: bounded work, and more than a hit adds
BUSY_TIMEOUT = 1.0  # seconds; then the hit is counted in memory (`_fallback`)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS hit (key TEXT NOT NULL, at REAL NOT NULL, expires REAL NOT NULL, amount INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS hit_key_at ON hit (key, at);
CREATE INDEX IF NOT EXISTS hit_expires ON hit (expires);
CREATE TABLE IF NOT EXISTS counter (key TEXT PRIMARY KEY, count INTEGER NOT NULL, expires REAL NOT NULL);
CREATE INDEX IF NOT EXISTS counter_expires ON counter (expires);
"""
# The running sum of each key's hits, kept by SQLite itself as rows come and go
# (no round trip from Python for it); a key whose rows are all gone has none. Made
# with the sum of the rows already there (a file from before it) in one write
# transaction, so no hit slips in between.
_TALLY = """
BEGIN IMMEDIATE;
CREATE TABLE IF NOT EXISTS tally (key TEXT PRIMARY KEY, taken INTEGER NOT NULL);
CREATE TRIGGER IF NOT EXISTS hit_added AFTER INSERT ON hit BEGIN
    INSERT INTO tally (key, taken) VALUES (NEW.key, NEW.amount)
    ON CONFLICT (key) DO UPDATE SET taken = taken + NEW.amount;
END;
CREATE TRIGGER IF NOT EXISTS hit_removed AFTER DELETE ON hit BEGIN
    UPDATE tally SET taken = taken - OLD.amount WHERE key = OLD.key;
    DELETE FROM tally WHERE key = OLD.key AND taken <= 0;
END;
INSERT INTO tally (key, taken) SELECT key, sum(amount) FROM hit WHERE NOT EXISTS (SELECT 1 FROM tally) GROUP BY key;
COMMIT;
"""


_left_behind: list[sqlite3.Connection] = []
log = logging.getLogger(__name__)


def _busy(error: sqlite3.Error) -> bool:
    """SQLite's "database is locked" (or busy): another writer held the file past the busy timeout."""
    return isinstance(error, sqlite3.OperationalError) and any(word in str(error) for word in ("locked", "busy"))

Entry = tuple[str, int, int, int]  # a moving-window hit: key, limit, expiry in seconds, amount


@contextlib.contextmanager
def _storage_errors(storage: Storage) -> Iterator[None]:
    """What `limits` does around a storage's own methods: its errors become
    StorageError when the storage was made with `wrap_exceptions`."""
    try:
        yield
    except sqlite3.Error as error:
        if storage.wrap_exceptions:
            raise StorageError(error) from error
        raise


@functools.cache
def _drop_sql(keys: int) -> str:
    """acquire_entry's first statement, for `keys` keys at once: (now, SWEEP, then each key and its window's start)."""
    return (
        "DELETE FROM hit WHERE rowid IN (SELECT rowid FROM hit WHERE expires < ? LIMIT ?) OR "
        + " OR ".join(["(key = ? AND at < ?)"] * keys)
    )


@functools.cache
def _tally_sql(keys: int) -> str:
    return f"SELECT key, taken FROM tally WHERE key IN ({', '.join(['?'] * keys)})"


def uri_for(instance: Path) -> str:
    """The store's URI for the instance folder's file."""
    return f"{SCHEME}://{(instance / FILE_NAME).resolve()}"


class SQLiteStorage(Storage, MovingWindowSupport):
    """Rate limits in a SQLite file shared by processes; see the module's docstring."""

    STORAGE_SCHEME = [SCHEME]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: float | str | bool):
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        path = (uri or "").partition("://")[2]
        if not path.startswith("/"):
            raise ValueError(f"{SCHEME}:// needs an absolute file path, such as {SCHEME}:///var/lib/coach/{FILE_NAME}")
        self.path = Path(path)
        self._held: tuple[int, sqlite3.Connection, threading.RLock] | None = None  # this process's, and its lock
        self._fallback_lock = threading.Lock()
        self._fallback_store: MemoryStorage | None = None
        self._fallback_pid = 0
        self._told = 0  # the process that has logged its first locked file (once per process)
        self._set_up()

    @property
    def base_exceptions(self) -> type[Exception]:
        return sqlite3.Error

    # -- connections -------------------------------------------------------------

    def _set_up(self) -> None:
        # Once per file, whoever comes first: switching to WAL takes a lock
        # that a worker setting up at the same moment would fail on.
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with locked(self.path.with_name(self.path.name + ".setup-lock")):
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)  # the owner's only, as the database
            os.close(fd)
            connection = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None)
            try:
                connection.execute("PRAGMA journal_mode=WAL")
                connection.executescript(_SCHEMA)
                connection.executescript(_TALLY)
            finally:
                connection.close()

    def _own(self) -> tuple[sqlite3.Connection, threading.RLock]:
        """This process's connection and the lock its threads take turns on."""
        pid = os.getpid()
        held = self._held
        if held is None or held[0] != pid:  # the first use, or the first after a fork
            if held is not None:
                # A connection of the parent, carried across a fork: kept, never
                # closed here, since closing its file would drop this process's
                # own locks on the file (POSIX locks are per process, not per handle).
                _left_behind.append(held[1])
            # Shared by the process's threads, one at a time (its lock, new in each
            # process): see the module's docstring. Two threads making one at once
            # each use their own for that call, and SQLite keeps them apart as
            # any two connections; the last made is kept.
            connection = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False)
            connection.execute("PRAGMA synchronous=NORMAL")
            self._held = held = (pid, connection, threading.RLock())
        return held[1], held[2]

    def _connection(self) -> sqlite3.Connection:
        return self._own()[0]

    @contextlib.contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        connection, turn = self._own()
        with turn:
            yield connection

    def _fallback(self, what: str, error: sqlite3.Error) -> MemoryStorage:
        """This process's memory store, for a hit the locked file could not take (see the
        module's docstring); the first time in a process, a warning says so."""
        pid = os.getpid()
        with self._fallback_lock:
            if self._fallback_store is None or self._fallback_pid != pid:  # made after the fork, in the worker
                self._fallback_store, self._fallback_pid = MemoryStorage(), pid
            if self._told != pid:
                self._told = pid
                log.warning("rate limits: %s met %s (%s); counting in this worker's memory while it lasts", what, self.path.name, error)
            return self._fallback_store

    @contextlib.contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        connection, turn = self._own()
        # The process's turn waits no longer than SQLite's busy timeout would: a
        # thread behind one that is itself waiting for the locked file gives up as
        # that one does, and its hit is counted in memory (`_fallback`).
        if not turn.acquire(timeout=BUSY_TIMEOUT):
            raise sqlite3.OperationalError("database is locked (this process's turn on the limits file)")
        try:
            connection.execute("BEGIN IMMEDIATE")  # the write lock first: a check and its write are one
            try:
                yield connection
                connection.execute("COMMIT")
            except BaseException:
                if connection.in_transaction:  # a failed COMMIT too: never leave the connection mid-transaction
                    connection.execute("ROLLBACK")
                raise
        finally:
            turn.release()

    @staticmethod
    def _sweep(connection: sqlite3.Connection, table: str, now: float) -> None:
        # Each table swept by its own kind of hit: a moving-window hit sweeps hits, a counter counters.
        connection.execute(
            f"DELETE FROM {table} WHERE rowid IN (SELECT rowid FROM {table} WHERE expires <= ? LIMIT ?)", (now, SWEEP)
        )

    # -- the moving window --------------------------------------------------------

    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        if amount > limit:
            return False
        try:
            return self._acquire_entry(key, limit, expiry, amount)
        except sqlite3.Error as error:
            if not _busy(error):
                raise
            return self._fallback("a hit", error).acquire_entry(key, limit, expiry, amount)

    def _acquire_entry(self, key: str, limit: int, expiry: int, amount: int) -> bool:
        now = time.time()
        with self._writing() as connection:
            # A few expired rows of any key, and every row of this key older than the
            # window (the rows a sum over `at >= now - expiry` left out): what is left
            # of the key is its window, and its tally says how much that holds. A row is
            # swept once past its window (`expires < now`): one at the window's very end
            # still counts, so a sweep never changes a count.
            connection.execute(
                "DELETE FROM hit WHERE rowid IN (SELECT rowid FROM hit WHERE expires < :now LIMIT :sweep)"
                " OR (key = :key AND at < :since)",
                {"now": now, "sweep": SWEEP, "key": key, "since": now - expiry},
            )
            added = connection.execute(
                "INSERT INTO hit (key, at, expires, amount) SELECT :key, :now, :expires, :amount"
                " WHERE coalesce((SELECT taken FROM tally WHERE key = :key), 0) + :amount <= :limit",
                {"key": key, "now": now, "expires": now + expiry, "amount": amount, "limit": limit},
            )
            return added.rowcount == 1

    def acquire_entries(self, entries: Sequence[Entry]) -> int:
        """`acquire_entry` for each (key, limit, expiry, amount) in turn, up to the first
        refused, in one transaction: how many were taken (all of them, or the place of
        the refused one). What a request's several limits cost as one hit does
        (coach.web.infra.lean_limits); the entries after a refused one are not
        tried, as Flask-Limiter stops at a limit's first breach."""
        if not entries:
            return 0
        with _storage_errors(self):
            try:
                return self._acquire_entries(entries)
            except sqlite3.Error as error:
                if not _busy(error):
                    raise
                memory = self._fallback("a request's hits", error)
                for taken, (key, limit, expiry, amount) in enumerate(entries):
                    if not memory.acquire_entry(key, limit, expiry, amount):
                        return taken
                return len(entries)

    def _acquire_entries(self, entries: Sequence[Entry]) -> int:
        now = time.time()
        with self._writing() as connection:
            # As acquire_entry for each, in three statements however many: the rows that
            # have left each key's window go (and a few expired ones), the keys' tallies
            # are read, and the entries that fit are added. The write lock is held from
            # the first, so what is read is what is there when they are added.
            dropped: list[object] = [now, SWEEP]
            for key, _, expiry, _ in entries:
                dropped += (key, now - expiry)
            connection.execute(_drop_sql(len(entries)), dropped)
            keys = list(dict.fromkeys(key for key, _, _, _ in entries))
            held: dict[str, int] = dict(connection.execute(_tally_sql(len(keys)), keys).fetchall())
            added = []
            for key, limit, expiry, amount in entries:
                taken = held.get(key, 0) + amount
                if taken > limit:
                    break
                held[key] = taken
                added.append((key, now, now + expiry, amount))
            if added:
                connection.executemany("INSERT INTO hit (key, at, expires, amount) VALUES (?, ?, ?, ?)", added)
            return len(added)

    def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        now = time.time()
        with self._reading() as connection:
            oldest, taken = connection.execute(
                "SELECT min(at), coalesce(sum(amount), 0) FROM hit WHERE key = ? AND at >= ?", (key, now - expiry)
            ).fetchone()
        return (oldest if oldest is not None else now), int(taken)

    # -- fixed-window counters -----------------------------------------------------

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        try:
            return self._incr(key, expiry, amount)
        except sqlite3.Error as error:
            if not _busy(error):
                raise
            return self._fallback("a count", error).incr(key, expiry, amount)

    def _incr(self, key: str, expiry: int, amount: int) -> int:
        now = time.time()
        with self._writing() as connection:
            self._sweep(connection, "counter", now)
            (count,) = connection.execute(
                """
                INSERT INTO counter (key, count, expires) VALUES (:key, :amount, :expires)
                ON CONFLICT (key) DO UPDATE SET
                    count = CASE WHEN counter.expires <= :now THEN :amount ELSE counter.count + :amount END,
                    expires = CASE WHEN counter.expires <= :now THEN :expires ELSE counter.expires END
                RETURNING count
                """,
                {"key": key, "amount": amount, "expires": now + expiry, "now": now},
            ).fetchone()
            return int(count)

    def get(self, key: str) -> int:
        with self._reading() as connection:
            row = connection.execute(
                "SELECT count FROM counter WHERE key = ? AND expires > ?", (key, time.time())
            ).fetchone()
        return int(row[0]) if row else 0

    def get_expiry(self, key: str) -> float:
        now = time.time()
        with self._reading() as connection:
            row = connection.execute(
                "SELECT expires FROM counter WHERE key = ? AND expires > ?", (key, now)
            ).fetchone()
        return float(row[0]) if row else now

    # -- the rest of the interface ----------------------------------------------------

    def check(self) -> bool:
        try:
            with self._reading() as connection:
                connection.execute("SELECT 1").fetchone()
        except sqlite3.Error:
            return False
        return True

    def clear(self, key: str) -> None:
        with self._writing() as connection:
            connection.execute("DELETE FROM hit WHERE key = ?", (key,))  # its tally goes with its rows
            connection.execute("DELETE FROM counter WHERE key = ?", (key,))

    def reset(self) -> int | None:
        with self._writing() as connection:
            removed = connection.execute("DELETE FROM hit").rowcount
            removed += connection.execute("DELETE FROM counter").rowcount
        return removed
