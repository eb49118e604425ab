"""The group hears the table: every call and answer, the mão de onze/dez decision and a
timeout come as new messages naming the seat, before the table shows what followed."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest
from sqlmodel import col, select

from bot.domain.messages import events_of
from bot.domain.models import OutboxMessage
from bot.domain.outbox import Announcement, outgoing
from bot.domain.values.settings import Noise
from bot.sandbox.fakeapi import FLOOD_CALLS, FakeTelegram
from bot.telegram.context import runtime_of
from bot.telegram.planner import Traffic
from bot.telegram.publish.table import _traffic
from engine import Match, TableOptions
from tests.bot.harness import (
    FakeClock,
    Harness,
    moves,
    paulista_hand,
    press,
    running,
    seat_match,
    strip_tags,
)


def _said(h: Harness, group: int) -> list[str]:
    """The texts of the bot's new messages in the group that are not the table."""
    table = h.table_message(group)
    return [
        strip_tags(m["text"])
        for m in h.bot_messages(group)
        if table is None or m["message_id"] != table["message_id"]
    ]


async def _heard(h: Harness, group: int, line: str) -> list[str]:
    return await h.wait(lambda: (said := _said(h, group)) and any(line in x for x in said) and said)


async def test_each_call_and_answer_is_a_new_group_message_naming_the_seat(
    server: FakeTelegram, tmp_path: Path
) -> None:
    async with running(server, tmp_path, FakeClock()) as harness:
        s = harness.server
        ana, beto, cida, dita = (s.add_user(n) for n in ("Ana", "Beto", "Cida", "Dita"))
        group = s.add_group("G", admins=[ana], members=[beto, cida, dita])
        await seat_match(harness, group, [ana, beto, cida, dita], paulista_hand(players=4))
        table = await harness.wait(lambda: harness.table_message(group))
        await press(harness, ana, "Truco!")
        await _heard(harness, group, "Ana: TRUCO!")
        await press(harness, beto, "Corro")  # Dita still answers for the team
        await _heard(harness, group, "Beto: Corro")
        await press(harness, dita, "Seis!")
        await _heard(harness, group, "Dita: SEIS!")
        await press(harness, cida, "Desce!")
        said = await _heard(harness, group, "Cida: Desce!")
        assert said == [
            "📣 Ana: TRUCO!",
            "🏃 Beto: Corro",
            "📣 Dita: SEIS!",
            "👍 Cida: Desce! Valendo 6.",
        ]  # one new message each (Telegram rings for those, not for edits)
        # the table was edited meanwhile, never posted anew for a call; with the group's
        # minute under pressure it shows no state of the hand (the calls carry it), else
        # the stake
        assert harness.table_message(group)["message_id"] == table["message_id"]
        await harness.wait(
            lambda: any(w in harness.table_message(group)["text"] for w in ("Valendo 6", "⏩"))
        )


async def test_a_run_that_ends_the_hand_is_said_once_by_its_closing(harness: Harness) -> None:
    s = harness.server
    ana, beto = s.add_user("Ana"), s.add_user("Beto")
    group = s.add_group("G", admins=[ana], members=[beto])
    await seat_match(harness, group, [ana, beto], paulista_hand())
    await press(harness, ana, "Truco!")
    await _heard(harness, group, "Ana: TRUCO!")
    await press(harness, beto, "Corro")
    said = await _heard(harness, group, "Mão 1:")
    assert said[0] == "📣 Ana: TRUCO!"
    assert "Mão 1: Beto" in said[1] and "Placar 1 × 0" in said[1]
    assert not any("🏃" in x for x in said)  # the closing says who ran, once


async def test_the_mao_de_onze_decision_is_said_to_the_group(harness: Harness) -> None:
    s = harness.server
    ana, beto, cida, dita = (s.add_user(n) for n in ("Ana", "Beto", "Cida", "Dita"))
    group = s.add_group("G", admins=[ana], members=[beto, cida, dita])
    await seat_match(harness, group, [ana, beto, cida, dita], paulista_hand((11, 4), players=4))
    await press(harness, ana, "Correr")  # two people: running needs both (R6)
    await _heard(harness, group, "Ana quer correr da mão de onze")
    await press(harness, cida, "Vamos jogar")
    said = await _heard(harness, group, "vão jogar")
    assert said == [
        "🏃 Ana quer correr da mão de onze.",
        "🤝 Ana & Cida vão jogar a mão de onze, valendo 3.",
    ]


async def test_a_partner_deciding_on_the_hand_drawn_before_a_run_still_decides(
    harness: Harness,
) -> None:
    # both partners press at once: Cida's "Vamos jogar" was drawn before Ana's run, which
    # settled nothing (running needs both, R6), so Cida's choice holds as she made it
    s = harness.server
    ana, beto, cida, dita = (s.add_user(n) for n in ("Ana", "Beto", "Cida", "Dita"))
    group = s.add_group("G", admins=[ana], members=[beto, cida, dita])
    await seat_match(harness, group, [ana, beto, cida, dita], paulista_hand((11, 4), players=4))
    before = await harness.wait(
        lambda: (m := harness.hand(cida)) and "Vamos jogar" in moves(m) and m
    )
    await press(harness, ana, "Correr")
    await _heard(harness, group, "Ana quer correr da mão de onze")
    data = moves(before)["Vamos jogar"]
    answer = await s.user_presses(cida, cida, before["message_id"], data)
    assert not answer["show_alert"], answer
    said = await _heard(harness, group, "vão jogar")
    assert said[-1] == "🤝 Ana & Cida vão jogar a mão de onze, valendo 3."


async def test_running_from_the_mao_de_onze_is_said_by_the_closing(harness: Harness) -> None:
    s = harness.server
    ana, beto = s.add_user("Ana"), s.add_user("Beto")
    group = s.add_group("G", admins=[ana], members=[beto])
    await seat_match(harness, group, [ana, beto], paulista_hand((11, 4)))
    await press(harness, ana, "Correr")
    said = await _heard(harness, group, "Mão 1:")
    assert len(said) == 1 and "Ana" in said[0] and "Placar 11 × 5" in said[0]
    # the decision is heard as a call is: at once, whatever the group's minute holds
    db = runtime_of(harness.app).db
    with db.session() as session:
        rows = list(session.exec(select(OutboxMessage)))
    closing = [outgoing(r) for r in rows if r.kind == Announcement.HAND_OVER]
    assert _traffic(closing, Noise.ALL) == Traffic.URGENT


async def test_a_timeout_is_said_to_the_group(server: FakeTelegram, tmp_path) -> None:
    async with running(server, tmp_path, clock=FakeClock(), TRUCO_DECISION_SECONDS=30) as h:
        ana, beto = server.add_user("Ana"), server.add_user("Beto")
        group = server.add_group("G", admins=[ana], members=[beto])
        await seat_match(h, group, [ana, beto], paulista_hand())
        await h.wait(lambda: h.hand(ana))
        h.advance(31)
        said = await _heard(h, group, "Tempo esgotado")
        assert said == ["⏰ Tempo esgotado: Ana jogou 3♣"]  # R10: her first card


async def test_a_private_game_keeps_its_calls_in_the_hand_message(harness: Harness) -> None:
    s = harness.server
    ana = s.add_user("Ana")
    gid = await seat_match(harness, ana, [ana], paulista_hand())
    await press(harness, ana, "Truco!")
    db = runtime_of(harness.app).db
    await harness.wait(lambda: [e for e in events_of(db, gid) if e.kind == "robot"])
    with db.session() as session:
        kinds = {m.kind for m in session.exec(select(OutboxMessage))}
    assert not kinds & {Announcement.SAID.value, Announcement.TIMEOUT.value}
    assert not any("📣" in m["text"] for m in harness.bot_messages(ana))


@pytest.mark.parametrize("budget", [20, 10])
async def test_a_fast_four_person_match_stays_in_budget_and_says_calls_before_results(
    server: FakeTelegram, tmp_path, budget: int
) -> None:
    # Telegram's 20 a minute, and half of it, which this quick match surely exceeds; the
    # budget's waits and the fake's minute run on the harness's clock (no wall time)
    async with running(server, tmp_path, clock=FakeClock(), TRUCO_GROUP_BUDGET=budget) as h:
        users = [server.add_user(n) for n in ("Ana", "Beto", "Cida", "Dita")]
        group = server.add_group("G", admins=users[:1], members=users[1:])
        seen: list[tuple[str, int, str]] = []  # the group's events, in the order shown

        def watch(event: dict) -> None:
            msg = event.get("message") or {}
            if event.get("chat_id") == group and msg.get("from", {}).get("is_bot"):
                seen.append((event["type"], msg["message_id"], strip_tags(msg.get("text", ""))))

        server.listeners.append(watch)
        match = Match("paulista", TableOptions(players=4, target=12), seed=5)
        gid = await seat_match(h, group, users, match)
        await _play_fast(h, users, group)
        db = runtime_of(h.app).db
        assert server.peak_calls_per_minute(group, FLOOD_CALLS) <= budget

        def outbox_rows() -> list[OutboxMessage]:
            with db.session() as session:
                q = select(OutboxMessage).where(OutboxMessage.game_id == gid)
                return list(session.exec(q))

        # everything said, each once (the end's message may still be being recorded)
        rows = await h.wait(lambda: (r := outbox_rows()) and {m.state for m in r} == {"sent"} and r)
        said = [r for r in rows if r.kind in (Announcement.SAID, Announcement.TIMEOUT)]
        assert said, "random play made no call: choose another seed"

        def first(pred) -> int:
            return next(i for i, e in enumerate(seen) if pred(e))

        for hand in sorted({json.loads(r.payload)["hand"] for r in said}):
            told = [r.message_id for r in said if json.loads(r.payload)["hand"] == hand]
            last_call = max(first(lambda e, m=m: e[0] == "message" and e[1] == m) for m in told)
            closing = next(
                r.message_id
                for r in rows
                if r.kind == Announcement.HAND_OVER and json.loads(r.payload)["hand"] == hand
            )
            result = first(
                lambda e, c=closing, n=hand + 2: (
                    e[1] == c or f"Mão {n} ·" in e[2] or "🏆 Vitória" in e[2]
                )
            )
            # (the same message may hold both: its lines are in the order they were said)
            assert last_call <= result, (hand, seen)


CALLS = ("Truco!", "Seis!", "Nove!", "Doze!")


def _unsent(h: Harness, chat_id: int) -> int:
    """How many of a chat's announcements are still waiting to be sent (or skipped)."""
    db = runtime_of(h.app).db
    with db.session() as session:
        q = select(OutboxMessage.id).where(
            OutboxMessage.chat_id == chat_id, col(OutboxMessage.state).in_(("pending", "sending"))
        )
        return len(list(session.exec(q)))


async def _play_fast(
    h: Harness, users: list[int], group: int, seed: int = 3, think: float = 0.0
) -> None:
    """Everyone presses at once, as quick players do: a random card, truco now and then,
    answers both ways, never a raise (so that the match lasts several hands).

    Each choice is drawn from (seed, the table's version on the button), not from a
    running generator: who is polled first then never changes what is played, so the
    same seed plays the same match however the presses interleave. With ``think`` (and
    the harness's clock) each press is followed by that many seconds on the clock, as a
    person takes to decide."""
    loop = asyncio.get_running_loop()
    end = loop.time() + 300  # the group drains at its budget's pace, on a loaded machine too
    pressed: set[tuple[int, str]] = set()
    """(person, version) already pressed: a thinking player waits for the hand's redraw."""
    while h.over_message(group) is None:
        assert loop.time() < end, "the match did not end in time"
        acted = False
        for u in users:
            msg = h.hand(u)
            found = moves(msg or {})
            if not found:
                continue
            version = next(iter(found.values())).split(":")[1]
            if think and (u, version) in pressed:
                continue
            rng = random.Random(f"{seed}:{version}")
            cards = [k for k in found if k not in CALLS and k not in ("Desce!", "Corro")]
            if "Desce!" in found:
                label = "Desce!" if rng.random() < 0.6 else "Corro"
            elif "Truco!" in found and rng.random() < 0.25:
                label = "Truco!"
            else:
                label = rng.choice(sorted(cards))
            try:
                answer = await h.server.user_presses(u, u, msg["message_id"], found[label])
            except (LookupError, TimeoutError):
                continue
            acted = acted or not answer["show_alert"]
            if think and h.clock is not None and not answer["show_alert"]:
                pressed.add((u, version))
                h.clock.advance(think)
                # what the press made the bot say is out before the next person presses
                await h.wait(lambda: not _unsent(h, group), timeout=120)
        if not acted:
            await asyncio.sleep(0.02)  # the bot has not drawn the next turn yet


async def test_off_turn_hands_are_not_edited_for_every_card(harness: Harness) -> None:
    # four edits a move hit the bot's 30 a second with a few busy tables: a person off
    # their turn reads the table in the group, and gets their hand anew at their turn
    s = harness.server
    users = [s.add_user(n) for n in ("Ana", "Beto", "Cida", "Dita")]
    ana, beto, cida, dita = users
    group = s.add_group("G", admins=[ana], members=users[1:])
    await seat_match(harness, group, users, paulista_hand(players=4))
    first = await harness.wait(
        lambda: [m for m in harness.bot_messages(dita) if "Sua mão" in m["text"]]
    )

    def edits(user: int) -> int:
        return sum(c.method == "editMessageText" and c.chat_id == user for c in s.calls)

    await press(harness, ana, "3♣")
    await press(harness, beto, "2♠")
    turn = await press_turn(harness, cida)
    assert "Ana 3♣" in turn["text"] and "Beto 2♠" in turn["text"]  # whole, at her turn
    assert edits(dita) == 0  # two cards played, nothing Dita needed changed
    assert harness.bot_messages(dita)[-1]["message_id"] == first[-1]["message_id"]
    await harness.wait(lambda: edits(ana) >= 1)  # Ana's buttons went when her turn ended
    assert not moves(s.message(ana, harness.bot_messages(ana)[-1]["message_id"]))


async def press_turn(h: Harness, user: int) -> dict:
    """The person's hand message once it is their turn (a new message with buttons)."""
    return await h.wait(lambda: (m := h.hand(user)) and "É a sua vez" in m["text"] and m)
