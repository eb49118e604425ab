"""The smallest whole game: a person against a robot in private, to the end."""

from __future__ import annotations

import re

from tests.bot.harness import Harness


async def test_private_game_against_a_robot_runs_to_the_end(harness: Harness) -> None:
    server = harness.server
    ana = server.add_user("Ana")
    await server.user_sends(ana, ana, "/start")
    await server.user_sends(ana, ana, "/truco")
    over = await harness.play_out([ana], ana)
    assert re.search(r"\b(12 × \d+|\d+ × 12)\b", over["text"]), over["text"]
    # the last hand's message tells how that hand ended; who won is said once, just below
    said = [m["text"] for m in harness.bot_messages(ana)]
    assert sum("🏆" in text for text in said) == 1, said[-2:]
