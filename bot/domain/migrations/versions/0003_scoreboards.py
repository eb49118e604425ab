"""scoreboards: the /marcador messages of groups playing with a real deck

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 10:30:00
"""

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql.sqltypes import UTCDateTime

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``scoreboards``."""
    op.create_table(
        "scoreboards",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("thread_id", sa.BigInteger(), nullable=True),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("placar", sa.Text(), nullable=False),
        sa.Column("presses", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("drawn", sa.Integer(), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_scoreboards_chat_id"), "scoreboards", ["chat_id"], unique=False)


def downgrade() -> None:
    """Drop ``scoreboards``."""
    op.drop_index(op.f("ix_scoreboards_chat_id"), table_name="scoreboards")
    op.drop_table("scoreboards")
