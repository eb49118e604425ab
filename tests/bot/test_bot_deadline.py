"""A deadline (R10) passes: the default action is played and the table says so."""

from __future__ import annotations

import re
from pathlib import Path

from bot.domain import messages
from bot.sandbox.fakeapi import FakeTelegram
from tests.bot.harness import (
    FakeClock,
    paulista_hand,
    press,
    running,
    seat_match,
)


async def test_deadline_plays_the_default_action_and_the_table_says_so(
    server: FakeTelegram, tmp_path: Path
) -> None:
    # the table's own 60 s per decision, on a clock that moves only when told to
    async with running(server, tmp_path, clock=FakeClock()) as h:
        ana, beto = server.add_user("Ana"), server.add_user("Beto")
        group = server.add_group("G", admins=[ana], members=[beto])
        gid = await seat_match(h, group, [ana, beto], paulista_hand())
        table = await h.wait(lambda: h.table(group))
        assert re.search(r"Vez de Ana · ⏱ \d+ s", table["text"])  # a countdown, no clock time
        # Ana does nothing for a minute: her strongest card (3♣) is played for her (R10)
        h.advance(60)
        await h.wait(lambda: "⏰ Tempo esgotado: Ana jogou 3♣" in h.table(group)["text"], 5)
        # Beto's turn now: he calls truco and Ana lets the call expire: she runs
        await press(h, beto, "Truco!")
        h.advance(60)
        await h.wait(lambda: any("Ana correu" in m["text"] for m in h.bot_messages(group)), 5)
        assert h.db is not None
        kinds = [e.kind for e in messages.events_of(h.db, gid)]
        assert kinds.count("timeout") == 2
