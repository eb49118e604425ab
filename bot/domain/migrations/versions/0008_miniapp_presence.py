"""app_presence, and on PostgreSQL a NOTIFY on every new game version (the Mini App)

Revision ID: 0008_miniapp
Revises: 0007_group
Create Date: 2026-12-05 08:00:00

``app_presence`` says who has a table open in the Mini App. On PostgreSQL a trigger sends
``NOTIFY truco_table, '<game id>:<version>'`` whenever a game's version changes: every
replica's open pages hear of every change, whichever replica (or job) made it, and the
notification leaves with the transaction's commit, never before.
"""

import sqlalchemy as sa
from alembic import op

revision = "0008_miniapp"
down_revision = "0007_group"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``app_presence``; on PostgreSQL, the trigger."""
    op.create_table(
        "app_presence",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("user_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("seen_at", sa.Float(), nullable=False),
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            """
            CREATE OR REPLACE FUNCTION truco_table_changed() RETURNS trigger AS $$
            BEGIN
                PERFORM pg_notify('truco_table', NEW.id || ':' || NEW.version);
                RETURN NEW;
            END;
            $$ LANGUAGE plpgsql
            """
        )
        op.execute(
            """
            CREATE TRIGGER games_version_notify
            AFTER INSERT OR UPDATE OF version ON games
            FOR EACH ROW EXECUTE FUNCTION truco_table_changed()
            """
        )


def downgrade() -> None:
    """Drop them."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS games_version_notify ON games")
        op.execute("DROP FUNCTION IF EXISTS truco_table_changed()")
    op.drop_table("app_presence")
