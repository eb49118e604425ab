"""The Mini App across replicas on one PostgreSQL: a page's live stream hears moves made on
another replica (LISTEN/NOTIFY), and when its replica is killed it reconnects to another
and catches up, with no move lost or applied twice."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.domain import Occupant, Person, Rules, TableRequest, people, tables
from bot.domain.store import Database
from bot.sandbox.fakeapi import FakeTelegram
from bot.sandbox.runner import free_port
from engine.rulesets import TableOptions
from tests.bot.harness import TOKEN, database_url, next_event, paulista_hand
from tests.bot.test_bot_replicas import Replica

PG = os.environ.get("TRUCO_TEST_DATABASE_URL")
pytestmark = pytest.mark.skipif(not PG, reason="needs TRUCO_TEST_DATABASE_URL (PostgreSQL)")
GROUP = -100_999
JSON = dict[str, Any]


class Page:
    """One page's live stream on one replica, read event by event."""

    def __init__(self, http: aiohttp.ClientSession, base: str, init: str, game: int) -> None:
        self.http, self.base, self.init, self.game = http, base, init, game
        self.response: aiohttp.ClientResponse | None = None

    async def open(self) -> JSON:
        headers = {"Authorization": f"tma {self.init}"}
        url = f"{self.base}/app/api/events?table=g{self.game}"
        self.response = await self.http.get(url, headers=headers)
        assert self.response.status == 200
        return await self.next()

    async def next(self) -> JSON:
        assert self.response is not None
        state: JSON = await next_event(self.response, line_timeout=30)
        return state


class AppReplica(Replica):
    """A webhook replica that also serves the Mini App on its port."""

    def settings(self) -> dict[str, str]:
        """A webhook replica's settings and the Mini App's address on its port."""
        return {
            **super().settings(),
            "TELEGRAM_WEBAPP_URL": f"http://127.0.0.1:{self.port}/app/",
            "TELEGRAM_WEBAPP_NAME": "mesa",
        }


async def ready(http: aiohttp.ClientSession, base: str) -> None:
    # a replica's start imports the whole bot: on a loaded 2-core machine (two suites and
    # more at once) it took over 30 s; this only bounds a start that never comes
    loop = asyncio.get_running_loop()
    end = loop.time() + 120
    while loop.time() < end:
        try:
            async with http.get(base + "/healthz") as r:
                if r.status == 200:
                    return
        except aiohttp.ClientError:
            pass
        await asyncio.sleep(0.05)
    raise AssertionError(f"{base} never came up")


@pytest.mark.long
async def test_a_killed_replicas_pages_reconnect_elsewhere_and_catch_up(tmp_path: Path) -> None:
    server = FakeTelegram(token=TOKEN, bot_username="TrucoBot")
    await server.start(host="127.0.0.1", port=0)
    ana, beto = server.add_user("Ana", started=True), server.add_user("Beto", started=True)
    server.add_group("Truco", admins=[ana], members=[ana, beto], chat_id=GROUP)
    url = database_url(tmp_path)
    db = Database(url)
    # the replicas run on the wall clock and start slowly beside another suite (over a minute
    # was seen): no deadline may pass before the test's own moves
    rules = Rules(decision_seconds=600)
    for uid, name in ((ana, "Ana"), (beto, "Beto")):
        people.meet(db, Person(uid, name), started=True)
    match = paulista_hand()
    request = TableRequest("paulista", TableOptions(players=2))
    seats = [Occupant("Ana", user=ana), Occupant("Beto", user=beto)]
    table = tables.open_table(
        db, GROUP, None, Person(ana, "Ana"), request, seats=seats, rules=rules
    )
    tables.start(db, table.id, rules, match=match)
    replicas = []
    for i in range(2):
        port = free_port()
        replicas.append(AppReplica(server.api_url, url, port, tmp_path / f"replica{i}.log"))
    try:
        for r in replicas:
            r.start()
        a, b = replicas
        async with aiohttp.ClientSession() as http:
            for r in replicas:
                await ready(http, r.address)

            def launch(user: int) -> str:
                from urllib.parse import parse_qs

                link = server.web_app_launch(user, "http://x/app/", f"g{table.id}")
                return parse_qs(link.split("#", 1)[1])["tgWebAppData"][0]

            ana_init, beto_init = launch(ana), launch(beto)
            beto_page = Page(http, a.address, beto_init, table.id)
            first = await beto_page.open()
            assert first["table"] == []

            async def move(replica: Replica, version: int, action: str) -> int:
                body = {"table": f"g{table.id}", "version": version, "action": action}
                headers = {"Authorization": f"tma {ana_init}"}
                async with http.post(
                    replica.address + "/app/api/move", json=body, headers=headers
                ) as r:
                    return r.status

            # a move made on B reaches Beto's page on A (PostgreSQL NOTIFY)
            assert await move(b, first["version"], "play 3C") == 200
            seen = await beto_page.next()
            assert seen["table"][0]["card"]["code"] == "3C"

            # Beto answers on A; then A dies with his page connected
            beto_move = {"table": f"g{table.id}", "version": seen["version"], "action": "play 2S"}
            async with http.post(
                a.address + "/app/api/move", json=beto_move,
                headers={"Authorization": f"tma {beto_init}"},
            ) as r:  # fmt: skip
                assert r.status == 200
            after = await beto_page.next()
            a.kill()
            with pytest.raises((ConnectionResetError, aiohttp.ClientError)):
                while True:
                    await beto_page.next()
            # meanwhile Ana plays on B, and her page taps twice for the same version
            statuses = [await move(b, after["version"], "play KH") for _ in range(2)]
            assert statuses == [200, 409]
            # the page reconnects to B and catches up at once
            beto_page.base = b.address
            caught = await beto_page.open()
            assert caught["version"] == after["version"] + 1
            assert [p["card"]["code"] for p in caught["table"]] == ["KH"]
            assert [c["code"] for c in caught["hand"]] == ["QD", "7C"]
        g = tables.load(db, table.id)
        assert g is not None
        assert [str(a) for _s, a in g.shown.log][-3:] == ["play 3C", "play 2S", "play KH"]
    finally:
        for r in replicas:
            r.stop()
        db.close()
        await server.stop()
