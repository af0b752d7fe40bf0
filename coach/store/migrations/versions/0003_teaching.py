"""Teaching: classes and their students, teachers' cards, drill sets,
assignments and the students' answers to them.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "classroom",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("teacher_id", sa.Integer(), sa.ForeignKey("learner.id", ondelete="CASCADE"), nullable=False),
        sa.Column("name", sqlmodel.AutoString(length=80), nullable=False),
        sa.Column("join_code", sqlmodel.AutoString(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_classroom_teacher_id", "classroom", ["teacher_id"])
    op.create_index("ix_classroom_join_code", "classroom", ["join_code"], unique=True)

    op.create_table(
        "membership",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("classroom_id", sa.Integer(), sa.ForeignKey("classroom.id", ondelete="CASCADE"), nullable=False),
        sa.Column("learner_id", sa.Integer(), sa.ForeignKey("learner.id", ondelete="CASCADE"), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("classroom_id", "learner_id", name="uq_membership_class_learner"),
    )
    op.create_index("ix_membership_classroom_id", "membership", ["classroom_id"])
    op.create_index("ix_membership_learner_id", "membership", ["learner_id"])

    op.create_table(
        "teachercard",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("owner_id", sa.Integer(), sa.ForeignKey("learner.id", ondelete="CASCADE"), nullable=False),
        sa.Column("name", sqlmodel.AutoString(length=120), nullable=False),
        sa.Column("source", sqlmodel.AutoString(), nullable=False),
        sa.Column("lines", sa.Integer(), nullable=False),
        sa.Column("uploaded_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("owner_id", "name", name="uq_teachercard_owner_name"),
    )
    op.create_index("ix_teachercard_owner_id", "teachercard", ["owner_id"])

    op.create_table(
        "drillset",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("owner_id", sa.Integer(), sa.ForeignKey("learner.id", ondelete="CASCADE"), nullable=False),
        sa.Column("title", sqlmodel.AutoString(length=80), nullable=False),
        sa.Column("source", sqlmodel.AutoString(), nullable=False),
        sa.Column("card_id", sa.Integer(), sa.ForeignKey("teachercard.id"), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_drillset_owner_id", "drillset", ["owner_id"])
    op.create_index("ix_drillset_card_id", "drillset", ["card_id"])

    op.create_table(
        "assignment",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("classroom_id", sa.Integer(), sa.ForeignKey("classroom.id", ondelete="CASCADE"), nullable=False),
        sa.Column("title", sqlmodel.AutoString(length=80), nullable=False),
        sa.Column("source", sqlmodel.AutoString(), nullable=False),
        sa.Column("card_id", sa.Integer(), sa.ForeignKey("teachercard.id"), nullable=True),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_assignment_classroom_id", "assignment", ["classroom_id"])
    op.create_index("ix_assignment_card_id", "assignment", ["card_id"])

    op.create_table(
        "assignmentwork",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("assignment_id", sa.Integer(), sa.ForeignKey("assignment.id", ondelete="CASCADE"), nullable=False),
        sa.Column("learner_id", sa.Integer(), sa.ForeignKey("learner.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("assignment_id", "learner_id", name="uq_work_assignment_learner"),
    )
    op.create_index("ix_assignmentwork_assignment_id", "assignmentwork", ["assignment_id"])
    op.create_index("ix_assignmentwork_learner_id", "assignmentwork", ["learner_id"])

    op.create_table(
        "assignmentanswer",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("assignment_id", sa.Integer(), sa.ForeignKey("assignment.id", ondelete="CASCADE"), nullable=False),
        sa.Column("learner_id", sa.Integer(), sa.ForeignKey("learner.id", ondelete="CASCADE"), nullable=False),
        sa.Column("slot", sa.Integer(), nullable=False),
        sa.Column("drill", sqlmodel.AutoString(length=40), nullable=False),
        sa.Column("level", sa.Integer(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("answer", sqlmodel.AutoString(), nullable=False),
        sa.Column("answer_text", sqlmodel.AutoString(length=240), nullable=False),
        sa.Column("correct", sa.Boolean(), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("explanation", sqlmodel.AutoString(), nullable=False),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("assignment_id", "learner_id", "slot", name="uq_assignment_answer_slot"),
    )
    op.create_index("ix_assignmentanswer_assignment_id", "assignmentanswer", ["assignment_id"])
    op.create_index("ix_assignmentanswer_learner_id", "assignmentanswer", ["learner_id"])


def downgrade() -> None:
    for table in ("assignmentanswer", "assignmentwork", "assignment", "drillset", "teachercard", "membership", "classroom"):
        op.drop_table(table)
