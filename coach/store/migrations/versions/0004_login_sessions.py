"""Sign-in sessions kept on the server, so that signing out ends them.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Accounts signed in before this revision sign in again; a guest's old
    # "<id>:<stamp>" cookie is traded for a session (coach/web/shared/learners.py).
    op.create_table(
        "login_session",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("learner_id", sa.Integer(), sa.ForeignKey("learner.id", ondelete="CASCADE"), nullable=False),
        sa.Column("token_hash", sqlmodel.AutoString(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_login_session_learner_id", "login_session", ["learner_id"])
    op.create_index("ix_login_session_token_hash", "login_session", ["token_hash"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_login_session_token_hash", table_name="login_session")
    op.drop_index("ix_login_session_learner_id", table_name="login_session")
    op.drop_table("login_session")
