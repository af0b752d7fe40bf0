"""Table rules (issue 27): a learner's own, a class's, and the rules each
practice hand and class hand is played under.

- `learner_rules` and `class_rules`: new tables; a learner or a class
  without a row plays the League's rules.
- `practice_hand.rules` and `class_hand.rules`: NULL for every row stored
  before now. Those hands were played with C6 on (the engine then always
  ended an all-blind Charleston), and `TableRules.from_record(None)` reads
  NULL as exactly that (`BEFORE_SWITCHES`), so each replays, and is
  reviewed, as it was played. A class hand given before now keeps NULL for
  the same reason: a student who starts it later plays what their
  classmates played. New rows always store their rules ("{}" for the League's).

Revision ID: 0015_table_rules
Revises: 0014_blind_pass
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0015_table_rules"
down_revision = "0014_blind_pass"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "learner_rules",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("learner_id", sa.Integer(), sa.ForeignKey("learner.id", ondelete="CASCADE"), nullable=False),
        sa.Column("rules", sqlmodel.AutoString(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("learner_id", name="uq_learner_rules_learner"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_learner_rules_learner_id", "learner_rules", ["learner_id"])
    op.create_table(
        "class_rules",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("classroom_id", sa.Integer(), sa.ForeignKey("classroom.id", ondelete="CASCADE"), nullable=False),
        sa.Column("rules", sqlmodel.AutoString(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("classroom_id", name="uq_class_rules_classroom"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_class_rules_classroom_id", "class_rules", ["classroom_id"])
    # Adding a nullable column is a plain ALTER TABLE on both databases: no table is copied.
    op.add_column("practice_hand", sa.Column("rules", sqlmodel.AutoString(), nullable=True))
    op.add_column("class_hand", sa.Column("rules", sqlmodel.AutoString(), nullable=True))


def downgrade() -> None:
    for table in ("class_hand", "practice_hand"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("rules")
    op.drop_index("ix_class_rules_classroom_id", table_name="class_rules")
    op.drop_table("class_rules")
    op.drop_index("ix_learner_rules_learner_id", table_name="learner_rules")
    op.drop_table("learner_rules")
