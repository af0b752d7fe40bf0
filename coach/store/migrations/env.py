"""Alembic's environment: migrations run on the engine the app hands over."""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

from coach.store import models  # noqa: F401 - the tables, for comparisons

engine = context.config.attributes["engine"]
with engine.begin() as connection:
    context.configure(
        connection=connection,
        target_metadata=SQLModel.metadata,
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite alters tables by copying them
    )
    context.run_migrations()
