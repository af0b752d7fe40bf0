"""Serve the web app with gunicorn, a production WSGI server.

The app is built once, before the workers fork, so every worker signs
and checks question tokens with the same secret key (made on first run).
One worker per core, each with threads, lets both cores answer: a single
Python process would leave one idle. A live table page's stream holds a
thread while it is open, so each worker has the stream slots' threads
(settings.STREAM_SLOTS) on top of the drills' (settings.THREADS), and a stopping worker
ends its streams at once.
"""

from __future__ import annotations

import errno
import gc
import os
import signal
import socket
import threading
import time
import urllib.request
from collections.abc import Callable
from typing import Any

from gunicorn.app.base import BaseApplication
from sqlalchemy.orm import configure_mappers

from coach.common.errors import CoachError
from coach.common.settings import STREAM_SLOTS, THREADS, WORKERS
from coach.web import create_app
from coach.web.infra.blas import one_blas_thread


class _Standalone(BaseApplication):  # gunicorn's documented custom-application pattern
    def __init__(self, application: Any, options: dict[str, Any]):
        self.options = options
        self.application = application
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            if key in self.cfg.settings and value is not None:
                self.cfg.set(key, value)

    def load(self) -> Any:
        return self.application


class PortTaken(CoachError, OSError):
    """The port is already in use: said in words, with how to choose another."""

    def __init__(self, host: str, port: int):
        super().__init__(
            f"Port {port} on {host} is already in use (is the coach or another server already running?).\n"
            f"Choose another port: PORT={port + 1} make run, or python -m coach serve --port {port + 1}"
        )


def check_port(host: str, port: int) -> None:
    """Raise PortTaken if nothing can listen on host:port; gunicorn alone
    would print five seconds of "Connection in use" retries and exit."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn binds
        try:
            probe.bind((host, port))
        except OSError as error:
            if error.errno in (errno.EADDRINUSE, errno.EACCES):
                raise PortTaken(host, port) from None
            raise


def announce_when_answering(url: str, timeout: float = 60.0, say: Any = print) -> threading.Thread:
    """Print the address once /healthz answers, not before: a printed
    address that refuses connections looks like a broken app."""

    def wait() -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(url + "healthz", timeout=2) as reply:
                    if reply.status == 200:
                        say(f"Mahjong Coach on {url} (Ctrl+C stops it)", flush=True)
                        return
            except OSError:
                pass
            time.sleep(0.2)
        say(f"The coach did not answer on {url} within {timeout:.0f} s: see the messages above.", flush=True)

    thread = threading.Thread(target=wait, name="announce", daemon=True)
    thread.start()
    return thread


def _post_fork(server: Any, worker: Any) -> None:
    one_blas_thread()  # each worker keeps one BLAS thread after the fork


def _streams_end_on_stop(app: Any) -> Callable[[Any], None]:
    """gunicorn's post_worker_init hook: when the worker is told to stop (SIGTERM, a
    graceful stop), its live streams end at once, before gunicorn's own handler runs.
    A stream left open would hold the stop up to push.HOLD seconds (and a thread a
    stopping interpreter waits for); its browser reopens it on another worker or server."""

    def hook(worker: Any) -> None:
        graceful = signal.getsignal(signal.SIGTERM)

        def on_term(signum: int, frame: Any) -> None:
            app.extensions["push"].stop_streams()
            if callable(graceful):
                graceful(signum, frame)

        signal.signal(signal.SIGTERM, on_term)

    return hook


def threads_per_worker(drill_threads: int, stream_slots: int) -> int:
    """gthread gives each open connection a thread: the drills' threads, and one per stream
    slot on top (coach/web/infra/push.py), so that open streams never take a drill's thread."""
    return drill_threads + stream_slots


def ready_to_fork() -> None:
    """What every worker would otherwise do on its own, done once before gunicorn forks
    them (issue 26): the ORM's mappers configured (about 12 ms, on each worker's first
    new guest otherwise), and every object made so far, the app, the card's tables and
    the drills' warm results, moved out of the garbage collector's reach (`gc.freeze`).
    Those objects live as long as the process; without it every full collection in a
    worker walked them all again (about 170,000 objects, 85 ms a walk: 3-4% of the
    workers' CPU on nearest-hand requests by `perf`, about 1% with them frozen), and
    touching them to do so copied their memory pages into every worker."""
    configure_mappers()
    gc.collect()
    gc.freeze()


def serve(host: str = "127.0.0.1", port: int = 5000, workers: int | None = None, threads: int | None = None) -> None:
    """Serve the coach on http://host:port until interrupted."""
    check_port(host, port)
    app = create_app()
    import drills

    drills.warm(app.extensions["coach"].card)  # before the fork: every worker starts warm
    ready_to_fork()
    resolved = app.extensions["settings"]
    shown = f"[{host}]" if ":" in host else host
    local = "127.0.0.1" if host in ("0.0.0.0", "") else ("[::1]" if host == "::" else shown)
    url = f"http://{local}:{port}/"
    options = {
        "bind": f"{shown}:{port}",
        "workers": workers or resolved[WORKERS] or max(1, min(4, os.cpu_count() or 1)),
        "worker_class": "gthread",
        "threads": threads_per_worker(threads or resolved[THREADS], resolved[STREAM_SLOTS]),
        "accesslog": None,
        "errorlog": "-",
        "loglevel": "warning",
        "proc_name": "mahjong-coach",
        # In the arbiter, once it listens: workers fork after, and the
        # thread (which only the arbiter has) polls until one answers.
        "when_ready": lambda server: announce_when_answering(url),
        "post_fork": _post_fork,
        "post_worker_init": _streams_end_on_stop(app),
        "worker_int": lambda worker: app.extensions["push"].stop_streams(),  # Ctrl+C: the same, at once
    }
    _Standalone(app, options).run()
