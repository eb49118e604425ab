"""truco gaudério: chats.flor, a chat's target "the variant's", a player's deck "not chosen"

Revision ID: 0010_gauderio
Revises: 0009_table_digest
Create Date: 2026-12-06 06:40:00

``chats.flor`` is /config's flor at gaudério tables (R13.4), on by default. A chat's
``target`` 0 now means "the variant's default for the table's size" (12; gaudério 24 in
2×2, 18 in 1×1): every chat at 12, the default of every variant before gaudério, moves to
0, so a group that switches to gaudério plays to 24 without choosing it again. A player's
``deck`` "" means "never chosen": the table's variant decides (Spanish at gaudério,
R13.1); "traditional" was everybody's default before, and moves to "" likewise (anyone
may choose it again with /baralho). The downgrade writes the old defaults back.
"""

import sqlalchemy as sa
from alembic import op

revision = "0010_gauderio"
down_revision = "0009_table_digest"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``chats.flor``; move the old defaults of target and deck to "the variant's"."""
    with op.batch_alter_table("chats") as batch:
        batch.add_column(sa.Column("flor", sa.Boolean(), nullable=False, server_default=sa.true()))
    op.execute("UPDATE chats SET target = 0 WHERE target = 12")
    op.execute("UPDATE players SET deck = '' WHERE deck = 'traditional'")


def downgrade() -> None:
    """Drop ``chats.flor``; write the old defaults back."""
    op.execute("UPDATE players SET deck = 'traditional' WHERE deck = ''")
    op.execute("UPDATE chats SET target = 12 WHERE target = 0")
    with op.batch_alter_table("chats") as batch:
        batch.drop_column("flor")
