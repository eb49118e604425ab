"""A quiet private chat: what a group's match leaves in each player's private chat once it
is over or cancelled, whether the hand was played on Telegram or in the Mini App."""

from __future__ import annotations

from typing import Any

from bot.domain import messages, presence, tables
from bot.sandbox.fakeapi import FakeTelegram
from bot.telegram.context import runtime_of
from bot.telegram.publish import refresh
from tests.bot.harness import Harness
from tests.bot.test_webapp_rules import table

ENDING = ("truco", "accept", "play 3C", "play 2S", "play KH", "play QD")
"""At 10 × 0 Ana calls truco, Beto accepts, Ana takes two rounds: 12 × 0 (Ana first)."""


def of_the_match(h: Harness, user: int) -> list[Any]:
    """The bot's messages in a person's private chat but the greeting of their /start."""
    return [m for m in h.bot_messages(user) if not m["text"].startswith("Olá")]


async def test_a_match_played_in_the_app_leaves_one_closing_line(
    server: FakeTelegram, tmp_path: Any
) -> None:
    async with table(server, tmp_path, 2, (10, 0)) as (h, (ana, beto)):
        rt = runtime_of(h.app)
        users = [u for u, x in server.users.items() if x["first_name"] in ("Ana", "Beto")]
        # their hands came as messages first; then both open the table in the app
        await h.wait(lambda: len(messages.hands_drawing(rt.db, ana.game).messages) == 2)
        for u in users:
            presence.present(rt.db, ana.game, u, rt.rules.clock())
        assert (await ana.move(ENDING[0]))[0] == 200
        for u in users:  # "🃏 Sua mão está no app da mesa." instead of the hand
            await h.wait(lambda u=u: [m["text"] for m in of_the_match(h, u)] == [POINTER])
        for k, action in enumerate(ENDING[1:], start=1):
            assert (await (ana, beto)[k % 2].move(action))[0] == 200
        closing = "🏆 Fim de jogo: vitória de Ana! 12 × 0"
        for u in users:
            # the pointer became the match's one closing line: nothing else stays
            left = await h.wait(
                lambda u=u: (found := of_the_match(h, u)) and found[0]["text"] == closing and found
            )
            assert len(left) == 1 and not left[0].get("reply_markup", {}).get("inline_keyboard")


POINTER = "🃏 Sua mão está no app da mesa."


async def test_a_cancelled_match_leaves_one_line(server: FakeTelegram, tmp_path: Any) -> None:
    async with table(server, tmp_path, 2, (3, 5)) as (h, (ana, beto)):
        rt = runtime_of(h.app)
        users = [u for u, x in server.users.items() if x["first_name"] in ("Ana", "Beto")]
        await h.wait(lambda: all("Sua mão" in str(of_the_match(h, u)) for u in users))
        assert (await ana.move("play 3C"))[0] == 200
        await h.wait(lambda: "É a sua vez" in str(of_the_match(h, users[1])))
        refresh(h.app, tables.cancel(rt.db, ana.game, users[0], authorised=True))
        line = "🚫 Partida cancelada por Ana. Placar 3 × 5"
        for u in users:
            # the hand message became the one line: no buttons, no second message
            left = await h.wait(
                lambda u=u: (
                    (found := of_the_match(h, u)) and [m["text"] for m in found] == [line] and found
                )
            )
            assert not left[0].get("reply_markup", {}).get("inline_keyboard")
        assert (await beto.state())["status"] == "cancelled"
