"""Lessons: which checks of each lesson a learner got right, and when they finished it.

Revision ID: 0007_learn
Revises: 0006_practice
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0007_learn"
down_revision = "0006_practice"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "lesson_progress",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("learner_id", sa.Integer(), sa.ForeignKey("learner.id", ondelete="CASCADE"), nullable=False),
        sa.Column("lesson", sqlmodel.AutoString(length=40), nullable=False),
        sa.Column("passed", sqlmodel.AutoString(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("learner_id", "lesson", name="uq_lesson_learner_lesson"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_lesson_progress_learner_id", "lesson_progress", ["learner_id"])


def downgrade() -> None:
    op.drop_table("lesson_progress")
