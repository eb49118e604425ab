"""A table a group can live with: a private hand that never says what stopped being true,
signals off the seat's turn (R12), /config and /baralho that answer and close, rematches
that ask the others first."""

from __future__ import annotations

from pathlib import Path

from bot.domain import people, tables
from bot.domain.tables import REMATCH_SECONDS
from bot.domain.values import GameStatus
from bot.sandbox.fakeapi import FakeTelegram
from bot.telegram.callbacks import rematch_data
from bot.telegram.context import runtime_of
from engine import Match, TableOptions
from tests.bot.harness import (
    FakeClock,
    Harness,
    button,
    buttons,
    moves,
    paulista_hand,
    press,
    running,
    seat_match,
    strip_tags,
)


def labels(message: dict) -> list[str]:
    return [b["text"] for b in buttons(message)]


def newest(h: Harness, user: int, words: str) -> dict | None:
    """The person's newest bot message that contains ``words``."""
    found = [m for m in h.bot_messages(user) if words in m["text"]]
    return found[-1] if found else None


async def four(h: Harness, match: Match) -> tuple[int, list[int], int]:
    s = h.server
    users = [s.add_user(n) for n in ("Ana", "Beto", "Cida", "Dita")]
    group = s.add_group("Truco da firma", admins=[users[0]], members=users[1:])
    gid = await seat_match(h, group, users, match)
    return group, users, gid


async def test_the_private_hand_off_turn_never_says_whose_turn_it_is(harness: Harness) -> None:
    h = harness
    _group, (ana, beto, cida, dita), gid = await four(h, paulista_hand(players=4))
    cards = await h.wait(lambda: newest(h, dita, "Sua mão"))
    # off her turn the message holds what stays true (her cards, the vira) and sends her
    # to the group for the rest
    text = strip_tags(cards["text"])
    assert "Vez de" not in text and "Na mesa:" not in text and "Valendo" not in text
    assert "estão na mesa do grupo" in text and "6♠" in text
    await press(h, ana, "3♣")
    await press(h, beto, "2♠")
    turn = await h.wait(lambda: (m := h.hand(cida)) and "É a sua vez" in m["text"] and m)
    assert "Ana 3♣" in turn["text"] and "Vez de Cida" in turn["text"]  # whole, at her turn
    # after two moves nothing Dita's message says became false, and it still names no turn
    shown = h.server.message(dita, cards["message_id"])
    assert "Vez de" not in shown["text"] and "Na mesa:" not in shown["text"]
    # Ana's message, once her card went, stops claiming it is her turn
    mine = await h.wait(
        lambda: (m := newest(h, ana, "Sua mão")) and "É a sua vez" not in m["text"] and m
    )
    assert "Vez de" not in mine["text"] and "mesa do grupo" in strip_tags(mine["text"])
    assert tables.load(runtime_of(h.app).db, gid).match().turn == 2


async def test_a_signal_off_the_seats_turn_reaches_the_partner(harness: Harness) -> None:
    # amended R12: signs go round right after the deal, before the leader's first card
    h, s = harness, harness.server
    match = Match("paulista", TableOptions(players=4, catch_percent=0), 0, dealer=3)
    _group, (ana, _beto, cida, _dita), gid = await four(h, match)
    hand = await h.wait(lambda: (m := newest(h, cida, "Sua mão")) and "👁️ Sinal" in labels(m) and m)
    assert "É a sua vez" not in hand["text"]  # Ana leads; Cida signals before any card
    eye = next(b for b in buttons(hand) if b["text"] == "👁️ Sinal")
    await s.user_presses(cida, cida, hand["message_id"], eye["callback_data"])
    listed = await h.wait(
        lambda: (m := s.message(cida, hand["message_id"])) and "😑 nada" in labels(m) and m
    )
    nada = next(b for b in buttons(listed) if b["text"] == "😑 nada")
    answer = await s.user_presses(cida, cida, listed["message_id"], nada["callback_data"])
    assert not answer["show_alert"], answer
    await h.wait(lambda: any("Sinal de Cida: 😑 nada" in m["text"] for m in h.bot_messages(ana)))
    m = tables.load(runtime_of(h.app).db, gid).match()
    assert [str(a) for _seat, a in m.log] == ["signal nada"] and m.turn == 0
    # once per round: her button goes; Ana still leads with her own signal button
    await h.wait(lambda: (x := newest(h, cida, "Sua mão")) and "👁️ Sinal" not in labels(x))
    assert "👁️ Sinal" in labels(await h.wait(lambda: h.hand(ana)))
    assert moves(h.hand(ana) or {})


async def test_an_admins_config_is_never_dropped_and_its_panel_closes(
    server: FakeTelegram, tmp_path: Path
) -> None:
    # a group budget this small leaves no room for command answers while a match runs
    async with running(server, tmp_path, TRUCO_GROUP_BUDGET=5) as h:
        ana, beto = server.add_user("Ana"), server.add_user("Beto")
        group = server.add_group("Truco da firma", admins=[ana], members=[beto])
        await seat_match(h, group, [ana, beto], paulista_hand())
        await h.wait(lambda: h.table(group))
        await server.user_sends(ana, group, "/config")
        # the panel comes privately, saying why, and changes the group's settings
        panel = await h.wait(lambda: newest(h, ana, "Configuração do grupo"), 60)
        assert "Truco da firma" in panel["text"] and "a mesa vem primeiro" in panel["text"]
        assert not [m for m in h.bot_messages(group) if "Configuração do grupo" in m["text"]]
        mid = panel["message_id"]
        opened = await server.user_presses(ana, ana, mid, button(panel, "Avisos")["callback_data"])
        assert not opened["show_alert"], opened
        menu = await h.wait(lambda: (m := server.message(ana, mid)) and "só o fim" in str(m) and m)
        saved = await server.user_presses(ana, ana, mid, button(menu, "só o fim")["callback_data"])
        assert saved["text"] == "Configuração salva."
        closed = await h.wait(
            lambda: (
                (m := server.message(ana, mid)) and "Avisos no grupo: só o fim" in m["text"] and m
            )
        )
        assert not buttons(closed)  # a value picked closes the panel: nothing stays live
        db = runtime_of(h.app).db
        assert people.chat_settings(db, group).noise == "end"
        assert people.chat_settings(db, ana, "private").noise == "all"
        # a bound panel's button pressed outside its admin's private chat does nothing
        forged = button(panel, "Avisos")["callback_data"]
        answer = await server.user_presses(
            beto, group, h.table_message(group)["message_id"], forged
        )
        assert answer["show_alert"]


async def test_a_config_panel_closes_with_its_button_and_baralho_loses_its_buttons(
    harness: Harness,
) -> None:
    s = harness.server
    ana = s.add_user("Ana")
    group = s.add_group("G", admins=[ana])
    await s.user_sends(ana, group, "/config")
    cfg = await harness.wait(lambda: newest(harness, group, "Configuração do grupo"))
    await s.user_presses(ana, group, cfg["message_id"], button(cfg, "Fechar")["callback_data"])
    await harness.wait(lambda: s.message(group, cfg["message_id"]).get("deleted"))
    await s.user_sends(ana, ana, "/baralho")
    deck = await harness.wait(lambda: newest(harness, ana, "Como você quer ver as cartas?"))
    await s.user_presses(ana, ana, deck["message_id"], button(deck, "Espanhol")["callback_data"])
    done = await harness.wait(
        lambda: (m := s.message(ana, deck["message_id"])) and "Pronto" in m["text"] and m
    )
    assert not buttons(done)


async def _result(h: Harness, group: int, people: list[int]) -> tuple[int, dict]:
    """A 1×1 (or 2×2) match at 11 × 11 played out: its id and its closing message."""
    players = 4 if len(people) == 4 else 2
    gid = await seat_match(h, group, people, paulista_hand(score=(11, 11), players=players))
    return gid, await h.play_out(people, group)


async def test_revanche_asks_the_others_and_gives_the_absent_seat_to_a_robot(
    server: FakeTelegram, tmp_path: Path
) -> None:
    async with running(server, tmp_path, clock=FakeClock()) as h:
        duda, caio = server.add_user("Duda"), server.add_user("Caio")
        group = server.add_group("G", admins=[duda], members=[caio])
        gid, over = await _result(h, group, [duda, caio])
        db = runtime_of(h.app).db
        data = button(over, "Revanche")["callback_data"]
        answer = await server.user_presses(duda, group, over["message_id"], data)
        assert not answer["show_alert"], answer
        # a lobby with the same seats, saying who must confirm and what happens if not
        lobby = await h.wait(
            lambda: (m := h.table_message(group)) and "Revanche" in m["text"] and m
        )
        assert "Caio" in lobby["text"] and "vira robô" in lobby["text"]
        new = tables.active_table(db, group, None)
        assert new is not None and new.id != gid and new.status == GameStatus.LOBBY
        # nobody confirms: after the wait Caio's seat goes to a robot and the match starts
        h.advance(REMATCH_SECONDS + 1)
        await h.wait(lambda: (x := tables.load(db, new.id)) and x.status == GameStatus.PLAYING)
        seats = tables.load(db, new.id).seats
        assert seats[0].user == duda and seats[1].robot is not None
        assert await h.wait(lambda: (m := h.hand(duda)) and "Mão 1" in m["text"])


async def test_revanche_starts_when_the_others_confirm_and_old_ones_stop_working(
    harness: Harness,
) -> None:
    h, s = harness, harness.server
    duda, caio = s.add_user("Duda"), s.add_user("Caio")
    group = s.add_group("G", admins=[duda], members=[caio])
    db = runtime_of(h.app).db
    _gid, over = await _result(h, group, [duda, caio])
    data = button(over, "Revanche")["callback_data"]
    await s.user_presses(duda, group, over["message_id"], data)
    # Caio confirms with the same result's Revanche: the match starts at once
    answer = await s.user_presses(caio, group, over["message_id"], data)
    assert not answer["show_alert"], answer
    new = await h.wait(lambda: (x := tables.active_table(db, group, None)) and x.started and x)
    assert {x.user for x in new.seats if x} == {duda, caio}
    # Revanche on the match still in play says so
    table = await h.wait(lambda: h.table_message(group))
    answer = await s.user_presses(duda, group, table["message_id"], rematch_data(new.id))
    assert answer["text"].startswith("Essa partida ainda está em jogo")
    tables.cancel(db, new.id, duda, authorised=True)
    # a newer table was opened since that first result: its Revanche is gone
    answer = await s.user_presses(duda, group, over["message_id"], data)
    assert answer["text"].startswith("Essa revanche já passou"), answer
    assert tables.active_table(db, group, None) is None
