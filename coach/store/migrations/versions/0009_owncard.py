"""A learner's choice of the card their drills deal from (issue 14).

Revision ID: 0009_owncard
Revises: 0008_tiles
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_owncard"
down_revision = "0008_tiles"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # No row: the house card. Nothing stored before changes meaning.
    op.create_table(
        "cardchoice",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("learner_id", sa.Integer(), sa.ForeignKey("learner.id", ondelete="CASCADE"), nullable=False),
        sa.Column("card_id", sa.Integer(), sa.ForeignKey("teachercard.id", ondelete="CASCADE"), nullable=False),
        sa.Column("chosen_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("learner_id"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_cardchoice_card_id", "cardchoice", ["card_id"])


def downgrade() -> None:
    op.drop_index("ix_cardchoice_card_id", table_name="cardchoice")
    op.drop_table("cardchoice")
