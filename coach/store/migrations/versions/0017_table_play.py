"""Tables played live (issue 28): when a seat was last heard from, when a hand last
moved (the turn timer's start), and each person's review of their seat.

New columns (empty on rows stored before) and a new table only.

Revision ID: 0017_table_play
Revises: 0016_tables
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0017_table_play"
down_revision = "0016_tables"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("table_seat") as batch:
        batch.add_column(sa.Column("seen_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("table_hand") as batch:
        batch.add_column(sa.Column("moved_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "table_hand_review",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("hand_id", sa.Integer(), sa.ForeignKey("table_hand.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sqlmodel.AutoString(length=8), nullable=False),
        sa.Column("status", sqlmodel.AutoString(length=8), nullable=False),
        sa.Column("attempt", sa.Integer(), nullable=False),
        sa.Column("moves", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("review", sqlmodel.AutoString(), nullable=False),
        sa.Column("error", sqlmodel.AutoString(length=200), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("hand_id", "seat", name="uq_table_hand_review_hand_seat"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_table_hand_review_hand_id", "table_hand_review", ["hand_id"])


def downgrade() -> None:
    op.drop_index("ix_table_hand_review_hand_id", table_name="table_hand_review")
    op.drop_table("table_hand_review")
    with op.batch_alter_table("table_hand") as batch:
        batch.drop_column("moved_at")
    with op.batch_alter_table("table_seat") as batch:
        batch.drop_column("seen_at")
