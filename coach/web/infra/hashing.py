"""Password hashing (werkzeug's scrypt) kept off the capacity drills need.

scrypt costs about 0.15-0.3 s of one core per hash, by design, and a
sign-in flood asks for as many hashes as it can send. Three things keep it
from taking the learners' drills with it (issue 26, point 3):

- **One hash at a time per process** (`SLOTS`): with gunicorn's worker per
  core, at most one core per worker ever hashes.
- **Hashing off the request threads, at a low priority.** The hash runs on
  a thread of its own whose nice value is raised (`NICE`); hashlib's scrypt
  releases the GIL, so the kernel gives a drill's thread the core first and
  the hash takes what is left. Its strength is untouched: the same scrypt,
  only scheduled behind the drills.
- **A small queue that sheds the flooding addresses first.** A sign-in from
  an address with recent failed sign-ins (`suspect`) hashes only when the
  slot is free and no clean sign-in waits for it; otherwise it is answered
  503 "try again in a few seconds" at once. A clean one waits for the slot,
  ahead of every suspect, up to `WAIT` seconds, with at most `QUEUE` waiting
  (each waiting one holds a request thread, and a worker has 8: the rest
  stay free for drills). Past that, 503 too.

A request that hashes nothing (every drill) never touches any of this.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TypeVar

from flask import Flask, current_app, has_app_context
from werkzeug import security
from werkzeug.exceptions import ServiceUnavailable

from coach.web.infra.limits import answer  # the limits' page-or-JSON answer, with Retry-After

SLOTS = 1  # hashes at once per process: one per gunicorn worker, a worker per core
QUEUE = 3  # clean sign-ins waiting for the slot; a worker's other 4+ threads stay free for drills
WAIT = 3.0  # seconds a clean sign-in waits for the slot before "busy"
NICE = 10  # the hashing thread's nice value: a drill's thread (nice 0) weighs about 10 times more
BUSY_RETRY = 5  # seconds a busy answer asks to wait
DEFAULT_HASH = "scrypt"  # werkzeug's own default, named so a test app cannot lower it by accident

T = TypeVar("T")


class HashingBusy(ServiceUnavailable):
    description = "Many people are signing in right now. Try again in a few seconds."


@dataclass
class Gate:
    """`slots` turns to hash; clean callers queue for them (at most `queue`,
    each at most `wait` seconds), suspect ones never wait and never go ahead
    of a clean one. Counted under one condition, so a released slot goes to a
    waiting clean caller before any suspect sees it free."""

    slots: int = SLOTS
    queue: int = QUEUE
    wait: float = WAIT
    busy: int = 0  # slots taken
    waiting: int = 0  # clean callers waiting for a slot
    _changed: threading.Condition = field(default_factory=threading.Condition)

    @contextlib.contextmanager
    def turn(self, suspect: bool = False) -> Iterator[None]:
        """A slot, or HashingBusy (a 503) at once for a suspect or a full queue,
        or after `wait` seconds for a clean caller."""
        with self._changed:
            if not self._take(suspect):
                raise HashingBusy()
        try:
            yield
        finally:
            with self._changed:
                self.busy -= 1
                self._changed.notify_all()

    def _take(self, suspect: bool) -> bool:
        if self.busy < self.slots and (self.waiting == 0 or not suspect):
            self.busy += 1
            return True
        if suspect or self.waiting >= self.queue:
            return False
        self.waiting += 1
        self._changed.notify_all()  # whoever watches the queue (a test) sees it grow; waiters check and sleep on
        try:
            if not self._changed.wait_for(lambda: self.busy < self.slots, timeout=self.wait):
                return False
            self.busy += 1
            return True
        finally:
            self.waiting -= 1


gate = Gate()


def _lower_priority() -> None:
    # Linux schedules each thread apart, so this thread's nice value is its own.
    # Elsewhere (or where refused) the hash simply runs at the usual priority.
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICE)


class _Hasher:
    """The thread the hashes run on, made in the process that uses it: gunicorn
    forks its workers after the app is built (and a dummy hash is made at
    import), and a thread does not survive a fork."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pid = -1
        self._pool: ThreadPoolExecutor | None = None

    def run(self, work: Callable[[], T]) -> T:
        with self._lock:
            if self._pool is None or self._pid != os.getpid():
                self._pool = ThreadPoolExecutor(SLOTS, thread_name_prefix="hashing", initializer=_lower_priority)
                self._pid = os.getpid()
            pool = self._pool
        return pool.submit(work).result()


_hasher = _Hasher()


def generate_password_hash(password: str) -> str:
    """werkzeug's, under the gate: a new password is someone signing up or
    changing theirs, never a suspect."""
    method = _hash_method()  # read here: the hashing thread has no app context
    with gate.turn():
        return _hasher.run(lambda: security.generate_password_hash(password, method=method))


def check_password_hash(pwhash: str, password: str, suspect: bool = False) -> bool:
    """werkzeug's, under the gate; `suspect`: the caller's address has been failing."""
    with gate.turn(suspect):
        return _hasher.run(lambda: security.check_password_hash(pwhash, password))


def _hash_method() -> str:
    """werkzeug's default (scrypt). Only an app made for tests (TESTING) may name
    a cheaper one in TEST_PASSWORD_HASH: scrypt's 0.2 s per sign-up is most of
    many tests' time, and a production app is never TESTING."""
    if has_app_context() and current_app.testing:
        return current_app.config.get("TEST_PASSWORD_HASH") or DEFAULT_HASH
    return DEFAULT_HASH


def install(app: Flask) -> None:
    @app.errorhandler(HashingBusy)
    def busy(error: HashingBusy):
        return answer(503, "The coach is busy", str(error.description), BUSY_RETRY)
