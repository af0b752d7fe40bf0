"""Wake a table's live pages when it moves (issue 28).

Each player's page keeps one stream open (server-sent events). A request
that saves a move publishes the table's topic once its transaction has
committed; every stream waiting on that topic wakes and sends its browser
"moved"; the browser then fetches its own seat's view. A message carries
the topic only, never a game fact, so nothing of one seat's view can reach
another through it.

- `Hub`: the streams waiting in this process, a count per topic. A stream
  takes a `ticket` (the topic's count) *before* it reads the table, then
  `wait`s for the count to pass it: a publish between the read and the
  wait is never missed.
- `Relay`: carries publishes between processes (gunicorn's workers,
  several servers). It delivers what others publish into this process's
  hub. `LocalRelay` carries nothing: one process only (tests, a single
  worker). The cross-process relays (push_relays.py: Redis, PostgreSQL,
  the SQLite watcher) are set up by `install` from the
  settings.
- A stream holds one of the server's threads for as long as it is open,
  so each process gives at most `STREAM_SLOTS` of them to streams
  (`stream_slot`); a page refused a slot polls instead.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from typing import Protocol

from flask import Flask, current_app
from sqlalchemy import create_engine
from sqlalchemy.engine import Engine
from sqlalchemy.pool import StaticPool
from sqlmodel import Session

from coach.common import settings
from coach.store import tables
from coach.web.infra import push_relays

STREAM_SLOTS = settings.STREAM_SLOTS.default  # streams one process keeps open at once; gthread threads besides the drills'


class Hub:
    """This process's waiters: a count per topic, a condition per topic waited on."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: dict[str, int] = {}
        self._conditions: dict[str, threading.Condition] = {}
        self._waiters: dict[str, int] = {}

    def ticket(self, topic: str) -> int:
        with self._lock:
            return self._counts.get(topic, 0)

    def bump(self, topic: str) -> None:
        """The topic moved: wake everything waiting on it here."""
        with self._lock:
            self._counts[topic] = self._counts.get(topic, 0) + 1
            condition = self._conditions.get(topic)
            if condition is not None:
                condition.notify_all()

    def wait(self, topic: str, ticket: int, timeout: float) -> bool:
        """True as soon as the topic has moved past `ticket`; False after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        with self._lock:
            condition = self._conditions.get(topic)
            if condition is None:
                condition = self._conditions[topic] = threading.Condition(self._lock)
            self._waiters[topic] = self._waiters.get(topic, 0) + 1
            try:
                while self._counts.get(topic, 0) <= ticket:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        return False
                    condition.wait(left)
                return True
            finally:
                self._waiters[topic] -= 1
                if not self._waiters[topic]:  # nobody waits here now: forget the topic's condition
                    del self._waiters[topic]
                    del self._conditions[topic]

    def waited_on(self) -> list[str]:
        """The topics some stream in this process waits on now (a polling relay reads only these)."""
        with self._lock:
            return list(self._waiters)


class Relay(Protocol):
    def publish(self, topic: str) -> None:
        """Tell the other processes that `topic` moved (this process's hub is bumped by `Push`)."""

    def start(self, deliver: Callable[[str], None]) -> None:
        """Begin delivering the topics other processes publish; called once in each process."""


class LocalRelay:
    """No other process: the hub alone."""

    def publish(self, topic: str) -> None:
        pass

    def start(self, deliver: Callable[[str], None]) -> None:
        pass


class Push:
    """The hub and relay of one app; the relay starts in the process that first uses it
    (gunicorn forks after the app is built: a thread started before the fork would not
    run in the workers)."""

    def __init__(self, relay: Relay | None = None, slots: int = STREAM_SLOTS) -> None:
        self.hub = Hub()
        self.relay: Relay = relay or LocalRelay()
        self.slots = slots
        self._pid: int | None = None
        self._start_lock = threading.Lock()
        self._slots: threading.BoundedSemaphore | None = None
        self.stopping = False  # the server is stopping: streams end now, the browsers reopen them elsewhere

    def stop_streams(self) -> None:
        """End every open stream of this process at once (coach/web/serve.py calls it when a
        worker is told to stop): a stream would otherwise hold the shutdown up to HOLD seconds."""
        self.stopping = True
        for topic in self.hub.waited_on():
            self.hub.bump(topic)

    def _started(self) -> None:
        pid = os.getpid()
        if self._pid == pid:
            return
        with self._start_lock:
            if self._pid != pid:
                self.hub = Hub()  # a forked child starts with no waiters
                self._slots = threading.BoundedSemaphore(self.slots)
                self.relay.start(self.hub.bump)
                self._pid = pid

    def publish(self, topic: str) -> None:
        self._started()
        self.hub.bump(topic)
        self.relay.publish(topic)

    def ticket(self, topic: str) -> int:
        self._started()
        return self.hub.ticket(topic)

    def wait(self, topic: str, ticket: int, timeout: float) -> bool:
        self._started()
        return self.hub.wait(topic, ticket, timeout)

    @contextlib.contextmanager
    def stream_slot(self) -> Iterator[bool]:
        """Yields True holding one of this process's stream slots, or False when all are taken."""
        self._started()
        assert self._slots is not None
        got = self._slots.acquire(blocking=False)
        try:
            yield got
        finally:
            if got:
                self._slots.release()


def install(app: Flask, relay: Relay | None = None) -> None:
    """The app's push; its relay from the settings (settings.PUSH_URL, docs/deployment.md)
    unless one is given. An app without settings (a test's bare Flask) relays nothing."""
    resolved = app.extensions.get("settings")
    slots = STREAM_SLOTS if resolved is None else resolved[settings.STREAM_SLOTS]
    hub = app.extensions["push"] = Push(relay, slots)
    engine = app.extensions.get("store")
    if relay is not None or resolved is None or engine is None:
        return
    mine = weakref.ref(hub)  # the relay's thread ends with the app (tests make many apps)

    def waiting() -> list[str] | None:
        alive = mine()
        return None if alive is None else alive.hub.waited_on()

    chosen = push_relays.choose(
        resolved[settings.PUSH_URL], resolved[settings.RATELIMIT_STORAGE_URI],
        engine.url.render_as_string(hide_password=False), waiting, table_versions(engine),
    )
    if chosen is not None:
        hub.relay = chosen


def push() -> Push:
    return current_app.extensions["push"]


TABLE = "table:"


def table_topic(table_id: int) -> str:
    return f"{TABLE}{table_id}"


def table_versions(engine: Engine) -> Callable[[list[str]], dict[str, object]]:
    """The watcher's reader (push_relays.WatchRelay): each waited table topic's versions, one query.

    On its own connection, not one of the app's pool: under load (40 live tables) every
    pooled connection was held by a request replaying a hand, and the watcher, waiting
    for one, woke no stream of its worker for seconds (issue 28). Made in the process
    that reads (gunicorn forks after the app is built), one connection, kept."""
    own: dict[int, Engine] = {}

    def connection_engine() -> Engine:
        pid = os.getpid()
        if pid not in own:
            own.clear()
            own[pid] = engine if engine.dialect.name != "sqlite" else create_engine(
                engine.url, poolclass=StaticPool, connect_args={"check_same_thread": False, "timeout": 30},
            )
        return own[pid]

    def read(topics: list[str]) -> dict[str, object]:
        ids = {int(t[len(TABLE):]): t for t in topics if t.startswith(TABLE) and t[len(TABLE):].isdigit()}
        with Session(connection_engine()) as session:
            found = tables.table_versions(session, list(ids))
        return {topic: found.get(table_id) for table_id, topic in ids.items()}

    return read


HOLD = 25.0  # seconds a stream stays open; the browser's EventSource opens the next at once
RECHECK = 15.0  # seconds between a stream's own reads when nothing is published: a lost message costs this at most
RETRY_MS = 1000  # the browser's wait before it opens a stream again


def _event(name: str, data: str) -> str:
    return f"event: {name}\ndata: {data}\n\n"


def stream(topic: str, version_now: Callable[[], int | None], hold: float = HOLD, recheck: float | Callable[[], float] = RECHECK):
    """A server-sent event stream that sends `moved` (with the version read) when it opens
    and each time `version_now()` reads a new version after a publish on `topic`.

    `version_now` must open its own database session: it runs while the response is sent,
    outside the request's. The first event makes a page that reconnects fetch its view, so
    what it missed while away is never lost. A stream ends after `hold` seconds (the browser
    reopens it): a thread is never held by a page long gone. With every stream slot taken
    the answer is 204, and the page polls instead. `recheck` may be a function, asked
    after each read: a live table's stream waits no longer than its turn timer's deadline.
    """
    from flask import Response

    hub = push()
    slot = hub.stream_slot()
    if not slot.__enter__():
        slot.__exit__(None, None, None)
        return Response(status=204, headers={"Cache-Control": "no-store"})

    def events() -> Iterator[str]:
        try:
            yield f"retry: {RETRY_MS}\n\n"
            last: int | None = None
            end = time.monotonic() + hold
            while True:
                ticket = hub.ticket(topic)  # before the read: a publish after it wakes the wait below
                version = version_now()
                if version is None:  # the table is gone
                    yield _event("gone", "")
                    return
                if version != last:
                    yield _event("moved", str(version))
                    last = version
                left = end - time.monotonic()
                if left <= 0 or hub.stopping:
                    return
                if not hub.wait(topic, ticket, min(left, recheck() if callable(recheck) else recheck)):
                    yield ": still here\n\n"  # a comment: finds a closed connection, keeps proxies from timing out
        finally:
            slot.__exit__(None, None, None)

    return Response(
        events(),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},  # nginx: pass each event on at once
    )
