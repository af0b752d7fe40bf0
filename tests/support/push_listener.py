"""Another process with a live stream open (tests/web/test_push_relays.py).

`listen` runs in a process of its own (multiprocessing's "spawn": nothing of
the test's process is inherited): it opens `push.stream` on a table's topic,
with the relay named, and reports when the stream sends "moved" after the
first one, so a test in the first process can time its save's way there.
"""

from __future__ import annotations

import time
import weakref
from typing import Any

from flask import Flask
from sqlmodel import Session

from coach.store import tables
from coach.store.db import make_engine
from coach.web.infra import push as push_module
from coach.web.infra import push_relays


def relay_for(kind: str, address: str, engine: Any, hub: push_module.Push) -> Any:
    """The relay `kind` (watch, redis, postgres) for `hub`, as push.install makes it."""
    mine = weakref.ref(hub)

    def waiting() -> list[str] | None:
        alive = mine()
        return None if alive is None else alive.hub.waited_on()

    if kind == "watch":
        return push_relays.WatchRelay(push_module.table_versions(engine), waiting)
    if kind == "redis":
        return push_relays.RedisRelay(address, waiting)
    return push_relays.PostgresRelay(push_relays.libpq_url(address), waiting)


def hand_version(engine: Any, table_id: int) -> int | None:
    with Session(engine) as session:
        hand = tables.current_hand(session, table_id)
        return None if hand is None else hand.version


def listen(kind: str, address: str, database: str, table_id: int, ready: Any, out: Any, moves: int) -> None:
    """Open a stream on the table's topic; put True in `ready` once it has sent its first
    "moved", then the wall-clock time of each of the next `moves` "moved" events in `out`."""
    engine = make_engine(database)
    app = Flask(__name__)
    hub = push_module.Push()
    hub.relay = relay_for(kind, address, engine, hub)
    app.extensions["push"] = hub
    with app.test_request_context():
        response = push_module.stream(push_module.table_topic(table_id), lambda: hand_version(engine, table_id), hold=60, recheck=60)
        seen = 0
        for chunk in response.response:
            if not chunk.startswith("event: moved"):
                continue
            if seen == 0:
                ready.put(True)
            else:
                out.put(time.time())
            seen += 1
            if seen > moves:
                break
        response.close()
