"""Ids are never reused: every SQLite table with an integer id gets AUTOINCREMENT.

Without it SQLite gives a deleted row's id to the next row, so a card or a
learner remembered under an id could come back as a stranger's. Each table
is copied into one declared AUTOINCREMENT (Alembic's batch mode, reading the
table as it stands, so columns and indexes other migrations added come
along) with all its rows. PostgreSQL's sequences never reuse a number:
nothing to do there.

Revision ID: 0005
Revises: 0003
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0003"
branch_labels = None
depends_on = None


def _needs_autoincrement(inspector: sa.engine.Inspector, table: str, sql: str) -> bool:
    primary = inspector.get_pk_constraint(table)["constrained_columns"]
    columns = {c["name"]: c for c in inspector.get_columns(table)}
    return (
        primary == ["id"]
        and isinstance(columns["id"]["type"], sa.Integer)
        and "AUTOINCREMENT" not in sql.upper()
    )


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        return
    inspector = sa.inspect(bind)
    tables = dict(
        bind.exec_driver_sql(
            "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "AND name != 'alembic_version'"
        ).all()
    )
    # Foreign keys are off while this runs (env.py): dropping the old copy
    # of a table must not cascade to the rows that point at it.
    for table, sql in sorted(tables.items()):
        if _needs_autoincrement(inspector, table, sql):
            with op.batch_alter_table(table, recreate="always", table_kwargs={"sqlite_autoincrement": True}):
                pass


def downgrade() -> None:
    # AUTOINCREMENT is harmless to the earlier revisions: nothing to undo.
    pass
