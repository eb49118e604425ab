"""The bot's settings from the environment and .env: one-line errors, exit status 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Config, ConfigError


def test_config_errors_are_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.cli import main

    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "TRUCO_"))}
    env.pop("DATABASE_URL", None)
    # the real command, as a user runs it
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "bot"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "truco bot: falta TELEGRAM_BOT_TOKEN (crie o bot com o @BotFather e exporte o token)"
    ]
    monkeypatch.chdir(tmp_path)
    for k in list(os.environ):
        if k.startswith(("TELEGRAM_", "TRUCO_")) or k == "DATABASE_URL":
            monkeypatch.delenv(k)
    cases = [
        ({"TELEGRAM_BOT_TOKEN": "1:A", "TRUCO_ROBOT_DELAY": "soon"}, "TRUCO_ROBOT_DELAY"),
        ({"TELEGRAM_BOT_TOKEN": "1:A", "TRUCO_ROBOT_DELAY": "-1"}, "TRUCO_ROBOT_DELAY"),
        ({"TELEGRAM_BOT_TOKEN": "1:A", "TELEGRAM_API_URL": "ftp://x"}, "TELEGRAM_API_URL"),
        ({"TELEGRAM_BOT_TOKEN": "not a token"}, "não parece um token"),
        ({"TELEGRAM_BOT_TOKEN": "1:A", "DATABASE_URL": "nonsense"}, "DATABASE_URL"),
        ({"TELEGRAM_BOT_TOKEN": "1:A", "TRUCO_SEED": "x"}, "TRUCO_SEED"),
        (
            {"TELEGRAM_BOT_TOKEN": "1:A", "DATABASE_URL": "postgresql://u@127.0.0.1:1/x"},
            "não consegui abrir o banco de dados",
        ),
    ]
    for extra, expected in cases:
        with monkeypatch.context() as m:
            for k, v in extra.items():
                m.setenv(k, v)
            assert main(["bot"]) == 2, extra
        lines = capsys.readouterr().err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("truco bot: ") and expected in lines[0]


def test_dotenv_is_read_and_the_environment_wins(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(
        "# comment\nexport TELEGRAM_BOT_TOKEN='9:FROMFILE'\nTRUCO_ROBOT_DELAY=2.5\n"
        "TELEGRAM_API_URL=http://127.0.0.1:9/\n",
        encoding="utf-8",
    )
    c = Config.from_env({"TRUCO_ROBOT_DELAY": "0"}, env_file=env_file)
    assert (c.token, c.robot_delay, c.api_url) == ("9:FROMFILE", 0.0, "http://127.0.0.1:9")
    assert c.database_url == "sqlite:///./data/truco.db"
    env_file.write_text("oops\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="CHAVE=valor"):
        Config.from_env({}, env_file=env_file)
