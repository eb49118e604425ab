"""The rules' special moments played from the Mini App's API: a covered card, the mão de
onze with the partner's cards, the iron hand's blind slots, sinais, and a timeout that the
page sees as it happens. Each page holds what its seat may see and nothing more."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import aiohttp

from bot.ops.metrics import Metrics
from bot.ops.webserver import BotServer
from bot.sandbox.fakeapi import FakeTelegram
from bot.telegram.context import runtime_of
from tests.bot.harness import (
    FakeClock,
    Harness,
    next_event,
    paulista_hand,
    running,
    seat_match,
)

GROUP = -100_555
WEBAPP = {"TELEGRAM_WEBAPP_URL": "http://127.0.0.1:1/app/", "TELEGRAM_WEBAPP_NAME": "mesa"}
HANDS = {0: ("3C", "KH", "5D"), 1: ("2S", "QD", "7C"), 2: ("AH", "JS", "4D"), 3: ("6S", "7H", "QC")}
JSON = dict[str, Any]


class App:
    """One person's Mini App talking to the bot over HTTP."""

    def __init__(self, http: aiohttp.ClientSession, base: str, init: str, game: int) -> None:
        self.http, self.base, self.game = http, base, game
        self.headers = {"Authorization": f"tma {init}"}
        self.raw: list[str] = []

    async def state(self) -> JSON:
        async with self.http.get(
            self.base + f"api/state?table=g{self.game}", headers=self.headers
        ) as r:
            assert r.status == 200
            text = await r.text()
            self.raw.append(text)
            return json.loads(text)  # type: ignore[no-any-return]

    async def move(self, action: str, version: int | None = None) -> tuple[int, JSON]:
        if version is None:
            version = (await self.state())["version"]
        body = {"table": f"g{self.game}", "version": version, "action": action}
        async with self.http.post(self.base + "api/move", json=body, headers=self.headers) as r:
            return r.status, await r.json()

    def never_saw(self, codes: tuple[str, ...]) -> None:
        """None of ``codes`` in any response but as the vira or a manilha (public ranks)."""
        for text in self.raw:
            shown = {k: v for k, v in json.loads(text).items() if k not in ("vira", "manilhas")}
            seen = json.dumps(shown)
            for code in codes:
                assert f'"{code}"' not in seen, code


@asynccontextmanager
async def table(
    server: FakeTelegram, tmp_path: Path, players: int, score: tuple[int, int], **kw: Any
) -> AsyncIterator[tuple[Harness, list[App]]]:
    names = ["Ana", "Beto", "Caio", "Duda"][:players]
    users = [server.add_user(n) for n in names]
    server.add_group("Truco", admins=users[:1], members=users, chat_id=GROUP)
    kw.setdefault("clock", FakeClock())
    async with running(server, tmp_path, **WEBAPP, **kw) as h:
        front = BotServer(h.app, runtime_of(h.app).db, Metrics())
        base = await front.start("127.0.0.1", 0) + "/app/"
        try:
            gid = await seat_match(h, GROUP, users, paulista_hand(score, players))
            async with aiohttp.ClientSession() as http:
                apps = []
                for u in users:
                    now = runtime_of(h.app).rules.clock()  # the launch is signed "now"
                    link = server.web_app_launch(u, "http://x/app/", f"g{gid}", auth_date=now)
                    init = parse_qs(link.split("#", 1)[1])["tgWebAppData"][0]
                    apps.append(App(http, base, init, gid))
                yield h, apps
        finally:
            await front.stop()


async def test_a_covered_card_stays_hidden_from_the_other_page(server, tmp_path) -> None:
    async with table(server, tmp_path, 2, (0, 0)) as (_h, (ana, beto)):
        assert (await ana.move("play 3C"))[0] == 200
        assert (await beto.move("play 2S"))[0] == 200  # Ana's three takes the round
        mine = await ana.state()
        assert "cover KH" in [a["action"] for a in mine["legal"]]
        assert (await ana.move("cover KH"))[0] == 200
        mine, theirs = await ana.state(), await beto.state()
        assert mine["table"] == [{"seat": 0, "card": mine["table"][0]["card"], "covered": True}]
        assert mine["table"][0]["card"]["code"] == "KH"
        assert theirs["table"] == [{"seat": 0, "card": None, "covered": True}]
        beto.never_saw(("KH", "5D"))
        ana.never_saw(("QD", "7C"))


async def test_the_mao_de_onze_shows_the_partners_cards_to_the_deciding_team_only(
    server, tmp_path
) -> None:
    async with table(server, tmp_path, 4, (11, 5)) as (_h, (ana, beto, caio, duda)):
        a, b = await ana.state(), await beto.state()
        assert [c["code"] for c in a["partner_hand"]] == list(HANDS[2])
        assert sorted(x["act"] for x in a["legal"]) == ["play11", "run11"]
        assert b["partner_hand"] is None and b["legal"] == []
        await caio.state()
        await duda.state()
        beto.never_saw(HANDS[0] + HANDS[2] + HANDS[3])
        duda.never_saw(HANDS[0] + HANDS[1] + HANDS[2])
        status, _ = await ana.move("play11")
        assert status == 200


async def test_the_iron_hand_is_played_blind_from_the_app(server, tmp_path) -> None:
    async with table(server, tmp_path, 2, (11, 11)) as (_h, (ana, beto)):
        a = await ana.state()
        assert a["kind"] == "iron" and a["hand"] == [] and a["blind_slots"] == [0, 1, 2]
        ana.never_saw(HANDS[0] + HANDS[1])
        assert (await ana.move("blind 1"))[0] == 200
        b = await beto.state()
        assert b["table"][0]["card"]["code"] == HANDS[0][1]  # shown once it is played


async def test_a_sinal_reaches_the_partners_page(server, tmp_path) -> None:
    async with table(server, tmp_path, 4, (0, 0)) as (_h, (ana, _beto, caio, _duda)):
        a = await ana.state()
        assert a["signals"]
        sent = a["signals"][0]["action"]
        status, _ = await ana.move(sent)
        assert status == 200
        seen = (await caio.state())["seen_signals"]
        assert [s["values"]["seat"] for s in seen] == [0]
        # a sinal passes no turn: Ana still plays
        assert [x for x in (await ana.state())["legal"] if x["act"] == "play"]


async def test_a_timeout_reaches_the_open_page(server, tmp_path) -> None:
    clock = FakeClock()
    async with table(server, tmp_path, 2, (0, 0), clock=clock) as (h, (_ana, beto)):
        headers = beto.headers
        url = beto.base + f"api/events?table=g{beto.game}"
        async with beto.http.get(url, headers=headers) as stream:
            assert stream.status == 200
            first = await asyncio.wait_for(next_event(stream), 10)
            assert first["deadline_in"] is not None and first["deadline_in"] > 0
            h.advance(first["deadline_in"] + 1)  # Ana lets her time run out
            after = await asyncio.wait_for(next_event(stream), 30)
            assert after["version"] > first["version"]
            assert after["table"][0]["seat"] == 0 and after["table"][0]["card"] is not None


async def test_while_everyone_plays_in_the_app_the_chats_are_left_alone(server, tmp_path) -> None:
    """The hand messages that point to the app stay from hand to hand (no call), the
    group's table waits a minute between drawings, and the group still hears the hand's end."""
    from bot.domain import jobs, messages, presence
    from bot.domain.presence import APP_TABLE_GAP

    clock = FakeClock()
    async with table(server, tmp_path, 2, (0, 0), clock=clock) as (h, (ana, beto)):
        rt = runtime_of(h.app)
        people = [u for u, x in server.users.items() if x["first_name"] in ("Ana", "Beto")]
        # their hands came as messages first (whoever opens the app at the deal gets none)
        await h.wait(lambda: len(messages.hands_drawing(rt.db, ana.game).messages) == 2)
        for u in people:  # both have the table open in the app (as their live streams say)
            presence.present(rt.db, ana.game, u, clock())
        for app, card in ((ana, "3C"), (beto, "2S"), (ana, "KH")):
            assert (await app.move(f"play {card}"))[0] == 200
        note = "A partida está no app da mesa"
        drawn = await h.wait(lambda: [m for m in h.bot_messages(GROUP) if note in m["text"]])

        def pointer(u: int) -> Any:
            last = h.bot_messages(u)[-1]
            return last if "no app" in last["text"] else None

        pointers = {u: await h.wait(lambda u=u: pointer(u)) for u in people}
        assert all("no app" in m["text"] for m in pointers.values())
        assert (await beto.move("play QD"))[0] == 200  # Ana takes the hand: the next one is dealt
        heard = "Mão 1: 1 ponto para Ana"
        await h.wait(lambda: any(heard in m["text"] for m in h.bot_messages(GROUP)))
        for app in (ana, beto):  # the first card of the next hand
            state = await app.state()
            plays = [a["action"] for a in state["legal"] if a["act"] == "play"]
            if plays:
                assert (await app.move(plays[0], state["version"]))[0] == 200
                break
        state = await ana.state()
        assert state["score"] == [1, 0] and state["past"] == []  # a new hand in play
        # the table's redraw waits for the minute to pass, on every replica alike
        key = jobs.table_key(GROUP, None)
        later = clock() + APP_TABLE_GAP / 2
        await h.wait(
            lambda: any(k == key and due > later for _kind, k, due in jobs.waiting(rt.db, "table"))
        )
        assert [m for m in h.bot_messages(GROUP) if note in m["text"]] == drawn
        # the hand messages still point to the app: neither sent anew nor edited
        for u in people:
            assert h.bot_messages(u)[-1] == pointers[u]
        calls = [c for c in server.calls if c.chat_id in people and c.time > 0]
        # one call each turned their hand message into the pointer (an edit of the hand
        # they had; nobody whose app shows the deal gets one at all)
        pointing = ("sendMessage", "editMessageText")
        assert sum(c.method in pointing and "no app" in c.params["text"] for c in calls) == 2
