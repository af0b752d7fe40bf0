"""Display settings per learner: light, dark or the device's theme, and tile size.

Revision ID: 0008_tiles
Revises: 0007_learn
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0008_tiles"
down_revision = "0007_learn"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A learner without a row here has the defaults: nobody's look changes until they choose.
    op.create_table(
        "learner_display",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("learner_id", sa.Integer(), sa.ForeignKey("learner.id", ondelete="CASCADE"), nullable=False),
        sa.Column("theme", sqlmodel.AutoString(length=8), nullable=False),
        sa.Column("tile_size", sqlmodel.AutoString(length=8), nullable=False),
        sa.UniqueConstraint("learner_id", name="uq_display_learner"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_learner_display_learner_id", "learner_display", ["learner_id"])


def downgrade() -> None:
    op.drop_index("ix_learner_display_learner_id", table_name="learner_display")
    op.drop_table("learner_display")
