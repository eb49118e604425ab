"""Database access: engine creation, Alembic upgrade at start-up, sessions."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config as AlembicConfig
from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError, OperationalError
from sqlmodel import Session, create_engine

HERE = Path(__file__).resolve().parent


class DatabaseError(RuntimeError):
    """The database cannot be opened or migrated (one line, for the user)."""


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL lets a restarted bot read while a dying one still holds the file
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def make_engine(url: str) -> Engine:
    """A SQLAlchemy engine for ``url`` (SQLite gets its folder created and WAL mode)."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise DatabaseError(f"DATABASE_URL inválida: {url!r}") from None
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    if parsed.drivername == "postgresql":
        url = parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    try:
        return create_engine(url, pool_pre_ping=True)
    except ImportError as exc:
        raise DatabaseError(f"driver do banco não instalado: {exc.name}") from None


def alembic_config() -> AlembicConfig:
    """The Alembic configuration of the bot's migrations."""
    cfg = AlembicConfig(str(HERE / "alembic.ini"))
    cfg.set_main_option("script_location", str(HERE / "migrations"))
    return cfg


def upgrade(engine: Engine) -> None:
    """Bring the schema to the newest migration (run at every start-up)."""
    cfg = alembic_config()
    try:
        with engine.begin() as connection:
            cfg.attributes["connection"] = connection
            command.upgrade(cfg, "head")
    except OperationalError as exc:
        reason = str(exc.orig).strip().splitlines()[0] if exc.orig else str(exc)
        raise DatabaseError(f"não consegui abrir o banco de dados: {reason}") from None


class Database:
    """The bot's database: one engine, short sessions."""

    def __init__(self, url: str, *, migrate: bool = True) -> None:
        """Open ``url`` and, unless ``migrate`` is False, upgrade its schema."""
        self.url = url
        self.engine = make_engine(url)
        if migrate:
            upgrade(self.engine)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session that rolls back unless the caller commits."""
        with Session(self.engine, expire_on_commit=False) as s:
            yield s

    def close(self) -> None:
        """Release every connection."""
        self.engine.dispose()
