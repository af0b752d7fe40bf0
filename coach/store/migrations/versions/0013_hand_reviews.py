"""Practice hands' reviews, computed once in the background and kept (issue 24, item 8).

Revision ID: 0013_hand_reviews
Revises: 0012_utc_times
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0013_hand_reviews"
down_revision = "0012_utc_times"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A new table only: a finished hand without a row is reviewed when first looked at.
    op.create_table(
        "hand_review",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("hand_id", sa.Integer(), sa.ForeignKey("practice_hand.id", ondelete="CASCADE"), nullable=False),
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
        sa.UniqueConstraint("hand_id", "seat", name="uq_hand_review_hand_seat"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_hand_review_hand_id", "hand_review", ["hand_id"])


def downgrade() -> None:
    op.drop_index("ix_hand_review_hand_id", table_name="hand_review")
    op.drop_table("hand_review")
