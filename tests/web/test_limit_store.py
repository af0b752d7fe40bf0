"""The rate limits' SQLite store (issue 26, point 4): counts that every
worker of a server shares, exact under concurrent hits, and expired hits
swept a few at a time.

The clock is the store's own `time.time`, replaced by a fake one here: no
test waits for a window to pass.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from limits import parse
from limits.errors import StorageError
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

from coach.web.infra import limit_store
from coach.web.infra.limit_store import SQLiteStorage
from tests.support.examples import examples
from tests.support.paths import ROOT


@pytest.fixture
def clock(monkeypatch):
    now = SimpleNamespace(value=1_000_000.0)
    monkeypatch.setattr(limit_store, "time", SimpleNamespace(time=lambda: now.value))
    return now


@pytest.fixture
def store(tmp_path) -> SQLiteStorage:
    made = storage_from_string(limit_store.uri_for(tmp_path))  # as Flask-Limiter makes it, by its scheme
    assert isinstance(made, SQLiteStorage)
    return made


def _rows(store: SQLiteStorage) -> int:
    with sqlite3.connect(store.path) as connection:
        return connection.execute("SELECT count(*) FROM hit").fetchone()[0]


def test_the_default_setting_names_this_store():
    from coach.common import settings

    assert settings.RATELIMIT_STORAGE_URI.default == limit_store.DEFAULT


def test_a_relative_path_is_refused_in_words():
    with pytest.raises(ValueError, match="absolute file path"):
        SQLiteStorage("coach-sqlite://relative/limits.sqlite3")


def test_the_moving_window_takes_hits_up_to_the_limit_and_frees_them_as_they_age(store, clock):
    for _ in range(3):
        assert store.acquire_entry("k", limit=3, expiry=60) is True
        clock.value += 10
    assert store.acquire_entry("k", limit=3, expiry=60) is False  # three in the last minute
    assert store.get_moving_window("k", limit=3, expiry=60) == (1_000_000.0, 3)  # from the oldest hit
    assert store.acquire_entry("other", limit=3, expiry=60) is True  # keys count apart
    clock.value = 1_000_000.0 + 60.5  # the first hit is more than a minute old
    assert store.get_moving_window("k", limit=3, expiry=60) == (1_000_010.0, 2)
    assert store.acquire_entry("k", limit=3, expiry=60) is True
    assert store.acquire_entry("k", limit=3, expiry=60) is False
    assert store.acquire_entry("k", limit=3, expiry=60, amount=4) is False  # more than the limit at once
    assert store.get_moving_window("never", limit=3, expiry=60) == (clock.value, 0)


def test_limits_own_moving_window_limiter_reads_the_store(store, clock):
    limiter = MovingWindowRateLimiter(store)
    twenty = parse("20/minute")
    assert [limiter.hit(twenty, "join", "10.0.0.1") for _ in range(22)] == [True] * 20 + [False] * 2
    stats = limiter.get_window_stats(twenty, "join", "10.0.0.1")
    assert stats.remaining == 0 and stats.reset_time == pytest.approx(clock.value + 60)
    store.clear(twenty.key_for("join", "10.0.0.1"))
    assert limiter.test(twenty, "join", "10.0.0.1") is True


def test_fixed_window_counters_count_and_start_again_after_their_expiry(store, clock):
    assert [store.incr("c", expiry=30) for _ in range(3)] == [1, 2, 3]
    assert store.incr("c", expiry=30, amount=2) == 5
    assert store.get("c") == 5 and store.get_expiry("c") == clock.value + 30
    clock.value += 30
    assert store.get("c") == 0 and store.get_expiry("c") == clock.value
    assert store.incr("c", expiry=30) == 1  # a new window


def test_expired_hits_are_swept_a_bounded_few_at_a_time(store, clock):
    for n in range(50):
        assert store.acquire_entry(f"key-{n}", limit=1, expiry=60)
    assert _rows(store) == 50
    clock.value += 61
    store.acquire_entry("fresh", limit=1, expiry=60)
    assert _rows(store) == 50 - limit_store.SWEEP + 1  # one hit sweeps at most SWEEP rows
    for n in range(5):
        store.acquire_entry(f"fresh-{n}", limit=1, expiry=60)
    assert _rows(store) == 6  # the expired ones are all gone, the live ones all kept


def test_check_clear_and_reset(store):
    assert store.check() is True
    store.acquire_entry("a", limit=5, expiry=60)
    store.incr("b", expiry=60)
    store.clear("a")
    assert store.get_moving_window("a", limit=5, expiry=60)[1] == 0 and store.get("b") == 1
    assert store.reset() == 1
    assert store.get("b") == 0


def test_concurrent_hits_from_threads_are_counted_exactly(store):
    def take(_: int) -> bool:
        return store.acquire_entry("shared", limit=150, expiry=60)

    with ThreadPoolExecutor(max_workers=8) as pool:
        taken = list(pool.map(take, range(400)))
    assert taken.count(True) == 150
    assert store.get_moving_window("shared", limit=150, expiry=60)[1] == 150


def test_the_threads_of_a_process_share_one_connection_taking_turns(store):
    """One connection a process (issue 26): SQLite keeps a connection's page cache
    only while no other connection writes, so a connection per thread read every
    hit's pages again. Threads take turns on its lock, and count exactly (above)."""
    def connection(_: int) -> int:
        store.acquire_entry("turns", limit=1000, expiry=60)
        return id(store._connection())

    with ThreadPoolExecutor(max_workers=8) as pool:
        seen = set(pool.map(connection, range(64)))
    assert seen == {id(store._connection())}
    assert store.get_moving_window("turns", limit=1000, expiry=60)[1] == 64


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="fork is POSIX only")
def test_a_forked_worker_makes_its_own_connection_and_counts_with_the_parent(store):
    """gunicorn forks its workers: a connection (and its lock) made before the fork
    is never used by the child, which opens its own on the same file."""
    import os

    store.acquire_entry("forked", limit=10, expiry=60)
    before = store._connection()
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report, and leave at once
        try:
            took = store.acquire_entry("forked", limit=10, expiry=60)
            os.write(writer, b"%d %d" % (store._connection() is not before, took))
        finally:
            os._exit(0)
    os.close(writer)
    answer = os.read(reader, 64).decode()
    os.close(reader)
    os.waitpid(pid, 0)
    assert answer == "1 1"  # a new connection, and its hit taken
    assert store._connection() is before
    assert store.get_moving_window("forked", limit=10, expiry=60)[1] == 2


HITS = """
import sys, time
from coach.web.infra.limit_store import SQLiteStorage
store = SQLiteStorage(sys.argv[1])
time.sleep(max(0.0, float(sys.argv[2]) - time.time()))  # every process starts at once
taken = sum(store.acquire_entry("shared", limit=100, expiry=60) for _ in range(80))
print(taken)
"""


def test_concurrent_hits_from_processes_are_counted_exactly(tmp_path):
    import time

    uri = limit_store.uri_for(tmp_path)
    start = time.time() + 3.0  # after every process has imported the store
    processes = [
        subprocess.Popen([sys.executable, "-c", HITS, uri, repr(start)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
        for _ in range(3)
    ]
    taken = [int(process.communicate(timeout=120)[0]) for process in processes]
    assert all(process.returncode == 0 for process in processes)
    assert sum(taken) == 100  # 240 tries, 100 places: one count across the processes
    assert all(count <= 80 for count in taken)


def test_a_hit_reads_the_keys_running_tally_not_its_rows(store, clock):
    """A hit costs the same however many hits its window holds (issue 26): the
    window's sum is kept per key, lowered as rows leave it or are swept."""
    for n in range(200):
        assert store.acquire_entry("busy", limit=150, expiry=60) is (n < 150)
        clock.value += 0.1
    assert store.get_moving_window("busy", limit=150, expiry=60)[1] == 150
    clock.value = 1_000_000.0 + 60 + 4.95  # the first fifty hits have left the window
    assert [store.acquire_entry("busy", limit=150, expiry=60) for _ in range(51)] == [True] * 50 + [False]
    for n in range(40):  # other keys' hits sweep "busy"'s expired rows (none left) and their own
        store.acquire_entry(f"other-{n}", limit=1, expiry=1)
    clock.value += 120  # every hit expired: sweeps empty the tallies with the rows
    for n in range(30):
        store.acquire_entry(f"late-{n}", limit=1, expiry=60)
    with sqlite3.connect(store.path) as connection:
        left = dict(connection.execute("SELECT key, taken FROM tally").fetchall())
        rows = dict(connection.execute("SELECT key, sum(amount) FROM hit GROUP BY key").fetchall())
    assert left == rows  # every tally is its key's rows, and none is kept for a key without rows


def test_a_file_from_before_the_tally_has_it_filled_from_its_rows(tmp_path, clock):
    uri = limit_store.uri_for(tmp_path)
    path = uri.partition("://")[2]
    with sqlite3.connect(path) as connection:  # the schema and hits of a file written before the tally
        connection.executescript(limit_store._SCHEMA)
        connection.executemany(
            "INSERT INTO hit (key, at, expires, amount) VALUES ('old', ?, ?, 1)",
            [(clock.value - age, clock.value - age + 60) for age in (70, 30, 20, 10)],
        )
    store = SQLiteStorage(uri)
    assert store.acquire_entry("old", limit=4, expiry=60) is True  # three in the window, and this one
    assert store.acquire_entry("old", limit=4, expiry=60) is False
    SQLiteStorage(uri)  # set up again (another worker): the tally is not counted twice
    assert store.acquire_entry("old", limit=5, expiry=60) is True
    assert store.acquire_entry("old", limit=5, expiry=60) is False


# -- several hits in one transaction (issue 26: the drilling limits' lean check) ----------------

# A key stands for one limit, as `limits` writes its keys (the amount and the window are in them).
KEYS = {"a": (2, 60), "b": (3, 60), "c": (1, 10), "d": (4, 3600)}


@st.composite
def _requests(draw) -> list[tuple[float, list[tuple[str, int, int, int]]]]:
    """Requests as the lean check sends them: each a pause, then a few limits' hits in order."""
    made = []
    for _ in range(draw(st.integers(1, 30))):
        pause = draw(st.sampled_from([0.0, 0.5, 5.0, 11.0, 61.0]))
        names = draw(st.lists(st.sampled_from(sorted(KEYS)), min_size=0, max_size=4))
        made.append((pause, [(name, *KEYS[name], draw(st.integers(1, 2))) for name in names]))
    return made


def _windows(store: SQLiteStorage) -> dict[str, int]:
    return {key: store.get_moving_window(key, limit, expiry)[1] for key, (limit, expiry) in KEYS.items()}


@pytest.fixture
def two_stores(tmp_path) -> tuple[SQLiteStorage, SQLiteStorage]:
    return SQLiteStorage(limit_store.uri_for(tmp_path / "together")), SQLiteStorage(limit_store.uri_for(tmp_path / "apart"))


@settings(max_examples=examples(100), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(requests=_requests())
def test_hits_taken_together_are_those_taken_one_at_a_time(two_stores, clock, requests):
    """acquire_entries answers and counts as acquire_entry called for each entry in
    turn, stopping at the first refused (the entries after it are not tried)."""
    together, apart = two_stores
    together.reset(), apart.reset()  # each example from empty stores and the same time
    clock.value = 1_000_000.0
    for pause, entries in requests:
        clock.value += pause
        taken = 0
        for entry in entries:
            if not apart.acquire_entry(*entry):
                break
            taken += 1
        assert together.acquire_entries(entries) == taken
        assert _windows(together) == _windows(apart)


def test_hits_taken_together_are_one_transaction(store, clock):
    begun: list[str] = []
    store._connection().set_trace_callback(lambda sql: begun.append(sql) if sql.startswith("BEGIN") else None)
    entries = [("learner", 2, 60, 1), ("address", 3, 60, 1), ("first-pass", 1, 60, 1)]
    assert store.acquire_entries(entries) == 3
    assert store.acquire_entries(entries) == 2  # the learner's and the address's second, then first-pass's refusal
    assert len(begun) == 2
    assert store.acquire_entries(entries) == 0  # the learner's limit refuses: the others are not counted
    assert [store.get_moving_window(key, limit, expiry)[1] for key, limit, expiry, _ in entries] == [2, 2, 1]
    assert store.acquire_entries([]) == 0 and len(begun) == 3


def test_concurrent_hits_taken_together_are_counted_exactly(store):
    def take(_: int) -> int:
        return store.acquire_entries([("first", 150, 60, 1), ("second", 100, 60, 1)])

    with ThreadPoolExecutor(max_workers=8) as pool:
        taken = list(pool.map(take, range(400)))
    assert sorted(set(taken)) == [0, 1, 2] and sum(taken) == 250  # the second only behind the first
    assert taken.count(2) == 100 and taken.count(1) == 50
    assert store.get_moving_window("first", 150, 60)[1] == 150 and store.get_moving_window("second", 100, 60)[1] == 100


def test_an_error_among_hits_taken_together_takes_none(store, clock, monkeypatch):
    """All or none: a failing statement rolls the others back (the limiter then counts in memory)."""
    assert store.acquire_entries([("k", 5, 60, 1)]) == 1
    real = limit_store._tally_sql
    monkeypatch.setattr(limit_store, "_tally_sql", lambda keys: real(keys).replace("tally", "no_such_table"))
    with pytest.raises(sqlite3.OperationalError):
        store.acquire_entries([("k", 5, 60, 1), ("j", 5, 60, 1)])
    wrapped = SQLiteStorage(limit_store.uri_for(store.path.parent), wrap_exceptions=True)
    with pytest.raises(StorageError):  # as limits wraps its storages' own methods' errors when asked
        wrapped.acquire_entries([("k", 5, 60, 1)])
    monkeypatch.setattr(limit_store, "_tally_sql", real)
    assert store.get_moving_window("k", 5, 60)[1] == 1 and store.get_moving_window("j", 5, 60)[1] == 0


@pytest.fixture
def held_file(store, monkeypatch):
    """The limits file's write lock held by another connection (another worker stuck
    mid-transaction on a saturated machine), and a short busy timeout: no test waits 1 s."""
    monkeypatch.setattr(limit_store, "BUSY_TIMEOUT", 0.05)
    other = sqlite3.connect(store.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    yield other
    if other.in_transaction:
        other.execute("ROLLBACK")
    other.close()


def test_a_locked_file_counts_the_hit_in_memory_logs_once_and_is_tried_again(store, clock, held_file, caplog):
    """Issue 28: under load the file stayed locked past the busy timeout and the hit raised
    "database is locked" into the request (a 500). Now the hit is counted in this process's
    memory, the same limit holds, one warning says so, and the file is tried again."""
    with caplog.at_level("WARNING", logger=limit_store.__name__):
        assert [store.acquire_entry("k", limit=2, expiry=60) for _ in range(3)] == [True, True, False]
        assert store.acquire_entries([("k2", 2, 60, 1), ("k2", 2, 60, 1), ("k2", 2, 60, 1)]) == 2
        assert store.incr("counted", 60) == 1
        assert store.incr("counted", 60) == 2
    locked = [r for r in caplog.records if "counting in this worker's memory" in r.getMessage()]
    assert len(locked) == 1  # once per process, not once per hit
    assert _rows(store) == 0  # nothing reached the locked file
    held_file.execute("ROLLBACK")
    assert store.acquire_entry("k", limit=2, expiry=60) is True  # the file again, as soon as it is free
    assert _rows(store) == 1


def test_a_thread_behind_a_stuck_turn_counts_in_memory_too(store, clock, monkeypatch):
    """The process's threads take turns on one connection: a thread waiting behind one
    that holds the turn (itself waiting for a locked file) gives up after the same busy
    timeout and counts its hit in memory, rather than queueing a second after second."""
    monkeypatch.setattr(limit_store, "BUSY_TIMEOUT", 0.05)
    _, turn = store._own()
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        with turn:
            holding.set()
            release.wait(5)

    holder = threading.Thread(target=hold)
    holder.start()
    holding.wait(5)
    try:
        assert store.acquire_entry("k", limit=1, expiry=60) is True
        assert store.acquire_entry("k", limit=1, expiry=60) is False  # the limit still holds, in memory
        assert _rows(store) == 0
    finally:
        release.set()
        holder.join()
    assert store.acquire_entry("j", limit=1, expiry=60) is True and _rows(store) == 1  # the file again


def test_an_error_other_than_a_locked_file_still_reaches_the_limiter(store, clock, monkeypatch):
    """Only a busy file falls back here; anything else (a broken file) is the limiter's to handle."""

    def broken(*args, **kwargs):
        raise sqlite3.DatabaseError("file is not a database")

    monkeypatch.setattr(SQLiteStorage, "_acquire_entry", broken)
    with pytest.raises(sqlite3.DatabaseError):
        store.acquire_entry("k", limit=2, expiry=60)
