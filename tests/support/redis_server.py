"""A throwaway Redis server for the tests (Debian's redis-server, installed by `make test`)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


@contextmanager
def redis_server() -> Iterator[str]:
    """Start a private Redis on a free loopback port, in a new temporary folder,
    keeping nothing on disk; yield its URL (redis://127.0.0.1:PORT); stop it after."""
    if not Path(REDIS_SERVER).exists():
        raise RuntimeError("redis-server is missing: `make test` installs Debian's redis-server")
    folder = Path(tempfile.mkdtemp(prefix="coach-redis-"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    command = [
        REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder),
        "--save", "", "--appendonly", "no", "--daemonize", "no", "--logfile", str(folder / "log"),
    ]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        import redis

        deadline = time.monotonic() + 30
        while True:
            try:
                with redis.Redis(host="127.0.0.1", port=port, socket_timeout=1) as client:
                    client.ping()
                break
            except redis.ConnectionError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"redis-server did not start: {(folder / 'log').read_text(errors='replace')[-500:]}") from None
                time.sleep(0.1)
        yield f"redis://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(folder, ignore_errors=True)
