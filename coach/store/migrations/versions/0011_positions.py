"""Positions of finished practice hands to replay as questions (issue 16, part 5).

Revision ID: 0011_positions
Revises: 0010_classhands
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0011_positions"
down_revision = "0010_classhands"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A new table only: nothing stored before changes meaning.
    op.create_table(
        "replay_position",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("learner_id", sa.Integer(), sa.ForeignKey("learner.id", ondelete="CASCADE"), nullable=False),
        sa.Column("hand_id", sa.Integer(), sa.ForeignKey("practice_hand.id", ondelete="CASCADE"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("schedule", sqlmodel.AutoString(), nullable=False),
        sa.Column("due", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reviews", sa.Integer(), nullable=False),
        sa.Column("last_answer", sqlmodel.AutoString(), nullable=False),
        sa.Column("last_correct", sa.Boolean(), nullable=True),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("hand_id", "number", name="uq_replay_position_hand_number"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_replay_position_learner_id", "replay_position", ["learner_id"])
    op.create_index("ix_replay_position_hand_id", "replay_position", ["hand_id"])
    op.create_index("ix_replay_position_due", "replay_position", ["due"])


def downgrade() -> None:
    op.drop_index("ix_replay_position_due", table_name="replay_position")
    op.drop_index("ix_replay_position_hand_id", table_name="replay_position")
    op.drop_index("ix_replay_position_learner_id", table_name="replay_position")
    op.drop_table("replay_position")
