"""Webhook mode, /healthz and /metrics: the real bot behind the fake's round-robin proxy."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.config import Config, ConfigError
from bot.domain.store import Database
from bot.ops.metrics import Metrics
from bot.ops.webserver import BotServer
from bot.process import Runner
from bot.sandbox.fakeapi import FakeTelegram
from bot.telegram.app import build_application
from tests.bot.harness import TOKEN, database_url

URL = "https://truco.example/telegram/hook"
SECRET = "segredo-de-teste_123"


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    """A running fake Bot API server whose failed webhook deliveries are retried at once."""
    s = FakeTelegram(token=TOKEN)
    s.updates.retry_delay = 0.01
    await s.start()
    yield s
    await s.stop()


def webhook_config(api_url: str, db_url: str, **env: str) -> Config:
    """A webhook bot on an ephemeral port."""
    values = {
        "TELEGRAM_BOT_TOKEN": TOKEN,
        "TELEGRAM_API_URL": api_url,
        "DATABASE_URL": db_url,
        "TELEGRAM_WEBHOOK_URL": URL,
        "TELEGRAM_WEBHOOK_SECRET": SECRET,
        "TRUCO_LISTEN": "127.0.0.1:0",
        "TRUCO_ROBOT_DELAY": "0",
        "TRUCO_ROBOT_BUDGET_MS": "20",
        **env,
    }
    return Config.from_env(values, env_file=None)


@contextlib.asynccontextmanager
async def webhook_bots(
    server: FakeTelegram, db_url: str, count: int = 1
) -> AsyncIterator[list[Runner]]:
    """``count`` webhook replicas on one database, the fake's proxy sending to each in turn."""
    runners: list[Runner] = []
    dbs: list[Database] = []
    try:
        for _ in range(count):
            config = webhook_config(server.api_url, db_url)
            db = Database(db_url)
            dbs.append(db)
            runner = Runner(build_application(config, db), config)
            await runner.start()
            runners.append(runner)
        server.route_webhook([r.address for r in runners])
        yield runners
    finally:
        for runner in runners:
            await runner.stop()
        for db in dbs:
            db.close()


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(url) as resp:
        return resp.status, await resp.text()


async def test_the_bot_registers_its_webhook_and_answers_through_it(
    server: FakeTelegram, tmp_path: Path
) -> None:
    async with webhook_bots(server, database_url(tmp_path)) as (bot,):
        hook = server.updates.webhook
        assert hook is not None and hook.url == URL and hook.secret_token == SECRET
        ana = server.add_user("Ana")
        await server.user_sends(ana, ana, "/start")
        await server.wait_for(lambda: any(m["from"]["is_bot"] for m in server.messages(ana)))
        assert all(d.status == 200 for d in server.deliveries)
        assert {d.address for d in server.deliveries} == {bot.address}
        assert server.updates.pending == []


async def test_a_request_without_the_secret_gets_403_and_changes_nothing(
    server: FakeTelegram, tmp_path: Path
) -> None:
    async with webhook_bots(server, database_url(tmp_path)) as (bot,):
        ana = server.add_user("Ana", started=True)
        forged = {
            "update_id": 77,
            "message": {
                "message_id": 1,
                "date": 0,
                "chat": {"id": ana, "type": "private", "first_name": "Ana"},
                "from": {"id": ana, "is_bot": False, "first_name": "Ana"},
                "text": "/truco",
                "entities": [{"type": "bot_command", "offset": 0, "length": 6}],
            },
        }
        before = len(server.calls)
        assert await server.forge_webhook_request(forged) == 403
        assert await server.forge_webhook_request(forged, secret=None) == 403
        assert await server.forge_webhook_request(forged, secret=SECRET.upper()) == 403
        _, metrics = await get(bot.address + "/metrics")
        assert "truco_webhook_rejected_total 3.0" in metrics
        assert 'truco_updates_total{kind="message"}' not in metrics
        assert len(server.calls) == before
        assert server.messages(ana) == []
        # the genuine secret goes through
        assert await server.forge_webhook_request(forged, secret=SECRET) == 200
        await server.wait_for(lambda: server.messages(ana))


async def test_health_and_metrics(server: FakeTelegram, tmp_path: Path) -> None:
    async with webhook_bots(server, database_url(tmp_path)) as (bot,):
        assert await get(bot.address + "/healthz") == (200, "ok\n")
        ana = server.add_user("Ana")
        await server.user_sends(ana, ana, "/start")
        await server.user_sends(ana, ana, "/truco")
        hand = await server.wait_for(
            lambda: [m for m in server.messages(ana) if "'g" in str(m.get("reply_markup"))]
        )
        data = next(
            b["callback_data"]
            for row in hand[-1]["reply_markup"]["inline_keyboard"]
            for b in row
            if b.get("callback_data", "").startswith("g")
        )
        await server.user_presses(ana, ana, hand[-1]["message_id"], data)
        status, text = await get(bot.address + "/metrics")
        assert status == 200
        assert 'truco_updates_total{kind="message"} 2.0' in text
        assert 'truco_updates_total{kind="callback_query"} 1.0' in text
        assert "truco_answer_seconds_count 1.0" in text
        assert 'truco_jobs_due_total{kind="hands"}' in text
        assert 'truco_job_lateness_seconds_count{kind="table"}' in text
        for name in ("truco_throttled_total", "truco_actions", "truco_robot_decision_seconds"):
            assert name in text
        # the database's round trips so far: the move's at least (read, write, commit)
        counted = dict(
            line.rsplit(" ", 1) for line in text.splitlines() if line.startswith("truco_db_")
        )
        assert float(counted["truco_db_transactions_total"]) >= 1
        assert float(counted["truco_db_statements_total"]) >= 2


async def test_health_is_503_when_the_database_does_not_answer() -> None:
    db = Database("postgresql://postgres@127.0.0.1:1/nowhere", migrate=False)
    front = BotServer(None, db, Metrics())  # type: ignore[arg-type]
    address = await front.start("127.0.0.1", 0)
    try:
        status, _ = await get(address + "/healthz")
        assert status == 503
        assert (await get(address + "/metrics"))[0] == 200
    finally:
        await front.stop()
        db.close()


@pytest.mark.parametrize(
    ("env", "error"),
    [
        ({"TELEGRAM_WEBHOOK_URL": "http://truco.example/x"}, "https://"),
        ({"TELEGRAM_WEBHOOK_URL": URL, "TELEGRAM_WEBHOOK_SECRET": ""}, "TELEGRAM_WEBHOOK_SECRET"),
        ({"TELEGRAM_WEBHOOK_URL": URL, "TELEGRAM_WEBHOOK_SECRET": "a b"}, "letras"),
        ({"TRUCO_LISTEN": "8443"}, "host:porta"),
        ({"TRUCO_LISTEN": "127.0.0.1:99999"}, "host:porta"),
    ],
)
def test_webhook_settings_are_checked(env: dict[str, str], error: str) -> None:
    values: dict[str, Any] = {"TELEGRAM_BOT_TOKEN": TOKEN, **env}
    with pytest.raises(ConfigError, match=error):
        Config.from_env(values, env_file=None)


def test_webhook_defaults() -> None:
    c = Config.from_env(
        {
            "TELEGRAM_BOT_TOKEN": TOKEN,
            "TELEGRAM_WEBHOOK_URL": URL,
            "TELEGRAM_WEBHOOK_SECRET": "x" * 16,
        },
        env_file=None,
    )
    assert c.listen == ("127.0.0.1", 8443)
    assert Config.from_env({"TELEGRAM_BOT_TOKEN": TOKEN}, env_file=None).listen is None
    assert Config.from_env(
        {"TELEGRAM_BOT_TOKEN": TOKEN, "TRUCO_LISTEN": "[::1]:9000"}, env_file=None
    ).listen == ("::1", 9000)
