"""Ids are never reused: every SQLite table with an integer id gets AUTOINCREMENT.

Without it SQLite gives a deleted row's id to the next row, so a card or a
learner remembered under an id could come back as a stranger's. Each table
is copied into one declared AUTOINCREMENT (Alembic's batch mode, reading the
table as it stands, so columns and indexes other migrations added come
along) with all its rows. PostgreSQL's sequences never reuse a number:
nothing to do there.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
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
    tables: dict[str, str] = dict(
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
    if "teachercard" in tables and "attempt" in tables:
        _retire_remembered_card_numbers(bind)


def _retire_remembered_card_numbers(bind: sa.engine.Connection) -> None:
    """A deleted card's number lives on in the answers given on it ("<name>
    #<number>", what counts once): the next card starts past every such
    number too, not only past the cards still there."""
    highest = bind.exec_driver_sql("SELECT coalesce(max(id), 0) FROM teachercard").scalar() or 0
    for (name,) in bind.exec_driver_sql("SELECT DISTINCT card FROM attempt WHERE card LIKE '% #%'"):
        number = name.rpartition(" #")[2]
        if number.isdigit() and len(number) <= 12:
            highest = max(highest, int(number))
    bind.exec_driver_sql("DELETE FROM sqlite_sequence WHERE name = 'teachercard'")
    bind.exec_driver_sql("INSERT INTO sqlite_sequence (name, seq) VALUES ('teachercard', ?)", (highest,))


def downgrade() -> None:
    # AUTOINCREMENT is harmless to the earlier revisions: nothing to undo.
    pass
