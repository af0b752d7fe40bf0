"""Tables with friends and classes (issue 28): a table, its seats, its hands.

New tables only: nothing stored before changes.

Revision ID: 0016_tables
Revises: 0015_table_rules
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0016_tables"
down_revision = "0015_table_rules"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_table",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("code", sqlmodel.AutoString(length=16), nullable=False),
        sa.Column("host_id", sa.Integer(), sa.ForeignKey("learner.id", ondelete="CASCADE"), nullable=False),
        sa.Column("card", sqlmodel.AutoString(length=120), nullable=False),
        sa.Column("rules", sqlmodel.AutoString(), nullable=False),
        sa.Column("bots", sqlmodel.AutoString(length=12), nullable=False),
        sa.Column("settings", sqlmodel.AutoString(), nullable=False),
        sa.Column("kind", sqlmodel.AutoString(length=8), nullable=False),
        sa.Column("class_id", sa.Integer(), sa.ForeignKey("classroom.id", ondelete="CASCADE"), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_game_table_code", "game_table", ["code"], unique=True)
    op.create_index("ix_game_table_host_id", "game_table", ["host_id"])
    op.create_index("ix_game_table_class_id", "game_table", ["class_id"])
    op.create_table(
        "table_seat",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.Integer(), sa.ForeignKey("game_table.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sqlmodel.AutoString(length=8), nullable=False),
        sa.Column("learner_id", sa.Integer(), sa.ForeignKey("learner.id", ondelete="SET NULL"), nullable=True),
        sa.Column("present", sa.Boolean(), nullable=False),
        sa.Column("last_seen", sa.Integer(), nullable=False),
        sa.UniqueConstraint("table_id", "seat", name="uq_table_seat_seat"),
        sa.UniqueConstraint("table_id", "learner_id", name="uq_table_seat_learner"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_table_seat_table_id", "table_seat", ["table_id"])
    op.create_index("ix_table_seat_learner_id", "table_seat", ["learner_id"])
    op.create_table(
        "table_hand",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.Integer(), sa.ForeignKey("game_table.id", ondelete="CASCADE"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("rules", sqlmodel.AutoString(), nullable=False),
        sa.Column("actions", sqlmodel.AutoString(), nullable=False),
        sa.Column("held", sqlmodel.AutoString(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("result", sqlmodel.AutoString(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("table_id", "number", name="uq_table_hand_number"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_table_hand_table_id", "table_hand", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_table_hand_table_id", table_name="table_hand")
    op.drop_table("table_hand")
    op.drop_index("ix_table_seat_learner_id", table_name="table_seat")
    op.drop_index("ix_table_seat_table_id", table_name="table_seat")
    op.drop_table("table_seat")
    op.drop_index("ix_game_table_class_id", table_name="game_table")
    op.drop_index("ix_game_table_host_id", table_name="game_table")
    op.drop_index("ix_game_table_code", table_name="game_table")
    op.drop_table("game_table")
