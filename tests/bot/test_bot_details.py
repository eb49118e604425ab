"""The smaller defects a group saw: one test each, against the fake Telegram over HTTP."""

from __future__ import annotations

from tests.bot.harness import Harness, buttons


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
    assert not any("Minha mão" in x or "Abrir no privado" in x for x in labels)
    tables = [m for m in harness.bot_messages(ana) if m["text"].startswith("🃏")]
    assert len(tables) == 1
