"""durable jobs, the outbox of announcements, shared flood budgets

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 10:00:00

Announcements a table still owed (closings of hands past ``games.announced_hands``, an
end not ``announced_end``) become pending outbox rows, so nothing owed is lost and
nothing already sent is sent again. Deadlines, robot turns and redraws of unfinished
tables are recreated as jobs by the bot at start-up.
"""

import json

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql.sqltypes import AutoString, UTCDateTime

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_games = sa.table(
    "games",
    sa.column("id", sa.Integer),
    sa.column("chat_id", sa.BigInteger),
    sa.column("thread_id", sa.BigInteger),
    sa.column("status", sa.String),
    sa.column("private", sa.Boolean),
    sa.column("announced_hands", sa.Integer),
    sa.column("announced_end", sa.Boolean),
)
_events = sa.table(
    "events",
    sa.column("id", sa.Integer),
    sa.column("game_id", sa.Integer),
    sa.column("kind", sa.String),
    sa.column("data", sa.Text),
)
_outbox = sa.table(
    "outbox",
    sa.column("key", sa.Text),
    sa.column("game_id", sa.Integer),
    sa.column("chat_id", sa.BigInteger),
    sa.column("thread_id", sa.BigInteger),
    sa.column("kind", sa.String),
    sa.column("payload", sa.Text),
    sa.column("state", sa.String),
    sa.column("created_at", UTCDateTime),
)


def upgrade() -> None:
    """Create ``jobs``, ``outbox``, ``flood_keys``, ``flood_marks``; move owed announcements."""
    op.create_table(
        "flood_keys",
        sa.Column("key", AutoString(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )
    op.create_table(
        "flood_marks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", AutoString(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_flood_marks_key"), "flood_marks", ["key"], unique=False)
    op.create_table(
        "jobs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", AutoString(), nullable=False),
        sa.Column("key", AutoString(), nullable=False),
        sa.Column("due_at", sa.Float(), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("generation", sa.Integer(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("claimed_by", AutoString(), nullable=True),
        sa.Column("claimed_until", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("kind", "key"),
    )
    op.create_index(op.f("ix_jobs_due_at"), "jobs", ["due_at"], unique=False)
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.Text(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("thread_id", sa.BigInteger(), nullable=True),
        sa.Column("kind", AutoString(), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("state", AutoString(), nullable=False),
        sa.Column("claimed_by", AutoString(), nullable=True),
        sa.Column("claimed_until", sa.Float(), nullable=True),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("sent_at", UTCDateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("key"),
    )
    op.create_index(op.f("ix_outbox_game_id"), "outbox", ["game_id"], unique=False)
    op.create_index(op.f("ix_outbox_state"), "outbox", ["state"], unique=False)
    _owed_announcements()


def _owed_announcements() -> None:
    from datetime import UTC, datetime

    conn = op.get_bind()
    games = conn.execute(sa.select(_games).where(_games.c.status.in_(("playing", "over")))).all()
    rows = []
    now = datetime.now(UTC)
    for g in games:
        events = conn.execute(
            sa.select(_events.c.kind, _events.c.data)
            .where(_events.c.game_id == g.id, _events.c.kind.in_(("hand_over", "match_over")))
            .order_by(_events.c.id)
        ).all()
        for kind, data in events:
            payload = json.loads(data)
            if kind == "hand_over" and payload["hand"] >= g.announced_hands:
                key = f"{g.id}:hand:{payload['hand']}"
            elif kind == "match_over" and not g.announced_end:
                key = f"{g.id}:end"
            else:
                continue
            rows.append(
                {
                    "key": key,
                    "game_id": g.id,
                    "chat_id": g.chat_id,
                    "thread_id": g.thread_id,
                    "kind": kind,
                    "payload": data,
                    "state": "pending",
                    "created_at": now,
                }
            )
    if rows:
        op.bulk_insert(_outbox, rows)


def downgrade() -> None:
    """Drop the four tables (the older version then owes what ``announced_*`` says)."""
    op.drop_index(op.f("ix_outbox_state"), table_name="outbox")
    op.drop_index(op.f("ix_outbox_game_id"), table_name="outbox")
    op.drop_table("outbox")
    op.drop_index(op.f("ix_jobs_due_at"), table_name="jobs")
    op.drop_table("jobs")
    op.drop_index(op.f("ix_flood_marks_key"), table_name="flood_marks")
    op.drop_table("flood_marks")
    op.drop_table("flood_keys")
