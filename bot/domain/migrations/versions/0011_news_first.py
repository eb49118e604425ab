"""The short "a table changed" NOTIFY sent at the commit, after the table's own

Revision ID: 0011_news_first
Revises: 0010_gauderio
Create Date: 2026-12-06 12:00:00

A change may carry its table to the Mini App pages of every replica in a NOTIFY of its
own (``bot.domain.tables.news``), sent after its versioned save. The trigger of
``0008_miniapp`` fired with the save, so its ``'<game>:<version>'`` reached the pages
first and each read the table anyway. As a deferred constraint trigger it fires at the
commit: the carried table arrives first, and the short notification is no news. On
SQLite (one process, no NOTIFY) nothing changes.
"""

from alembic import op

revision = "0011_news_first"
down_revision = "0010_gauderio"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """The trigger again, deferred to the commit."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS games_version_notify ON games")
        op.execute(
            """
            CREATE CONSTRAINT TRIGGER games_version_notify
            AFTER INSERT OR UPDATE OF version ON games
            DEFERRABLE INITIALLY DEFERRED
            FOR EACH ROW EXECUTE FUNCTION truco_table_changed()
            """
        )


def downgrade() -> None:
    """The trigger as ``0008_miniapp`` made it."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS games_version_notify ON games")
        op.execute(
            """
            CREATE TRIGGER games_version_notify
            AFTER INSERT OR UPDATE OF version ON games
            FOR EACH ROW EXECUTE FUNCTION truco_table_changed()
            """
        )
