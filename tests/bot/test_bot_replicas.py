"""Three webhook replicas on one PostgreSQL, killed with SIGKILL at random points.

Two people (partners) and two robots play a 2×2 match in a group; Ana answers every
call, Beto only plays cards (so no press ever races his partner's) and lets his first
decision of hand 2 time out. No other decision can time out: the clock of a decision is
far longer than the whole match, and Beto's silent one is run out by the test (the
reference moves its held clock; the replicas, on the wall clock, find that decision's
deadline moved to now). A wall-clock deadline of 20 s once ran out under a loaded machine
(two suites at once) for a press the reference had made, and the two matches parted.
The replicas sit behind the fake Telegram's round-robin proxy and are
killed and restarted while the match runs. The match must end exactly as an
uninterrupted run of the same seed and the same presses does, with every timeout
applied once, every announcement posted at most once, the group's flood budget
held and the ranking counted once.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import signal
import subprocess
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from bot.domain import messages, outbox
from bot.domain.store import Database
from bot.domain.values.game import GameStatus
from bot.sandbox.fakeapi import FLOOD_CALLS, FakeTelegram
from bot.sandbox.runner import free_port
from tests.bot.harness import (
    TOKEN,
    FakeClock,
    buttons,
    database_url,
    running,
    start_bot,
)

PG = os.environ.get("TRUCO_TEST_DATABASE_URL")
pytestmark = pytest.mark.skipif(not PG, reason="needs TRUCO_TEST_DATABASE_URL (PostgreSQL)")
URL = "https://truco.example/telegram/hook"
SECRET = "replicas-secret-0123"
ENV = {
    "TRUCO_SEED": "11",
    "TRUCO_ROBOT_DELAY": "0",
    "TRUCO_DECISION_SECONDS": "3600",
    "TRUCO_ROBOT_BUDGET_MS": "20",
    "TRUCO_JOB_LEASE": "2",
}
SILENT_HAND = 2
"""Beto lets his first decision in this hand time out."""


class Replica:
    """``truco bot`` in webhook mode as a subprocess on a fixed port."""

    def __init__(self, api_url: str, db_url: str, port: int, log: Path) -> None:
        self.api_url, self.db_url, self.port, self.log = api_url, db_url, port, log
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def address(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def settings(self) -> dict[str, str]:
        """The replica's settings over ``start_bot``'s: webhook mode on its own port."""
        return {
            **ENV,
            "TELEGRAM_WEBHOOK_URL": URL,
            "TELEGRAM_WEBHOOK_SECRET": SECRET,
            "TRUCO_LISTEN": f"127.0.0.1:{self.port}",
        }

    def start(self) -> None:
        self.proc = start_bot(self.api_url, self.db_url, self.log, **self.settings())

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


def newest_hand(server: FakeTelegram, user: int) -> dict[str, Any] | None:
    for m in reversed(server.messages(user)):
        if m["from"]["is_bot"] and any(
            b.get("callback_data", "").startswith("g") for b in buttons(m)
        ):
            return m
    return None


def settled(db: Database) -> bool:
    """The match is over and nothing is left to announce.

    Not "the Revanche message arrived": a replica killed while sending it leaves it
    ``uncertain``, and an announcement that may have been shown is never sent again.
    """
    with contextlib.suppress(Exception):  # a replica may be migrating or dying meanwhile
        drawing = messages.table_drawing(db, 1)
        states = outbox.counts(db)
        return (
            drawing is not None
            and drawing.table.status == GameStatus.OVER
            and not states.get("pending", 0)
            and not states.get("sending", 0)
        )
    return False


def run_out_on_the_wall_clock(db_url: str) -> Callable[[int], None]:
    """What runs the silent decision's clock out for replicas on the wall clock: its
    deadline, stored with the game and as the deadline job, moved to now (the replicas
    find the job due at their next look and apply the timeout as they would at its time)."""

    def run_out(version: int) -> None:
        db = Database(db_url, migrate=False)
        try:
            with db.engine.begin() as conn:
                now = time.time()
                moved = conn.execute(
                    text("UPDATE games SET deadline_at = :now WHERE id = 1 AND version = :v"),
                    {"now": now, "v": version},
                ).rowcount
                assert moved == 1, f"the game is no longer at version {version}"
                conn.execute(
                    text("UPDATE jobs SET due_at = :now WHERE kind = 'deadline' AND key = '1'"),
                    {"now": now},
                )
        finally:
            db.close()

    return run_out


def run_out_on_a_held_clock(clock: FakeClock) -> Callable[[int], None]:
    """What runs the silent decision's clock out when the test holds the bot's clock."""
    return lambda _version: clock.advance(float(ENV["TRUCO_DECISION_SECONDS"]) + 1)


async def person(
    server: FakeTelegram,
    user: int,
    silent_hand: int | None,
    done: asyncio.Event,
    *,
    cards_only: bool = False,
    run_out: Callable[[int], None] | None = None,
) -> None:
    """Press the first move of the newest hand message, except in ``silent_hand``.

    ``cards_only``: never answer or call (the partner does), only play cards. ``run_out``:
    called with the silent decision's version, to make its clock run out at once.
    """
    silent_version: str | None = None
    while not done.is_set():
        msg = newest_hand(server, user)
        hand = re.search(r"Mão (\d+) ·", msg["text"]) if msg else None
        cards = [
            b["callback_data"]
            for b in (buttons(msg) if msg else [])
            if b["callback_data"][:1] == "g" and b["callback_data"].rsplit(":", 1)[1][:1] in "pcb"
        ]
        if cards and hand and int(hand[1]) == silent_hand and silent_version is None:
            silent_version = cards[0].rsplit(":", 1)[0]  # g<game>:<version>
            if run_out is not None:
                run_out(int(silent_version.split(":")[1]))
        if msg is None or (
            silent_version is not None
            and any(b["callback_data"].startswith(silent_version + ":") for b in buttons(msg))
        ):
            await asyncio.sleep(0.05)
            continue
        moves = [b["callback_data"] for b in buttons(msg) if b["callback_data"][:1] == "g"]
        if cards_only:
            moves = [d for d in moves if d.rsplit(":", 1)[1][:1] in "pcb"]
        if not moves:
            await asyncio.sleep(0.05)
            continue
        data = moves[0]
        with contextlib.suppress(TimeoutError, LookupError):
            await server.user_presses(user, user, msg["message_id"], data, timeout=20)
        await asyncio.sleep(0.02)


async def open_table(server: FakeTelegram) -> tuple[int, int, int]:
    """Ana opens a 2×2 table, a médio robot sits next, then Beto (her partner); robots fill."""
    ana, beto = server.add_user("Ana"), server.add_user("Beto")
    group = server.add_group("Truco", admins=[ana], members=[beto])
    for u in (ana, beto):
        await server.user_sends(u, u, "/start")
        # three replicas starting on a loaded machine take a while to answer the first update
        await server.wait_for(lambda u=u: any(m["from"]["is_bot"] for m in server.messages(u)), 90)
    # without sinais: a robot's signal passes no turn, so it could land before or after a
    # press in one run and the other, and the two logs would differ only in that order
    await server.user_sends(ana, group, "/truco paulista 2x2 sem-sinais")

    def lobby() -> dict[str, Any] | None:
        for m in server.messages(group):
            if any(b.get("callback_data", "").startswith("l") for b in buttons(m)):
                return m
        return None

    async def press(user: int, code: str) -> None:
        msg = await server.wait_for(lobby, 60)
        data = next(b["callback_data"] for b in buttons(msg) if b["callback_data"].endswith(code))
        answer = await server.user_presses(user, group, msg["message_id"], data, timeout=20)
        assert not answer["show_alert"], answer

    await press(ana, ":r2")
    await server.wait_for(lambda: "🤖" in (lobby() or {}).get("text", ""), 60)
    await press(beto, ":j")
    await server.wait_for(lambda: "Beto" in (lobby() or {}).get("text", ""), 60)
    await press(ana, ":go")
    return ana, beto, group


async def play(
    server: FakeTelegram,
    ana: int,
    beto: int,
    db_url: str,
    timeout: float,
    run_out: Callable[[int], None],
) -> None:
    done = asyncio.Event()
    players = [
        asyncio.create_task(person(server, ana, None, done)),
        asyncio.create_task(
            person(server, beto, SILENT_HAND, done, cards_only=True, run_out=run_out)
        ),
    ]
    db = Database(db_url, migrate=False)
    try:
        await server.wait_for(lambda: settled(db), timeout, interval=0.2)
    finally:
        db.close()
        done.set()
        outcomes = await asyncio.gather(*players, return_exceptions=True)
        for outcome in outcomes:
            if isinstance(outcome, Exception):
                raise outcome  # a person's failure says more than the wait that followed


def moves(url: str) -> list[tuple[str, int | None, str]]:
    db = Database(url, migrate=False)
    try:
        log = messages.events_of(db, 1)
    finally:
        db.close()
    kinds = ("button", "robot", "timeout", "inline")
    acts = [e for e in log if e.kind in kinds and "action" in e.data]
    versions = [e.version for e in acts]
    assert len(versions) == len(set(acts and versions)), "an action applied twice"
    return [(e.kind, e.seat, e.data["action"]) for e in acts]


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    s = FakeTelegram(token=TOKEN, group_limit=20)
    s.updates.retry_delay = 0.05
    await s.start()
    yield s
    await s.stop()


@pytest.mark.long
async def test_three_replicas_killed_at_random_points_end_like_an_uninterrupted_run(
    fake: FakeTelegram, tmp_path: Path
) -> None:
    # the reference: one process, never interrupted, the same seed and presses, on a clock
    # the test holds (the group's budget and Beto's silent decision cost no wall time)
    ref_server = FakeTelegram(token=TOKEN)
    await ref_server.start()
    try:
        (tmp_path / "ref").mkdir()
        clock = FakeClock()
        async with running(ref_server, tmp_path / "ref", clock=clock, **ENV) as h:
            ana, beto, _group = await open_table(ref_server)
            await play(
                ref_server, ana, beto, h.db_url, timeout=120, run_out=run_out_on_a_held_clock(clock)
            )
            reference = moves(h.db_url)
    finally:
        await ref_server.stop()
    assert Counter(k for k, *_ in reference)["timeout"] == 1  # Beto's silent decision only

    url = database_url(tmp_path)
    replicas = [
        Replica(fake.api_url, url, free_port(), tmp_path / f"replica{i}.log") for i in range(3)
    ]
    for r in replicas:
        r.start()
    fake.route_webhook([r.address for r in replicas])
    rng = random.Random(5)
    db = Database(url, migrate=False)
    kills, stuck = 0, False
    try:
        ana, beto, group = await open_table(fake)
        playing = asyncio.create_task(
            play(fake, ana, beto, url, timeout=240, run_out=run_out_on_the_wall_clock(url))
        )
        # kill a random replica whenever the match has moved a random number of steps
        seen = 0
        while not playing.done():
            await asyncio.sleep(0.05)
            with contextlib.suppress(Exception):
                # counted, not read: the whole log read 20 times a second cost more CPU
                # than the replicas
                with db.engine.connect() as conn:
                    count = text("SELECT count(*) FROM events WHERE game_id = 1")
                    now = int(conn.execute(count).scalar_one())
                if now - seen >= rng.randint(4, 14):
                    seen = now
                    victim = rng.choice(replicas)
                    victim.kill()
                    kills += 1
                    await asyncio.sleep(rng.uniform(0, 0.5))
                    victim.start()
        try:
            await playing
        except TimeoutError:
            stuck = True
    finally:
        for r in replicas:
            r.stop()
        logs = "\n".join(r.log.read_text()[-2000:] for r in replicas)
    assert not stuck, f"the match did not end within 240 s\n{logs}"
    assert kills >= 3
    resumed = moves(url)
    assert resumed == reference, logs
    # every announcement posted at most once, each hand's closing and the end
    states = outbox.counts(db)
    assert states.get("pending", 0) == 0 and states.get("sending", 0) == 0, states
    closing_lines = [
        n
        for m in fake.messages(group)
        if m["from"]["is_bot"] and "Placar" in m["text"]
        for n in re.findall(r"Mão (\d+)", m["text"])
    ]
    assert len(closing_lines) == len(set(closing_lines)), closing_lines
    ends = [m for m in fake.messages(group) if "Fim de jogo" in m.get("text", "")]
    assert len(ends) <= 1
    # a replica killed while it sent the end cannot know whether Telegram took it: the
    # table then offers the Revanche too, lest the group have none (``ending_unsure``)
    others = [
        m
        for m in fake.messages(group)
        if "Revanche" in str(m.get("reply_markup")) and m not in ends
    ]
    assert len(others) <= 1 and all(m["text"].startswith("🃏") for m in others), others
    calls = [
        (round(c.time - t0, 1), c.method)
        for c in fake.calls_to(group, FLOOD_CALLS)
        for t0 in [fake.calls[0].time]
    ]
    # what Telegram's flood limit counts: sends, edits, deletions (the /truco's
    # getChatMemberCount is a read: counted with the 20 it once made a "21")
    assert fake.peak_calls_per_minute(group, FLOOD_CALLS) <= 20, calls
    from bot.domain.people import ranking

    board = ranking(db, group)
    db.close()
    assert sum(r.played for r in board) == 2  # Ana and Beto, once each
