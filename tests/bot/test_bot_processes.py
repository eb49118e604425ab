"""Several bot processes on one database: one migration, one long poller."""

from __future__ import annotations

import logging
import multiprocessing
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from bot.domain.store import AlreadyPolling, Database, polling_lock
from tests.bot.harness import TOKEN, database_url

PG = os.environ.get("TRUCO_TEST_DATABASE_URL")


def _migrate(url: str, barrier: Any, results: Any) -> None:
    """One process starting up: wait for the others, then open (and migrate) the database."""
    ran: list[str] = []

    class Count(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.getMessage().startswith("Running upgrade"):
                ran.append(record.getMessage())

    logging.getLogger("alembic").addHandler(Count())
    logging.getLogger("alembic").setLevel(logging.INFO)
    barrier.wait()
    try:
        Database(url).close()
    except Exception as exc:
        results.put(("error", repr(exc)))
        return
    results.put(("ok", len(ran)))


@pytest.mark.long
@pytest.mark.skipif(not PG, reason="needs TRUCO_TEST_DATABASE_URL (PostgreSQL)")
def test_replicas_starting_together_on_an_empty_database_migrate_once(tmp_path: Path) -> None:
    url = database_url(tmp_path)  # emptied: no tables at all
    ctx = multiprocessing.get_context("spawn")
    barrier, results = ctx.Barrier(3), ctx.Queue()
    procs = [ctx.Process(target=_migrate, args=(url, barrier, results)) for _ in range(3)]
    for p in procs:
        p.start()
    outcomes = [results.get(timeout=60) for _ in procs]
    for p in procs:
        p.join(10)
    assert [kind for kind, _ in outcomes] == ["ok"] * 3, outcomes
    from alembic.script import ScriptDirectory

    from bot.domain.store import alembic_config

    revisions = list(ScriptDirectory.from_config(alembic_config()).walk_revisions())
    assert sum(n for _, n in outcomes) == len(revisions)  # each migration ran in one process
    db = Database(url, migrate=False)
    with db.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM alembic_version")).scalar() == 1
    db.close()


def _truco_bot(url: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "TELEGRAM_BOT_TOKEN": TOKEN,
        "TELEGRAM_API_URL": "http://127.0.0.1:9",  # never reached: it stops before
        "DATABASE_URL": url,
    }
    env.pop("TELEGRAM_WEBHOOK_URL", None)
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "bot"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_long_polling_refuses_to_run_twice(tmp_path: Path, backend: str) -> None:
    if backend == "postgresql":
        if not PG:
            pytest.skip("needs TRUCO_TEST_DATABASE_URL (PostgreSQL)")
        url = database_url(tmp_path)
    else:
        url = f"sqlite:///{tmp_path}/truco.db"
    db = Database(url)
    try:
        with polling_lock(db):
            with pytest.raises(AlreadyPolling), polling_lock(Database(url, migrate=False)):
                pass
            second = _truco_bot(url)
        assert second.returncode == 2
        last = second.stderr.strip().splitlines()[-1]
        assert last.startswith("truco bot: outro processo") and "webhook" in last, second.stderr
        assert "Traceback" not in second.stderr
        with polling_lock(db):  # released: the next poller may start
            pass
    finally:
        db.close()
