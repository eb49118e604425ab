"""Faults found by a fault-injection run: each one keeps the table moving and loses nothing."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest
from telegram.error import BadRequest

from bot.domain import messages, outbox, tables
from bot.sandbox.fakeapi import FakeTelegram
from bot.telegram.context import BotContext, runtime_of
from bot.telegram.handlers.errors import on_error
from tests.bot.harness import (
    FakeClock,
    Harness,
    buttons,
    paulista_hand,
    press_first,
    running,
    seat_match,
)


async def play_to_the_end(h: Harness, game_id: int, people: list[int]) -> None:
    """Each person presses their first move whenever they have one, until the match is over
    (whatever the group sees of it)."""
    assert h.db is not None
    while tables.load(h.db, game_id).status != "over":  # type: ignore[union-attr]
        for u in people:
            with contextlib.suppress(TimeoutError, LookupError):
                await press_first(h.server, u)
        await asyncio.sleep(0.05)


def moves_of(h: Harness, kind: str) -> int:
    assert h.db is not None
    return sum(e.kind == kind and "action" in e.data for e in messages.events_of(h.db, 1))


async def test_a_failed_button_answer_does_not_stop_the_table(
    server: FakeTelegram, tmp_path: Path
) -> None:
    # a fixed deal in which the robot acts right after her move: with a random one her
    # card could win the trick, she would lead again, and the robot would only move
    # once her clock ran out (a minute of the test's time)
    async with running(server, tmp_path, clock=FakeClock(), TRUCO_SEED="1") as harness:
        await _failed_answers_do_not_stop(harness)


async def _failed_answers_do_not_stop(harness: Harness) -> None:
    s = harness.server
    ana = s.add_user("Ana")
    await s.user_sends(ana, ana, "/start")
    await s.user_sends(ana, ana, "/truco")
    await harness.wait(lambda: harness.hand(ana))
    # Telegram fails every answer for a while (5xx, or a press made while the bot was down)
    s.fail_next("answerCallbackQuery", 500, "Internal Server Error", times=50)
    while moves_of(harness, "button") == 0:  # the newest buttons (a robot may move first)
        hand = harness.hand(ana)
        assert hand is not None
        robots_before = moves_of(harness, "robot")
        data = next(b["callback_data"] for b in buttons(hand) if b["callback_data"][:1] == "g")
        with contextlib.suppress(TimeoutError):  # the answer never comes
            await s.user_presses(ana, ana, hand["message_id"], data, timeout=2)
    # the move was stored, and what follows it still happens: the robot plays, hands redraw
    await harness.wait(lambda: moves_of(harness, "button") == 1, 30)
    await harness.wait(lambda: moves_of(harness, "robot") > robots_before, 60)
    await harness.wait(lambda: harness.hand(ana) != hand, 60)


async def test_a_job_that_meets_a_locked_database_is_retried(
    server: FakeTelegram, tmp_path: Path
) -> None:
    # a fixed deal in which the robot acts right after her move (after a card she may lead
    # again, and the robot would not move at all)
    async with running(
        server, tmp_path, clock=FakeClock(), TRUCO_ROBOT_DELAY="0.3", TRUCO_SEED="1"
    ) as h:
        if not h.db_url.startswith("sqlite"):
            pytest.skip("locks the SQLite file the way a backup would")
        ana = server.add_user("Ana")
        await server.user_sends(ana, ana, "/start")
        await server.user_sends(ana, ana, "/truco")
        hand = await h.wait(lambda: h.hand(ana))
        robots = moves_of(h, "robot")
        data = next(b["callback_data"] for b in buttons(hand) if b["callback_data"][:1] == "g")
        await server.user_presses(ana, ana, hand["message_id"], data)
        # another connection holds the database longer than the bot's busy timeout (5 s)
        other = sqlite3.connect(h.db_url.removeprefix("sqlite:///"))
        other.execute("BEGIN EXCLUSIVE")
        try:
            await asyncio.sleep(6.5)
            assert moves_of(h, "robot") == robots  # nothing could be written meanwhile
        finally:
            other.rollback()
            other.close()
        # the robot's turn was not dropped: it runs once the database answers again
        await h.wait(lambda: moves_of(h, "robot") > robots, 15)
        text = runtime_of(h.app).metrics.text().decode()
        assert "truco_jobs_retried_total" in text


async def test_a_bot_removed_from_the_group_does_not_stay_in_the_resume_list(
    server: FakeTelegram, tmp_path: Path
) -> None:
    async with running(server, tmp_path, clock=FakeClock()) as h:
        ana = server.add_user("Ana")
        group = server.add_group("G", admins=[ana])
        await server.user_sends(ana, ana, "/start")
        await server.user_sends(ana, group, "/truco paulista 1x1 6")
        lobby = await h.wait(lambda: h.table(group))
        go = next(b["callback_data"] for b in buttons(lobby) if b["callback_data"].endswith(":go"))
        await server.user_presses(ana, group, lobby["message_id"], go)
        await h.wait(lambda: h.hand(ana))
        server.remove_bot(group)
        # the match goes on in private, to its end
        assert h.db is not None
        await play_to_the_end(h, 1, [ana])
        # the ending could not be posted (403): it is dropped, not owed for ever
        await h.wait(lambda: outbox.counts(h.db).get("pending", 0) == 0, 15)  # type: ignore[arg-type]
        assert outbox.counts(h.db).get("failed", 0) >= 1
        assert [t.id for t in tables.to_resume(h.db)] == []


async def test_an_ending_that_was_never_shown_leaves_the_revanche_on_the_table(
    harness: Harness,
) -> None:
    s = harness.server
    ana, beto = s.add_user("Ana"), s.add_user("Beto")
    group = s.add_group("G", admins=[ana], members=[beto])
    gid = await seat_match(harness, group, [ana, beto], paulista_hand(score=(11, 11)))
    await harness.wait(lambda: harness.table(group))
    # Telegram refuses the group's next messages: the iron hand's closing and the ending
    s.fail_next("sendMessage", 400, "Bad Request: chat not found", chat_id=group, times=2)
    db = harness.db
    assert db is not None
    await play_to_the_end(harness, gid, [ana, beto])
    # the ending is never sent again (it might have been shown), so the table carries the
    # Revanche: without it nobody could ask for one
    table = await harness.wait(
        lambda: (
            (m := harness.table_message(group))
            and any(b.get("callback_data", "")[:1] == "v" for b in buttons(m))
            and m
        )
    )
    assert outbox.counts(db).get("failed", 0) == 2
    assert not [m for m in harness.bot_messages(group) if "Fim de jogo" in m["text"]]
    revanche = next(b for b in buttons(table) if b.get("callback_data", "")[:1] == "v")
    answer = await s.user_presses(ana, group, table["message_id"], revanche["callback_data"])
    assert not answer["show_alert"], answer
    await harness.wait(lambda: tables.load(db, gid + 1))


async def test_a_failed_telegram_call_is_one_line_in_the_log_and_a_defect_keeps_its_trace(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # a button answered after Telegram's deadline (a loaded replica) is no defect: what
    # was pressed is stored, and a traceback per late answer only buries real ones
    late = BadRequest("Query is too old and response timeout expired or query id is invalid")
    with caplog.at_level(logging.WARNING, logger="bot.telegram.handlers.errors"):
        await on_error(object(), cast(BotContext, SimpleNamespace(error=late)))
        await on_error(object(), cast(BotContext, SimpleNamespace(error=KeyError("seat"))))
    late_line, defect = caplog.records
    assert "Query is too old" in late_line.getMessage() and late_line.exc_info is None
    assert late_line.levelno == logging.WARNING
    assert defect.levelno == logging.ERROR and defect.exc_info is not None
