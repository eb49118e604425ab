"""What a match costs in Bot API calls when its people play it in the Mini App, over real
HTTP against the fake Telegram: nobody whose page shows the hand gets a private message
(not at the deal, not at the end, not at the Revanche's deal), and an ended match's table
is not edited again when its pages close. The same match played with the buttons keeps
every message it had."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp

from bot.domain import Occupant, Person, TableRequest, tables
from bot.domain.presence import APP_TABLE_GAP
from bot.ops.metrics import Metrics
from bot.ops.webserver import BotServer
from bot.sandbox.fakeapi import FakeTelegram
from bot.telegram.context import runtime_of
from bot.telegram.publish import refresh
from bot.telegram.publish.hands import people_in_app
from bot.tools.pages import Page
from engine.rulesets import TableOptions
from tests.bot.harness import FakeClock, buttons, paulista_hand, running, seat_match
from tests.bot.test_webapp import init_data

GROUP = -100_444
WEBAPP = {"TELEGRAM_WEBAPP_URL": "http://127.0.0.1:1/app/", "TELEGRAM_WEBAPP_NAME": "mesa"}
MESSAGES = ("sendMessage", "editMessageText", "editMessageReplyMarkup", "deleteMessage")
ENDING = (("truco", "t"), ("accept", "a"), ("play 3C", "p3C"), ("play 2S", "p2S"),
          ("play KH", "pKH"), ("play QD", "pQD"))  # fmt: skip
"""At 10 × 0 Ana calls truco, Beto accepts, Ana takes two rounds: 12 × 0 (page action,
button code), Ana first."""


def people(server: FakeTelegram) -> tuple[int, int]:
    ana, beto = server.add_user("Ana"), server.add_user("Beto")
    server.add_group("Truco", admins=[ana], members=[ana, beto], chat_id=GROUP)
    return ana, beto


def calls_to(server: FakeTelegram, chats: set[int], since: int = 0) -> list[Any]:
    """The messages the bot sent, edited or deleted in ``chats`` since call ``since``."""
    return [c for c in server.calls[since:] if c.chat_id in chats and c.method in MESSAGES]


def page(
    http: aiohttp.ClientSession, base: str, server: FakeTelegram, user: int, game: int
) -> Page:
    """The person's page at the table ``game``, its live stream open."""
    opened = Page(http, base, init_data(server, user, game), f"g{game}")
    opened.open()
    return opened


def hand_ends(server: FakeTelegram) -> list[Any]:
    """The group's messages that tell how a hand ended."""
    return [
        c
        for c in calls_to(server, {GROUP})
        if c.method == "sendMessage" and "Placar" in c.params.get("text", "")
    ]


def finals(server: FakeTelegram, table_message: int | None, since: int = 0) -> list[Any]:
    """The edits that drew the group's table message as an ended match."""
    return [
        c
        for c in calls_to(server, {GROUP}, since)
        if c.method == "editMessageText"
        and c.params["message_id"] == table_message
        and "Vitória" in c.params["text"]
    ]


def plays(page: Page) -> list[str]:
    """The cards the page may play now."""
    return [a["action"] for a in (page.state or {}).get("legal", []) if a["act"] == "play"]


async def tap(page: Page, base: str, action: str) -> None:
    """The page taps ``action`` for the version it reads now."""
    async with page.session.get(f"{base}api/state?table={page.table}", headers=page.headers) as r:
        version = (await r.json())["version"]
    status, body = await page.move(base, version, action)
    assert status == 200, body


async def test_a_match_in_the_app_costs_no_private_message_and_its_end_one_table_edit(
    server: FakeTelegram, tmp_path: Any
) -> None:
    ana, beto = people(server)
    async with running(server, tmp_path, FakeClock(), **WEBAPP) as h:
        rt = runtime_of(h.app)
        front = BotServer(h.app, rt.db, Metrics())
        base = await front.start("127.0.0.1", 0) + "/app/"
        try:
            for u in (ana, beto):
                await server.user_sends(u, u, "/start")
                await h.wait(lambda u=u: h.bot_messages(u))
            # a lobby both sit at with their pages open, started at 10 × 0 with known cards
            seats = [Occupant("Ana", user=ana), Occupant("Beto", user=beto)]
            request = TableRequest("paulista", TableOptions(2))
            lobby = tables.open_table(
                rt.db, GROUP, None, Person(ana, "Ana"), request, seats=seats, rules=rt.rules
            )
            gid = lobby.id
            async with aiohttp.ClientSession() as http:
                pages = {u: page(http, base, server, u, gid) for u in (ana, beto)}
                await h.wait(lambda: people_in_app(h.app, gid) == {ana, beto})
                since = len(server.calls)
                refresh(h.app, tables.start(rt.db, gid, rt.rules, match=paulista_hand((10, 0))))
                # the table is in the group before the taps: the end is then an edit of it
                # (a table job that ran only after the end would send it ended, no edit)
                await h.wait(lambda: tables.load(rt.db, gid).table_message_id is not None)
                for k, (action, _code) in enumerate(ENDING):
                    await tap(pages[(ana, beto)[k % 2]], base, action)
                end = await h.wait(lambda: h.over_message(GROUP))
                assert "Fim de jogo" in end["text"]
                old_table = (await asyncio.to_thread(tables.load, rt.db, gid)).table_message_id
                # usually a second after the end; once, in a fresh-clone CI run, more than 30 s
                # (not understood yet): a wait bounded beyond the app's once-a-minute gap
                await h.wait(
                    lambda: any(
                        c.method == "editMessageText" and "Vitória" in c.params["text"]
                        for c in calls_to(server, {GROUP}, since)
                    ),
                    APP_TABLE_GAP + 30,
                )

                # Revanche in the app: Ana asks, both pages follow it there, Beto confirms
                status, body = await pages[ana].post(base, "api/rematch", {})
                assert status == 200
                new = int(body["table"][1:])
                again = {u: page(http, base, server, u, new) for u in (ana, beto)}
                status, _ = await again[beto].post(base, "api/lobby", {"command": "join"})
                assert status == 200
                await h.wait(
                    lambda: all((p.state or {}).get("status") == "playing" for p in again.values())
                )
                # the ended match's pages close
                for p in pages.values():
                    status, _ = await p.post(base, "api/presence", {"hidden": True})
                    assert status == 200
                    await p.close()
                await h.wait(lambda: not people_in_app(h.app, gid))
                heard = len(hand_ends(server))

                # the Revanche's first hand is played out (a card at each turn): the group
                # hears its end, after any redraw the closed pages asked for
                def said() -> bool:
                    return len(hand_ends(server)) > heard

                def to_play() -> Page | None:
                    for p in again.values():
                        if plays(p):
                            return p
                    return None

                while not said():
                    p = await h.wait(lambda: said() or to_play())
                    if isinstance(p, Page):
                        version = int((p.state or {})["version"])
                        status, _ = await p.move(base, version, plays(p)[0])
                        assert status == 200
                        await h.wait(
                            lambda p=p, v=version: said() or int((p.state or {})["version"]) > v
                        )
                for p in again.values():
                    await p.close()

            # nobody got a private message: the pages showed every hand, the end, the Revanche
            assert calls_to(server, {ana, beto}, since) == []
            # the ended table was drawn once as ended, and not again when its pages closed
            assert len(finals(server, old_table, since)) == 1
        finally:
            await front.stop()


async def test_the_same_match_with_buttons_keeps_its_private_messages(
    server: FakeTelegram, tmp_path: Any
) -> None:
    ana, beto = people(server)
    async with running(server, tmp_path, FakeClock(), **WEBAPP) as h:
        gid = await seat_match(h, GROUP, [ana, beto], paulista_hand((10, 0)))
        await h.wait(lambda: h.table_message(GROUP))  # drawn before the end: then edited
        for k, (_action, code) in enumerate(ENDING):
            user = (ana, beto)[k % 2]

            def mine(found: list[Any], code: str = code) -> Any:
                return next((b for b in found if b["callback_data"].endswith(":" + code)), None)

            await h.wait(lambda u=user, c=code: mine(buttons(h.hand(u) or {}), c) is not None)
            answer = await h.press_move(user, mine)
            assert not answer["show_alert"]
        await h.wait(lambda: h.over_message(GROUP))
        rt = runtime_of(h.app)
        old_table = (await asyncio.to_thread(tables.load, rt.db, gid)).table_message_id
        # each person's hand came as a message, and the last one closes with the match's end
        for u in (ana, beto):
            sent = [c for c in calls_to(server, {u}) if c.method == "sendMessage"]
            assert len(sent) >= 2  # the greeting, then the hand
            await h.wait(lambda u=u: "12 × 0" in h.bot_messages(u)[-1].get("text", ""))
            assert not buttons(h.bot_messages(u)[-1])
        # the group's table shows the end (once, in a fresh-clone CI run, more than 30 s
        # after the end, as in the test above: not understood yet)
        await h.wait(lambda: finals(server, old_table), APP_TABLE_GAP + 30)
