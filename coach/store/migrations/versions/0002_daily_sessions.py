"""Today's practice: one planned session a learner a day.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dailysession",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("learner_id", sa.Integer(), sa.ForeignKey("learner.id", ondelete="CASCADE"), nullable=False),
        sa.Column("day", sqlmodel.AutoString(length=10), nullable=False),
        sa.Column("plan", sqlmodel.AutoString(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("learner_id", "day", name="uq_daily_learner_day"),
    )
    op.create_index("ix_dailysession_learner_id", "dailysession", ["learner_id"])


def downgrade() -> None:
    op.drop_table("dailysession")
