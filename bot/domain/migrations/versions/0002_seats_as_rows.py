"""seats as rows: games.seats (JSON) becomes the seats table, indexed by user

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01 09:40:00
"""

import json

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql.sqltypes import AutoString

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

_games = sa.table("games", sa.column("id", sa.Integer), sa.column("seats", sa.Text))
_seats = sa.table(
    "seats",
    sa.column("game_id", sa.Integer),
    sa.column("seat", sa.Integer),
    sa.column("user_id", sa.BigInteger),
    sa.column("robot", sa.String),
    sa.column("name", sa.String),
)


def upgrade() -> None:
    """Create ``seats``, copy every game's JSON seats into it, drop ``games.seats``."""
    op.create_table(
        "seats",
        sa.Column("game_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("robot", AutoString(), nullable=True),
        sa.Column("name", AutoString(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("game_id", "seat"),
    )
    op.create_index(op.f("ix_seats_user_id"), "seats", ["user_id"], unique=False)
    bind = op.get_bind()
    rows = []
    for game_id, text in bind.execute(sa.select(_games.c.id, _games.c.seats)):
        for seat, who in enumerate(json.loads(text or "[]")):
            if who:
                rows.append(
                    {
                        "game_id": game_id,
                        "seat": seat,
                        "user_id": who.get("user"),
                        "robot": who.get("robot"),
                        "name": who.get("name") or "",
                    }
                )
    if rows:
        op.bulk_insert(_seats, rows)
    with op.batch_alter_table("games") as batch:
        batch.drop_column("seats")


def downgrade() -> None:
    """Put the seats back into ``games.seats`` as JSON."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("seats", sa.Text(), nullable=False, server_default="[]"))
    bind = op.get_bind()
    options = sa.table("games", sa.column("id", sa.Integer), sa.column("options", sa.Text))
    sizes = {
        gid: json.loads(text or "{}").get("players", 2)
        for gid, text in bind.execute(sa.select(options.c.id, options.c.options))
    }
    seats: dict[int, list[object]] = {gid: [None] * n for gid, n in sizes.items()}
    query = sa.select(
        _seats.c.game_id, _seats.c.seat, _seats.c.user_id, _seats.c.robot, _seats.c.name
    )
    for game_id, seat, user, robot, name in bind.execute(query):
        seats[game_id][seat] = {"name": name, "user": user, "robot": robot}
    for game_id, entries in seats.items():
        bind.execute(
            _games.update()
            .where(_games.c.id == game_id)
            .values(seats=json.dumps(entries, ensure_ascii=False))
        )
    op.drop_index(op.f("ix_seats_user_id"), table_name="seats")
    op.drop_table("seats")
