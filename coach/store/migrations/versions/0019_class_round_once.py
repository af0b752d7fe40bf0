"""Class tables (issue 28): a class has one round not yet started at most.

"Seat the class" sent twice (a double click, two tabs, a retried post) must
not seat the class at two sets of tables: a unique index on the class over
its rounds whose `started_at` is NULL (a partial index, on SQLite and
PostgreSQL alike) makes the second seating collide with the first, and the
store hands the second request the first round. A started round leaves the
index, so the class can be seated again for the next deal.

A database that already holds two rounds of one class not started (seated
twice before this) keeps the newest open and marks the older ones started
at their seating time, which they never were: their tables have no hand and
the teacher can still watch them; only the newest is offered to start.

Revision ID: 0019_class_round_once
Revises: 0018_class_rounds
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019_class_round_once"
down_revision = "0018_class_rounds"
branch_labels = None
depends_on = None

OPEN = "started_at IS NULL"


def upgrade() -> None:
    # Rounds seated twice before the index: all but each class's newest open one leave it.
    op.execute(sa.text(
        "UPDATE class_round SET started_at = created_at WHERE started_at IS NULL AND id < "
        "(SELECT MAX(newer.id) FROM class_round AS newer WHERE newer.classroom_id = class_round.classroom_id AND newer.started_at IS NULL)"
    ))
    op.create_index(
        "uq_class_round_open", "class_round", ["classroom_id"], unique=True,
        sqlite_where=sa.text(OPEN), postgresql_where=sa.text(OPEN),
    )


def downgrade() -> None:
    op.drop_index("uq_class_round_open", table_name="class_round")
