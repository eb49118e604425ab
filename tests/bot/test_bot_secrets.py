"""Secrets on disk and in messages: the database, the backups and .env are the bot's user's alone."""

from __future__ import annotations

import logging
import os
import stat
import subprocess
from pathlib import Path

import pytest

from bot.config import WEBHOOK_SECRET_MIN, Config, ConfigError
from bot.domain.store import Database, DatabaseError, make_engine
from tests import ROOT
from tests.bot.harness import TOKEN

DEPLOY = ROOT / "deploy"


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_sqlite_database_is_private_under_an_open_umask(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        url = f"sqlite:///{tmp_path}/data/truco.db"
        db = Database(url)
        with db.session() as s:  # a write: the -wal and -shm files exist now
            s.connection().exec_driver_sql("CREATE TABLE probe (x INTEGER)")
            s.commit()
        data = tmp_path / "data"
        files = [data / "truco.db", data / "truco.db-wal", data / "truco.db-shm"]
        assert all(f.exists() for f in files)
        assert mode(data) == 0o700
        assert {f.name: mode(f) for f in files} == {f.name: 0o600 for f in files}
        db.close()
        # a database left readable by an older run is narrowed at the next start
        for f in files:
            if f.exists():
                f.chmod(0o644)
        make_engine(url).dispose()
        assert {f.name: mode(f) for f in files if f.exists()} == {
            f.name: 0o600 for f in files if f.exists()
        }
    finally:
        os.umask(old)


def test_an_odd_database_url_is_never_echoed_with_its_password() -> None:
    for url in ("truco:s3nh4-secreta@db.example/truco", "postgresql:/truco:s3nh4-secreta@x/y"):
        with pytest.raises(ConfigError) as refused:
            Config.from_env({"TELEGRAM_BOT_TOKEN": TOKEN, "DATABASE_URL": url}, env_file=None)
        assert "s3nh4" not in str(refused.value) and "DATABASE_URL" in str(refused.value)
    with pytest.raises(DatabaseError) as broken:
        make_engine("://truco:s3nh4-secreta@db.example/truco")
    assert "s3nh4" not in str(broken.value) and "DATABASE_URL" in str(broken.value)


def test_the_webhook_secret_must_be_long() -> None:
    env = {"TELEGRAM_BOT_TOKEN": TOKEN, "TELEGRAM_WEBHOOK_URL": "https://truco.example/hook"}
    with pytest.raises(ConfigError, match=f"pelo menos {WEBHOOK_SECRET_MIN}"):
        Config.from_env({**env, "TELEGRAM_WEBHOOK_SECRET": "x"}, env_file=None)
    with pytest.raises(ConfigError, match=f"pelo menos {WEBHOOK_SECRET_MIN}"):
        Config.from_env({**env, "TELEGRAM_WEBHOOK_SECRET": "a" * 15}, env_file=None)
    ok = Config.from_env({**env, "TELEGRAM_WEBHOOK_SECRET": "a" * 16}, env_file=None)
    assert ok.webhook_secret == "a" * 16


def test_a_readable_env_file_is_warned_about_in_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    env = tmp_path / ".env"
    env.write_text(f"TELEGRAM_BOT_TOKEN={TOKEN}\n")
    caplog.set_level(logging.WARNING, logger="bot.config")
    env.chmod(0o644)
    assert Config.from_env({}, env_file=env).token == TOKEN
    warned = [r.getMessage() for r in caplog.records if r.name == "bot.config"]
    assert len(warned) == 1 and "chmod 600" in warned[0] and "\n" not in warned[0]
    assert TOKEN not in warned[0]
    caplog.clear()
    env.chmod(0o600)
    Config.from_env({}, env_file=env)
    assert [r for r in caplog.records if r.name == "bot.config"] == []


def test_the_service_unit_makes_private_files() -> None:
    unit = (DEPLOY / "truco-bot@.service").read_text()
    assert "\nUMask=0077\n" in unit


FAKE_PG_DUMP = """#!/usr/bin/env bash
# records how it was called, writes a dump like pg_dump would
printf '%s\\n' "$@" > "$RECORD.argv"
printf '%s' "${PGPASSWORD:-}" > "$RECORD.password"
for a in "$@"; do case "$a" in --file=*) echo dump > "${a#--file=}";; esac; done
"""


def test_backups_are_private_and_the_password_stays_off_the_command_line(
    tmp_path: Path,
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "pg_dump"
    fake.write_text(FAKE_PG_DUMP)
    fake.chmod(0o755)
    record = tmp_path / "called"
    env = {
        **os.environ,
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "RECORD": str(record),
        "DATABASE_URL": "postgresql+psycopg://truco:p%40ss:w0rd@db.example:5432/truco",
    }
    env.pop("PGPASSWORD", None)
    backups = tmp_path / "backups"
    # the shell of a careless admin: umask 022
    done = subprocess.run(
        ["bash", "-c", f'umask 022; "{DEPLOY / "backup.sh"}" "{backups}"'],
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    dump = Path(done.stdout.strip())
    assert dump.exists() and dump.parent == backups
    assert mode(backups) == 0o700 and mode(dump) == 0o600
    argv = Path(f"{record}.argv").read_text()
    assert "p%40ss" not in argv and "w0rd" not in argv
    assert "--dbname=postgresql://truco@db.example:5432/truco" in argv
    assert Path(f"{record}.password").read_text() == "p@ss:w0rd"
