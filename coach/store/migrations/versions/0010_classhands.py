"""Class hands: a practice hand a teacher gives a class, and each student's own hand of it (issue 16, part 6).

Revision ID: 0010_classhands
Revises: 0009_owncard
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0010_classhands"
down_revision = "0009_owncard"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # New tables only: practice_hand and every stored hand stay as they are.
    op.create_table(
        "class_hand",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("classroom_id", sa.Integer(), sa.ForeignKey("classroom.id", ondelete="CASCADE"), nullable=False),
        sa.Column("title", sqlmodel.AutoString(length=80), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("bots", sqlmodel.AutoString(length=12), nullable=False),
        sa.Column("card_id", sa.Integer(), sa.ForeignKey("teachercard.id"), nullable=True),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_class_hand_classroom_id", "class_hand", ["classroom_id"])
    op.create_index("ix_class_hand_card_id", "class_hand", ["card_id"])
    op.create_table(
        "class_hand_play",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("class_hand_id", sa.Integer(), sa.ForeignKey("class_hand.id", ondelete="CASCADE"), nullable=False),
        sa.Column("learner_id", sa.Integer(), sa.ForeignKey("learner.id", ondelete="CASCADE"), nullable=False),
        sa.Column("hand_id", sa.Integer(), sa.ForeignKey("practice_hand.id", ondelete="CASCADE"), nullable=False),
        sa.UniqueConstraint("class_hand_id", "learner_id", name="uq_class_hand_play_learner"),
        sa.UniqueConstraint("hand_id"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_class_hand_play_class_hand_id", "class_hand_play", ["class_hand_id"])
    op.create_index("ix_class_hand_play_learner_id", "class_hand_play", ["learner_id"])


def downgrade() -> None:
    op.drop_index("ix_class_hand_play_learner_id", table_name="class_hand_play")
    op.drop_index("ix_class_hand_play_class_hand_id", table_name="class_hand_play")
    op.drop_table("class_hand_play")
    op.drop_index("ix_class_hand_card_id", table_name="class_hand")
    op.drop_index("ix_class_hand_classroom_id", table_name="class_hand")
    op.drop_table("class_hand")
