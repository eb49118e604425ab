"""Whose turn it is rings their phone: the hand comes anew at each turn, and once near the end."""

from __future__ import annotations

import re

from bot.domain import jobs, messages
from bot.domain.jobs import JobKind
from bot.domain.values.drawings import HandMessageInfo, Ping
from bot.telegram.context import runtime_of
from bot.telegram.publish.hands import update_hands
from tests.bot.harness import FakeClock, Harness, paulista_hand, press, running, seat_match


def _sent(h: Harness, user: int) -> list[dict]:
    """Every message the bot sent to a person's private chat, deleted ones too."""
    return [m for m in h.server.messages(user) if m["from"]["is_bot"]]


async def test_a_new_turn_sends_the_hand_anew_and_deletes_the_old(harness: Harness) -> None:
    s = harness.server
    ana, beto = s.add_user("Ana"), s.add_user("Beto")
    group = s.add_group("G", admins=[ana], members=[beto])
    await seat_match(harness, group, [ana, beto], paulista_hand())
    first = await harness.wait(lambda: harness.hand(ana))
    assert "⏱ 60 s" in first["text"]  # how long there is, not a clock time
    beto_first = await harness.wait(
        lambda: [m for m in _sent(harness, beto) if "Sua mão" in m["text"]]
    )
    await press(harness, ana, "3♣")
    # Beto's turn: a new message (Telegram rings for it), the old one gone
    turn = await harness.wait(lambda: harness.hand(beto))
    assert turn["message_id"] != beto_first[0]["message_id"]
    assert "É a sua vez" in turn["text"] and "⏱ 60 s" in turn["text"]
    assert [
        m.get("deleted")
        for m in _sent(harness, beto)
        if m["message_id"] == beto_first[0]["message_id"]
    ] == [True]
    # Ana's turn is over: her message is edited in place, no new one
    await harness.wait(lambda: "É a sua vez" not in _sent(harness, ana)[-1]["text"])
    assert len([m for m in _sent(harness, ana) if "Sua mão" in m["text"]]) == 1


async def test_the_warning_comes_once_shortly_before_the_time_runs_out(server, tmp_path) -> None:
    async with running(server, tmp_path, clock=FakeClock(), TRUCO_DECISION_SECONDS=30) as h:
        ana, beto = server.add_user("Ana"), server.add_user("Beto")
        group = server.add_group("G", admins=[ana], members=[beto])
        gid = await seat_match(h, group, [ana, beto], paulista_hand())
        first = await h.wait(lambda: h.hand(ana))
        assert "acabando" not in first["text"]
        h.advance(22)  # 8 s left: inside the warning time
        await update_hands(h.app, gid)
        warned = h.hand(ana)
        assert warned is not None and warned["message_id"] != first["message_id"]
        assert "Seu tempo está acabando" in warned["text"]
        # what is left, not the whole time (the harness may have moved the clock on by a
        # second or two to a wait of the bot's, such as the group's spacing, meanwhile)
        left = [int(n) for n in re.findall(r"⏱ (\d+) s", warned["text"])]
        assert left and all(5 <= n <= 8 for n in left), warned["text"]
        await update_hands(h.app, gid)
        assert h.hand(ana)["message_id"] == warned["message_id"]  # once
        assert sum("acabando" in m["text"] for m in _sent(h, ana)) == 1
        assert all("acabando" not in m["text"] for m in _sent(h, beto))  # not Beto's turn


async def test_abrir_no_privado_mid_match_brings_the_live_hand_down(harness: Harness) -> None:
    s = harness.server
    ana, beto = s.add_user("Ana"), s.add_user("Beto")
    group = s.add_group("G", admins=[ana], members=[beto])
    gid = await seat_match(harness, group, [ana, beto], paulista_hand())
    await press(harness, ana, "3♣")
    before = await harness.wait(lambda: [m for m in _sent(harness, ana) if "Sua mão" in m["text"]])
    await s.user_sends(ana, ana, f"/start g{gid}")  # what the table link sends
    again = await harness.wait(
        lambda: [
            m
            for m in harness.bot_messages(ana)
            if "Sua mão" in m["text"] and m["message_id"] > before[-1]["message_id"]
        ]
    )
    assert "K♥" in again[0]["text"]  # her live hand, though it is not her turn
    link = max(m["message_id"] for m in s.messages(ana) if m["text"] == f"/start g{gid}")
    later = [m["text"] for m in harness.bot_messages(ana) if m["message_id"] > link]
    assert not any(t.startswith("Olá") for t in later)  # no greeting on top of it
    assert [
        m.get("deleted") for m in _sent(harness, ana) if m["message_id"] == before[-1]["message_id"]
    ] == [True]


async def test_an_ask_made_while_a_redraw_sends_the_hand_is_not_lost(harness: Harness) -> None:
    s = harness.server
    ana, beto = s.add_user("Ana"), s.add_user("Beto")
    group = s.add_group("G", admins=[ana], members=[beto])
    gid = await seat_match(harness, group, [ana, beto], paulista_hand())
    first = await harness.wait(lambda: harness.hand(ana))
    db = harness.db
    assert db is not None
    clock = runtime_of(harness.app).rules.clock

    def quiet() -> bool:  # no redraw of its own before the warning's, far ahead
        return all(due > clock() + 10 for _k, _key, due in jobs.waiting(db, JobKind.HANDS))

    await harness.wait(quiet)
    # Ana follows the table's link just as a redraw has sent her hand anew but not yet
    # recorded it: the redraw read her row before the ask, so its message may lie above
    # her /start
    messages.ask_for_hand(db, gid, 0)
    racing = HandMessageInfo(ana, first["message_id"] + 1000, 1, "drawn before the ask", Ping.TURN)
    messages.save_hand_message(db, gid, 0, racing, saw_ask=False)
    assert messages.hands_drawing(db, gid).messages[0].ping == Ping.ASKED  # the ask stands
    await update_hands(harness.app, gid)
    again = harness.hand(ana)
    assert again is not None and again["message_id"] > first["message_id"]
    # that message answers the ask: the next redraw leaves it where it is
    assert messages.hands_drawing(db, gid).messages[0].ping == Ping.TURN
    await update_hands(harness.app, gid)
    assert harness.hand(ana)["message_id"] == again["message_id"]
