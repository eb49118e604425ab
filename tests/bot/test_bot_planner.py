"""The group-call planner at the worst pace (robots at once, people every second), on the
held clock: a group never gets more than 20 calls a minute, every call of the match reaches
it (nearly all within 2 s, and no silence over 10 s), and /cancelar amid the match is
answered."""

from __future__ import annotations

import asyncio
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlmodel import col, select

from bot.domain import GameStatus, flood, outbox, tables
from bot.domain.models import Game, OutboxMessage
from bot.domain.outbox import Announcement
from bot.domain.values.game import Change
from bot.sandbox.fakeapi import FLOOD_CALLS, FakeTelegram
from bot.telegram.budget import table_traffic
from bot.telegram.context import runtime_of
from bot.telegram.planner import QUIET, SILENT, Traffic, plan, table_keep, urgent_keep
from bot.telegram.publish.table import URGENT_SAYINGS, publish_game
from bot.tools.pace import GroupFigures, group_figures
from engine import Match, TableOptions
from tests.bot.harness import (
    FakeClock,
    Harness,
    button,
    moves,
    new_lobby,
    running,
    seat_match,
)

CALL_LABELS = ("Truco!", "Seis!", "Nove!", "Doze!")


def test_the_planner_keeps_the_minute_for_calls_then_commands_then_the_table() -> None:
    now = 1000.0
    full = [now - 50 + i for i in range(19)]  # 19 calls in the window, the last 32 s ago
    # a call goes while one call of the minute is left; nothing else does
    assert plan(full, now, 20, Traffic.URGENT).wait == 0
    assert plan(full, now, 20, Traffic.COMMAND).wait > 0
    assert plan(full, now, 20, Traffic.TABLE).wait > 0
    # commands keep the calls' 4; the table keeps 6 (the calls' and 2 for commands)
    assert (urgent_keep(20), table_keep(20)) == (4, 6)
    fifteen = [now - 30 + i for i in range(14)] + [now - 2]
    assert plan(fifteen, now, 20, Traffic.COMMAND).wait == 0
    # the end of a match keeps the calls' 4 too: the Revanche it offers calls at once
    assert plan(full, now, 20, Traffic.END).wait > 0
    assert plan(fifteen, now, 20, Traffic.END).wait == 0
    assert plan(fifteen, now, 20, Traffic.TABLE).wait > 0
    # once the minute is under pressure the table's traffic fills the group's silences...
    six = [now - 30, now - 20, now - 19, now - 18, now - 17, now - 2]
    paced = plan(six, now, 20, Traffic.TABLE)
    assert paced.pressed and paced.wait == pytest.approx(QUIET - 2)
    assert not paced.bare  # the table's share is not spent: it shows its state
    spent = plan(full, now, 20, Traffic.TABLE)  # 19 calls, the table's 14 spent
    assert spent.bare and spent.calm_in == pytest.approx(16)  # when 6 have left the window
    assert plan(six, now, 20, Traffic.URGENT).wait == 0
    # after a long silence it may spend the commands' share, never the calls'
    fourteen = [now - 50 + i for i in range(14)]
    assert plan(fourteen, now - 36 + 5, 20, Traffic.TABLE).wait > 0
    assert plan(fourteen, now - 36 + SILENT, 20, Traffic.TABLE).wait == 0
    assert plan([*fourteen, now - 20, now - 10], now, 20, Traffic.TABLE).wait > 0
    # a match that called often keeps as many calls free ahead, and the calls' reserve (its
    # pace read over at least PROJECTED_OVER s: two calls in 10 s are 7 in the next minute)
    two = [now - 30, now - 3]
    assert plan(two, now, 20, Traffic.TABLE, urgent=[now - 9, now - 5]).wait == 0
    assert plan(two, now, 20, Traffic.TABLE, urgent=[now - 9 + i for i in range(15)]).wait > 0
    # ...and is only a second apart while it is not
    calm = plan(six[1:], now, 20, Traffic.TABLE)  # five calls: not under pressure
    assert not calm.pressed and calm.wait == 0
    # three calls in the last 10 s (a match's first seconds at the worst pace) would spend
    # the minute: under pressure already, the table fills silences only
    brisk = plan([now - 6, now - 4, now - 2], now, 20, Traffic.TABLE)
    assert brisk.pressed and brisk.wait == pytest.approx(QUIET - 2)
    assert not plan([now - 16, now - 4, now - 2], now, 20, Traffic.TABLE).pressed
    # a lobby's quick taps are its people's pace: a second apart until the window holds
    # its share
    tapped = plan([now - 6, now - 4, now - 2], now, 20, Traffic.TABLE, lobby=True)
    assert not tapped.pressed and tapped.wait == 0
    assert plan(six, now, 20, Traffic.TABLE, lobby=True).pressed
    # a second between two calls to a group, whatever their kind
    assert plan([now - 0.4], now, 20, Traffic.URGENT).wait == pytest.approx(0.6)
    # small budgets leave each kind a call
    assert all(table_keep(n) < n and urgent_keep(n) <= table_keep(n) for n in range(2, 31))


def test_while_everyone_plays_in_the_app_the_tables_lines_fill_the_groups_silences() -> None:
    now = 1000.0
    calm = [now - 30, now - 3]  # two calls in the minute: no pressure
    assert plan(calm, now, 20, Traffic.TABLE).wait == 0
    # the players see every line in the app: the group hears them once it is silent
    assert plan(calm, now, 20, Traffic.TABLE, in_app=True).wait == pytest.approx(SILENT - 3)
    assert plan([now - 30, now - SILENT], now, 20, Traffic.TABLE, in_app=True).wait == 0
    # a call never waits for it, and a group that heard nothing yet hears the line at once
    assert plan(calm, now, 20, Traffic.URGENT, in_app=True).wait == 0
    assert plan([], now, 20, Traffic.TABLE, in_app=True).wait == 0


def _jobs_due(h: Harness) -> int:
    """The bot's jobs due by the held clock but for people's deadlines (still to run, or
    running)."""
    assert h.db is not None and h.clock is not None
    with h.db.session() as s:
        q = text("SELECT count(*) FROM jobs WHERE due_at <= :now AND kind <> 'deadline'")
        return int(s.execute(q, {"now": h.clock.now}).scalar_one())


async def _settled(h: Harness) -> None:
    """Wait (in real time) until the bot has done what it can at this moment of the held
    clock: nothing due but what waits for the clock to move."""
    assert h.clock is not None
    clock = h.clock
    await h.wait(lambda: clock.next_wake() is not None or not _jobs_due(h), 60)


def _choose(found: dict[str, str], rng: random.Random) -> str:
    """A quick player's press: a random card, truco now and then, answers both ways."""
    cards = [k for k in found if k not in CALL_LABELS and k not in ("Desce!", "Corro")]
    if "Desce!" in found:
        return "Desce!" if rng.random() < 0.5 else "Corro"
    if "Truco!" in found and rng.random() < 0.3:
        return "Truco!"
    return rng.choice(sorted(cards)) if cards else sorted(found)[0]


async def _fast_match(
    h: Harness,
    users: list[int],
    group: int,
    gid: int,
    shown: dict[int, float],
    *,
    seed: int,
    cancel_at: int = 0,
    catch_up: bool = True,
) -> tuple[dict[int, float], list[tuple[float, float | None]], tuple[float, float]]:
    """Play a match out as fast as it goes: every person presses one held second after their
    turn begins, the robots answer at once, and nobody waits for the group.

    ``shown`` gets when each of the bot's messages in the group came (held time).
    Returns when each stored version was made (held time), /cancelar's (sent, answered)
    when ``cancel_at`` (the first person sends it at that press, the question is left
    open), and the held time from the first press to the match's end. ``catch_up``: then
    let the held clock run until the group has heard everything (else the next press,
    Revanche, comes at once).
    """
    assert h.clock is not None and h.db is not None
    clock, db = h.clock, h.db
    made: dict[int, float] = {}

    def stored(change: Change) -> None:
        if change.game_id == gid:
            made.setdefault(change.version, clock())

    runtime_of(h.app).notifier.on_change(stored)
    cancel: list[tuple[float, float | None]] = []

    def seen(event: dict[str, Any]) -> None:
        msg = event.get("message") or {}
        if event.get("type") != "message" or not msg.get("from", {}).get("is_bot"):
            return
        if event.get("chat_id") == group:
            shown[int(msg["message_id"])] = clock()
        if cancel and cancel[0][1] is None and "Cancelar a partida" in msg.get("text", ""):
            cancel[0] = (cancel[0][0], clock())

    h.server.listeners.append(seen)
    h.pumping = False  # the people move the clock here, a second a press
    pressed: set[tuple[int, str]] = set()
    presses = idle = 0
    start = clock()
    loop = asyncio.get_running_loop()
    end = loop.time() + 600
    while (table := tables.load(db, gid)).status == GameStatus.PLAYING:
        assert loop.time() < end, "the match did not end in time"
        turn = None
        for u in users:
            found = moves(h.hand(u) or {})
            version = next(iter(found.values()), "::").split(":")[1]
            if found and version == str(table.version) and (u, version) not in pressed:
                turn = (u, found, version)
        if turn is None:
            await asyncio.sleep(0.02)  # the robots or the hands' redraw are not done yet
            idle += 1
            if idle % 50 == 0:  # nothing moved for a while: what waits, waits for the clock
                await _settled(h)
                clock.advance(1.0)
            continue
        idle = 0
        await _settled(h)
        clock.advance(1.0)  # the person thinks a second
        u, found, version = turn
        pressed.add((u, version))
        label = _choose(found, random.Random(f"{seed}:{version}"))
        msg = h.hand(u)
        assert msg is not None
        await h.server.user_presses(u, u, msg["message_id"], found[label])
        presses += 1
        if presses == cancel_at:
            cancel.append((clock(), None))
            await h.server.user_sends(users[0], group, "/cancelar")
    moved = (start, clock())
    table = h.table_message(group)
    assert table is not None
    # the table shows no state gone stale while the match ran: its last drawing was either
    # the one the group saw at the end, or the fast one that claims nothing
    last = tables.load(db, gid).view(0).hand_number + 1
    assert "⏩" in table["text"] or f"Mão {last} " in table["text"], table["text"]
    assert "⏩" not in table["text"] or "Vez de" not in table["text"]
    # the group catches up: the held clock moves on as the bot waits for it
    for _ in range(300 if catch_up else 0):
        if not _unsent(h, group) and h.over_message(group) is not None and not _jobs_due(h):
            break
        await _settled(h)
        clock.advance(1.0)
    h.server.listeners.remove(seen)
    return made, cancel, moved


def _unsent(h: Harness, chat_id: int) -> int:
    assert h.db is not None
    with h.db.session() as s:
        q = select(OutboxMessage.id).where(
            OutboxMessage.chat_id == chat_id, col(OutboxMessage.state).in_(("pending", "sending"))
        )
        return len(list(s.exec(q)))


def _figures(
    h: Harness,
    group: int,
    gid: int,
    made: dict[int, float],
    shown_at: dict[int, float],
    moved: tuple[float, float],
    commands: list[tuple[float, float | None]],
) -> GroupFigures:
    """The group's figures of the match (``bot.tools.pace``) from the fake Telegram's calls
    and the outbox: a call is made at its version's held time, shown at its message's."""
    assert h.db is not None
    with h.db.session() as s:
        rows = list(s.exec(select(OutboxMessage).where(OutboxMessage.game_id == gid)))
    said = []
    for r in rows:
        payload = json.loads(r.payload)
        if r.kind != Announcement.SAID or payload.get("saying") not in URGENT_SAYINGS:
            continue
        version = int(r.key.split(":")[2])
        shown = shown_at.get(r.message_id) if r.message_id is not None else None
        said.append((made[version], shown))
    hands = len([r for r in rows if r.kind == Announcement.HAND_OVER])
    calls = [c.time for c in h.server.calls_to(group, FLOOD_CALLS)]
    return group_figures(calls, hands, said, moved, commands)


@pytest.mark.long
@pytest.mark.parametrize("players", [2, 4])
async def test_a_match_at_the_worst_pace_keeps_the_group_told_within_its_minute(
    server: FakeTelegram, tmp_path: Path, players: int
) -> None:
    async with running(server, tmp_path, clock=FakeClock(), TRUCO_DECISION_SECONDS=60) as h:
        users = [server.add_user(n) for n in ("Ana", "Beto")[: players // 2]]
        group = server.add_group("G", admins=users[:1], members=users[1:])
        match = Match("paulista", TableOptions(players=players, target=12), seed=7)
        gid = await seat_match(h, group, users, match)
        shown_at: dict[int, float] = {}
        made, cancel, moved = await _fast_match(
            h, users, group, gid, shown_at, seed=players, cancel_at=20 if players == 4 else 0
        )
        figures = _figures(h, group, gid, made, shown_at, moved, cancel)
        shown: dict[str, Any] = figures.as_json()
        assert figures.announced, f"no call was made: choose another seed {shown}"
        assert moved[1] - moved[0] > 30, f"the match was too short to press the group: {shown}"
        assert figures.peak_per_minute <= 20, shown
        # every call reaches the group, none later than the minute allows
        assert (figures.announced_p95 or 0) <= 61, shown
        # the calls within 2 s (the table leaves them the minute from the match's first
        # seconds), and the group never silent for 10 s while the match moves
        assert (figures.announced_in_time or 0) >= 0.9, shown
        assert figures.longest_silence <= 10.0, shown
        if players == 4:  # /cancelar amid the match is answered (its question asked)
            assert figures.commands_answered == 1 and (figures.commands_p95 or 0) <= 5, shown


async def _against_a_robot(h: Harness) -> tuple[int, int, int]:
    """Ana against a médio robot in a group, paulista 1×1 to 12: her id, the group's, the
    match's."""
    ana = h.server.add_user("Ana")
    group = h.server.add_group("G", admins=[ana])
    match = Match("paulista", TableOptions(players=2, target=12), seed=7)
    return ana, group, await seat_match(h, group, [ana], match)


async def test_a_table_still_showing_a_hand_claims_nothing_once_the_minute_is_spent(
    server: FakeTelegram, tmp_path: Path
) -> None:
    # the group's minute nearly spent, and a line that is not a call waiting for its silence:
    # the table still showing "Vez de Ana" takes the form that claims nothing at once, as an
    # urgent call (it shows no score: no hand's result comes before its closing); it waited
    # behind the line before, and at the worst pace something was always owed (a 2×2 ended
    # under a table drawn 45 s earlier, "Mão 4 · Vez de Ana", in CI)
    async with running(server, tmp_path, clock=FakeClock(), TRUCO_DECISION_SECONDS=60) as h:
        assert h.clock is not None and h.db is not None
        ana, group, gid = await _against_a_robot(h)
        await h.wait(lambda: "Vez de Ana" in (h.table_message(group) or {}).get("text", ""))
        h.pumping = False
        await _settled(h)
        rt = runtime_of(h.app)
        now = rt.budget.clock()
        spent = flood.group_budget(group, rt.budget.group_limit)
        for k in range(15):  # a call every 2 s, the last 2 s ago: the table's share is gone
            flood.take(h.db, [spent], now - 30 + 2 * k)
        with h.db.session() as s:
            game = s.get(Game, gid)
            assert game is not None
            maker = {"name": "Ana", "user": ana, "robot": None}
            said = {"hand": 1, "seat": 0, "saying": "accept", "step": 0, "value": 3}
            outbox.record(s, game, Announcement.SAID, f"{gid}:said:test", {**said, "maker": maker})
            s.commit()
        before = len(h.bot_messages(group))
        with table_traffic():  # as the table job draws it
            drawing = asyncio.create_task(publish_game(h.app, gid))
        for _ in range(4):  # a call waits for the second after the group's last one
            await h.wait(lambda: drawing.done() or h.clock.next_wake() is not None)
            if drawing.done():
                break
            h.clock.advance(0.5)
        await drawing
        table = h.table_message(group)
        assert table is not None and "⏩" in table["text"], table
        assert "Vez de" not in table["text"] and not re.search(r"\d × \d", table["text"]), table

        # the line still waits for the group's silence: the table's edit was the only call
        assert len(h.bot_messages(group)) == before and _unsent(h, group) == 1


async def test_a_revanche_at_the_worst_pace_is_not_held_behind_the_last_matchs_table(
    server: FakeTelegram, tmp_path: Path
) -> None:
    # a person who presses Revanche a second after the end and plays on at once: the old
    # table's last drawing waits for a silence of the group's minute, and the Revanche's
    # calls (the same chat's table job) must not wait behind it; the first match spent the
    # minute, and its end waits for the room the Revanche's first calls need
    async with running(server, tmp_path, clock=FakeClock(), TRUCO_DECISION_SECONDS=60) as h:
        assert h.clock is not None and h.db is not None
        ana, group, first = await _against_a_robot(h)
        shown_at: dict[int, float] = {}
        await _fast_match(h, [ana], group, first, shown_at, seed=2, catch_up=False)
        over = None
        for _ in range(60):  # the end is a call: it comes within a held second or two
            await _settled(h)
            h.clock.advance(1.0)
            if (over := h.over_message(group)) is not None:
                break
        assert over is not None
        # one call for the last hand and the end: its closing is the end's first line
        assert over["text"].startswith("Mão "), over["text"]
        await _settled(h)
        h.clock.advance(1.0)  # Ana presses Revanche a second after
        await server.user_presses(
            ana, group, over["message_id"], button(over, "Revanche")["callback_data"]
        )
        playing = tables.active_table(h.db, group, None)
        assert playing is not None and playing.id != first
        made, _, moved = await _fast_match(h, [ana], group, playing.id, shown_at, seed=2)
        figures = _figures(h, group, playing.id, made, shown_at, moved, [])
        shown: dict[str, Any] = figures.as_json()
        assert figures.announced, f"no call was made: choose another seed {shown}"
        assert figures.peak_per_minute <= 20, shown
        assert (figures.announced_in_time or 0) >= 0.9, shown
        assert figures.longest_silence <= 10.0, shown


async def test_quick_taps_in_a_new_lobby_are_each_shown_within_a_second_or_so(
    server: FakeTelegram, tmp_path: Path
) -> None:
    # "+ Robô" three times, each tap on the newest drawing as soon as it shows: the lobby's
    # edits answer the taps, so a new group's first few do not wait for the group's
    # silences as a fast match's table does (they did: the third waited 5 s, and taps
    # made meanwhile on the old drawing counted as double taps)
    async with running(server, tmp_path, clock=FakeClock()) as h:
        assert h.clock is not None
        ana = server.add_user("Ana")
        group = server.add_group("G", admins=[ana])
        mid = (await new_lobby(h, group, ana, "2x2"))["message_id"]
        for robots in (1, 2, 3):
            newest = server.message(group, mid)
            data = button(newest, "Robô médio")["callback_data"]
            answer = await server.user_presses(ana, group, mid, data)
            assert not answer["show_alert"] and "Já feito" not in (answer["text"] or "")
            waited = 0.0
            while server.message(group, mid)["text"].count("🤖") < robots:
                assert waited < 1.5, f"robot {robots} not shown {waited} s after its tap"
                await _settled(h)
                h.clock.advance(0.25)
                waited += 0.25
