"""Messages after the game moves on: closed hand messages, a match's one closing line in
the private chat, and the table's newest state."""

from __future__ import annotations

import re
from pathlib import Path

from bot.domain import GameStatus, messages, tables
from bot.i18n import translations
from bot.sandbox.fakeapi import FakeTelegram
from bot.telegram.context import runtime_of
from bot.telegram.render.table import table_text
from tests.bot.harness import FakeClock, Harness, buttons, running


async def start_group_game(h: Harness, command: str) -> tuple[int, int, dict]:
    """Ana opens ``command`` in a group and starts it against a robot; (ana, group, table)."""
    s = h.server
    ana = s.add_user("Ana")
    group = s.add_group("Mesa", admins=[ana])
    await s.user_sends(ana, ana, "/start")
    # the bot handles updates concurrently: a Começar pressed before /start was stored
    # would greet her privately as a newcomer
    await h.wait(lambda: any("Olá" in m["text"] for m in h.bot_messages(ana)))
    await s.user_sends(ana, group, command)
    lobby = await h.wait(lambda: h.table(group))
    start = next(b for b in buttons(lobby) if b["text"] == "Começar")
    answer = await s.user_presses(ana, group, lobby["message_id"], start["callback_data"])
    assert not answer["show_alert"], answer
    table = await h.wait(lambda: h.table(group) if "Minha mão" in str(h.table(group)) else None)
    return ana, group, table


async def test_the_private_chat_keeps_one_hand_message_per_match(
    server: FakeTelegram, tmp_path: Path
) -> None:
    async with running(
        server, tmp_path, clock=FakeClock(), TRUCO_GROUP_BUDGET=1000, TRUCO_SEED=5
    ) as h:
        ana, group, _ = await start_group_game(h, "/truco paulista 1x1 6")
        closings: dict[int, str] = {}

        def on_event(event: dict) -> None:
            # each hand's result, as the next hand's message says it first
            # deletions and callback answers carry no message (an answer no chat either)
            text = event.get("message", {}).get("text", "")
            if event.get("chat_id") == ana and (found := re.match(r"🏁 Mão (\d+): [^\n]+", text)):
                closings.setdefault(int(found[1]), found[0])

        server.listeners.append(on_event)
        await h.play_out([ana], group, timeout=90, seed=11)
        assert h.db is not None
        game = tables.load(h.db, 1)
        assert game is not None and game.status == GameStatus.OVER
        hands_played = len(messages.events_of(h.db, 1, "hand_over"))
        assert hands_played >= 2, hands_played
        # one message of the match left: the one that showed the hand, now its closing
        # line (who won and the score: how the last hand went is the group's)
        score = f"{game.view(0).score[0]} × {game.view(0).score[1]}"
        left = await h.wait(
            lambda: (
                found
                if len(found := [m for m in h.bot_messages(ana) if "Olá" not in m["text"]]) == 1
                and "Fim de jogo" in found[0]["text"]
                else None
            )
        )
        text = left[0]["text"]
        assert not buttons(left[0]) and "\n" not in text, text
        assert text.startswith("🏆 Fim de jogo: vitória de ") and text.endswith(score), text
        assert "Mão" not in text and "Sua mão" not in text
        # and every hand before it was told in the message of the hand that followed
        assert sorted(closings) == list(range(1, hands_played)), closings
        assert all("Placar" in line for line in closings.values())


def expected_table(h: Harness, game_id: int) -> tuple[int, str]:
    """The group's table as the database says it should look now, and the game's version."""
    rt = runtime_of(h.app)
    drawing = messages.table_drawing(rt.db, game_id)
    assert drawing is not None
    game = drawing.table
    t = translations(drawing.language)
    html = table_text(t, game, game.view(0), 60)
    return game.version, re.sub(r"<[^>]+>", "", html)


async def test_table_ends_on_the_newest_state_even_when_an_edit_fails(
    server: FakeTelegram, tmp_path: Path
) -> None:
    # the real flood budget: one table edit a second, so quick moves are coalesced
    async with running(server, tmp_path, clock=FakeClock()) as h:
        ana, group, table = await start_group_game(h, "/truco paulista 1x1")

        async def press_and_settle() -> None:
            """Ana presses her first move; wait until it is her turn again (robot delay 0)."""
            # her turn (the robot may lead, and a busy machine makes it slow to)
            before = await h.wait(lambda: h.hand(ana))
            move = next(b for b in buttons(before) if b["callback_data"].startswith("g"))
            answer = await server.user_presses(
                ana, ana, before["message_id"], move["callback_data"]
            )
            assert not answer["show_alert"], answer
            await h.wait(
                lambda: (
                    (m := h.hand(ana)) is not None
                    and any(
                        b["callback_data"].startswith(f"g1:{expected_table(h, 1)[0]}:")
                        for b in buttons(m)
                    )
                )
            )

        # several moves in well under a second: the table skips states but lands on the last
        for _ in range(3):
            await press_and_settle()
        await h.wait(
            lambda: server.message(group, table["message_id"])["text"] == expected_table(h, 1)[1]
        )
        # the edit carrying the newest state fails once (a network error): it is drawn again
        server.fail_next("editMessageText", 502, "Bad Gateway", chat_id=group)
        await press_and_settle()
        await h.wait(
            lambda: server.message(group, table["message_id"])["text"] == expected_table(h, 1)[1],
            timeout=15,
        )
        assert any(e.code == 502 for _, e in server.errors)
        # Ana's hand message too: the edit taking her buttons away fails (and would again):
        # she still gets her newest buttons (her turn comes as a new message; off her turn
        # her hand is not edited for the robot's card, so there may be one edit only)
        server.fail_next("editMessageText", 502, "Bad Gateway", chat_id=ana, times=2)
        for _ in range(4):  # a move that ends the hand brings a new message, not an edit
            await press_and_settle()
            if any(c.chat_id == ana for c, e in server.errors if e.code == 502):
                break
        assert sum(c.chat_id == ana for c, e in server.errors if e.code == 502) >= 1
