"""Password hashing (werkzeug's scrypt) kept off the capacity drills need.

scrypt costs about 0.15-0.3 s of one core per hash, by design, and a
sign-in flood asks for as many hashes as it can send. Three things keep it
from taking the learners' drills with it (issue 26, point 3):

- **Two lanes of one slot each per process.** A clean sign-in (from an address with no recent failed
  sign-in), a sign-up or a password change hashes in the `clean` lane; a
  sign-in from an address that has been failing (`suspect`, see
  coach.web.infra.limits.failing_address) in the `suspect` lane, so a flood
  can never hold the slot an owner needs. With gunicorn's worker per core,
  each worker hashes at most one clean and one suspect password at once.
- **The suspect lane hashes off the request threads, at the lowest
  priority** (a thread of its own at nice 19): hashlib's
  scrypt releases the GIL, so the kernel gives a drill's thread (and a
  clean sign-in's hash) the core first and a flood's hashes take only the
  CPU nothing else wants. The hash's strength is untouched: the same
  scrypt, only scheduled behind everyone else.
- **A small queue that sheds the flooding addresses first.** A suspect
  never waits: when its lane's slot is taken it is answered 503 "try again
  in a few seconds" at once (and that counts as a failure of its address,
  never of the email, as it checked no password: it soon meets its
  address's 429). A clean one told "busy" that comes back sooner than
  its Retry-After counts as suspect. A clean one waits for its slot up to `WAIT` seconds,
  with at most `QUEUE` waiting (each waiting one holds a request thread, and
  a worker has 8: the rest stay free for drills). Past that, 503 too.

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

from coach.web.infra.limits import BUSY_RETRY, answer  # the limits' page-or-JSON answer, with Retry-After

SLOTS = 1  # hashes at once per lane and process: one per gunicorn worker, a worker per core
QUEUE = 3  # clean sign-ins waiting for the slot; a worker's other 4+ threads stay free for drills
WAIT = 3.0  # seconds a clean sign-in waits for the slot before "busy"
SUSPECT_NICE = 19  # the suspect lane's nice value: the kernel's lowest priority short of SCHED_IDLE
DEFAULT_HASH = "scrypt"  # werkzeug's own default, named so a test app cannot lower it by accident

T = TypeVar("T")


BUSY_TITLE = "The coach is busy"


class HashingBusy(ServiceUnavailable):
    description = "Many people are signing in right now. Try again in a few seconds."


@dataclass
class Gate:
    """`slots` turns to hash; callers queue for them (at most `queue`, each at
    most `wait` seconds), and anyone past that gets HashingBusy (a 503)."""

    slots: int = SLOTS
    queue: int = QUEUE
    wait: float = WAIT
    busy: int = 0  # slots taken
    waiting: int = 0  # callers waiting for a slot
    _changed: threading.Condition = field(default_factory=threading.Condition)

    @contextlib.contextmanager
    def turn(self) -> Iterator[None]:
        """A slot, or HashingBusy at once when the queue is full, or after `wait` seconds."""
        with self._changed:
            if not self._take():
                raise HashingBusy()
        try:
            yield
        finally:
            with self._changed:
                self.busy -= 1
                self._changed.notify_all()

    def full(self) -> bool:
        """Whether a turn asked now would be refused at once (a glance, without the lock:
        a turn freed a moment later is as if it had been asked a moment sooner)."""
        return self.busy >= self.slots and self.waiting >= self.queue

    def _take(self) -> bool:
        if self.busy < self.slots:
            self.busy += 1
            return True
        if self.waiting >= self.queue:
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


clean_gate = Gate()
suspect_gate = Gate(queue=0, wait=0.0)  # a suspect never waits


def _lower_priority() -> None:
    # Linux schedules each thread apart, so this thread's nice value is its own.
    # Elsewhere (or where refused) the hash simply runs at the usual priority.
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), SUSPECT_NICE)


class _Hasher:
    """The thread the suspect lane's hashes run on, made in the process that uses it: gunicorn
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


_suspect_hasher = _Hasher()


def generate_password_hash(password: str) -> str:
    """werkzeug's, in the clean lane: a new password is someone signing up or
    changing theirs, held by their own limits."""
    with clean_gate.turn():
        return security.generate_password_hash(password, method=_hash_method())


def check_password_hash(pwhash: str, password: str, suspect: bool = False) -> bool:
    """werkzeug's, in the caller's lane; `suspect`: the caller's address has been failing.
    A clean hash runs on the request's own thread, at the usual priority."""
    if not suspect:
        with clean_gate.turn():
            return security.check_password_hash(pwhash, password)
    with suspect_gate.turn():
        return _suspect_hasher.run(lambda: security.check_password_hash(pwhash, password))


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
        return answer(503, BUSY_TITLE, str(error.description), BUSY_RETRY)
