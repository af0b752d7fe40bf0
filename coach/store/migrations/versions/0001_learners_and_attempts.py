"""Learners, their graded answers and their review schedules.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "learner",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("email", sqlmodel.AutoString(length=254), nullable=True),
        sa.Column("password_hash", sqlmodel.AutoString(length=255), nullable=True),
        sa.Column("name", sqlmodel.AutoString(length=80), nullable=False),
        sa.Column("guest", sa.Boolean(), nullable=False),
        sa.Column("role", sqlmodel.AutoString(length=16), nullable=False),
        sa.Column("time_zone", sqlmodel.AutoString(length=64), nullable=False),
        sa.Column("daily_goal", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_learner_email", "learner", ["email"], unique=True)
    op.create_table(
        "attempt",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("learner_id", sa.Integer(), sa.ForeignKey("learner.id", ondelete="CASCADE"), nullable=False),
        sa.Column("drill", sqlmodel.AutoString(length=40), nullable=False),
        sa.Column("level", sa.Integer(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("card", sqlmodel.AutoString(length=120), nullable=False),
        sa.Column("question", sqlmodel.AutoString(length=240), nullable=False),
        sa.Column("answer", sqlmodel.AutoString(), nullable=False),
        sa.Column("correct", sa.Boolean(), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("items", sqlmodel.AutoString(), nullable=False),
        sa.Column("explanation", sqlmodel.AutoString(), nullable=False),
        sa.Column("rules", sqlmodel.AutoString(), nullable=False),
        sa.Column("best", sqlmodel.AutoString(), nullable=False),
        sa.Column("time_taken_ms", sa.Integer(), nullable=True),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("learner_id", "question", name="uq_attempt_learner_question"),
    )
    op.create_index("ix_attempt_learner_id", "attempt", ["learner_id"])
    op.create_index("ix_attempt_drill", "attempt", ["drill"])
    op.create_index("ix_attempt_answered_at", "attempt", ["answered_at"])
    op.create_table(
        "skillstate",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("learner_id", sa.Integer(), sa.ForeignKey("learner.id", ondelete="CASCADE"), nullable=False),
        sa.Column("skill", sqlmodel.AutoString(length=80), nullable=False),
        sa.Column("card", sqlmodel.AutoString(), nullable=False),
        sa.Column("due", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reviews", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("learner_id", "skill", name="uq_skill_learner_skill"),
    )
    op.create_index("ix_skillstate_learner_id", "skillstate", ["learner_id"])
    op.create_index("ix_skillstate_due", "skillstate", ["due"])


def downgrade() -> None:
    op.drop_table("skillstate")
    op.drop_table("attempt")
    op.drop_table("learner")
