"""kill -9 mid-match, start again: every table resumes, deadlines included, nothing doubled."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from test_bot_harness import TOKEN, buttons, database_url, running, server

from bot.domain import Database, GameStatus, messages, tables
from bot.sandbox.fakeapi import FakeTelegram

__all__ = ["server"]  # fixture

ENV = {"TRUCO_ROBOT_DELAY": "0", "TRUCO_SEED": "7", "TRUCO_DECISION_SECONDS": "1.5"}


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


async def press_first(h_server: FakeTelegram, bots: callable, user: int) -> bool:
    """Press the first move button of the person's newest hand message, if any."""
    for m in reversed(bots(user)):
        moves = [b for b in buttons(m) if b.get("callback_data", "").startswith("g")]
        if moves:
            answer = await h_server.user_presses(
                user, user, m["message_id"], moves[0]["callback_data"]
            )
            return not answer["show_alert"]
    return False


def bot_messages(server: FakeTelegram, chat: int) -> list[dict]:
    return [m for m in server.messages(chat) if m["from"]["is_bot"] and not m["deleted"]]


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
            if await press_first(server, lambda u: bot_messages(server, u), ana):
                done += 1
                continue
        except (TimeoutError, LookupError):
            pass
        await asyncio.sleep(0.02)
    return done


def start_bot(
    api_url: str, db_url: str, log: Path, *args: str, **settings: str
) -> subprocess.Popen[bytes]:
    """``truco bot [args]`` as a subprocess logging to ``log``; ``settings`` override ``ENV``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "TRUCO_"))}
    env.update(ENV)
    env.update(
        {
            "TELEGRAM_BOT_TOKEN": TOKEN,
            "TELEGRAM_API_URL": api_url,
            "DATABASE_URL": db_url,
            "TRUCO_POLL_TIMEOUT": "1",
        }
    )
    env.update(settings)
    out = log.open("ab")
    return subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "bot", *args],
        env=env,
        stdout=out,
        stderr=out,
        cwd=log.parent,
    )


async def test_kill_9_mid_match_resumes_with_the_same_result(
    server: FakeTelegram, tmp_path: Path
) -> None:
    # the reference: the same seed and the same presses, never interrupted
    ref_dir = tmp_path / "ref"
    ref_dir.mkdir()
    ref_server = FakeTelegram(token=TOKEN, bot_username="TrucoBot")
    await ref_server.start()
    try:
        async with running(ref_server, ref_dir, **ENV) as h:
            ana = ref_server.add_user("Ana")
            await ref_server.user_sends(ana, ana, "/start")
            await ref_server.user_sends(ana, ana, "/truco")
            await play(ref_server, ana, 5)
            # Ana lets her clock run out once: the default action is played for her
            await asyncio.sleep(2.0)
            await play(ref_server, ana, None)
            reference_url = h.db_url
    finally:
        await ref_server.stop()
    reference = moves_log(reference_url)

    url = database_url(tmp_path)
    log = tmp_path / "bot.log"
    ana = server.add_user("Ana")
    bot = start_bot(server.api_url, url, log)
    try:
        await server.user_sends(ana, ana, "/start")
        await server.wait_for(lambda: bot_messages(server, ana), timeout=20)
        await server.user_sends(ana, ana, "/truco")
        await play(server, ana, 5)
        await asyncio.sleep(0.2)
        assert not any("Fim de jogo" in m["text"] for m in bot_messages(server, ana))
        bot.send_signal(signal.SIGKILL)
        bot.wait(timeout=10)
        # down for longer than the deadline: the restarted bot must apply it, once
        await asyncio.sleep(2.0)
        bot = start_bot(server.api_url, url, log)
        await play(server, ana, None)
    finally:
        bot.kill()
        bot.wait(timeout=10)
    resumed = moves_log(url)
    assert resumed == reference, log.read_text()[-3000:]
    # the deadline that passed while the bot was dead was applied after the restart
    assert [k for k, *_ in resumed].count("timeout") >= 1
    assert "Traceback" not in log.read_text()
