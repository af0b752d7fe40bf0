"""The server's own time for each request, in a Server-Timing header (issue 13).

A client timing a round trip sees the server's work plus every queue in
between: its own threads, the loopback, the workers' turns at the cores.
To hold an answer to "under 10 ms of server time", `python -m coach load`
needs the server's side alone, so when the setting `SERVER_TIMING` is on
(coach.common.settings; the load command sets it on the server it starts)
every response says

    Server-Timing: app;dur=3.21, cpu;dur=2.87

`app` is the wall time from the request reaching the app (WSGI) to its
response starting, every Flask hook, the database and the session cookie
included; `cpu` is the CPU that request's thread spent in that time
(`time.thread_time`), which the neighbours' load hardly moves. It is off
by default: timings are nobody else's business (they can hint at what a
request did), and a production server has no use for them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask

from coach.common.settings import SERVER_TIMING

HEADER = "Server-Timing"


def enabled(app: Flask) -> bool:
    return app.extensions["settings"][SERVER_TIMING]


class ServerTiming:
    """WSGI middleware: adds Server-Timing to every response it starts."""

    def __init__(self, app: Callable[..., Iterable[bytes]]):
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        wall, cpu = time.perf_counter(), time.thread_time()

        def timed_start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            spent_wall = (time.perf_counter() - wall) * 1000
            spent_cpu = (time.thread_time() - cpu) * 1000
            headers = [h for h in headers if h[0].lower() != HEADER.lower()]
            headers.append((HEADER, f"app;dur={spent_wall:.2f}, cpu;dur={spent_cpu:.2f}"))
            return start_response(status, headers, exc_info) if exc_info else start_response(status, headers)

        return self.app(environ, timed_start)


def install(app: Flask) -> None:
    """Wrap the app's WSGI callable, outermost, when the setting is on."""
    if enabled(app):
        app.wsgi_app = ServerTiming(app.wsgi_app)  # type: ignore[method-assign]  # Flask's documented way to wrap its WSGI app


def parse(value: str | None) -> dict[str, float]:
    """{"app": ms, "cpu": ms} from a Server-Timing header; {} when there is none or it is not ours."""
    out: dict[str, float] = {}
    for metric in (value or "").split(","):
        name, _, params = metric.strip().partition(";")
        for param in params.split(";"):
            key, _, number = param.strip().partition("=")
            if key == "dur":
                try:
                    out[name.strip()] = float(number)
                except ValueError:
                    pass
    return out
