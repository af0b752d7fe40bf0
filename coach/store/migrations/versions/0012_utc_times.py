"""Every time column holds an aware UTC time (coach/store/utc_datetime.py).

PostgreSQL: a time column still `timestamp without time zone` becomes
`timestamp with time zone`, its values read as UTC (what the store always
wrote). The migrations before this one already asked for `with time zone`,
so a database they built has nothing to change; one built from the tables
by other means (the models used to say plain DateTime) is brought in line.
SQLite: nothing to change. Its times are text without an offset, the UTC
wall time ("2026-12-01 09:30:00.000000"); the new column type writes the
same text and reads it back with UTC attached, so old rows read as before
and older code reads new rows.

Revision ID: 0012_utc_times
Revises: 0011_positions
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_utc_times"
down_revision = "0011_positions"
branch_labels = None
depends_on = None

# The time columns at this revision (written out: the models may change later).
TIME_COLUMNS = {
    "learner": ("created_at",),
    "attempt": ("answered_at",),
    "classroom": ("created_at",),
    "dailysession": ("created_at",),
    "lesson_progress": ("finished_at", "updated_at"),
    "login_session": ("created_at", "last_seen_at", "ended_at"),
    "practice_hand": ("created_at", "updated_at", "finished_at"),
    "skillstate": ("due", "updated_at"),
    "teachercard": ("uploaded_at",),
    "assignment": ("due_at", "created_at"),
    "cardchoice": ("chosen_at",),
    "class_hand": ("due_at", "created_at"),
    "drillset": ("created_at", "updated_at"),
    "membership": ("joined_at",),
    "replay_position": ("due", "answered_at", "created_at"),
    "assignmentanswer": ("answered_at",),
    "assignmentwork": ("started_at", "finished_at"),
}


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    inspector = sa.inspect(bind)
    for table, columns in TIME_COLUMNS.items():
        types = {c["name"]: c["type"] for c in inspector.get_columns(table)}
        for column in columns:
            kind = types[column]
            if isinstance(kind, sa.DateTime) and not kind.timezone:
                op.execute(
                    f'ALTER TABLE "{table}" ALTER COLUMN "{column}" '
                    f"TYPE timestamp with time zone USING \"{column}\" AT TIME ZONE 'UTC'"
                )


def downgrade() -> None:
    # The revision before declared every time column `with time zone`
    # already: a column turned here stays as that revision wants it.
    pass
