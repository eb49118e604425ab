"""Database access: engine creation, Alembic upgrade at start-up, sessions, process locks.

Part of the domain layer: only ``bot.domain`` opens sessions on a ``Database``.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config as AlembicConfig
from sqlalchemy import event, inspect, text, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError, InvalidatePoolError, OperationalError, SQLAlchemyError
from sqlmodel import Session, SQLModel, col, create_engine

from bot.domain import models  # noqa: F401  (registers the tables in SQLModel.metadata)

HERE = Path(__file__).resolve().parent
# PostgreSQL advisory lock keys (any 64-bit numbers unique to this application)
MIGRATION_LOCK = 0x7472_7563_6F_01  # "truco" 1
POLLING_LOCK = 0x7472_7563_6F_02
POOL_SIZE = 12
"""PostgreSQL connections each process keeps open: the updates' threads (8) and the jobs'
running at once. SQLAlchemy's default of 5 made every busier moment open connections and
close them again (a new server process each time: ~5 a second per replica in bot-bench)."""
IDLE_PING = 5.0
"""Seconds a pooled connection may sit unused before it is pinged again before use."""


class DatabaseError(RuntimeError):
    """The database cannot be opened or migrated (one line, for the user)."""


class Unavailable(Exception):
    """The database failed a request (a lost connection, a lock that timed out...).

    Raised by every session of the domain in place of the driver's own errors, so the
    layers above know the domain's failure, not SQLAlchemy's: whatever asked may try
    again later; nothing was stored.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _reason(exc: SQLAlchemyError) -> str:
    """The first line of what the database said."""
    return str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL lets a restarted bot read while a dying one still holds the file
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def private_sqlite(path: Path) -> None:
    """Make the SQLite file (every live hand is in it) readable by its owner only.

    A folder made here is 0700; the database file is created (or narrowed) to 0600
    before SQLite opens it, and SQLite gives its ``-wal`` and ``-shm`` files the main
    file's mode; those already there from an older run are narrowed too. A folder that
    already existed keeps its mode: it may be shared on purpose.
    """
    if not path.parent.exists():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not path.exists():
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    for file in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        try:
            if file.stat().st_mode & 0o077:
                file.chmod(0o600)
        except FileNotFoundError:
            continue


def make_engine(url: str) -> Engine:
    """A SQLAlchemy engine for ``url`` (SQLite gets its folder created and WAL mode)."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        # not echoed: whatever it is, it may hold a password
        raise DatabaseError("DATABASE_URL inválida (dialeto://usuário@host/banco)") from None
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            private_sqlite(Path(parsed.database).expanduser())
        engine = create_engine(url, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    if parsed.drivername == "postgresql":
        url = parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    try:
        engine = create_engine(url, pool_size=POOL_SIZE, max_overflow=20)
    except ImportError as exc:
        raise DatabaseError(f"driver do banco não instalado: {exc.name}") from None
    _ping_when_idle(engine)
    return engine


def _ping_when_idle(engine: Engine) -> None:
    """Ping a pooled connection before use only when it sat idle ``IDLE_PING`` seconds.

    ``pool_pre_ping`` pinged at every checkout: a round trip (and the driver's work) per
    session, ~160 a hand in bot-bench, for connections used milliseconds before. A dead
    connection is still found before use when it may have died quietly (a server's idle
    timeout, a network drop); when the server restarts, the first statement on a
    connection used just before fails (that one call gets the error, as a transaction in
    flight would) and SQLAlchemy drops the whole pool.
    """

    def checkin(_dbapi: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    def checkout(dbapi: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get("idle_since")
        if since is None or time.monotonic() - since < IDLE_PING:
            return
        try:
            engine.dialect.do_ping(dbapi)
        except Exception as exc:  # gone: every connection as old is dropped, a new one made
            raise InvalidatePoolError() from exc

    event.listen(engine, "checkin", checkin)
    event.listen(engine, "checkout", checkout)


def raise_to(s: Session, column: Any, row_id: int, value: int) -> None:
    """``column`` of the row ``row_id`` (its model's ``id``) set to ``value`` unless it holds
    more already: a count that only grows, whichever process writes last (not committed)."""
    model = column.class_
    s.execute(
        update(model)
        .where(col(model.id) == row_id, col(column) < value)
        .values({column.key: value})
    )


def insert_of(s: Session, model: type[SQLModel]) -> Any:
    """An ``INSERT`` into ``model``'s table in the session's dialect, for ``on_conflict_do_*``.

    Rows several processes may create at once (a person, a chat, a job, a budget's key)
    are inserted this way, never looked up then added: two replicas handling the same
    person's first updates would both add the row, and one would fail.
    """
    dialect = postgresql if s.get_bind().dialect.name == "postgresql" else sqlite
    return dialect.insert(model.__table__)  # type: ignore[attr-defined]


def alembic_config() -> AlembicConfig:
    """The Alembic configuration of the bot's migrations."""
    cfg = AlembicConfig(str(HERE / "alembic.ini"))
    cfg.set_main_option("script_location", str(HERE / "migrations"))
    return cfg


def upgrade(engine: Engine) -> None:
    """Bring the schema to the newest migration (run at every start-up).

    On PostgreSQL the whole upgrade is one transaction holding an advisory lock: replicas
    starting together wait for the first one, then find the schema at head and do nothing;
    a failed migration rolls back entirely (PostgreSQL's DDL is transactional).
    """
    cfg = alembic_config()
    try:
        with engine.begin() as connection:
            if engine.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATION_LOCK})
            cfg.attributes["connection"] = connection
            command.upgrade(cfg, "head")
    except OperationalError as exc:
        reason = str(exc.orig).strip().splitlines()[0] if exc.orig else str(exc)
        raise DatabaseError(f"não consegui abrir o banco de dados: {reason}") from None


CLOSE_WAIT = 5.0
"""Seconds ``Database.close`` waits for the connections still in use."""


class Database:
    """The bot's database: one engine, short sessions.

    ``transactions`` and ``statements`` count the round trips made so far (``/metrics``,
    ``truco bot-bench``: what a hand costs the database). Threads may lose an increment
    now and then (no lock on the hot path); they are figures, not accounts.
    """

    def __init__(self, url: str, *, migrate: bool = True) -> None:
        """Open ``url`` and, unless ``migrate`` is False, upgrade its schema."""
        self.url = url
        self.engine = make_engine(url)
        self.transactions = 0
        self.statements = 0
        event.listen(self.engine, "begin", self._began)
        event.listen(self.engine, "before_cursor_execute", self._executed)
        if migrate:
            upgrade(self.engine)

    def _began(self, _conn: Any) -> None:
        self.transactions += 1

    def _executed(self, *_args: Any) -> None:
        self.statements += 1

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session that rolls back unless the caller commits.

        A failure of the database leaves it as :class:`Unavailable`.
        """
        try:
            with Session(self.engine, expire_on_commit=False) as s:
                yield s
        except SQLAlchemyError as exc:
            raise Unavailable(_reason(exc)) from exc

    def holds_games(self) -> bool:
        """Whether the database already has tables (games) of the bot in it."""
        if "games" not in inspect(self.engine).get_table_names():
            return False
        with self.engine.connect() as conn:
            return bool(conn.execute(text("SELECT count(*) FROM games")).scalar())

    def drop_tables(self) -> None:
        """Drop every table of the bot, and Alembic's record (benchmarks and tests)."""
        SQLModel.metadata.drop_all(self.engine)
        with self.engine.begin() as conn:
            conn.execute(text("DROP TABLE IF EXISTS alembic_version"))

    def ping(self) -> None:
        """A round trip to the database (``/healthz``); raises when it is unreachable."""
        with self.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    def close(self) -> None:
        """Release every connection, once those still in use (by a thread finishing its
        transaction as the process stops) are given back, or after ``CLOSE_WAIT``
        seconds: a connection given back after the pool is disposed goes back to the old
        pool, never closed, and stays open at the server for the life of the process."""
        pool = self.engine.pool
        deadline = time.monotonic() + CLOSE_WAIT
        while getattr(pool, "checkedout", lambda: 0)() and time.monotonic() < deadline:
            time.sleep(0.01)
        self.engine.dispose()


class AlreadyPolling(DatabaseError):
    """Another process already long-polls for this database."""


@contextmanager
def polling_lock(db: Database) -> Iterator[None]:
    """Hold, while long polling, the one lock per database that says "I am the poller".

    Telegram hands each update to one ``getUpdates`` caller and ends the other's poll with
    409, so two pollers take turns at random and handle updates twice. PostgreSQL: a
    session advisory lock on a connection kept open (released if the process dies).
    SQLite: an exclusive ``flock`` on a file beside the database.
    """
    if db.engine.dialect.name == "postgresql":
        with db.engine.connect() as conn:
            got = conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": POLLING_LOCK})
            if not got.scalar():
                raise AlreadyPolling(_ALREADY_POLLING)
            conn.commit()
            try:
                yield
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": POLLING_LOCK})
                conn.commit()
        return
    database = make_url(db.url).database
    if not database or database == ":memory:":
        yield
        return
    path = Path(database).expanduser().with_suffix(".polling.lock")
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise AlreadyPolling(_ALREADY_POLLING) from None
        yield
    finally:
        os.close(fd)


_ALREADY_POLLING = (
    "outro processo já recebe as mensagens deste bot por long polling com este banco; "
    "para rodar várias réplicas use webhook (TELEGRAM_WEBHOOK_URL)"
)
