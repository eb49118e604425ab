"""A job's runner: the process that recorded it runs it, the others leave it be

Revision ID: 0012_job_runner
Revises: 0011_news_first
Create Date: 2026-12-07 17:00:00

Every job with a due time woke every replica at that time, and all but one found it taken
(about two turns of the job loop a hand, each a transaction). The process whose change
recorded a job wakes for it itself; the others take it only once it is overdue, the
process that recorded it being gone (``bot.domain.jobs``). NULL: anyone, as before.
"""

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql.sqltypes import AutoString

revision = "0012_job_runner"
down_revision = "0011_news_first"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """The column, empty: the jobs waiting now are anyone's."""
    with op.batch_alter_table("jobs") as batch:
        batch.add_column(sa.Column("runner", AutoString(), nullable=True))


def downgrade() -> None:
    """Without it."""
    with op.batch_alter_table("jobs") as batch:
        batch.drop_column("runner")
