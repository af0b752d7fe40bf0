"""Tables played live (issue 28): when each person's decision was put to them.

A turn timer measured from the hand's last save gave a person more time
whenever anyone else's answer or a computer player's move was saved. The
hand now keeps, for each person owing a decision, the decision (its kind
and the seat's state number) and the moment it began (`owed`, JSON), written
with the hand's moves in the same compare and set.

A new nullable column only: a hand stored before has none, and its timer
runs from its last save, as before, until its next save records it.

Revision ID: 0020_table_owed
Revises: 0019_class_round_once
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0020_table_owed"
down_revision = "0019_class_round_once"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Adding a nullable column is a plain ALTER TABLE on both databases: no table is copied.
    op.add_column("table_hand", sa.Column("owed", sqlmodel.AutoString(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("table_hand") as batch:
        batch.drop_column("owed")
