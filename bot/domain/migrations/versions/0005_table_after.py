"""games.table_after: messages posted since the table message, to repost a buried table

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 12:40:00

Existing tables start at 0: the count begins with the first message after the upgrade.
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``games.table_after``."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("table_after", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    """Drop ``games.table_after``."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("table_after")
