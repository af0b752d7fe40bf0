"""A throwaway PostgreSQL server for the tests (Debian's postgresql, installed by `make test`)."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def _bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        raise RuntimeError(f"PostgreSQL's {name} is missing: `make test` installs Debian's postgresql")
    return found[-1]


def _as_owner(command: list[str]) -> list[str]:
    # initdb and postgres refuse to run as root: run them as the postgres user.
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


@contextmanager
def postgres_server() -> Iterator[str]:
    """Start a private cluster in a new temporary folder; yield a SQLAlchemy URL to its database.

    The folder sits directly in the system's temporary folder: pytest's own
    are private to root, and the server runs as the postgres user."""
    folder = Path(tempfile.mkdtemp(prefix="coach-postgres-"))
    data = folder / "data"
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    subprocess.run(_as_owner([_bin("initdb"), "-D", str(data), "-A", "trust", "-U", "coach"]),
                   check=True, capture_output=True)
    options = f"-p {port} -h 127.0.0.1 -k {folder} -F"
    subprocess.run(_as_owner([_bin("pg_ctl"), "-D", str(data), "-o", options, "-w", "-l", str(folder / "log"), "start"]),
                   check=True, capture_output=True)
    try:
        import psycopg

        deadline = time.monotonic() + 30
        while True:
            try:
                with psycopg.connect(host="127.0.0.1", port=port, user="coach", dbname="postgres", autocommit=True) as c:
                    c.execute("CREATE DATABASE coach")
                break
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield f"postgresql+psycopg://coach@127.0.0.1:{port}/coach"
    finally:
        subprocess.run(_as_owner([_bin("pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]), capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
