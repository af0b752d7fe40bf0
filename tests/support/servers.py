"""Servers the tests start: stopping a waitress server cleanly from its own loop
(the live server and the throttled servers of the limits tests), and
`python -m coach serve` in a process of its own (several servers, several workers)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def stop_waitress(server, thread, seconds: float = 10.0) -> None:
    """Stop a waitress server running `server.run` in `thread`, from its own
    loop: once its task threads are idle (a client has its answer a little
    before waitress's thread is done), every channel, the listening socket and
    the trigger are closed by a thunk the loop runs itself. Closing them from
    another thread could pull a file out from under the loop's select()
    ("Bad file descriptor" in the server's thread, a flaky test)."""
    import time

    dispatcher = server.task_dispatcher
    deadline = time.monotonic() + seconds
    while (dispatcher.active_count or dispatcher.queue) and time.monotonic() < deadline:
        time.sleep(0.02)

    def close_all() -> None:
        for channel in list(server._map.values()):
            if channel is not server and channel is not server.trigger:
                channel.close()
        server.close()  # the listening socket and the trigger: the map is empty, the loop ends

    server.trigger.pull_trigger(close_all)
    thread.join(timeout=seconds)
    dispatcher.shutdown()


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def coach_server(env: dict[str, str], data_dir: Path) -> Iterator[tuple[str, Path]]:
    """`python -m coach serve` (gunicorn) on a free port with `env` on top of the
    tests' environment; yields its base URL and log file; stops it after."""
    import os
    import signal
    import subprocess
    import sys
    import time
    import urllib.error
    import urllib.request

    from tests.support.paths import ROOT

    port = free_port()
    data_dir.mkdir(exist_ok=True)  # servers may share a folder
    log = data_dir / f"server-{port}.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "coach", "serve", "--port", str(port)],
            cwd=ROOT,
            env={**os.environ, **env, "COACH_DATA_DIR": str(data_dir)},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(base + "/healthz", timeout=5) as answer:
                    if answer.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start: {log.read_text(errors='replace')[-2000:]}")
            time.sleep(0.3)
        yield base, log
    finally:
        process.send_signal(signal.SIGTERM)  # gunicorn stops its workers gracefully
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def serve_on_file(folder: Path, port: int, env: dict[str, str]):
    """`python -m coach serve --port port` (gunicorn, its default workers) on the SQLite file
    in `folder`, with `env` on top of the tests' environment, in a process group of its own
    (so `kill_group` reaches gunicorn and every worker at once); its log appended to
    folder/server-<port>.log; returned once /healthz answers."""
    import os
    import subprocess
    import sys

    from coach.tools import load
    from tests.support.paths import ROOT

    log = open(folder / f"server-{port}.log", "ab")  # closed below, once the server has it
    process = subprocess.Popen(
        [sys.executable, "-m", "coach", "serve", "--port", str(port)], cwd=ROOT,
        env={**os.environ, **env, "COACH_DATA_DIR": str(folder)}, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    log.close()
    load._wait_ready(port, 90, process, str(folder))
    return process


def kill_group(process) -> None:
    """SIGKILL to the server's whole process group: gunicorn and its workers die mid-request, as in a crash."""
    import os
    import signal

    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
