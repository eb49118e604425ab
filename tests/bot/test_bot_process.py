"""``truco bot`` as a process: its log (levels, no token, no hands), SIGTERM, kill -9, a bad token."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.sandbox.fakeapi import FakeTelegram
from tests.bot.harness import bot_messages, buttons, database_url, start_bot

# shaped like a real BotFather token, so both the exact and the shape redaction count
TOKEN = "987654321:AAHs3cr3t-S3CR3T_s3cr3tS3cr3tS3cr3t12"
BUSY = {
    "TELEGRAM_BOT_TOKEN": TOKEN,
    "TRUCO_DECISION_SECONDS": "0.05",  # Ana never plays: her clock runs out at once
    "TRUCO_ROBOT_BUDGET_MS": "20",
    "TRUCO_SEED": "",
}
SUITS = re.compile("[♣♥♠♦]|de (copas|espadas|ouros|paus|bastos)")


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    s = FakeTelegram(token=TOKEN, bot_username="TrucoBot")
    await s.start()
    yield s
    await s.stop()


def children(pid: int) -> dict[int, str]:
    """Processes whose parent is ``pid``: their command lines."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if int(stat.rpartition(")")[2].split()[1]) == pid:
            found[int(entry.name)] = cmd
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


async def busy_table(fake: FakeTelegram, bot: subprocess.Popen[bytes]) -> None:
    """Ana and three difícil robots in a group, robots and timeouts moving all the time."""
    ana = fake.add_user("Ana")
    group = fake.add_group("G", admins=[ana])
    await fake.user_sends(ana, ana, "/start")
    # the first answer waits for the process's start: over 60 s once on a machine loaded
    # far past its two cores
    await fake.wait_for(lambda: bot_messages(fake, ana), timeout=120)
    await fake.user_sends(ana, group, "/truco 2x2")
    lobby = await fake.wait_for(lambda: bot_messages(fake, group), timeout=30)
    data = next(
        b["callback_data"]
        for row in lobby[0]["reply_markup"]["inline_keyboard"]
        for b in row
        if b.get("callback_data", "").endswith(":r3")
    )
    for _ in range(3):
        await fake.user_presses(ana, group, lobby[0]["message_id"], data)
    await fake.user_presses(ana, group, lobby[0]["message_id"], data.replace(":r3", ":go"))
    # difícil thinks in a worker process; wait for it and for a few hands
    await fake.wait_for(
        lambda: any("spawn_main" in c for c in children(bot.pid).values()), timeout=60
    )
    # several turns played: hand messages sent and edited for Ana, or the match already over
    # (robots that fold a lot end one in seconds, and Ana's message then tells several hands)
    await fake.wait_for(
        lambda: (
            len(fake.calls_to(ana, ("sendMessage", "editMessageText"))) >= 6
            or any(
                b.get("callback_data", "").startswith("v")
                for m in bot_messages(fake, group)
                for b in buttons(m)
            )
        ),
        timeout=90,  # a loaded machine (the waits end as soon as it happens)
    )


async def stop(bot: subprocess.Popen[bytes], sig: int) -> int:
    bot.send_signal(sig)
    return await asyncio.to_thread(bot.wait, 30)


@pytest.mark.long
async def test_verbose_log_shows_jobs_never_the_token_or_a_hand_and_sigterm_is_clean(
    fake: FakeTelegram, tmp_path: Path
) -> None:
    log = tmp_path / "bot.log"
    bot = start_bot(fake.api_url, database_url(tmp_path), log, "-v", **BUSY)
    try:
        await busy_table(fake, bot)
        assert await stop(bot, signal.SIGTERM) == 0
    finally:
        bot.kill()
    text = log.read_text()
    assert TOKEN not in text and TOKEN.partition(":")[2] not in text
    assert "/bot<token>/getUpdates" in text  # httpx's request lines, redacted
    assert 'Running job "robot:' in text and 'Running job "hands:' in text
    assert "executed successfully" not in text  # one line per job run, not four
    assert "Sua mão" not in text and not SUITS.search(text)
    assert "Traceback" not in text and "CancelledError" not in text, text[-3000:]


async def test_default_log_is_quiet_and_kill_9_leaves_no_worker(
    fake: FakeTelegram, tmp_path: Path
) -> None:
    log = tmp_path / "bot.log"
    bot = start_bot(fake.api_url, database_url(tmp_path), log, **BUSY)
    try:
        await busy_table(fake, bot)
        helpers = children(bot.pid)
        assert any("resource_tracker" in c for c in helpers.values()), helpers
        assert await stop(bot, signal.SIGKILL) == -signal.SIGKILL
        await fake.wait_for(lambda: not any(alive(p) for p in helpers), timeout=10)
    finally:
        bot.kill()
        for pid in children(bot.pid):
            os.kill(pid, signal.SIGKILL)
    text = log.read_text()
    assert TOKEN not in text
    assert "apscheduler" not in text and "HTTP Request" not in text
    assert len(text.splitlines()) < 20, text[-3000:]


async def test_a_rejected_token_is_one_line_and_exit_2(fake: FakeTelegram, tmp_path: Path) -> None:
    wrong = "987654321:AAHwr0ngWr0ngWr0ngWr0ngWr0ngWr0ng99"
    log = tmp_path / "bot.log"
    bot = start_bot(fake.api_url, database_url(tmp_path), log, TELEGRAM_BOT_TOKEN=wrong)
    try:
        # the wait ends as soon as it exits; a loaded machine took over 30 s to get there
        assert await asyncio.to_thread(bot.wait, 120) == 2
    finally:
        bot.kill()
    lines = log.read_text().splitlines()
    assert lines == [
        "truco bot: o Telegram recusou o TELEGRAM_BOT_TOKEN (confira o token com o @BotFather)"
    ]
