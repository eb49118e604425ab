"""/cancelar mid-match: asked first (opener or admin), even when the table needs the group's minute, and the cancellation leaves a trace."""

from __future__ import annotations

from pathlib import Path

from bot.sandbox.fakeapi import FakeTelegram
from tests.bot.harness import (
    FakeClock,
    Harness,
    button,
    buttons,
    newest,
    paulista_hand,
    running,
    seat_match,
)


async def test_cancelar_mid_match_asks_first_and_leaves_a_trace(harness: Harness) -> None:
    s = harness.server
    ana, beto, bia = s.add_user("Ana"), s.add_user("Beto"), s.add_user("Bia")
    group = s.add_group("G", admins=[ana, bia], members=[beto])
    await seat_match(harness, group, [ana, beto], paulista_hand(score=(5, 3)))
    table = await harness.wait(lambda: harness.table(group))
    await s.user_sends(beto, group, "/cancelar")  # neither the opener nor an admin
    await harness.wait(lambda: newest(harness, group, "Só quem abriu a mesa"))
    await s.user_sends(ana, group, "/cancelar")
    question = await harness.wait(lambda: newest(harness, group, "Cancelar a partida?"))
    assert "Ana</b> 5 × 3 <b>Beto" in question["html"]
    yes, no = (button(question, x)["callback_data"] for x in ("Sim", "Não"))
    mid = question["message_id"]
    refused = await s.user_presses(beto, group, mid, yes)
    assert refused["show_alert"] and "Só quem abriu" in refused["text"]
    await s.user_presses(ana, group, mid, no)
    await harness.wait(lambda: s.message(group, mid)["text"] == "👍 A partida continua.")
    assert "Vez de Ana" in s.message(group, table["message_id"])["text"]
    # an admin asks again and confirms: the table says who cancelled it, and so does the
    # chat's newest line
    await s.user_sends(bia, group, "/cancelar")
    await harness.wait(
        lambda: (q := newest(harness, group, "Cancelar a partida?")) and q["message_id"] != mid
    )
    question = newest(harness, group, "Cancelar a partida?")
    await s.user_presses(
        bia, group, question["message_id"], button(question, "Sim")["callback_data"]
    )
    line = "🚫 Partida cancelada por Bia. Placar 5 × 3"
    await harness.wait(lambda: s.message(group, table["message_id"])["text"] == line)
    # the question is edited too, in its own call, which may come after the table's
    await harness.wait(lambda: s.message(group, question["message_id"])["text"] == line)
    assert not buttons(s.message(group, table["message_id"]))
    # her private hand says it with the group's words
    assert (await harness.wait(lambda: newest(harness, ana, "cancelada")))["text"] == line


async def test_cancelar_is_asked_even_when_the_table_needs_the_groups_minute(
    server: FakeTelegram, tmp_path: Path
) -> None:
    # a group budget this small: the table comes first...
    async with running(server, tmp_path, clock=FakeClock(), TRUCO_GROUP_BUDGET=5) as h:
        ana, beto = server.add_user("Ana"), server.add_user("Beto")
        group = server.add_group("G", admins=[ana], members=[beto])
        await seat_match(h, group, [ana, beto], paulista_hand())
        table = await h.wait(lambda: h.table(group))
        await server.user_sends(ana, group, "/config")
        await server.user_sends(ana, group, "/cancelar")
        # ...but the question of /cancelar waits for its turn instead of being dropped
        question = await h.wait(lambda: newest(h, group, "Cancelar a partida?"), 60)
        # an admin's /config is never dropped: in the group if it has room, else privately
        await h.wait(
            lambda: (
                newest(h, group, "Configuração do grupo") or newest(h, ana, "Configuração do grupo")
            )
        )
        await server.user_presses(
            ana, group, question["message_id"], button(question, "Sim")["callback_data"]
        )
        mid = table["message_id"]
        await h.wait(lambda: "cancelada por Ana" in server.message(group, mid)["text"], 60)
