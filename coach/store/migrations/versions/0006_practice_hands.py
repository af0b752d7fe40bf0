"""Practice hands against the computer (issue 16).

Revision ID: 0006_practice
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0006_practice"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "practice_hand",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("learner_id", sa.Integer(), sa.ForeignKey("learner.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("card", sqlmodel.AutoString(length=120), nullable=False),
        sa.Column("seat", sqlmodel.AutoString(length=8), nullable=False),
        sa.Column("bots", sqlmodel.AutoString(length=12), nullable=False),
        sa.Column("actions", sqlmodel.AutoString(), nullable=False),
        sa.Column("hints", sa.Integer(), nullable=False),
        sa.Column("result", sqlmodel.AutoString(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_practice_hand_learner_id", "practice_hand", ["learner_id"])


def downgrade() -> None:
    op.drop_index("ix_practice_hand_learner_id", table_name="practice_hand")
    op.drop_table("practice_hand")
