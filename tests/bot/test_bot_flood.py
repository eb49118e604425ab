"""A group's flood budget: calls spaced and capped, a 429 and a lost table message, admin checks that never wait behind it."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from bot.domain import flood
from bot.domain.store import Database
from bot.sandbox.fakeapi import FakeTelegram
from bot.telegram.publish.table import publish_game
from tests.bot.harness import (
    FakeClock,
    button,
    database_url,
    running,
)


def test_group_budget_spaces_and_caps_calls(tmp_path: Path) -> None:
    db = Database(database_url(tmp_path))
    group, bot = flood.group_budget(-1, 20), flood.bot_budget(30)
    assert flood.wait(db, [group], 0.0) == 0.0
    for i in range(20):
        assert flood.take(db, [group, bot], float(i)) == 0.0
    # the window is a minute and a second (a margin for the requests' travel)
    assert flood.take(db, [group], 19.5) == pytest.approx(41.5)  # the first call leaves at t=61
    assert flood.wait(db, [group], 19.5) == pytest.approx(41.5)  # a refused call is not counted
    assert flood.wait(db, [group], 19.2, needed=1) == pytest.approx(41.8)
    assert flood.take(db, [group], 61.0) == 0.0
    assert flood.take(db, [group], 61.5) == pytest.approx(0.5)  # 20 in the window again
    assert flood.take(db, [group], 62.0) == 0.0  # the call of t=1 left: room, no gap needed
    assert flood.wait(db, [group], 62.2) == pytest.approx(0.8)  # redraws look a second apart
    # the bot's own budget: 30 a second, whatever the chats
    others = [flood.group_budget(-100 - i, 20) for i in range(31)]
    assert all(flood.take(db, [bot, g], 100.0) == 0.0 for g in others[:30])
    assert flood.take(db, [bot, others[30]], 100.0) == pytest.approx(1.0)
    db.close()


async def test_flood_budget_429_and_lost_table_message(
    server: FakeTelegram, tmp_path: Path
) -> None:
    # on the wall clock: the fake Telegram stamps calls on arrival, and this test holds the
    # bot to the group's real minute (a held clock, jumping between the bot's count and
    # the call's arrival, once let 21 calls into one minute)
    async with running(server, tmp_path) as h:
        ana = server.add_user("Ana")
        group = server.add_group("G", admins=[ana])
        await server.user_sends(ana, ana, "/start")
        await h.wait(lambda: h.bot_messages(ana))
        await server.user_sends(ana, group, "/truco paulista 1x1 6")
        lobby = await h.wait(lambda: h.table(group))
        server.fail_next("editMessageText", 429, retry_after=1, chat_id=group)
        await server.user_presses(
            ana, group, lobby["message_id"], button(lobby, "Começar")["callback_data"]
        )
        table = await h.wait(
            lambda: h.table(group) if "Minha mão" in str(h.table(group)) else None, 15
        )
        assert any(e.code == 429 for _, e in server.errors)
        # someone deletes the table message: the bot posts a new one
        server._delete(server.chats[group], table["message_id"])
        over = await h.play_out([ana], group, timeout=120, seed=5)
        assert re.search(r"\d+ × \d+", over["text"])
        # (the table's last edit comes after the end's announcement)
        await h.wait(lambda: [m for m in h.bot_messages(group) if "Vitória" in m["text"]], 60)
        # the same state again: "message is not modified" is taken in stride
        game_id = int(button(over, "Revanche")["callback_data"][1:])
        await publish_game(h.app, game_id)
        edits = [c.time for c in server.calls_to(group, ("editMessageText",))]
        # a second apart when counted; the fake stamps them on arrival, and on a loaded
        # machine one request may travel a few hundred milliseconds longer than the next
        assert all(b - a >= 0.7 for a, b in itertools.pairwise(edits)), edits
        assert server.peak_calls_per_minute(group) <= 20


async def test_admin_check_does_not_wait_behind_the_groups_flood_budget(
    server: FakeTelegram, tmp_path: Path
) -> None:
    # two calls a minute to a group: the lobby and its redraw with a robot use them up
    async with running(server, tmp_path, clock=FakeClock(), TRUCO_GROUP_BUDGET=2) as h:
        ana, bia = server.add_user("Ana"), server.add_user("Bia")
        group = server.add_group("G", admins=[ana, bia], members=[bia])
        await server.user_sends(ana, ana, "/start")
        await server.user_sends(ana, group, "/truco")
        lobby = await h.wait(lambda: h.table(group))
        robot = button(lobby, "+ Robô fácil")["callback_data"]
        await server.user_presses(ana, group, lobby["message_id"], robot)
        await h.wait(lambda: "🤖" in server.message(group, lobby["message_id"])["text"])
        # Bia is an admin, not the creator: checking that (getChatMember) must not queue
        # behind the group's next message, or her button would expire
        answer = await server.user_presses(
            bia, group, lobby["message_id"], button(lobby, "Cancelar")["callback_data"], timeout=3
        )
        assert not answer["show_alert"], answer
        assert server.calls_to(group, ("getChatMember",))
