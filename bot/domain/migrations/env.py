"""Alembic environment: the bot's SQLModel metadata, URL from DATABASE_URL or the caller."""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import engine_from_config, pool
from sqlmodel import SQLModel

from bot.domain import models  # noqa: F401  (registers the tables)

config = context.config
target_metadata = SQLModel.metadata


def run_offline() -> None:
    """Emit SQL without a database connection."""
    url = os.environ.get("DATABASE_URL") or config.get_main_option("sqlalchemy.url")
    context.configure(url=url, target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    """Migrate through the caller's connection, or one made from the URL."""
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
        return
    section = config.get_section(config.config_ini_section) or {}
    if os.environ.get("DATABASE_URL"):
        section["sqlalchemy.url"] = os.environ["DATABASE_URL"]
    engine = engine_from_config(section, prefix="sqlalchemy.", poolclass=pool.NullPool)
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
