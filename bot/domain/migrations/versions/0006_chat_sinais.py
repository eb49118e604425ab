"""chats.sinais: whether a chat's 2×2 tables play with sinais (the /config default)

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 13:50:00

Existing chats keep playing with sinais, the rule's default (R12).
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``chats.sinais``."""
    with op.batch_alter_table("chats") as batch:
        batch.add_column(
            sa.Column("sinais", sa.Boolean(), nullable=False, server_default=sa.true())
        )


def downgrade() -> None:
    """Drop ``chats.sinais``."""
    with op.batch_alter_table("chats") as batch:
        batch.drop_column("sinais")
