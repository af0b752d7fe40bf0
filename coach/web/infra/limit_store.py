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
  `BEGIN IMMEDIATE` transaction: drop the key's rows that have left the
  window, read what is left, add the new one only if it fits; two workers
  cannot both take the last place. What is left is kept as a running sum
  per key (`tally`: the amounts of the key's rows still in `hit`), so a hit
  costs the same however many hits its window holds: summing the rows
  each time cost 0.8 ms a hit at 9,000 of them, the address key of a busy
  server, where a drill request's own work is about 1.5 ms (issue 26). A
  key with no tally (a file from before it, or one whose rows were all
  swept) has its sum counted once from its rows. A fixed-window counter is
  one `INSERT ... ON CONFLICT DO UPDATE`.
- WAL and `synchronous=NORMAL`: readers never wait for a writer and a
  commit costs no disk flush (a crash of the machine may forget the last
  few hits; a limit is not a ledger). A 5 s busy timeout: the write lock is
  held for microseconds at a time, so waiting longer means something is
  wrong, and the limiter falls back to memory (its `in_memory_fallback`).
- Expired rows go a few at a time with each hit (`SWEEP` rows at most, by
  their expiry's index, their keys' tallies lowered to match): the file
  stays as small as the live windows, and no hit pays for a long sweep.
- A connection per thread and process: sqlite3 connections are not to be
  shared across threads, nor kept across gunicorn's fork.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from limits.storage import MovingWindowSupport, Storage

from coach.common.file_lock import locked

SCHEME = "coach-sqlite"
DEFAULT = f"{SCHEME}://"  # the setting's default: the instance folder's file (coach.web.infra.limits)
FILE_NAME = "ratelimits.sqlite3"
SWEEP = 16  # expired rows removed at most per hit: bounded work, and more than a hit adds
BUSY_TIMEOUT = 5.0  # seconds

_SCHEMA = """
CREATE TABLE IF NOT EXISTS hit (key TEXT NOT NULL, at REAL NOT NULL, expires REAL NOT NULL, amount INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS hit_key_at ON hit (key, at);
CREATE INDEX IF NOT EXISTS hit_expires ON hit (expires);
CREATE TABLE IF NOT EXISTS counter (key TEXT PRIMARY KEY, count INTEGER NOT NULL, expires REAL NOT NULL);
CREATE INDEX IF NOT EXISTS counter_expires ON counter (expires);
CREATE TABLE IF NOT EXISTS tally (key TEXT PRIMARY KEY, taken INTEGER NOT NULL);
"""


_left_behind: list[sqlite3.Connection] = []


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
        self._local = threading.local()
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
            finally:
                connection.close()

    def _connection(self) -> sqlite3.Connection:
        pid = os.getpid()
        held: tuple[int, sqlite3.Connection] | None = getattr(self._local, "held", None)
        if held is None or held[0] != pid:  # a thread's first use, or the first after a fork
            if held is not None:
                # A connection of the parent, carried across a fork: kept, never
                # closed here, since closing its file would drop this process's
                # own locks on the file (POSIX locks are per process, not per handle).
                _left_behind.append(held[1])
            connection = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None)
            connection.execute("PRAGMA synchronous=NORMAL")
            self._local.held = held = (pid, connection)
        return held[1]

    @contextlib.contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        connection = self._connection()
        connection.execute("BEGIN IMMEDIATE")  # the write lock first: a check and its write are one
        try:
            yield connection
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")

    @staticmethod
    def _sweep(connection: sqlite3.Connection, table: str, now: float) -> None:
        # Each table swept by its own kind of hit: a moving-window hit sweeps hits, a counter counters.
        if table == "counter":
            connection.execute(
                "DELETE FROM counter WHERE rowid IN (SELECT rowid FROM counter WHERE expires <= ? LIMIT ?)", (now, SWEEP)
            )
            return
        swept = connection.execute(
            "DELETE FROM hit WHERE rowid IN (SELECT rowid FROM hit WHERE expires <= ? LIMIT ?) RETURNING key, amount",
            (now, SWEEP),
        ).fetchall()
        if swept:  # the keys' tallies follow their rows; a tally down to nothing goes with them
            lowered: dict[str, int] = {}
            for key, amount in swept:
                lowered[key] = lowered.get(key, 0) + amount
            connection.executemany("UPDATE tally SET taken = taken - ? WHERE key = ?", [(n, k) for k, n in lowered.items()])
            connection.executemany("DELETE FROM tally WHERE key = ? AND taken <= 0", [(k,) for k in lowered])

    # -- the moving window --------------------------------------------------------

    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        if amount > limit:
            return False
        now = time.time()
        with self._writing() as connection:
            self._sweep(connection, "hit", now)
            # The key's rows older than the window count no more (the same rows the
            # sum over `at >= now - expiry` left out): dropped, so those left are the window.
            gone = sum(
                n for (n,) in connection.execute("DELETE FROM hit WHERE key = ? AND at < ? RETURNING amount", (key, now - expiry))
            )
            row = connection.execute("SELECT taken FROM tally WHERE key = ?", (key,)).fetchone()
            if row is not None and row[0] - gone >= 0:
                taken = row[0] - gone
            else:  # no tally yet (or one that cannot be right): counted from the rows, once
                (taken,) = connection.execute("SELECT coalesce(sum(amount), 0) FROM hit WHERE key = ?", (key,)).fetchone()
            fits = taken + amount <= limit
            if fits:
                connection.execute(
                    "INSERT INTO hit (key, at, expires, amount) VALUES (?, ?, ?, ?)", (key, now, now + expiry, amount)
                )
                taken += amount
            if fits or gone or row is None or row[0] != taken:
                connection.execute(
                    "INSERT INTO tally (key, taken) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET taken = excluded.taken",
                    (key, taken),
                )
            return fits

    def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        now = time.time()
        oldest, taken = self._connection().execute(
            "SELECT min(at), coalesce(sum(amount), 0) FROM hit WHERE key = ? AND at >= ?", (key, now - expiry)
        ).fetchone()
        return (oldest if oldest is not None else now), int(taken)

    # -- fixed-window counters -----------------------------------------------------

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
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
        row = self._connection().execute(
            "SELECT count FROM counter WHERE key = ? AND expires > ?", (key, time.time())
        ).fetchone()
        return int(row[0]) if row else 0

    def get_expiry(self, key: str) -> float:
        now = time.time()
        row = self._connection().execute(
            "SELECT expires FROM counter WHERE key = ? AND expires > ?", (key, now)
        ).fetchone()
        return float(row[0]) if row else now

    # -- the rest of the interface ----------------------------------------------------

    def check(self) -> bool:
        try:
            self._connection().execute("SELECT 1").fetchone()
        except sqlite3.Error:
            return False
        return True

    def clear(self, key: str) -> None:
        with self._writing() as connection:
            connection.execute("DELETE FROM hit WHERE key = ?", (key,))
            connection.execute("DELETE FROM tally WHERE key = ?", (key,))
            connection.execute("DELETE FROM counter WHERE key = ?", (key,))

    def reset(self) -> int | None:
        with self._writing() as connection:
            removed = connection.execute("DELETE FROM hit").rowcount
            connection.execute("DELETE FROM tally")  # not counted: a tally is no hit
            removed += connection.execute("DELETE FROM counter").rowcount
        return removed
