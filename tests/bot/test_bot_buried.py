"""The live table stays within reach: buried under the chat's messages it comes down again,
and /placar brings it down instead of posting a copy that goes stale."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.sandbox.fakeapi import FakeTelegram
from bot.telegram.publish.table import REPOST_AFTER
from tests.bot.harness import (
    TOKEN,
    FakeClock,
    Harness,
    buttons,
    paulista_hand,
    press,
    running,
    seat_match,
)


@pytest.fixture
async def chatty() -> AsyncIterator[FakeTelegram]:
    """A fake Telegram where the bot reads every group message (privacy mode off)."""
    s = FakeTelegram(token=TOKEN, bot_username="TrucoBot", privacy_mode=False)
    await s.start(host="127.0.0.1", port=0)
    yield s
    await s.stop()


def _tables(h: Harness, group: int) -> list[dict]:
    """The bot's messages in the group that are or were a table (🃏 title)."""
    return [m for m in h.bot_messages(group) if m["text"].startswith("🃏")]


def _after(h: Harness, group: int) -> int:
    """How many messages the bot counted after the group's table message."""
    from sqlmodel import select

    from bot.domain.models import Game

    assert h.db is not None
    with h.db.session() as session:
        return int(session.exec(select(Game.table_after).where(Game.chat_id == group)).one())


async def test_chatter_buries_the_table_and_it_comes_down_again(
    chatty: FakeTelegram, tmp_path: Path
) -> None:
    async with running(chatty, tmp_path, clock=FakeClock()) as h:
        s = h.server
        ana, beto = s.add_user("Ana"), s.add_user("Beto")
        group = s.add_group("G", admins=[ana], members=[beto])
        await seat_match(h, group, [ana, beto], paulista_hand())
        first = await h.wait(lambda: h.table_message(group))
        await press(h, ana, "3♣")
        await h.wait(lambda: "Ana 3♣" in s.message(group, first["message_id"])["text"])
        for i in range(REPOST_AFTER - 1):
            await s.user_sends(beto if i % 2 else ana, group, f"kkk {i}")
        await h.wait(lambda: _after(h, group) == REPOST_AFTER - 1)
        assert h.table_message(group)["message_id"] == first["message_id"]  # not yet buried
        await s.user_sends(beto, group, "vai logo")
        moved = await h.wait(
            lambda: (m := h.table_message(group)) and m["message_id"] != first["message_id"] and m
        )
        # the live table is the newest message, with its buttons and the newest state
        assert moved["message_id"] > max(m["message_id"] for m in s.messages(group)[:-1])
        assert "Ana 3♣" in moved["text"] and "Minha mão" in str(buttons(moved))
        sent = [c for c in s.calls if c.method == "sendMessage" and c.chat_id == group]
        quiet = [str(c.params.get("disable_notification")).lower() == "true" for c in sent]
        assert quiet[-1] and not any(quiet[:-1])  # the table again is no news: no ring
        old = await h.wait(
            lambda: (m := s.message(group, first["message_id"])) and not buttons(m) and m
        )
        assert "continua abaixo" in old["text"]
        # play goes on on the new message: edited in place, no third table
        await press(h, beto, "2♠")
        await h.wait(lambda: "Vazas: 1ª" in s.message(group, moved["message_id"])["text"])
        assert [m["message_id"] for m in _tables(h, group) if buttons(m)] == [moved["message_id"]]


async def test_placar_brings_the_live_table_down(harness: Harness) -> None:
    s = harness.server
    ana, beto = s.add_user("Ana"), s.add_user("Beto")
    group = s.add_group("G", admins=[ana], members=[beto])
    await seat_match(harness, group, [ana, beto], paulista_hand())
    first = await harness.wait(lambda: harness.table_message(group))
    await s.user_sends(beto, group, "/placar")
    moved = await harness.wait(
        lambda: (m := harness.table_message(group)) and m["message_id"] != first["message_id"] and m
    )
    assert "Minha mão" in str(buttons(moved)) and "Mão 1" in moved["text"]
    await harness.wait(lambda: "continua abaixo" in s.message(group, first["message_id"])["text"])
    # the same person asking again at once gets no second repost: /placar cannot flood
    await s.user_sends(beto, group, "/placar")
    await harness.server.wait_for(lambda: True, 1.0)
    await press(harness, ana, "3♣")
    await harness.wait(lambda: "Ana 3♣" in s.message(group, moved["message_id"])["text"])
    assert harness.table_message(group)["message_id"] == moved["message_id"]
    assert len([m for m in _tables(harness, group) if buttons(m)]) == 1
    # no dead copy of the table: every table message is the live one or points to it
    copies = [m for m in _tables(harness, group) if not buttons(m)]
    assert copies and all("continua abaixo" in m["text"] for m in copies)
