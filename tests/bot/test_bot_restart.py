"""kill -9 mid-match, start again: every table resumes, deadlines included, nothing doubled."""

from __future__ import annotations

import asyncio
import json
import signal
from pathlib import Path

import pytest

from bot.domain import Database, GameStatus, messages, tables
from bot.sandbox.fakeapi import FakeTelegram
from tests.bot.harness import (
    TOKEN,
    FakeClock,
    bot_messages,
    database_url,
    press_first,
    running,
    start_bot,
)

ENV = {"TRUCO_ROBOT_DELAY": "0", "TRUCO_SEED": "7", "TRUCO_DECISION_SECONDS": "3"}
# The restarted process runs on the wall clock: a slow machine must not let Ana's clock run
# out between presses, so its own deadlines are long. The deadline stored before the kill
# keeps its time and is the only one that can pass.
RESTARTED = {**ENV, "TRUCO_DECISION_SECONDS": "600"}


def moves_log(url: str) -> list[tuple[int, str]]:
    """The actions stored in the event log of game 1, in order, and checks on the log."""
    db = Database(url)
    game = tables.load(db, 1)
    assert game is not None and game.status == GameStatus.OVER
    events = messages.events_of(db, 1)
    snapshot = json.loads(game.snapshot or "{}")
    db.close()
    acts = [e for e in events if e.kind in ("button", "robot", "timeout", "inline")]
    # one stored action per version (1×1): nothing applied twice, nothing lost
    versions = [e.version for e in acts]
    assert len(versions) == len(set(versions))
    stored = [[e.seat, e.data["action"]] for e in acts]
    assert stored == snapshot["log"]
    return [(e.kind, e.seat or 0, e.data["action"]) for e in acts] + [
        ("score", 0, str(snapshot["score"]))
    ]


async def play(server: FakeTelegram, ana: int, presses: int | None, timeout: float = 60) -> int:
    """Ana presses her first button ``presses`` times (None: until the match ends)."""
    done = 0
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while presses is None or done < presses:
        if any("Fim de jogo" in m["text"] for m in bot_messages(server, ana)):
            return done
        if loop.time() > end:
            raise AssertionError("the match did not move")
        try:
            if await press_first(server, ana):
                done += 1
                continue
        except (TimeoutError, LookupError):
            pass
        await asyncio.sleep(0.02)
    return done


@pytest.mark.long
async def test_kill_9_mid_match_resumes_with_the_same_result(
    server: FakeTelegram, tmp_path: Path
) -> None:
    # the reference: the same seed and the same presses, never interrupted
    ref_dir = tmp_path / "ref"
    ref_dir.mkdir()
    ref_server = FakeTelegram(token=TOKEN, bot_username="TrucoBot")
    await ref_server.start()
    try:
        async with running(ref_server, ref_dir, clock=FakeClock(), **ENV) as h:
            ana = ref_server.add_user("Ana")
            await ref_server.user_sends(ana, ana, "/start")
            await ref_server.user_sends(ana, ana, "/truco")
            await play(ref_server, ana, 5)
            # Ana lets her clock run out once: the default action is played for her
            assert h.db is not None
            db = h.db

            def anas_clock_runs() -> bool:
                table = tables.load(db, 1)
                return table is not None and tables.change_of(table).robot_seat is None

            await h.wait(anas_clock_runs)  # the robot has answered: Ana's turn, on the clock
            h.advance(3.5)
            await h.wait(lambda: messages.events_of(db, 1, "timeout"))
            await play(ref_server, ana, None)
            reference_url = h.db_url
    finally:
        await ref_server.stop()
    reference = moves_log(reference_url)

    url = database_url(tmp_path)
    log = tmp_path / "bot.log"
    ana = server.add_user("Ana")
    bot = start_bot(server.api_url, url, log, **ENV)
    try:
        await server.user_sends(ana, ana, "/start")
        # the new process migrates an empty database first: slow beside another suite
        await server.wait_for(lambda: bot_messages(server, ana), timeout=60)
        await server.user_sends(ana, ana, "/truco")
        await play(server, ana, 5)
        # as in the reference: the robot has answered, and Ana's clock runs when the bot dies
        first = Database(url, migrate=False)
        try:

            def anas_turn() -> bool:
                table = tables.load(first, 1)
                return table is not None and tables.change_of(table).robot_seat is None

            await server.wait_for(anas_turn, timeout=20)
        finally:
            first.close()
        assert not any("Fim de jogo" in m["text"] for m in bot_messages(server, ana))
        bot.send_signal(signal.SIGKILL)
        bot.wait(timeout=10)
        # down for longer than the deadline: the restarted bot must apply it, once
        await asyncio.sleep(3.5)
        bot = start_bot(server.api_url, url, log, **RESTARTED)
        # Ana's old buttons still show: she waits for the overdue default, as in the reference
        # (a process starting beside two other suites took over 30 s to apply it, as the
        # first start above takes its 60 s)
        seen = Database(url, migrate=False)
        try:
            await server.wait_for(lambda: messages.events_of(seen, 1, "timeout"), timeout=60)
        finally:
            seen.close()
        await play(server, ana, None)
    finally:
        bot.kill()
        bot.wait(timeout=10)
    resumed = moves_log(url)
    assert resumed == reference, log.read_text()[-3000:]
    # the deadline that passed while the bot was dead was applied after the restart
    assert [k for k, *_ in resumed].count("timeout") >= 1
    assert "Traceback" not in log.read_text()
