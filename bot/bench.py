"""``truco bot-bench``: many tables at once against the fake Bot API, figures as JSON.

Each table is a group where one simulated person plays 1×1 matches against a
robot (robot delay 0; levels fácil, médio, difícil in turn, or one level for
all) by pressing the first button of their private hand, and Revanche when a
match ends. As in production, the bot runs alone in this process; the fake
Telegram and the simulated people run in a second process, so the bot's event
loop is not shared with its load.

Measured: the time from a button press entering Telegram's update queue to the
bot's answerCallbackQuery reaching it (p50/p95/p99, taken in the fake's process:
long polling, HTTP both ways and the bot's work), Bot API calls per hand, the
peak calls per minute to one group, and the bot's event-loop lag.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import resource
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

from bot.domain.values import AddRobot, RobotLevel, Start
from bot.sandbox.fakeapi import FakeTelegram
from bot.telegram.callbacks import Prefix, parse_lobby

TOKEN = "123456:BENCH"
LEVELS = tuple(RobotLevel)


def _buttons(message: dict[str, Any], kinds: str) -> list[str]:
    rows = (message.get("reply_markup") or {}).get("inline_keyboard", [])
    return [
        b["callback_data"]
        for row in rows
        for b in row
        if b.get("callback_data", "")[:1] and b["callback_data"][0] in kinds
    ]


class _Person:
    """A simulated person: adds a robot, starts, presses the first move, asks for Revanche."""

    def __init__(self, server: FakeTelegram, user: int, group: int, level: RobotLevel) -> None:
        self.server, self.user, self.group = server, user, group
        self.robot = AddRobot(level)
        self.robot_added = False
        self.latest: tuple[int, int, str] | None = None  # chat, message id, callback_data
        self.changed = asyncio.Event()

    def on_event(self, event: dict[str, Any]) -> None:
        """A message or edit in one of this person's chats: remember the newest button."""
        msg = event["message"]
        if event["chat_id"] == self.user:
            moves = _buttons(msg, Prefix.MOVE)
        else:
            lobby = _buttons(msg, Prefix.LOBBY)
            wanted: AddRobot | Start = Start() if self.robot_added else self.robot
            moves = [d for d in lobby if parse_lobby(d)[1] == wanted]
            moves += _buttons(msg, Prefix.REMATCH)
        if moves:
            self.latest = (event["chat_id"], msg["message_id"], moves[0])
            self.changed.set()

    async def play(self, until: float, latencies: list[float]) -> None:
        """Open a table and keep pressing until time is up."""
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
                answer = await self.server.user_presses(self.user, chat, mid, data, 30)
            except (TimeoutError, LookupError):
                continue
            if data.startswith(Prefix.MOVE):
                latencies.append(time.perf_counter() - start)
            elif (
                data.startswith(Prefix.LOBBY)
                and parse_lobby(data)[1] == self.robot
                and not answer["show_alert"]
            ):
                self.robot_added = True
            elif data.startswith(Prefix.REMATCH):
                self.robot_added = True  # Revanche seats the same robot


async def _load(conn: Connection, tables: int, seconds: float, robots: str) -> None:
    server = FakeTelegram(token=TOKEN, bot_username="TrucoBot")
    await server.start()
    conn.send(server.api_url)
    await asyncio.to_thread(conn.recv)  # the bot is polling
    people: dict[int, _Person] = {}
    groups = []
    for i in range(tables):
        user = server.add_user(f"P{i}")
        group = server.add_group(f"Mesa {i}", admins=[user])
        groups.append(group)
        level = LEVELS[i % len(LEVELS)] if robots == "mix" else RobotLevel(robots)
        people[user] = people[group] = _Person(server, user, group, level)

    def dispatch(event: dict[str, Any]) -> None:
        if event["type"] in ("message", "edit") and event["chat_id"] in people:
            people[event["chat_id"]].on_event(event)

    server.listeners.append(dispatch)
    latencies: list[float] = []
    until = time.monotonic() + seconds
    await asyncio.gather(*(p.play(until, latencies) for p in set(people.values())))
    conn.send(
        {
            "latencies": latencies,
            "api_calls": len(server.calls),
            "peak": max((server.peak_calls_per_minute(g) for g in groups), default=0),
        }
    )
    await asyncio.to_thread(conn.recv)  # the bot has stopped
    await server.stop()


def _load_process(conn: Connection, tables: int, seconds: float, robots: str) -> None:
    """Entry point of the load process: fake Telegram plus simulated people."""
    asyncio.run(_load(conn, tables, seconds, robots))


async def _watch_loop(lags: list[float], interval: float = 0.01) -> None:
    """Record how late the event loop wakes up (a blocked loop delays every answer)."""
    while True:
        start = time.perf_counter()
        await asyncio.sleep(interval)
        lags.append(time.perf_counter() - start - interval)


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000, 1)


async def _run(tables: int, seconds: float, robots: str, database_url: str) -> dict[str, Any]:
    from bot.config import Config
    from bot.domain import Database, messages
    from bot.telegram.app import build_application, on_startup

    ours, theirs = multiprocessing.Pipe()
    load = multiprocessing.get_context("spawn").Process(
        target=_load_process, args=(theirs, tables, seconds, robots), daemon=True
    )
    load.start()
    api_url = await asyncio.to_thread(ours.recv)
    config = Config.from_env(
        {
            "TELEGRAM_BOT_TOKEN": TOKEN,
            "TELEGRAM_API_URL": api_url,
            "DATABASE_URL": database_url,
            "TRUCO_ROBOT_DELAY": "0",
            "TRUCO_POLL_TIMEOUT": "1",
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
    lags: list[float] = []
    watch = asyncio.create_task(_watch_loop(lags))
    cpu = resource.getrusage(resource.RUSAGE_SELF)
    try:
        ours.send("go")
        figures = await asyncio.to_thread(ours.recv)
    finally:
        used = resource.getrusage(resource.RUSAGE_SELF)
        watch.cancel()
        await app.updater.stop()
        await app.stop()
        await app.shutdown()
        ours.send("stop")
        await asyncio.to_thread(load.join, 10)
    hands = messages.count_events(db, "hand_over")
    db.close()
    lat: list[float] = figures["latencies"]
    return {
        "database": make_url(database_url).get_backend_name(),
        "tables": tables,
        "seconds": seconds,
        "robots": robots,
        "presses": len(lat),
        "press_to_answer_ms": {
            "p50": _pct(lat, 0.50),
            "p95": _pct(lat, 0.95),
            "p99": _pct(lat, 0.99),
        },
        "mean_ms": round(sum(lat) / len(lat) * 1000, 1) if lat else 0.0,
        "hands": hands,
        "api_calls": figures["api_calls"],
        "api_calls_per_hand": round(figures["api_calls"] / hands, 1) if hands else None,
        "peak_calls_per_minute_one_group": figures["peak"],
        "bot_loop_lag_ms": {"p99": _pct(lags, 0.99), "max": _pct(lags, 1.0)},
        "bot_cpu_seconds": round(used.ru_utime + used.ru_stime - cpu.ru_utime - cpu.ru_stime, 1),
    }


class BenchError(Exception):
    """The benchmark cannot run on this database (one line, for the user)."""


def prepare_database(url: str | None, reset: bool) -> str:
    """The database to measure: ``DATABASE_URL`` (emptied with ``reset``) or a new SQLite file.

    A database with games in it is refused: the bench's people and groups would meet
    tables left by an earlier run.
    """
    from bot.domain import Database

    if not url:
        return f"sqlite:///{Path(tempfile.mkdtemp(prefix='truco-bench-'))}/bench.db"
    db = Database(url, migrate=False)
    try:
        if reset:
            db.drop_tables()
        elif db.holds_games():
            raise BenchError(
                "o banco de DATABASE_URL já tem partidas; use um banco só para o "
                "bot-bench ou --reset (apaga as tabelas do bot nesse banco)"
            )
    finally:
        db.close()
    return url


def run(
    tables: int = 200,
    seconds: float = 30.0,
    robots: str = "mix",
    *,
    database_url: str | None = None,
    reset: bool = False,
) -> dict[str, Any]:
    """Run the benchmark and return its figures (``robots``: a level or ``mix``).

    ``database_url`` defaults to ``DATABASE_URL``; without either, a new SQLite file.
    """
    if robots not in (*LEVELS, "mix"):
        raise ValueError(f"robots: {', '.join(LEVELS)} or mix")
    url = prepare_database(database_url or os.environ.get("DATABASE_URL"), reset)
    return asyncio.run(_run(tables, seconds, robots, url))
