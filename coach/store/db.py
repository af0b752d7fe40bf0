"""The database engine, and the migrations that bring it up to date."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import event, make_url
from sqlalchemy.engine import Engine
from sqlmodel import create_engine

from coach.common.file_lock import locked
from coach.common.settings import DATABASE_URL

MIGRATIONS = Path(__file__).parent / "migrations"
FILE_NAME = "coach.sqlite3"


def database_url(instance: Path, url: str | None = None) -> str:
    """`url` (the app's resolved setting), else the environment's database
    setting (`coach.common.settings.DATABASE_URL`), else a SQLite file in the instance folder."""
    return url or DATABASE_URL.read(os.environ) or f"sqlite:///{instance / FILE_NAME}"


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    # WAL lets readers go on while an answer is written, and survives a kill
    # between two answers; SQLite leaves foreign keys off unless asked.
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _private_file(url: str) -> None:
    """Create a SQLite file readable by its owner only (0o600) before SQLite does with the
    umask's; SQLite gives its -wal and -shm files the database file's permissions."""
    path = make_url(url).database
    if not path or path == ":memory:" or path.startswith("file:"):
        return
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass  # an existing file keeps the permissions its owner gave it
    except OSError:
        pass  # no folder yet, or read-only: SQLite reports that itself


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        _private_file(url)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True)


def alembic_config(engine: Engine) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["engine"] = engine
    return config


def migration_lock(url: str) -> Path | None:
    """The lock file beside a SQLite database file (None for any other database:
    PostgreSQL's migrations take an advisory lock of their own, see migrations/env.py)."""
    parsed = make_url(url)
    path = parsed.database
    if parsed.get_backend_name() != "sqlite" or not path or path == ":memory:" or path.startswith("file:"):
        return None
    return Path(path).with_name(Path(path).name + ".migrate-lock")


def migrate(engine: Engine) -> None:
    """Apply every migration not yet applied (an empty database gets them all).

    Servers started together on one SQLite folder each migrate as they start:
    SQLite's own locks made the second fail at once ("database is locked",
    its read turning into a write). A lock file beside the database makes it
    wait for the first instead, then find nothing left to do."""
    lock = migration_lock(engine.url.render_as_string(hide_password=False))
    with locked(lock) if lock is not None else contextlib.nullcontext():
        command.upgrade(alembic_config(engine), "head")
