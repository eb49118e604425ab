"""``truco bot-bench``: many tables at once against the fake Bot API, figures as JSON.

Each table is a group where one simulated person plays a 1×1 match against a
robot (robot delay 0) by pressing the first button of their private hand. It
reports the time from a button press to the bot's answer (p50/p95), Bot API
calls per hand and the peak calls per minute to one group.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.sandbox.fakeapi import FakeTelegram

TOKEN = "123456:BENCH"


def _moves(message: dict[str, Any]) -> list[str]:
    rows = (message.get("reply_markup") or {}).get("inline_keyboard", [])
    return [
        b["callback_data"]
        for row in rows
        for b in row
        if b.get("callback_data", "")[:1] in ("g", "l")
    ]


class _Person:
    """A simulated person who presses the first move button as soon as one shows up."""

    def __init__(self, server: FakeTelegram, user: int, group: int) -> None:
        self.server, self.user, self.group = server, user, group
        self.latest: tuple[int, int, str] | None = None  # chat, message id, callback_data
        self.changed = asyncio.Event()

    def on_event(self, event: dict[str, Any]) -> None:
        """Listener of the fake: remember the newest button to press."""
        if event["type"] not in ("message", "edit") or event["chat_id"] not in (
            self.user,
            self.group,
        ):
            return
        msg = event["message"]
        moves = _moves(msg)
        if event["chat_id"] == self.group:
            moves = [m for m in moves if m.endswith(":go")]
        if moves:
            self.latest = (event["chat_id"], msg["message_id"], moves[0])
            self.changed.set()

    async def play(self, until: float, latencies: list[float]) -> None:
        """Open a table, start it and keep pressing until time is up."""
        await self.server.user_sends(self.user, self.user, "/start")
        await self.server.user_sends(self.user, self.group, "/truco paulista 1x1")
        while time.monotonic() < until:
            try:
                await asyncio.wait_for(self.changed.wait(), max(0.01, until - time.monotonic()))
            except TimeoutError:
                return
            self.changed.clear()
            if self.latest is None:
                continue
            chat, mid, data = self.latest
            self.latest = None
            start = time.perf_counter()
            try:
                await self.server.user_presses(self.user, chat, mid, data, 30)
            except (TimeoutError, LookupError):
                continue
            if data.startswith("g"):
                latencies.append(time.perf_counter() - start)


async def _run(tables: int, seconds: float) -> dict[str, Any]:
    from bot.app import build_application, on_startup
    from bot.config import Config
    from bot.store import Database

    server = FakeTelegram(token=TOKEN, bot_username="TrucoBot")
    await server.start()
    folder = Path(tempfile.mkdtemp(prefix="truco-bench-"))
    config = Config.from_env(
        {
            "TELEGRAM_BOT_TOKEN": TOKEN,
            "TELEGRAM_API_URL": server.api_url,
            "DATABASE_URL": f"sqlite:///{folder}/bench.db",
            "TRUCO_ROBOT_DELAY": "0",
            "TRUCO_POLL_TIMEOUT": "1",
            "TRUCO_ROBOT_BUDGET_MS": "20",
        },
        env_file=None,
    )
    db = Database(config.database_url)
    app = build_application(config, db)
    await app.initialize()
    await on_startup(app)
    assert app.updater is not None
    await app.updater.start_polling(poll_interval=0, timeout=1)
    await app.start()
    latencies: list[float] = []
    groups = []
    try:
        until = time.monotonic() + seconds
        people = []
        for i in range(tables):
            user = server.add_user(f"P{i}")
            group = server.add_group(f"Mesa {i}", admins=[user])
            groups.append(group)
            person = _Person(server, user, group)
            server.listeners.append(person.on_event)
            people.append(person.play(until, latencies))
        await asyncio.gather(*people)
    finally:
        await app.updater.stop()
        await app.stop()
        await app.shutdown()
        await server.stop()
    from sqlmodel import select

    from bot.models import Event

    with db.session() as s:
        hands = len(s.exec(select(Event).where(Event.kind == "hand_over")).all())
    db.close()
    lat = sorted(latencies)

    def pct(p: float) -> float:
        return round(lat[min(len(lat) - 1, int(p * len(lat)))] * 1000, 1) if lat else 0.0

    return {
        "tables": tables,
        "seconds": seconds,
        "presses": len(lat),
        "press_to_answer_ms": {"p50": pct(0.50), "p95": pct(0.95)},
        "mean_ms": round(statistics.fmean(lat) * 1000, 1) if lat else 0.0,
        "hands": hands,
        "api_calls": len(server.calls),
        "api_calls_per_hand": round(len(server.calls) / hands, 1) if hands else None,
        "peak_calls_per_minute_one_group": max(
            (server.peak_calls_per_minute(g) for g in groups), default=0
        ),
    }


def run(tables: int = 200, seconds: float = 30.0) -> dict[str, Any]:
    """Run the benchmark and return its figures."""
    return asyncio.run(_run(tables, seconds))
