"""Group tables end to end over real HTTP: lobby, whole matches, privacy, rematch."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.sandbox.fakeapi import FakeTelegram
from tests.bot.harness import FakeClock, Harness, PrivacyWatch, button, buttons, running


async def open_lobby(h: Harness, text: str, people: list[str]) -> tuple[int, list[int], dict]:
    """A group whose first person opens a lobby with ``text``; everyone else joins."""
    s = h.server
    users = [s.add_user(name) for name in people]
    group = s.add_group("Truqueiros", admins=[users[0]], members=users)
    for u in users:
        await s.user_sends(u, u, "/start")
    await s.user_sends(users[0], group, text)
    lobby = await h.wait(lambda: h.table(group))
    for u in users[1:]:
        answer = await s.user_presses(
            u, group, lobby["message_id"], button(lobby, "Entrar")["callback_data"]
        )
        assert not answer["show_alert"], answer
    return group, users, lobby


async def test_lobby_shows_seats_and_refuses_strangers(harness: Harness) -> None:
    s = harness.server
    ana, beto, caio = s.add_user("Ana"), s.add_user("Beto"), s.add_user("Caio")
    group = s.add_group("G", admins=[ana], members=[beto, caio])
    await s.user_sends(ana, ana, "/start")
    await s.user_sends(ana, group, "/truco mineiro 2x2 15")
    lobby = await harness.wait(lambda: harness.table(group))
    assert (
        "Truco mineiro" in lobby["text"] and "2×2" in lobby["text"] and "15 pontos" in lobby["text"]
    )
    labels = [b["text"] for b in buttons(lobby)]
    for label in (
        "Entrar",
        "Sair",
        "+ Robô fácil",
        "+ Robô médio",
        "+ Robô difícil",
        "Começar",
        "Cancelar",
    ):
        assert label in labels
    # Beto never opened the bot: joining links him to the private chat, the lobby says so
    answer = await s.user_presses(
        beto, group, lobby["message_id"], button(lobby, "Entrar")["callback_data"]
    )
    assert answer["url"] == "https://t.me/TrucoBot?start=g1"
    lobby = await harness.wait(
        lambda: "Beto" in (harness.table(group) or {}).get("text", "") and harness.table(group)
    )
    await harness.wait(lambda: "Falta abrir o bot" in (harness.table(group) or {}).get("text", ""))
    lobby = harness.table(group)
    assert button(lobby, "Abrir o bot")["url"] == "https://t.me/TrucoBot?start=g1"
    # only the creator or an admin starts; Beto must open the bot first
    answer = await s.user_presses(
        caio, group, lobby["message_id"], button(lobby, "Começar")["callback_data"]
    )
    assert answer["show_alert"] and "admin" in answer["text"]
    answer = await s.user_presses(
        ana, group, lobby["message_id"], button(lobby, "Começar")["callback_data"]
    )
    assert answer["show_alert"] and "Beto" in answer["text"]
    # a second /truco in the same group is refused
    await s.user_sends(caio, group, "/truco")
    await harness.wait(
        lambda: any("Já existe uma mesa" in m["text"] for m in harness.bot_messages(group))
    )
    # Beto opens the bot through the deep link: the warning goes away
    await s.user_sends(beto, beto, "/start g1")
    await harness.wait(
        lambda: "Falta abrir" not in (harness.table(group) or {}).get("text", ""), timeout=5
    )
    # Sair and robots
    answer = await s.user_presses(
        beto, group, lobby["message_id"], button(lobby, "Sair")["callback_data"]
    )
    assert not answer["show_alert"]
    # robots: only someone seated, the opener or an admin (Caio is none of them yet)
    answer = await s.user_presses(
        caio, group, lobby["message_id"], button(lobby, "+ Robô fácil")["callback_data"]
    )
    assert answer["show_alert"] and "robôs" in answer["text"]
    answer = await s.user_presses(
        caio, group, lobby["message_id"], button(lobby, "Entrar")["callback_data"]
    )
    assert not answer["show_alert"]
    await harness.wait(lambda: "Caio" in (harness.table(group) or {}).get("text", ""))
    for label in ("+ Robô fácil", "+ Robô difícil"):
        answer = await s.user_presses(
            caio, group, lobby["message_id"], button(lobby, label)["callback_data"]
        )
        assert not answer["show_alert"], answer
    # the table is full of people and robots: Beto's Entrar takes the last robot's seat
    answer = await s.user_presses(
        beto, group, lobby["message_id"], button(lobby, "Entrar")["callback_data"]
    )
    assert not answer["show_alert"], answer
    lobby = await harness.wait(
        lambda: (
            (m := harness.table(group)) and "Beto" in m["text"] and "difícil" not in m["text"] and m
        )
    )
    assert "fácil" in lobby["text"]  # the first robot keeps its seat
    answer = await s.user_presses(
        caio, group, lobby["message_id"], button(lobby, "Cancelar")["callback_data"]
    )
    assert answer["show_alert"]
    answer = await s.user_presses(
        ana, group, lobby["message_id"], button(lobby, "Cancelar")["callback_data"]
    )
    assert not answer["show_alert"]
    await harness.wait(lambda: "cancelada" in s.message(group, lobby["message_id"])["text"])


@pytest.mark.parametrize(
    ("command", "people", "seed"),
    [
        ("/truco paulista 2x2", ["Ana", "Beto", "Caio"], 1),
        ("/truco mineiro 1x1", ["Ana", "Beto"], 2),
        ("/truco trembao 2x2", ["Ana", "Beto", "Caio", "Duda"], 3),
        ("/truco paulista 1x1 6", ["Ana"], 4),
    ],
)
async def test_whole_match_in_a_group_keeps_cards_private(
    server: FakeTelegram, tmp_path: Path, command: str, people: list[str], seed: int
) -> None:
    # a roomy flood budget, and the group's spacing on a clock the test holds, keep this
    # test fast; test_bot_flood checks the real budget
    clock = FakeClock()
    async with running(server, tmp_path, clock=clock, TRUCO_GROUP_BUDGET=1000) as harness:
        await whole_match(harness, command, people, seed)


async def whole_match(harness: Harness, command: str, people: list[str], seed: int) -> None:
    """Lobby, start, play to the end with random legal buttons, check privacy and rematch."""
    watch = PrivacyWatch(harness)
    group, users, lobby = await open_lobby(harness, command, people)
    s = harness.server
    await s.user_presses(
        users[0], group, lobby["message_id"], button(lobby, "Começar")["callback_data"]
    )
    table = await harness.wait(
        lambda: harness.table(group) if "Minha mão" in str(harness.table(group)) else None
    )
    assert re.search(r"Mão 1", table["text"])
    over = await harness.play_out(users, group, timeout=90, seed=seed)
    assert re.search(r"\b(\d+) × (\d+)\b", over["text"])
    x, y = map(int, re.search(r"(\d+) × (\d+)", over["text"]).groups())
    target = 6 if command.endswith(" 6") else 12
    assert max(x, y) == target and min(x, y) < target
    assert not watch.leaks, watch.leaks[:3]
    # the closing of each hand was posted, and the table shows the winner
    closings = [m for m in harness.bot_messages(group) if "Placar" in m["text"]]
    assert closings
    # at least a private hand and the group's table were read for every hand
    assert watch.checked >= 2 * len(closings)
    # (the table may have come down the chat since: the live one is the table message)
    final = await harness.wait(
        lambda: (m := harness.table_message(group)) and "Vitória" in m["text"] and m
    )
    # the ending was shown with its Revanche: the table does not repeat the button
    assert not [b for b in buttons(final) if b.get("callback_data", "")[:1] == "v"]
    # Revanche seats the same people again; the others confirm, and a new match is dealt
    before = len(harness.bot_messages(users[0]))
    answer = await s.user_presses(
        users[0], group, over["message_id"], button(over, "Revanche")["callback_data"]
    )
    assert not answer["show_alert"], answer
    if users[1:]:
        lobby = await harness.wait(
            lambda: (m := harness.table_message(group)) and "Revanche" in m["text"] and m
        )
        for u in users[1:]:
            data = button(lobby, "Entrar")["callback_data"]
            answer = await s.user_presses(u, group, lobby["message_id"], data)
            assert not answer["show_alert"], answer
    await harness.wait(lambda: len(harness.bot_messages(users[0])) > before)
    assert "Mão 1" in harness.bot_messages(users[0])[-1]["text"]
    await harness.wait(
        lambda: [
            m
            for m in harness.bot_messages(group)
            if "Minha mão" in str(m) and m["message_id"] != final["message_id"]
        ]
    )
    answer = await s.user_presses(
        users[0], group, over["message_id"], button(over, "Revanche")["callback_data"]
    )
    assert answer["show_alert"]


async def test_forum_topics_each_hold_their_own_table(harness: Harness) -> None:
    s = harness.server
    ana, beto = s.add_user("Ana"), s.add_user("Beto")
    forum = s.add_group("Fórum", admins=[ana], members=[beto], forum=True)
    for u in (ana, beto):
        await s.user_sends(u, u, "/start")
    await s.user_sends(ana, forum, "/truco", message_thread_id=11)
    await s.user_sends(beto, forum, "/truco mineiro", message_thread_id=22)
    lobbies = await harness.wait(
        lambda: (
            [m for m in harness.bot_messages(forum) if "Mesa de" in m["text"]]
            if len([m for m in harness.bot_messages(forum) if "Mesa de" in m["text"]]) == 2
            else None
        )
    )
    assert {m.get("message_thread_id") for m in lobbies} == {11, 22}
    await s.user_sends(beto, forum, "/truco", message_thread_id=11)
    await harness.wait(lambda: "Já existe" in harness.bot_messages(forum)[-1]["text"], 5)
