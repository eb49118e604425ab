"""games.table_digest: what the table message shows now, so that a redraw showing the same
is not sent

Revision ID: 0009_table_digest
Revises: 0008_miniapp
Create Date: 2026-12-05 13:30:00

Existing tables start unknown: their next redraw is sent, as before.
"""

import sqlalchemy as sa
from alembic import op

revision = "0009_table_digest"
down_revision = "0008_miniapp"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``games.table_digest``."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("table_digest", sa.String(), nullable=True))


def downgrade() -> None:
    """Drop ``games.table_digest``."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("table_digest")
