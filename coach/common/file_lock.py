"""An exclusive lock on a file, held across processes (issue 26).

Two servers started together on one SQLite folder must not migrate it at
once, and the workers of one server set up the shared rate-limit file
once: each takes this lock first, and the others wait their turn. The
kernel's `flock` is released when its holder exits however it exits (a
kill -9 too), so a crash never leaves a stale lock behind, unlike a lock
made by creating a file. POSIX only, as gunicorn itself.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on `path` (made if missing, owner-only) for the block;
    wait as long as another process holds it."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # blocks until the holder is done (or dead)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
