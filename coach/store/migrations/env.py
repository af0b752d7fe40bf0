"""Alembic's environment: migrations run on the engine the app hands over."""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

from coach.store import models  # noqa: F401 - the tables, for comparisons

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
            connection.exec_driver_sql("BEGIN")
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
