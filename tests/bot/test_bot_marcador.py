"""/marcador over real HTTP: one marcador message per group, edited in place, for everyone."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.domain import Database, marcador
from bot.sandbox.fakeapi import FakeTelegram
from tests.bot.harness import FakeClock, Harness, buttons, running


def marcador_message(h: Harness, group: int) -> dict | None:
    """The marcador message of a group (its buttons start with ``m``)."""
    for m in h.bot_messages(group):
        if any(b.get("callback_data", "").startswith("m") for b in buttons(m)):
            return m
    return None


def press_data(message: dict, label: str, row: int | None = None) -> str:
    """The callback_data of the button labelled ``label`` (in ``row``, when given)."""
    rows = (message.get("reply_markup") or {}).get("inline_keyboard", [])
    for i, r in enumerate(rows):
        for b in r:
            if (row is None or row == i) and b["text"].endswith(label):
                return b["callback_data"]
    raise AssertionError(f"no {label!r} in {[[b['text'] for b in r] for r in rows]}")


async def open_marcador(h: Harness, text: str = "/marcador") -> tuple[int, list[int], dict]:
    s = h.server
    ana, beto = s.add_user("Ana"), s.add_user("Beto")
    group = s.add_group("Mesa de bar", members=[ana, beto])
    await s.user_sends(ana, group, text)
    shown = await h.wait(lambda: marcador_message(h, group))
    return group, [ana, beto], shown


async def wait_text(h: Harness, group: int, part: str) -> dict:
    return await h.wait(
        lambda: (m := marcador_message(h, group)) is not None and part in m["text"] and m
    )


async def test_marcador_marks_hands_for_everyone_and_undoes(harness: Harness) -> None:
    s = harness.server
    group, (ana, beto), shown = await open_marcador(harness, "/marcador Zé e Ana x Beto e Cida")
    assert "Marcador" in shown["text"] and "Truco paulista" in shown["text"]
    assert "Zé e Ana  0 × 0  Beto e Cida" in shown["text"]
    labels = [b["text"] for b in buttons(shown)]
    assert labels[:5] == ["Zé e Ana +1", "+3", "+6", "+9", "+12"]
    answer = await s.user_presses(ana, group, shown["message_id"], press_data(shown, "+3", 0))
    assert not answer["show_alert"] and "3 × 0" in answer["text"]
    shown = await wait_text(harness, group, "3 × 0")
    answer = await s.user_presses(beto, group, shown["message_id"], press_data(shown, "+1", 1))
    shown = await wait_text(harness, group, "Beto: Beto e Cida +1 (3 × 1)")
    assert "Ana: Zé e Ana +3 (3 × 0)" in shown["text"]
    answer = await s.user_presses(beto, group, shown["message_id"], press_data(shown, "Desfazer"))
    assert "3 × 0" in answer["text"]
    shown = await wait_text(harness, group, "Zé e Ana  3 × 0  Beto e Cida")
    assert "Beto: Beto e Cida +1" not in shown["text"]
    # one message for the whole match: edited in place, never posted again
    assert len([m for m in harness.bot_messages(group) if buttons(m)]) == 1


async def test_mao_de_dez_warns_and_offers_only_its_values(harness: Harness) -> None:
    s = harness.server
    group, (ana, _beto), shown = await open_marcador(harness, "/marcador mineiro")
    for label in ("+8", "+2"):
        await s.user_presses(ana, group, shown["message_id"], press_data(shown, label, 0))
        shown = await harness.wait(lambda: marcador_message(harness, group))
    shown = await wait_text(harness, group, "10 × 0")
    assert "Mão de dez" in shown["text"]
    # the team at 10 plays and wins 4, or runs and the others score 2: never +2 for itself
    assert [b["text"] for b in buttons(shown)][:3] == ["Nós +4", "Eles +2", "+4"]
    # a stale button for a value the hand cannot have now changes nothing
    answer = await s.user_presses(ana, group, shown["message_id"], "m1:1.8")
    assert answer["show_alert"]
    stored = marcador.load(harness.db, 1)
    assert stored is not None and stored.marcador.score == (10, 0)


async def test_gauderio_marks_an_envido_no_hand_is_worth(harness: Harness) -> None:
    s = harness.server
    group, (ana, beto), shown = await open_marcador(harness, "/marcador gauderio")
    rows = [[b["text"] for b in r] for r in shown["reply_markup"]["inline_keyboard"]]
    # the hands' worths per team, then the envido's that no hand has: 5, 7 and the falta
    # (all the leader lacks: 24 at 0 × 0)
    assert rows[:4] == [
        ["Nós +1", "+2", "+3", "+4"],
        ["Eles +1", "+2", "+3", "+4"],
        ["🎯 Nós envido +5", "+7", "+24"],
        ["🎯 Eles envido +5", "+7", "+24"],
    ]
    await s.user_presses(beto, group, shown["message_id"], press_data(shown, "+7", 3))
    shown = await wait_text(harness, group, "0 × 7")
    # the falta follows the score: the leader, Eles at 7, lacks 17
    assert "+17" in [b["text"] for b in buttons(shown)]
    # a hand is never worth 5: a forged press of it changes nothing
    answer = await s.user_presses(ana, group, shown["message_id"], "m1:0.5")
    assert answer["show_alert"]
    stored = marcador.load(harness.db, 1)
    assert stored is not None and stored.marcador.score == (0, 7)


async def test_two_people_pressing_at_once_both_count_in_order(harness: Harness) -> None:
    s = harness.server
    group, (ana, beto), shown = await open_marcador(harness)
    mid = shown["message_id"]
    answers = await asyncio.gather(
        s.user_presses(ana, group, mid, press_data(shown, "+3", 0)),
        s.user_presses(beto, group, mid, press_data(shown, "+6", 1)),
        s.user_presses(ana, group, mid, press_data(shown, "+1", 1)),
    )
    assert not any(a["show_alert"] for a in answers)
    stored = marcador.load(harness.db, 1)
    assert stored is not None
    assert stored.marcador.score == (3, 7)
    assert sorted(stored.marcador.hands) == [(0, 3), (1, 1), (1, 6)]
    # the log lists every press, in the order the database took them, with who pressed
    order = [
        f"{who}:{team}+{pts}"
        for (team, pts), who in zip(stored.marcador.hands, stored.pressed_by, strict=True)
    ]
    assert sorted(order) == ["Ana:0+3", "Ana:1+1", "Beto:1+6"]
    shown = await wait_text(harness, group, "Nós  3 × 7  Eles")
    lines = [ln for ln in shown["text"].splitlines() if "(" in ln and "×" in ln]
    assert [ln.split(" (")[0] for ln in lines] == [
        f"{who}: {'Nós' if team == 0 else 'Eles'} +{pts}"
        for (team, pts), who in zip(stored.marcador.hands, stored.pressed_by, strict=True)
    ]


async def test_bad_arguments_get_one_line(harness: Harness) -> None:
    s = harness.server
    ana = s.add_user("Ana")
    group = s.add_group("G", members=[ana])
    await s.user_sends(ana, group, "/marcador buraco")
    reply = await harness.wait(lambda: harness.bot_messages(group))
    assert reply[-1]["text"].startswith("Não entendi “buraco”") and "\n" not in reply[-1]["text"]
    await s.user_sends(ana, group, "/marcador 40")
    await harness.wait(lambda: len(harness.bot_messages(group)) == 2)
    assert harness.bot_messages(group)[-1]["text"] == "A partida vai de 6 a 30 pontos."
    assert marcador_message(harness, group) is None


async def test_a_restart_keeps_the_score_and_the_message(
    server: FakeTelegram, tmp_path: Path
) -> None:
    clock = FakeClock()
    async with running(server, tmp_path, clock=clock) as h:
        group, (ana, beto), shown = await open_marcador(h)
        await server.user_presses(ana, group, shown["message_id"], press_data(shown, "+6", 0))
        shown = await wait_text(h, group, "6 × 0")
        url = h.db_url
    again = Harness(server, url, clock=clock)  # the same database, not emptied
    await again.start()
    try:
        await server.user_presses(beto, group, shown["message_id"], press_data(shown, "+3", 1))
        shown = await wait_text(again, group, "Nós  6 × 3  Eles")
        assert "Ana: Nós +6 (6 × 0)" in shown["text"] and "Beto: Eles +3 (6 × 3)" in shown["text"]
        assert len([m for m in again.bot_messages(group) if buttons(m)]) == 1
    finally:
        await again.stop()
    db = Database(url)
    try:
        stored = marcador.load(db, 1)
        assert stored is not None and stored.marcador.score == (6, 3)
    finally:
        db.close()
