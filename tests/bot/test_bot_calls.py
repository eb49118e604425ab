"""The group hears the table: every call and answer, the mão de onze/dez decision and a
timeout come as new messages naming the seat, before the table shows what followed."""

from __future__ import annotations

from sqlmodel import select

from bot.domain.messages import events_of
from bot.domain.models import OutboxMessage
from bot.domain.outbox import Announcement
from bot.sandbox.fakeapi import FakeTelegram
from bot.telegram.context import runtime_of
from tests.bot.harness import (
    FakeClock,
    Harness,
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
    harness: Harness,
) -> None:
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
    # the table was edited meanwhile, never posted anew for a call
    assert harness.table_message(group)["message_id"] == table["message_id"]
    await harness.wait(lambda: "Valendo 6" in harness.table_message(group)["text"])


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


async def test_running_from_the_mao_de_onze_is_said_by_the_closing(harness: Harness) -> None:
    s = harness.server
    ana, beto = s.add_user("Ana"), s.add_user("Beto")
    group = s.add_group("G", admins=[ana], members=[beto])
    await seat_match(harness, group, [ana, beto], paulista_hand((11, 4)))
    await press(harness, ana, "Correr")
    said = await _heard(harness, group, "Mão 1:")
    assert len(said) == 1 and "Ana" in said[0] and "Placar 11 × 5" in said[0]


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
