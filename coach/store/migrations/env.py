"""Alembic's environment: migrations run on the engine the app hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy import text
from sqlmodel import SQLModel

from coach.store import models  # noqa: F401 - the tables, for comparisons

MIGRATION_LOCK = 0x6D6A6367  # any fixed number; "mjcg"

engine = context.config.attributes["engine"]
with engine.connect() as connection:
    sqlite = connection.dialect.name == "sqlite"
    if sqlite:
        # SQLite alters a table by copying it and dropping the old one; with
        # foreign keys on, that drop would cascade and delete every row that
        # points at it. They can only be switched outside a transaction, and
        # are checked before the migration commits and switched on again after.
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        connection.commit()
    with connection.begin():
        if sqlite:
            # The driver would start the transaction only at the first row
            # written, leaving a table copy half made outside it after a kill.
            # IMMEDIATE: the write lock from the start (waiting up to the busy
            # timeout for a running server's write), never a read turned into a
            # write, which SQLite refuses at once when another wrote meanwhile.
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        if connection.dialect.name == "postgresql":
            # Several servers may start at once on one database: the first
            # migrates, the others wait here and then find nothing to do
            # (the lock ends with the transaction; PostgreSQL's DDL is transactional).
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        context.configure(
            connection=connection,
            target_metadata=SQLModel.metadata,
            render_as_batch=sqlite,  # SQLite alters tables by copying them
        )
        context.run_migrations()
        if sqlite:
            broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
            if broken:
                raise RuntimeError(f"a migration left rows pointing at nothing: {broken[:5]}")
    if sqlite:
        connection.exec_driver_sql("PRAGMA foreign_keys=ON")
        connection.commit()
