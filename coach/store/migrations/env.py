"""Alembic's environment: migrations run on the engine the app hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy import text
from sqlmodel import SQLModel

from coach.store import models  # noqa: F401 - the tables, for comparisons

MIGRATION_LOCK = 0x6D6A6367  # any fixed number; "mjcg"

engine = context.config.attributes["engine"]
with engine.begin() as connection:
    if connection.dialect.name == "postgresql":
        # Several servers may start at once on one database: the first
        # migrates, the others wait here and then find nothing to do
        # (the lock ends with the transaction; PostgreSQL's DDL is transactional).
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
    context.configure(
        connection=connection,
        target_metadata=SQLModel.metadata,
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite alters tables by copying them
    )
    context.run_migrations()
