"""Display settings per learner: light, dark or the device's theme, and tile size.

Revision ID: 0006_tiles
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0006_tiles"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Server defaults fill every existing row: nobody's look changes until they choose.
    with op.batch_alter_table("learner") as batch:
        batch.add_column(sa.Column("theme", sqlmodel.AutoString(length=8), nullable=False, server_default="system"))
        batch.add_column(sa.Column("tile_size", sqlmodel.AutoString(length=8), nullable=False, server_default="normal"))


def downgrade() -> None:
    with op.batch_alter_table("learner") as batch:
        batch.drop_column("tile_size")
        batch.drop_column("theme")
