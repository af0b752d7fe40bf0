"""The relays that carry a table's "moved" between processes (coach/web/infra/push.py).

A publish says only which topic moved (`table:12`), never a game fact: each
stream that wakes reads its own seat's view from the database. So a relay
may lose or repeat a message at little cost: a repeat costs one read, a loss
at most the stream's own re-read (push.RECHECK). Each relay therefore wakes
every topic waited on here when it (re)connects, since what was published
while it was away is lost.

- `RedisRelay`: Redis pub/sub, for several servers (the Redis the rate
  limits already use). One subscriber thread per process, subscribed to a
  pattern; it reconnects after a failure.
- `PostgresRelay`: PostgreSQL's LISTEN/NOTIFY on the app's own database,
  for several servers without Redis. One listening connection per process,
  in a thread; a publish is one NOTIFY.
- `WatchRelay`: no message at all. Each process, only while some of its
  streams wait, reads the versions of the topics waited on (one cheap query,
  every WATCH_EVERY seconds) and wakes a topic whose version changed. This is
  what makes gunicorn's workers on one SQLite file wake each other (SQLite
  has no notifications); it costs one query per process per WATCH_EVERY,
  whatever the number of tables (docs/tables.md, "Across servers").

A message a process publishes comes back to it through Redis or PostgreSQL;
it is dropped there (its sender id), since `Push` has already woken this
process's own streams.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable, Hashable, Mapping
from typing import Any

from coach.common.settings import DATABASE_URL, PUSH_URL, SettingError

log = logging.getLogger(__name__)

Deliver = Callable[[str], None]
Waiting = Callable[[], "list[str] | None"]  # the topics waited on here now; None once the app is gone
Versions = Callable[[list[str]], Mapping[str, Hashable]]

CHANNEL = "coach_push"  # the PostgreSQL channel, and the Redis channels' prefix
RETRY_FIRST = 0.5  # seconds before the first reconnection; doubled up to RETRY_MOST
RETRY_MOST = 10.0
WATCH_EVERY = 0.2  # seconds between a watching process's reads: a move reaches the other workers within this
WATCH_FORGET = 30.0  # seconds after its last wait that a topic's version is forgotten


def _sender() -> str:
    """This process's id in messages (made after the fork: each worker its own)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


def _wake_all(deliver: Deliver, waiting: Waiting) -> None:
    """After a (re)connection: what was published meanwhile is lost, so every stream here re-reads."""
    for topic in waiting() or ():
        deliver(topic)


def _daemon(name: str, target: Callable[[], None]) -> threading.Thread:
    thread = threading.Thread(target=target, name=name, daemon=True)
    thread.start()
    return thread


class _Backoff:
    def __init__(self) -> None:
        self.delay = RETRY_FIRST

    def failed(self, what: str, error: BaseException) -> None:
        log.warning("live push: %s failed (%s); trying again in %.1f s", what, error.__class__.__name__, self.delay)
        time.sleep(self.delay)
        self.delay = min(RETRY_MOST, self.delay * 2)

    def succeeded(self) -> None:
        self.delay = RETRY_FIRST


class RedisRelay:
    """Redis pub/sub: a topic's channel is `coach_push:<topic>`, its message the sender's id."""

    def __init__(self, url: str, waiting: Waiting, prefix: str = CHANNEL + ":") -> None:
        self.url = url
        self.prefix = prefix
        self.waiting = waiting
        self.sender = ""
        self._publisher: Any = None
        self._closed = threading.Event()

    def close(self) -> None:
        """Stop listening (within a second) and close the publishing connection (tests)."""
        self._closed.set()
        if self._publisher is not None:
            self._publisher.close()

    def _on(self) -> bool:
        return not self._closed.is_set() and self.waiting() is not None

    def _client(self, **options: Any) -> Any:
        import redis  # only a process that relays through Redis imports its client

        return redis.Redis.from_url(self.url, socket_connect_timeout=2, socket_keepalive=True, **options)

    def publish(self, topic: str) -> None:
        import redis

        try:
            if self._publisher is None:  # made after the fork, in the process that publishes
                self._publisher = self._client(socket_timeout=2)
            self._publisher.publish(self.prefix + topic, self.sender)
        except redis.RedisError as error:  # the other processes' streams re-read within push.RECHECK
            log.warning("live push: a publish to Redis failed (%s)", error.__class__.__name__)

    def start(self, deliver: Deliver) -> None:
        self.sender = _sender()
        _daemon("push-redis", lambda: self._listen(deliver))

    def _listen(self, deliver: Deliver) -> None:
        import redis

        backoff = _Backoff()
        pattern = self.prefix + "*"
        while self._on():
            # A ping every 10 s finds a connection the network dropped without a word.
            client = self._client(health_check_interval=10)
            try:
                with client.pubsub(ignore_subscribe_messages=True) as subscription:
                    subscription.psubscribe(pattern)
                    backoff.succeeded()
                    _wake_all(deliver, self.waiting)
                    while self._on():
                        message = subscription.get_message(timeout=1.0)
                        if message is None or message.get("type") != "pmessage":
                            continue
                        if _text(message["data"]) == self.sender:
                            continue  # our own: Push has woken this process already
                        deliver(_text(message["channel"])[len(self.prefix):])
            except (redis.RedisError, OSError) as error:
                if self._on():
                    backoff.failed("the Redis subscription", error)
            finally:
                client.close()


def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def libpq_url(database_url: str) -> str:
    """The SQLAlchemy URL (`postgresql+psycopg://...`) as psycopg connects to it."""
    from sqlalchemy.engine import make_url

    return make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False)


class PostgresRelay:
    """LISTEN/NOTIFY on channel `coach_push`, the payload `<sender> <topic>`."""

    def __init__(self, conninfo: str, waiting: Waiting, channel: str = CHANNEL) -> None:
        self.conninfo = conninfo
        self.channel = channel
        self.waiting = waiting
        self.sender = ""
        self._publisher: Any = None
        self._publish_lock = threading.Lock()
        self._closed = threading.Event()

    def close(self) -> None:
        """Stop listening (within a second) and close the publishing connection (tests)."""
        self._closed.set()
        with self._publish_lock:
            if self._publisher is not None:
                self._publisher.close()
                self._publisher = None

    def _on(self) -> bool:
        return not self._closed.is_set() and self.waiting() is not None

    def _connect(self) -> Any:
        import psycopg

        # keepalives: a listening connection the network dropped is found within a minute
        return psycopg.connect(self.conninfo, autocommit=True, connect_timeout=5, keepalives=1, keepalives_idle=30)

    def publish(self, topic: str) -> None:
        import psycopg

        payload = f"{self.sender} {topic}"
        with self._publish_lock:  # one publishing connection per process, used by one thread at a time
            for attempt in (1, 2):  # a connection the server closed meanwhile: once more on a new one
                try:
                    if self._publisher is None or self._publisher.closed:
                        self._publisher = self._connect()
                    self._publisher.execute("SELECT pg_notify(%s, %s)", (self.channel, payload))
                    return
                except psycopg.Error as error:
                    if self._publisher is not None:
                        self._publisher.close()
                    self._publisher = None
                    if attempt == 2:
                        log.warning("live push: a NOTIFY failed (%s)", error.__class__.__name__)

    def start(self, deliver: Deliver) -> None:
        self.sender = _sender()
        _daemon("push-postgres", lambda: self._listen(deliver))

    def _listen(self, deliver: Deliver) -> None:
        import psycopg

        backoff = _Backoff()
        while self._on():
            try:
                with self._connect() as connection:
                    connection.execute(f'LISTEN "{self.channel}"')
                    backoff.succeeded()
                    _wake_all(deliver, self.waiting)
                    while self._on():
                        for note in connection.notifies(timeout=1.0):
                            sender, _, topic = note.payload.partition(" ")
                            if sender != self.sender:
                                deliver(topic)
            except psycopg.Error as error:
                if self._on():
                    backoff.failed("the PostgreSQL LISTEN connection", error)


class WatchRelay:
    """No messages: each process reads the versions of the topics its streams wait on."""

    def __init__(self, versions: Versions, waiting: Waiting, every: float = WATCH_EVERY) -> None:
        self.versions = versions
        self.waiting = waiting
        self.every = every
        self.reads = 0  # queries made, for the cost measured in docs/tables.md
        self._closed = threading.Event()

    def close(self) -> None:
        self._closed.set()

    def publish(self, topic: str) -> None:
        pass  # the other processes see the new version themselves

    def start(self, deliver: Deliver) -> None:
        _daemon("push-watch", lambda: self._watch(deliver))

    def _watch(self, deliver: Deliver) -> None:
        known: dict[str, tuple[Hashable, float]] = {}  # topic: (version last read, when last waited on)
        while not self._closed.wait(self.every):
            topics = self.waiting()
            if topics is None:
                return  # the app is gone (tests make many)
            now = time.monotonic()
            for topic in [t for t, (_, seen) in known.items() if now - seen > WATCH_FORGET and t not in topics]:
                del known[topic]
            if not topics:
                continue  # nobody waits: no query at all
            try:
                read = self.versions(topics)
                self.reads += 1
            except Exception as error:  # a locked or restarting database: the streams re-read themselves
                log.warning("live push: reading the watched versions failed (%s)", error.__class__.__name__)
                continue
            for topic in topics:
                version = read.get(topic)
                before = known.get(topic)
                known[topic] = (version, now)
                # A topic new here is woken once: it may have moved between its stream's
                # own read and this first one, and the stream's re-read costs little.
                if before is None or before[0] != version:
                    deliver(topic)


def choose(
    push_url: str | None, limits_url: str, database_url: str | None, waiting: Waiting, versions: Versions,
) -> RedisRelay | PostgresRelay | WatchRelay | None:
    """The relay the settings ask for (settings.PUSH_URL, docs/deployment.md); None for one process only."""
    if push_url is None:  # unset: the shared services the site already has
        if limits_url.startswith(("redis://", "rediss://")):
            push_url = limits_url
        elif database_url is not None and database_url.startswith("postgresql"):
            push_url = "postgres"
        else:
            push_url = "watch"
    if push_url == "local":
        return None
    if push_url == "watch":
        return WatchRelay(versions, waiting)
    if push_url == "postgres":
        if database_url is None or not database_url.startswith("postgresql"):
            raise SettingError(f"{PUSH_URL.name}=postgres needs {DATABASE_URL.name} to name a PostgreSQL database")
        return PostgresRelay(libpq_url(database_url), waiting)
    return RedisRelay(push_url, waiting)
