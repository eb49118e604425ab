"""The restore drill of the README: back up mid-match, restore into a new database, resume."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from bot.domain.models import Game
from bot.domain.store import Database
from bot.sandbox.fakeapi import FakeTelegram
from tests import ROOT
from tests.bot.harness import TOKEN, Harness, database_url

DEPLOY = ROOT / "deploy"
PG = os.environ.get("TRUCO_TEST_DATABASE_URL")
pytestmark = pytest.mark.skipif(
    not PG or not shutil.which("pg_dump") or not shutil.which("pg_restore"),
    reason="needs TRUCO_TEST_DATABASE_URL (PostgreSQL) and pg_dump/pg_restore",
)


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    s = FakeTelegram(token=TOKEN)
    await s.start()
    yield s
    await s.stop()


def drop_database(url: str) -> None:
    """Drop the database named by ``url`` (connecting to its server's ``postgres``)."""
    parsed = make_url(url)
    admin = Database(parsed.set(database="postgres").render_as_string(False), migrate=False)
    with admin.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{parsed.database}" WITH (FORCE)'))
    admin.close()


def game_state(url: str) -> tuple[str, int, str | None]:
    db = Database(url, migrate=False)
    with db.session() as s:
        game = s.get(Game, 1)
        assert game is not None
        state = (game.status, game.version, game.snapshot)
    db.close()
    return state


async def test_backup_restore_into_a_new_database_and_the_match_resumes(
    fake: FakeTelegram, tmp_path: Path
) -> None:
    source = database_url(tmp_path)
    restored = make_url(source).set(database=f"{make_url(source).database}_drill")
    restored_url = restored.render_as_string(hide_password=False)
    drop_database(restored_url)

    first = Harness(fake, source)
    await first.start()
    try:
        ana = fake.add_user("Ana")
        await fake.user_sends(ana, ana, "/start")
        await fake.user_sends(ana, ana, "/truco")
        accepted = 0
        while accepted < 3:
            shown = await first.wait(lambda: first.hand(ana))
            answer = await first.press_move(ana, lambda moves: moves[0])
            accepted += not answer["show_alert"]
            await first.wait(lambda shown=shown: first.hand(ana) != shown)  # redrawn
    finally:
        await first.stop()
    before = game_state(source)
    assert before[0] == "playing"

    env = {**os.environ, "DATABASE_URL": source}
    backup = subprocess.run(
        [DEPLOY / "backup.sh", tmp_path / "backups"], env=env, capture_output=True, text=True
    )
    assert backup.returncode == 0, backup.stderr
    dump = Path(backup.stdout.strip())
    assert dump.parent == tmp_path / "backups" and dump.stat().st_size > 0

    try:
        restore = subprocess.run(
            [DEPLOY / "restore.sh", dump, restored_url], capture_output=True, text=True
        )
        assert restore.returncode == 0, restore.stderr
        again = subprocess.run(
            [DEPLOY / "restore.sh", dump, restored_url], capture_output=True, text=True
        )
        assert again.returncode == 2 and "already exists" in again.stderr  # never overwritten
        assert game_state(restored_url) == before

        second = Harness(fake, restored_url)
        await second.start()
        try:
            over = await second.play_out([ana], ana)
            assert "12" in over["text"]
        finally:
            await second.stop()
        status, version, _ = game_state(restored_url)
        assert status == "over" and version > before[1]
        assert game_state(source) == before  # the drill never touched the original
    finally:
        drop_database(restored_url)
