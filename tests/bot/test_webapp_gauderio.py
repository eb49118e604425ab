"""Truco gaudério in the Mini App (R13), over real HTTP against the fake Telegram on the held
clock: the envido buttons are the engine's legal actions, drawn in the Spanish deck, and a
whole 2×2 match of two people (their pages) and two robots is played to its end, with
envido, truco and flor."""

from __future__ import annotations

from pathlib import Path

import aiohttp

from bot.domain.messages import events_of
from bot.ops.metrics import Metrics
from bot.ops.webserver import BotServer
from bot.sandbox.fakeapi import FakeTelegram
from bot.telegram.context import runtime_of
from bot.tools.pages import JSON, Page
from tests.bot.harness import FakeClock, newest, running
from tests.bot.test_bot_gauderio import seat_gauderio
from tests.bot.test_webapp import init_data

GROUP = -100_555
WEBAPP = {"TELEGRAM_WEBAPP_URL": "http://127.0.0.1:1/app/", "TELEGRAM_WEBAPP_NAME": "mesa"}
CALLS = ("envido", "real_envido", "falta_envido")


def acts(page: Page) -> dict[str, JSON]:
    """The page's buttons now, by their kind (``play``, ``envido``, ``quero``...)."""
    found: dict[str, JSON] = {}
    for a in (page.state or {}).get("legal", []):
        found.setdefault(a["act"], a)
    return found


async def test_a_whole_gauderio_match_in_the_mini_app(server: FakeTelegram, tmp_path: Path) -> None:
    async with running(server, tmp_path, clock=FakeClock(), **WEBAPP) as h:
        ana, beto = server.add_user("Ana"), server.add_user("Beto")
        server.add_group("Galpão", admins=[ana], members=[ana, beto], chat_id=GROUP)
        rt = runtime_of(h.app)
        front = BotServer(h.app, rt.db, Metrics())
        base = await front.start("127.0.0.1", 0) + "/app/"
        assert h.clock is not None
        try:
            gid = await seat_gauderio(h, GROUP, ana, beto)
            async with aiohttp.ClientSession() as http:
                pages = {}
                for u in (ana, beto):
                    pages[u] = Page(http, base, init_data(server, u, gid, h.clock.now), f"g{gid}")
                    pages[u].open()
                mine = pages[ana]
                # Ana, the mão, before her first card: the three calls beside her cards
                await h.wait(lambda: "envido" in acts(mine))
                offered = acts(mine)
                assert set(CALLS) <= set(offered) and "truco" in offered
                assert offered["envido"]["label"] == "Envido!"
                assert offered["falta_envido"]["label"] == "Falta envido!"
                assert (mine.state or {})["deck"] == "espanhol"  # the table's look (R13.1)
                # the signs are R13.5's: its top cards by their names and the points game's
                signs = [s["label"] for s in (mine.state or {})["signals"]]
                assert signs[0] == "😉 espadão" and "😘 tenho flor" in signs and len(signs) == 9
                assert not set(CALLS) & set(acts(pages[beto]))
                status, body = await mine.move(base, mine.state["version"], "envido")
                assert status == 200, body
                await h.wait(lambda: newest(h, GROUP, "📣 Ana: ENVIDO!"))
                # the robots answer; a raise comes back as Quero / Não quero on her page
                await h.wait(lambda: events_of(rt.db, gid, "robot"))
                await h.wait(lambda: "quero" in acts(mine) or "play" in acts(mine))
                if "quero" in acts(mine):
                    assert "nao_quero" in acts(mine)
                    # her widget says what waits; a falta at 0 × 0 would end the match at
                    # once, before any truco: that one she declines
                    rows = mine.state["points"]["rows"]
                    waiting = [r["values"] for r in rows if r["kind"] == "envido_pending"]
                    assert waiting and waiting[0]["quero"] > waiting[0]["nao_quero"]
                    falta = waiting[0]["calls"][-1] == "falta-envido"
                    answer = "nao_quero" if falta else "quero"
                    status, _ = await mine.move(base, mine.state["version"], answer)
                    assert status == 200
                # her truco from the page, shouted to the group like the envido
                await h.wait(lambda: "truco" in acts(mine))
                assert not set(CALLS) & set(acts(mine))  # the envido is settled
                status, _ = await mine.move(base, mine.state["version"], "truco")
                assert status == 200
                await h.wait(lambda: newest(h, GROUP, "📣 Ana: TRUCO!"))

                # then every page plays its first card (or accepts) until the match ends
                def to_act() -> Page | None:
                    for p in pages.values():
                        if (p.state or {}).get("status") == "playing" and acts(p):
                            return p
                    return None

                def over() -> bool:
                    return all((p.state or {}).get("status") == "over" for p in pages.values())

                while not over():
                    p = await h.wait(lambda: over() or to_act(), 60)
                    if p is True:
                        break
                    assert isinstance(p, Page)
                    found = acts(p)
                    pick = next(
                        (found[k] for k in ("play", "accept", "quero") if k in found),
                        next(iter(found.values())),
                    )
                    version = int((p.state or {})["version"])
                    status, _ = await p.move(base, version, pick["action"])
                    assert status in (200, 409), status  # 409: the other page moved first
                    await h.wait(lambda p=p, v=version: over() or int(p.state["version"]) > v)
                final = mine.state or {}
                assert final["match_winner"] in (0, 1) and max(final["score"]) == 12
                assert "Fim de jogo" in final["result"]["text"]
                closings = events_of(rt.db, gid, "hand_over")
                assert closings[0].data["envido"] is not None  # Ana's envido was settled
                assert any(e.data["flor"] for e in closings)  # the second hand's flor
                for p in pages.values():
                    await p.close()
        finally:
            await front.stop()
