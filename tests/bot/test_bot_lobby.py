"""The lobby: /truco in private opens no group table, a double tap adds one robot, people choose their team."""

from __future__ import annotations

from tests.bot.harness import (
    JSON,
    Harness,
    button,
    buttons,
    new_lobby,
    shown,
)


async def test_truco_in_private_sends_no_group_table(harness: Harness) -> None:
    s = harness.server
    ana = s.add_user("Ana")
    await s.user_sends(ana, ana, "/start")
    await harness.wait(lambda: harness.bot_messages(ana))
    await s.user_sends(ana, ana, "/truco")
    await harness.wait(lambda: harness.hand(ana))
    # the robot plays; the hand message follows, and it is the only picture of the table
    await harness.wait(lambda: "Tonho" in harness.hand(ana)["text"])
    await s.user_sends(ana, ana, "/regras")
    await harness.wait(lambda: "Livro de regras" in harness.bot_messages(ana)[-1]["text"])
    labels = [b["text"] for m in harness.bot_messages(ana) for b in buttons(m)]
    assert not any("Minha mão" in x or "No privado" in x for x in labels)
    tables = [m for m in harness.bot_messages(ana) if m["text"].startswith("🃏")]
    assert len(tables) == 1


async def test_a_double_tap_on_add_robot_adds_one_robot(harness: Harness) -> None:
    s = harness.server
    ana, caio = s.add_user("Ana"), s.add_user("Caio")
    group = s.add_group("G", admins=[ana], members=[caio])
    lobby = await new_lobby(harness, group, ana, "2x2")
    data = button(lobby, "Robô médio")["callback_data"]
    first = await s.user_presses(ana, group, lobby["message_id"], data)
    second = await s.user_presses(ana, group, lobby["message_id"], data)
    assert first["text"] is None or not first["show_alert"]
    # the second tap was drawn for the lobby before the robot sat: a toast, no robot
    assert not second["show_alert"] and "Já feito" in second["text"]
    await harness.wait(lambda: "Robôs:" in s.message(group, lobby["message_id"])["text"])
    text = s.message(group, lobby["message_id"])["text"]
    assert text.count("🤖") == 1
    # another robot from the same drawing is no repeat: it sits too
    await s.user_presses(
        ana, group, lobby["message_id"], button(lobby, "Robô fácil")["callback_data"]
    )
    await harness.wait(lambda: s.message(group, lobby["message_id"])["text"].count("🤖") == 2)
    # a person neither seated nor opener nor admin is told why, in one line
    newest = s.message(group, lobby["message_id"])
    refused = await s.user_presses(
        caio, group, lobby["message_id"], button(newest, "Robô médio")["callback_data"]
    )
    assert refused["show_alert"] and "Você não está nessa mesa" in refused["text"]
    assert "\n" not in refused["text"]
    assert s.message(group, lobby["message_id"])["text"].count("🤖") == 2


async def test_people_choose_their_team_in_the_lobby(harness: Harness) -> None:
    s = harness.server
    ana, beto, caio = s.add_user("Ana"), s.add_user("Beto"), s.add_user("Caio")
    group = s.add_group("G", admins=[ana], members=[beto, caio])
    lobby = await new_lobby(harness, group, ana, "2x2")
    mid = lobby["message_id"]

    async def tap(user: int, label: str) -> JSON:
        await s.user_sends(user, user, "/start")
        msg = s.message(group, mid)
        answer: JSON = await s.user_presses(user, group, mid, button(msg, label)["callback_data"])
        await harness.wait(lambda: s.message(group, mid)["text"] != msg["text"] or answer["text"])
        return answer

    # Beto wants to be Ana's partner, not her opponent (join order would seat him on team 2)
    await tap(beto, "Time 1")
    await harness.wait(lambda: "Time 1: Ana, Beto" in s.message(group, mid)["text"])
    assert (await tap(caio, "Time 1"))["text"] == "O time 1 está completo."
    await tap(caio, "Time 2")
    await harness.wait(lambda: "Time 2: Caio, (livre)" in s.message(group, mid)["text"])
    assert (await tap(caio, "Time 2"))["text"] == "Você já está nesse time."
    # a robot on a team gives its seat to a person who chooses that team
    await tap(ana, "Robô fácil")
    await harness.wait(lambda: "Time 2: Caio, 🤖" in s.message(group, mid)["text"])
    await tap(beto, "Time 2")
    await harness.wait(lambda: "Time 2: Caio, Beto" in s.message(group, mid)["text"])
    assert "Time 1: Ana, 🤖" in s.message(group, mid)["text"]
    assert all(len(b["callback_data"].encode()) <= 64 for b in buttons(s.message(group, mid)))
    # robots fill what is left, and the match keeps the chosen partners
    await tap(ana, "Começar")
    await harness.wait(lambda: "Ana & 🤖" in (harness.table(group) or {}).get("text", ""))
    assert "Caio & Beto" in shown(harness, group)
