"""chats.noise: how much of a match a group hears as new messages (the /config choice)

Revision ID: 0007_group
Revises: 0006
Create Date: 2026-12-05 08:00:00

Existing chats keep hearing everything, as before.
"""

import sqlalchemy as sa
from alembic import op

revision = "0007_group"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``chats.noise``."""
    with op.batch_alter_table("chats") as batch:
        batch.add_column(sa.Column("noise", sa.String(), nullable=False, server_default="all"))


def downgrade() -> None:
    """Drop ``chats.noise``."""
    with op.batch_alter_table("chats") as batch:
        batch.drop_column("noise")
