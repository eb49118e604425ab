"""The Mini App's API over real HTTP: who sees what, moves, refusals, the live stream."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp

from bot.ops.metrics import Metrics
from bot.ops.webserver import BotServer
from bot.telegram.context import runtime_of
from bot.webapp.initdata import sign, user_json
from bot.webapp.views import HEARTBEAT
from tests.bot.harness import FakeClock, next_event, paulista_hand, running, seat_match

GROUP = -100_777
WEBAPP = {"TELEGRAM_WEBAPP_URL": "http://127.0.0.1:1/app/", "TELEGRAM_WEBAPP_NAME": "mesa"}
ANA_CARDS = ("3C", "KH", "5D")
BETO_CARDS = ("2S", "QD", "7C")


def setup_people(server: Any) -> tuple[int, int, int]:
    ana = server.add_user("Ana")
    beto = server.add_user("Beto")
    caio = server.add_user("Caio")
    server.add_group("Truco", admins=[ana], members=[ana, beto, caio], chat_id=GROUP)
    return ana, beto, caio


def init_data(server: Any, user_id: int, game_id: int, clock: float | None = None) -> str:
    url = server.web_app_launch(user_id, "http://x/app/", f"g{game_id}", auth_date=clock)
    from urllib.parse import parse_qs

    return parse_qs(url.split("#", 1)[1])["tgWebAppData"][0]


def cards_in(text: str) -> set[str]:
    return {c for c in ANA_CARDS + BETO_CARDS if f'"{c}"' in text}


async def test_each_person_sees_their_own_cards_and_moves_go_live(server, tmp_path) -> None:
    ana, beto, caio = setup_people(server)
    async with running(server, tmp_path, FakeClock(), **WEBAPP) as h:
        front = BotServer(h.app, runtime_of(h.app).db, Metrics())
        base = await front.start("127.0.0.1", 0) + "/app/"
        try:
            gid = await seat_match(h, GROUP, [ana, beto], paulista_hand())
            async with aiohttp.ClientSession() as http:

                async def get(user: int | None, raw: str | None = None) -> tuple[int, str]:
                    data = raw if raw is not None else init_data(server, user or 0, gid)
                    async with http.get(
                        base + f"api/state?table=g{gid}", headers={"Authorization": f"tma {data}"}
                    ) as r:
                        return r.status, await r.text()

                status, text = await get(ana)
                assert status == 200
                state = json.loads(text)
                assert [c["code"] for c in state["hand"]] == list(ANA_CARDS)
                assert cards_in(text) == set(ANA_CARDS)
                status, text = await get(beto)
                assert cards_in(text) == set(BETO_CARDS)
                status, text = await get(caio)  # not seated: the public table only
                assert status == 200 and cards_in(text) == set()
                assert json.loads(text)["seat"] is None and json.loads(text)["legal"] == []

                # forged, tampered, expired
                good = init_data(server, ana, gid)
                forged_fields = {"user": user_json({"id": ana, "first_name": "Ana"}),
                                 "auth_date": "1800000000"}  # fmt: skip
                assert (await get(None, sign(forged_fields, "999:OTHER")))[0] == 401
                assert (await get(None, good.replace("Ana", "Bia")))[0] == 401
                old = init_data(server, ana, gid, clock=runtime_of(h.app).rules.clock() - 7200)
                assert (await get(None, old))[0] == 401
                assert (await get(None, ""))[0] == 401

                # Beto's live stream hears Ana's move (he opens the app once his hand
                # message is there: someone whose app is open at the deal gets none)
                await h.wait(lambda: any("Sua mão" in m["text"] for m in h.bot_messages(beto)))
                headers = {"Authorization": f"tma {init_data(server, beto, gid)}"}
                async with http.get(base + f"api/events?table=g{gid}", headers=headers) as stream:
                    first = await asyncio.wait_for(next_event(stream), 10)
                    assert first["table"] == []
                    move = {"table": f"g{gid}", "version": state["version"], "action": "play 3C"}
                    ana_headers = {"Authorization": f"tma {good}"}
                    async with http.post(base + "api/move", json=move, headers=ana_headers) as r:
                        assert r.status == 200
                    seen = await asyncio.wait_for(next_event(stream), 10)
                    assert seen["table"][0]["card"]["code"] == "3C"
                    assert cards_in(json.dumps(seen)) == set(BETO_CARDS) | {"3C"}
                    # his turn while the app is open: the private message points to the app,
                    # with no move button that could go stale
                    last = lambda: (h.bot_messages(beto) or [{}])[-1]  # noqa: E731
                    await h.wait(lambda: "no app" in last().get("text", ""))
                    assert h.hand(beto) is None
                # the page closed: at a heartbeat of its stream the bot sees it gone, and his hand
                # comes back whole, with its buttons, as a new message
                hand = await h.beat_until(lambda: h.hand(beto), HEARTBEAT)
                assert "Sua mão" in hand["text"]

                # a tap made for a version that has passed changes nothing
                stale = {**move, "action": "play KH"}
                async with http.post(base + "api/move", json=stale, headers=ana_headers) as r:
                    assert r.status == 409
                    assert (await r.json())["error"] == "Essa jogada já passou."
                # a stranger cannot act, Beto cannot act for Ana
                status, text = await get(beto)
                version = json.loads(text)["version"]
                caio_headers = {"Authorization": f"tma {init_data(server, caio, gid)}"}
                play = {"table": f"g{gid}", "version": version, "action": "play 2S"}
                async with http.post(base + "api/move", json=play, headers=caio_headers) as r:
                    assert r.status == 409
                async with http.post(
                    base + "api/move", json=play, headers={"Authorization": "tma x"}
                ) as r:
                    assert r.status == 401
                # requests no button of the page makes: the group's words for a forged button
                for route, body in (
                    ("api/move", {**play, "action": "fly"}),
                    ("api/lobby", {"table": f"g{gid}", "command": "cancel"}),
                    ("api/lobby", {"table": "x", "command": "join"}),
                ):
                    async with http.post(base + route, json=body, headers=ana_headers) as r:
                        assert r.status == 400
                        assert (await r.json())["error"] == "Botão inválido."
                assert json.loads((await get(beto))[1])["version"] == version
        finally:
            await front.stop()


async def test_a_stopping_server_ends_open_streams_at_once(server, tmp_path) -> None:
    # a replica that stops lets its pages go (they reconnect, to another replica if any)
    # instead of holding them, and its own stop, for the server's grace period
    ana, beto, _caio = setup_people(server)
    async with running(server, tmp_path, FakeClock(), **WEBAPP) as h:
        front = BotServer(h.app, runtime_of(h.app).db, Metrics())
        base = await front.start("127.0.0.1", 0) + "/app/"
        stopped = False
        try:
            gid = await seat_match(h, GROUP, [ana, beto], paulista_hand())
            headers = {"Authorization": f"tma {init_data(server, beto, gid)}"}
            async with (
                aiohttp.ClientSession() as http,
                http.get(base + f"api/events?table=g{gid}", headers=headers) as stream,
            ):
                assert (await stream.content.readline()).startswith(b"event: state")
                live = h.app.bot_data["miniapp"].live
                assert live.waiting  # the page is watched
                stop = asyncio.create_task(front.stop())
                # the stream ends (the old server would hold it until cancelled, 10 s later,
                # or keep it open forever with its heartbeat)
                rest = await asyncio.wait_for(stream.content.read(), 60)
                assert b"event: state" not in rest
                assert live.closing and not live.waiting
                await stop
                stopped = True
        finally:
            if not stopped:
                await front.stop()
