"""Class tables (issue 28, item 5): a class seated at tables for one deal.

- `class_round`: new; one row each time a teacher seats a class, with the
  deal (seed), card, rules and computer players' strength every table of it
  plays, and when the teacher started it (set once).
- `game_table.round_id`: NULL for every table stored before now (none was
  seated as a class round); a class round's tables name it.

Revision ID: 0018_class_rounds
Revises: 0017_table_play
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0018_class_rounds"
down_revision = "0017_table_play"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "class_round",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("classroom_id", sa.Integer(), sa.ForeignKey("classroom.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("card", sqlmodel.AutoString(length=120), nullable=False),
        sa.Column("rules", sqlmodel.AutoString(), nullable=False),
        sa.Column("bots", sqlmodel.AutoString(length=12), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_class_round_classroom_id", "class_round", ["classroom_id"])
    # SQLite adds a column with a foreign key by copying the table (render_as_batch); PostgreSQL alters it.
    with op.batch_alter_table("game_table", table_kwargs={"sqlite_autoincrement": True}) as batch:
        batch.add_column(sa.Column("round_id", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_game_table_round_id", "class_round", ["round_id"], ["id"], ondelete="CASCADE")
        batch.create_index("ix_game_table_round_id", ["round_id"])


def downgrade() -> None:
    with op.batch_alter_table("game_table", table_kwargs={"sqlite_autoincrement": True}) as batch:
        batch.drop_index("ix_game_table_round_id")
        batch.drop_constraint("fk_game_table_round_id", type_="foreignkey")
        batch.drop_column("round_id")
    op.drop_index("ix_class_round_classroom_id", table_name="class_round")
    op.drop_table("class_round")
