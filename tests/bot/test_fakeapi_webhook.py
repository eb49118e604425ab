"""The fake Bot API's webhooks: setWebhook, delivery by POST through a round-robin proxy."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import web
from telegram import Bot
from telegram.error import BadRequest, Conflict

from bot.sandbox.fakeapi import SECRET_HEADER, FakeTelegram
from tests.bot.harness import TOKEN

URL = "https://truco.example/telegram/hook"


class Receiver:
    """A replica's webhook endpoint: records what it got, answers ``status``."""

    def __init__(self, status: int = 200) -> None:
        self.status = status
        self.got: list[tuple[str, str | None, dict[str, Any]]] = []
        self.answered = 0
        self.hold: asyncio.Event | None = None
        """When set: answers only once this event is set (a replica still working)."""
        self.runner: web.AppRunner | None = None
        self.address = ""

    async def handle(self, request: web.Request) -> web.Response:
        self.got.append((request.path, request.headers.get(SECRET_HEADER), await request.json()))
        if self.hold is not None:
            await self.hold.wait()
        self.answered += 1
        return web.Response(status=self.status)

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/{tail:.*}", self.handle)
        self.runner = web.AppRunner(app, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.address = f"http://127.0.0.1:{self.runner.addresses[0][1]}"

    async def stop(self) -> None:
        assert self.runner is not None
        await self.runner.cleanup()


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    s = FakeTelegram(token=TOKEN)
    s.updates.retry_delay = 0.01
    await s.start()
    yield s
    await s.stop()


@pytest.fixture
async def replicas() -> AsyncIterator[list[Receiver]]:
    rs = [Receiver(), Receiver()]
    for r in rs:
        await r.start()
    yield rs
    for r in rs:
        await r.stop()


async def test_updates_go_round_robin_with_the_secret_and_the_urls_path(
    server: FakeTelegram, bot: Bot, replicas: list[Receiver]
) -> None:
    server.route_webhook([r.address for r in replicas])
    assert await bot.set_webhook(URL, secret_token="s3cret", allowed_updates=["message"])
    ana = server.add_user("Ana")
    for i in range(4):
        await server.user_sends(ana, ana, f"/start {i}")
    await server.wait_for(lambda: sum(len(r.got) for r in replicas) == 4)
    assert [len(r.got) for r in replicas] == [2, 2]
    for r in replicas:
        for path, secret, update in r.got:
            assert path == "/telegram/hook"
            assert secret == "s3cret"
            assert update["message"]["text"].startswith("/start")
    info = await bot.get_webhook_info()
    assert info.url == URL
    assert info.pending_update_count == 0
    assert info.allowed_updates == ("message",)


async def test_a_failed_delivery_is_retried_on_another_address(
    server: FakeTelegram, bot: Bot, replicas: list[Receiver]
) -> None:
    replicas[0].status = 500
    server.route_webhook([r.address for r in replicas])
    await bot.set_webhook(URL, secret_token="s3cret")
    ana = server.add_user("Ana")
    await server.user_sends(ana, ana, "oi")
    # a replica records the update before it answers, the fake the delivery once the answer
    # is back: under load the 500 was still the newest delivery when the update had arrived
    await server.wait_for(lambda: any(d.status == 200 for d in server.deliveries))
    statuses = [(d.address, d.status) for d in server.deliveries]
    assert statuses[-1] == (replicas[1].address, 200)
    assert (replicas[0].address, 500) in statuses or len(statuses) == 1
    assert len(replicas[1].got) == 1
    # an address that is down entirely: the update waits and arrives when one answers
    replicas[1].status = 500
    await server.user_sends(ana, ana, "de novo")
    await server.wait_for(lambda: len(server.deliveries) >= len(statuses) + 3)
    info = await bot.get_webhook_info()
    assert info.pending_update_count == 1
    assert info.last_error_message == "Wrong response from the webhook: 500"
    replicas[0].status = 200
    await server.wait_for(
        lambda: any(u["message"]["text"] == "de novo" for _, _, u in replicas[0].got)
    )
    await server.wait_for(lambda: server.updates.pending == [])


async def test_an_update_in_flight_is_not_posted_again_when_the_webhook_is_set_again(
    server: FakeTelegram, bot: Bot, replicas: list[Receiver]
) -> None:
    """A replica that starts sets the same webhook again while another is still answering an
    update: that update goes out once (twice, both replicas applied one press at once)."""
    replicas[0].hold = asyncio.Event()
    server.route_webhook([r.address for r in replicas])
    await bot.set_webhook(URL, secret_token="s3cret")
    ana = server.add_user("Ana")
    await server.user_sends(ana, ana, "oi")
    await server.wait_for(lambda: len(replicas[0].got) == 1)
    await bot.set_webhook(URL, secret_token="s3cret")
    await server.user_sends(ana, ana, "de novo")
    replicas[0].hold.set()
    texts = lambda: [u["message"]["text"] for r in replicas for _, _, u in r.got]  # noqa: E731
    await server.wait_for(
        lambda: (
            "de novo" in texts()
            and server.updates.pending == []
            and all(r.answered == len(r.got) for r in replicas)
        )
    )
    assert sorted(texts()) == ["de novo", "oi"]


async def test_a_dead_address_is_skipped(server: FakeTelegram, bot: Bot) -> None:
    alive = Receiver()
    await alive.start()
    try:
        server.route_webhook(["http://127.0.0.1:9", alive.address])  # port 9: nobody there
        await bot.set_webhook(URL)
        ana = server.add_user("Ana")
        for text in ("um", "dois", "três"):
            await server.user_sends(ana, ana, text)
        await server.wait_for(lambda: len(alive.got) == 3)
        assert {d.status for d in server.deliveries} == {0, 200}
    finally:
        await alive.stop()


async def test_get_updates_conflicts_with_a_webhook_until_it_is_deleted(
    server: FakeTelegram, bot: Bot
) -> None:
    await bot.set_webhook(URL)
    with pytest.raises(Conflict, match="webhook is active"):
        await bot.get_updates(timeout=0)
    ana = server.add_user("Ana")
    await server.user_sends(ana, ana, "oi")  # no route, no such host: stays pending
    assert await bot.delete_webhook()
    assert (await bot.get_webhook_info()).url == ""
    updates = await bot.get_updates(timeout=0)
    assert [u.message.text for u in updates if u.message] == ["oi"]


async def test_a_waiting_long_poll_ends_when_a_webhook_is_set(
    server: FakeTelegram, bot: Bot
) -> None:
    other = Bot(TOKEN, base_url=server.api_url + "/bot")
    async with other:
        poll = asyncio.create_task(other.get_updates(timeout=5, read_timeout=10))
        await asyncio.sleep(0.1)
        await bot.set_webhook(URL)
        with pytest.raises(Conflict):
            await asyncio.wait_for(poll, 3)


@pytest.mark.parametrize(
    ("url", "secret", "error"),
    [
        ("http://truco.example/hook", None, "HTTPS URL must be provided"),
        ("https://truco.example:8080/hook", None, "ports 80, 88, 443 or 8443"),
        (URL, "not allowed!", "unallowed characters"),
    ],
)
async def test_bad_webhooks_are_refused(bot: Bot, url: str, secret: str | None, error: str) -> None:
    with pytest.raises(BadRequest, match="(?i)" + error):
        await bot.set_webhook(url, secret_token=secret)


async def test_a_forged_request_carries_the_wrong_secret(
    server: FakeTelegram, bot: Bot, replicas: list[Receiver]
) -> None:
    server.route_webhook([replicas[0].address])
    await bot.set_webhook(URL, secret_token="s3cret")
    status = await server.forge_webhook_request({"update_id": 999, "message": {}})
    assert status == 200  # this receiver checks nothing; the bot's answers 403
    assert replicas[0].got[-1][1] == "wrong-secret"
    assert server.updates.next_update_id == 1  # nothing was queued
