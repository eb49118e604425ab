"""A table a group can live with: a private hand that never says what stopped being true,
signals off the seat's turn (R12), /config that answers and closes, /baralho that stays for
everyone in a group, rematches that ask the others first."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from bot.domain import messages, people, tables
from bot.domain.models import HandMessage
from bot.domain.tables import REMATCH_SECONDS
from bot.domain.values.game import GameStatus, Occupant, Table
from bot.domain.values.settings import Setting
from bot.sandbox.fakeapi import FakeTelegram
from bot.telegram.callbacks import rematch_data
from bot.telegram.context import runtime_of
from engine import Match, TableOptions
from engine.cards import DeckStyle
from tests.bot.harness import (
    FakeClock,
    Harness,
    button,
    buttons,
    labels,
    moves,
    newest,
    paulista_hand,
    press,
    press_first,
    running,
    seat_match,
    strip_tags,
)
from tests.bot.test_bot_calls import _play_fast


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
    await h.wait(
        lambda: "Sinal de Cida: 😑 nada" in ((newest(h, ana, "Sua mão") or {}).get("text", ""))
    )
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
    async with running(server, tmp_path, clock=FakeClock(), TRUCO_GROUP_BUDGET=2) as h:
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


SPANISH = re.compile(r"\d+ de (?:bastos|copas|espadas|oros)")


async def test_baralho_in_a_group_stays_for_everyone_and_shows_no_card_there(
    harness: Harness,
) -> None:
    s = harness.server
    ana, beto = s.add_user("Ana"), s.add_user("Beto")
    group = s.add_group("G", admins=[ana], members=[beto])
    await seat_match(harness, group, [ana, beto], paulista_hand())
    await harness.wait(lambda: harness.hand(ana) and harness.table(group))
    await s.user_sends(ana, group, "/baralho")
    deck = await harness.wait(lambda: newest(harness, group, "Como você quer ver as cartas?"))
    spanish = button(deck, "Espanhol")["callback_data"]
    chosen = await s.user_presses(ana, group, deck["message_id"], spanish)
    # the sample is Ana's alone, in her toast
    assert chosen["text"].startswith("Pronto") and "3 de" in chosen["text"], chosen
    # her hand is redrawn in the Spanish deck once the press is handled
    await harness.wait(lambda: (hand := harness.hand(ana)) and SPANISH.search(str(hand)))
    # the group's question keeps its buttons for the others, and never showed a card
    assert buttons(s.message(group, deck["message_id"]))
    assert not [m for m in harness.bot_messages(group) if "Pronto" in m["text"]]
    other = await s.user_presses(beto, group, deck["message_id"], spanish)
    assert other["text"].startswith("Pronto"), other
    db = runtime_of(harness.app).db
    assert [people.player(db, p).deck for p in (ana, beto)] == [  # type: ignore[union-attr]
        DeckStyle.SPANISH,
        DeckStyle.SPANISH,
    ]


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
        assert "Caio" in lobby["text"] and "um robô joga por quem não" in lobby["text"]
        new = tables.active_table(db, group, None)
        assert new is not None and new.id != gid and new.status == GameStatus.LOBBY
        # nobody confirms: after the wait a robot plays Caio's seat and the match starts
        h.advance(REMATCH_SECONDS + 1)
        await h.wait(lambda: (x := tables.load(db, new.id)) and x.status == GameStatus.PLAYING)
        seats = tables.load(db, new.id).seats
        assert seats[0].user == duda and seats[1].robot is not None and seats[1].user == caio
        assert await h.wait(lambda: (m := h.hand(duda)) and "Mão 1" in m["text"])
        # Caio is told in private, and takes his seat back with 🙋 Voltei
        hand = await h.wait(lambda: (m := newest(h, caio, "Um robô joga por você")) and m)
        assert labels(hand) == ["🙋 Voltei"]
        answer = await server.user_presses(
            caio, caio, hand["message_id"], button(hand, "Voltei")["callback_data"]
        )
        assert not answer["show_alert"], answer
        seats = tables.load(db, new.id).seats
        assert seats[1].user == caio and seats[1].robot is None


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
    # the same Revanche while its rematch is being played says so
    answer = await s.user_presses(duda, group, over["message_id"], data)
    assert answer["text"] == "A revanche dessa partida já está em jogo: veja a mesa."
    # a Revanche of the match in play itself says that match is still on
    answer = await s.user_presses(duda, group, over["message_id"], rematch_data(new.id))
    assert answer["text"].startswith("Essa partida ainda está em jogo")
    tables.cancel(db, new.id, duda, authorised=True)
    # a newer table was opened since that first result: its Revanche is gone
    answer = await s.user_presses(duda, group, over["message_id"], data)
    assert answer["text"].startswith("Essa revanche já passou"), answer
    assert tables.active_table(db, group, None) is None


async def test_an_absent_person_gets_a_shorter_clock_then_a_robot_until_they_come_back(
    server: FakeTelegram, tmp_path: Path
) -> None:
    async with running(server, tmp_path, clock=FakeClock(), TRUCO_DECISION_SECONDS=30) as h:
        ana, caio = server.add_user("Ana"), server.add_user("Caio")
        group = server.add_group("G", admins=[ana], members=[caio])
        gid = await seat_match(h, group, [ana, caio], paulista_hand())
        db = runtime_of(h.app).db
        clocks: list[float] = []  # Caio's clock at each of his decisions
        while not (table := tables.load(db, gid)).seats[1].robot:
            assert table.status == GameStatus.PLAYING and len(clocks) < 3
            if table.match().to_act() == (0,):
                version = table.version
                # her buttons drawn for this very version (an older message's are stale)
                await h.wait(lambda v=version: (m := h.hand(ana)) and f":{v}:" in str(m))
                await press_first(server, ana)
                await h.wait(lambda v=version: tables.load(db, gid).version > v)
                continue
            assert table.match().to_act() == (1,)
            # his clock's length (the harness's clock may have moved on since it was set,
            # to the group's budget waits: the time left may be a little shorter)
            clocks.append(tables.decision_seconds(table, runtime_of(h.app).rules))
            left = table.deadline_at - h.clock.now
            assert 0 < left <= clocks[-1]
            version = table.version
            h.advance(left + 0.1)  # Caio is elsewhere: his time runs out
            await h.wait(lambda v=version: tables.load(db, gid).version > v)
        # two timeouts in a row: the second clock was half the first, then a robot plays
        assert len(clocks) == 2 and clocks[0] == 30 and clocks[1] == 15
        said = await h.wait(
            lambda: [m for m in h.bot_messages(group) if "duas vezes seguidas" in m["text"]]
        )
        assert len(said) == 1 and "Caio" in said[0]["text"] and "robô" in said[0]["text"]
        # the time ran out for Caio, not for the robot that plays for him from now on
        assert said[0]["text"].startswith("⏰ Tempo esgotado: Caio ")
        # his private hand says so, rings no more, and offers the way back
        hand = await h.wait(lambda: (m := newest(h, caio, "Um robô joga por você")) and m)
        assert labels(hand) == ["🙋 Voltei"] and "É a sua vez" not in hand["text"]

        # the robot plays his turns without waiting for the clock
        def robot_played() -> bool:
            return any(e.seat == 1 for e in messages.events_of(db, gid, "robot"))

        for _turn in range(4):
            x = tables.load(db, gid)
            if robot_played() or x.status != GameStatus.PLAYING:
                break
            if x.match().to_act() == (0,):
                await h.wait(lambda v=x.version: (m := h.hand(ana)) and f":{v}:" in str(m))
                await press_first(server, ana)
            await h.wait(lambda v=x.version: tables.load(db, gid).version > v)
        await h.wait(robot_played)
        events = [e.seat for e in messages.events_of(db, gid, "robot")]
        assert 1 in events  # the robot played for Caio's seat, with no timeout meanwhile
        assert len(messages.events_of(db, gid, "timeout")) == 2
        # Caio presses 🙋 Voltei: the seat is his again
        hand = newest(h, caio, "Um robô joga por você")
        answer = await server.user_presses(
            caio, caio, hand["message_id"], button(hand, "Voltei")["callback_data"]
        )
        assert not answer["show_alert"], answer
        seats = tables.load(db, gid).seats
        assert seats[1].user == caio and seats[1].robot is None


NOISE_SEED = 3
THINK = 3.0
"""Seconds on the clock after each press: each line said has its own moment."""


async def _noisy_match(h: Harness, noise: str) -> tuple[int, int, int]:
    """A four-person paulista match to 12 played with random buttons in a group hearing
    ``noise``: (hands, new group messages besides the table's own sends, ringing ones)."""
    s = h.server
    names = [f"{n}{noise}" for n in ("Ana", "Beto", "Cida", "Dita")]
    users = [s.add_user(n) for n in names]
    group = s.add_group(f"G {noise}", admins=[users[0]], members=users[1:])
    db = runtime_of(h.app).db
    people.chat_settings(db, group)
    index = people.setting_choices(Setting.NOISE).index(noise)
    people.change_setting(db, group, Setting.NOISE, index)
    match = Match("paulista", TableOptions(players=4, sinais=False), NOISE_SEED)
    gid = await seat_match(h, group, users, match)
    # players who take a few seconds each: a random card, truco a quarter of the time,
    # answers both ways
    await _play_fast(h, users, group, seed=NOISE_SEED, think=THINK)
    await h.wait(lambda: all(m["text"] for m in h.bot_messages(group)))
    hands = len(messages.events_of(db, gid, "hand_over"))
    sends = [c for c in s.calls if c.method == "sendMessage" and c.chat_id == group]
    # the table's own sends, told by their buttons as sent (the match's end may since have
    # redrawn the table without them: read from the messages, none was found once)
    tables_sent = [c for c in sends if "Minha mão" in str(c.params.get("reply_markup", ""))]
    said = [c for c in sends if c not in tables_sent]
    ringing = [c for c in said if not c.params.get("disable_notification")]
    assert tables_sent  # the table itself is not counted
    return hands, len(said), len(ringing)


@pytest.mark.long
async def test_a_group_chooses_how_much_of_a_match_it_hears(
    server: FakeTelegram, tmp_path: Path
) -> None:
    # the same deals and presses in three groups, on a clock the test holds; the figures
    # go in the README
    async with running(server, tmp_path, clock=FakeClock(), TRUCO_GROUP_BUDGET=1000) as h:
        found = {noise: await _noisy_match(h, noise) for noise in ("all", "calls", "end")}
    for noise, (hands, said, ringing) in found.items():
        print(f"noise={noise}: {hands} hands, {said} group messages ({said / hands:.2f} a hand),")
        print(f"    {ringing} ringing ({ringing / hands:.2f} a hand)")
    (hands, said_all, ring_all), (_h, said_calls, _r), (_h2, said_end, ring_end) = found.values()
    assert said_end == 1 == ring_end  # only the match's end, with its Revanche
    assert said_end < said_calls < said_all and hands >= 2
    assert ring_all < said_all  # answers, timeouts and closings come silently


async def test_with_privacy_mode_on_the_ids_of_what_the_bot_sees_bring_the_table_down(
    harness: Harness,
) -> None:
    h, s = harness, harness.server
    assert s.privacy_mode  # the bot never receives the chatter below
    ana, beto = s.add_user("Ana"), s.add_user("Beto")
    group = s.add_group("G", admins=[ana], members=[beto])
    await seat_match(h, group, [ana, beto], paulista_hand())
    table = await h.wait(lambda: h.table_message(group))
    for i in range(7):
        await s.user_sends(beto if i % 2 else ana, group, f"kkkk {i}")
    assert h.table_message(group)["message_id"] == table["message_id"]
    # Ana's truco is said in the group: that message's id tells 8 lie after the table
    await press(h, ana, "Truco!")
    moved = await h.wait(
        lambda: (m := h.table_message(group)) and m["message_id"] > table["message_id"] + 8 and m
    )
    assert "Minha mão" in str(moved.get("reply_markup"))
    await h.wait(lambda: "continua abaixo" in s.message(group, table["message_id"])["text"])


async def _beto_sat_by_entrar(h: Harness) -> tuple[int, int, int, dict[str, Any], int]:
    """Ana opens a table in her group, Beto presses Entrar and opens the bot from it:
    Ana, Beto, the group, the lobby message and the table's id."""
    s = h.server
    ana, beto = s.add_user("Ana"), s.add_user("Beto")
    group = s.add_group("Truco da firma", admins=[ana], members=[beto])
    await s.user_sends(ana, ana, "/start")
    await s.user_sends(ana, group, "/truco")
    lobby = await h.wait(lambda: h.table(group))
    await s.user_presses(beto, group, lobby["message_id"], button(lobby, "Entrar")["callback_data"])
    gid = (await h.wait(lambda: tables.active_table(runtime_of(h.app).db, group, None))).id
    await s.user_sends(beto, beto, f"/start g{gid}")
    return ana, beto, group, lobby, gid


async def test_entrar_then_start_confirms_the_seat_with_a_way_back(harness: Harness) -> None:
    h, s = harness, harness.server
    _ana, beto, group, lobby, _gid = await _beto_sat_by_entrar(h)
    said = await h.wait(lambda: newest(h, beto, "Você está na mesa"))
    assert "Truco paulista" in said["text"] and "Truco da firma" in said["text"]
    assert f"https://t.me/c/1000000001/{lobby['message_id']}" in str(said.get("entities"))
    assert not newest(h, beto, "Aqui chegam as suas cartas")  # no generic greeting
    await h.wait(lambda: "Falta abrir" not in s.message(group, lobby["message_id"])["text"])


async def test_the_seat_confirmation_gives_way_to_the_first_hand(harness: Harness) -> None:
    # the lobby's "✅ Você está na mesa…" is no news once the cards come: nothing of the
    # lobby stays in the private chat
    h, s = harness, harness.server
    ana, beto, group, lobby, gid = await _beto_sat_by_entrar(h)
    seated = await h.wait(lambda: newest(h, beto, "Você está na mesa"))
    db = runtime_of(h.app).db

    def recorded() -> bool:
        with db.session() as session:
            return session.exec(select(HandMessage).where(HandMessage.game_id == gid)).first()

    await h.wait(recorded)  # what a person takes a few seconds to do: Ana starts it later
    lobby = await h.wait(lambda: (m := h.table(group)) and "Começar" in labels(m) and m)
    await s.user_presses(ana, group, lobby["message_id"], button(lobby, "Começar")["callback_data"])
    await h.wait(lambda: newest(h, beto, "Sua mão"))
    await h.wait(lambda: s.message(beto, seated["message_id"]).get("deleted"))
    assert not newest(h, beto, "Você está na mesa")


def _answers(h: Harness, gid: int) -> list[tuple[int, int]]:
    """The lobby answers recorded for a table: (seat, message id)."""
    with runtime_of(h.app).db.session() as session:
        rows = session.exec(select(HandMessage).where(HandMessage.game_id == gid)).all()
        return [(row.seat, row.message_id) for row in rows]


@pytest.mark.parametrize("who, label", [("beto", "Sair"), ("ana", "Cancelar")])
async def test_the_seat_confirmation_goes_when_its_seat_does(
    harness: Harness, who: str, label: str
) -> None:
    # "✅ Você está na mesa…" is a claim: once Beto leaves, or Ana cancels the lobby, it is
    # untrue, and it goes
    h, s = harness, harness.server
    ana, beto, group, lobby, gid = await _beto_sat_by_entrar(h)
    seated = await h.wait(lambda: newest(h, beto, "Você está na mesa"))
    await h.wait(lambda: _answers(h, gid))
    lobby = await h.wait(lambda: (m := h.table(group)) and label in labels(m) and m)
    presser = {"ana": ana, "beto": beto}[who]
    await s.user_presses(presser, group, lobby["message_id"], button(lobby, label)["callback_data"])
    await h.wait(lambda: s.message(beto, seated["message_id"]).get("deleted"))
    await h.wait(lambda: not _answers(h, gid))


async def test_the_seat_confirmation_follows_a_change_of_team(harness: Harness) -> None:
    # Beto moves to the other team: his confirmation moves with him, and the first hand
    # still takes its place (it stayed behind when it was kept under his old seat)
    h, s = harness, harness.server
    ana, beto, cida, dita = (s.add_user(n) for n in ("Ana", "Beto", "Cida", "Dita"))
    group = s.add_group("Quatro", admins=[ana], members=[beto, cida, dita])
    await s.user_sends(ana, ana, "/start")
    await s.user_sends(ana, group, "/truco")
    lobby = await h.wait(lambda: (m := h.table(group)) and "2×2" in m["text"] and m)
    await s.user_presses(beto, group, lobby["message_id"], button(lobby, "Entrar")["callback_data"])
    gid = (await h.wait(lambda: tables.active_table(runtime_of(h.app).db, group, None))).id
    await s.user_sends(beto, beto, f"/start g{gid}")
    seated = await h.wait(lambda: newest(h, beto, "Você está na mesa"))
    [(before, _id)] = await h.wait(lambda: _answers(h, gid))
    lobby = await h.wait(lambda: (m := h.table(group)) and "Beto" in m["text"] and m)
    other = "Time 1" if before % 2 else "Time 2"
    await s.user_presses(beto, group, lobby["message_id"], button(lobby, other)["callback_data"])
    await h.wait(lambda: (a := _answers(h, gid)) and a[0][0] % 2 != before % 2)
    assert not s.message(beto, seated["message_id"]).get("deleted")
    lobby = await h.wait(lambda: (m := h.table(group)) and "Começar" in labels(m) and m)
    await s.user_presses(ana, group, lobby["message_id"], button(lobby, "Começar")["callback_data"])
    await h.wait(lambda: newest(h, beto, "Sua mão"))
    await h.wait(lambda: s.message(beto, seated["message_id"]).get("deleted"))


async def test_truco_sizes_itself_to_the_group_and_reshapes_ones_own_lobby(
    harness: Harness,
) -> None:
    h, s = harness, harness.server
    users = [s.add_user(n) for n in ("Ana", "Beto", "Cida", "Dita")]
    big = s.add_group("Quatro", admins=[users[0]], members=users[1:])
    await s.user_sends(users[0], big, "/truco")
    assert "2×2" in (await h.wait(lambda: h.table(big)))["text"]
    small = s.add_group("Dois", admins=[users[0]], members=[users[1]])
    await s.user_sends(users[0], small, "/truco")
    lobby = await h.wait(lambda: h.table(small))
    assert "1×1" in lobby["text"]
    asked = await s.user_sends(users[0], small, "/truco 2x2 mineiro")
    # the reshaped lobby comes down below the command, where its opener is reading
    moved = await h.wait(
        lambda: (m := h.table_message(small)) and m["message_id"] > asked["message_id"] and m
    )
    text = moved["text"]
    assert "2×2" in text and "Truco mineiro" in text and "Time 1: Ana" in text
    old = await h.wait(
        lambda: (
            (m := s.message(small, lobby["message_id"]))
            and "A mesa continua abaixo" in m["text"]
            and m
        )
    )
    assert not buttons(old)
    # someone else's /truco over the lobby changes nothing
    await s.user_sends(users[1], small, "/truco 1x1")
    await h.wait(lambda: newest(h, small, "Já existe uma mesa"))
    assert "2×2" in s.message(small, moved["message_id"])["text"]


async def test_regras_follows_the_asked_variant_and_the_last_table(harness: Harness) -> None:
    h, s = harness, harness.server
    ana = s.add_user("Ana")
    group = s.add_group("G", admins=[ana])
    await s.user_sends(ana, group, "/regras mineiro")
    await h.wait(lambda: newest(h, group, "Truco mineiro"))
    await s.user_sends(ana, ana, "/start")
    await s.user_sends(ana, group, "/truco trem-bao")
    await h.wait(lambda: h.table(group))
    await s.user_sends(ana, group, "/regras")
    said = await h.wait(
        lambda: (
            [m for m in h.bot_messages(group) if "Trem Bão" in m["text"] and "•" in m["text"]]
            or [m for m in h.bot_messages(ana) if "Trem Bão" in m["text"] and "•" in m["text"]]
        )
    )
    assert said


async def test_closed_vazas_stay_on_the_table_with_manilhas_starred(harness: Harness) -> None:
    h = harness
    group, (ana, beto, cida, dita), gid = await four(h, paulista_hand(players=4))
    for who, card in ((ana, "3♣"), (beto, "2♠"), (cida, "A♥"), (dita, "6♠ ★")):
        await press(h, who, card)
    db = runtime_of(h.app).db
    await h.wait(lambda: tables.load(db, gid).match().rounds)
    text = await h.wait(
        lambda: (m := h.table_message(group)) and "1ª vaza:" in m["text"] and m["text"]
    )
    assert "1ª vaza: Ana 3♣ · Beto 2♠ · Cida A♥ · Dita 6♠ ★" in strip_tags(text)


async def test_a_timeout_beside_a_robot_partner_says_the_robot_answers(
    server: FakeTelegram, tmp_path: Path
) -> None:
    async with running(server, tmp_path, clock=FakeClock(), TRUCO_DECISION_SECONDS=30) as h:
        ana, beto = server.add_user("Ana"), server.add_user("Beto")
        group = server.add_group("G", admins=[ana], members=[beto])
        await seat_match(h, group, [ana, beto], paulista_hand(players=4))
        await press(h, ana, "Truco!")
        await h.wait(lambda: (m := h.hand(beto)) and "Desce!" in moves(m))
        h.advance(31)
        said = await h.wait(
            lambda: [m["text"] for m in h.bot_messages(group) if "Tempo esgotado" in m["text"]]
        )
        assert "o tempo de Beto acabou, e 🤖 Dita responde pelo time" in said[0]
        assert "Beto correu" not in said[0]


@pytest.mark.parametrize(
    ("answer", "told"),
    [
        ("Desce!", "Beto respondeu primeiro: aceitou."),
        # the hand now waits for a Nove!: the late answer is still told Beto's Seis!
        ("Seis!", "Beto respondeu primeiro: pediu Seis!"),
    ],
)
async def test_the_loser_of_two_answers_at_once_is_told_who_answered_what(
    harness: Harness, answer: str, told: str
) -> None:
    h, s = harness, harness.server
    _group, (ana, beto, _cida, dita), _gid = await four(h, paulista_hand(players=4))
    await press(h, ana, "Truco!")
    b = await h.wait(lambda: (m := h.hand(beto)) and answer in moves(m) and m)
    d = await h.wait(lambda: (m := h.hand(dita)) and "Corro" in moves(m) and m)
    # Beto's answer settles the truco; Dita's Corro, pressed on the hand drawn before it,
    # comes too late, and she is told whose answer came first and what it was
    first = await s.user_presses(beto, beto, b["message_id"], moves(b)[answer])
    assert not first["text"], first
    late = await s.user_presses(dita, dita, d["message_id"], moves(d)["Corro"])
    assert late["text"] == told, late


async def test_the_table_names_both_partners_who_may_answer_a_call(harness: Harness) -> None:
    h = harness
    group, (ana, _beto, _cida, _dita), _gid = await four(h, paulista_hand(players=4))
    await press(h, ana, "Truco!")
    text = await h.wait(lambda: (m := h.table_message(group)) and "❗" in m["text"] and m["text"])
    assert "👉 Vez de Beto ou Dita" in strip_tags(text), text


async def test_an_answer_pressed_as_the_partner_ran_still_counts(harness: Harness) -> None:
    h, s = harness, harness.server
    group, (ana, beto, _cida, dita), _gid = await four(h, paulista_hand(players=4))
    await press(h, ana, "Truco!")
    b = await h.wait(lambda: (m := h.hand(beto)) and "Desce!" in moves(m) and m)
    # Dita runs: that settles nothing while Beto still answers (R6), so his Desce!, pressed
    # on the hand drawn before her run, is the team's answer
    await press(h, dita, "Corro")
    answer = await s.user_presses(beto, beto, b["message_id"], moves(b)["Desce!"])
    assert not answer["show_alert"], answer
    await h.wait(lambda: any("Beto: Desce!" in m["text"] for m in h.bot_messages(group)))


def test_table_and_deck_labels_fit_a_phone_in_both_languages() -> None:
    from bot.i18n import translations
    from bot.telegram.render.config import deck_keyboard
    from bot.telegram.render.table import table_keyboard

    for lang in ("pt", "en"):
        t = translations(lang)
        game = _a_table()
        rows = table_keyboard(t, game, "TrucoBot").inline_keyboard
        labels = [b.text for row in rows for b in row]
        # two to a row: each fits half a phone's width, in one language
        assert all(len(x) <= 14 for x in labels), labels
        assert lang == "pt" or not any("Minha" in x for x in labels), labels
        deck = deck_keyboard(t).inline_keyboard
        assert [len(row) for row in deck] == [1, 1]  # "Espanhol (3 de bastos)" whole


def _a_table() -> Table:
    m = paulista_hand()
    return Table(
        id=1,
        chat_id=-1001000000001,
        thread_id=None,
        private=False,
        creator_id=1,
        status=GameStatus.PLAYING,
        variant="paulista",
        options=m.options,
        seats=(Occupant("Ana", 1), Occupant("Beto", 2)),
        version=1,
        seed=0,
        deadline_at=None,
        note=None,
        table_message_id=5,
        snapshot=None,
    )


async def test_the_table_votes_a_robot_into_an_absent_seat(
    server: FakeTelegram, tmp_path: Path
) -> None:
    async with running(server, tmp_path, clock=FakeClock(), TRUCO_DECISION_SECONDS=30) as h:
        ana, caio = server.add_user("Ana"), server.add_user("Caio")
        group = server.add_group("G", admins=[ana], members=[caio])
        gid = await seat_match(h, group, [ana, caio], paulista_hand())
        db = runtime_of(h.app).db
        await press(h, ana, "3♣")
        await h.wait(lambda: tables.load(db, gid).match().to_act() == (1,))
        h.advance(31)  # Caio's time runs out once: the table offers a vote
        table = await h.wait(
            lambda: (m := h.table_message(group)) and "Robô por Caio" in str(m) and m
        )
        vote = button(table, "Robô por Caio")["callback_data"]
        answer = await server.user_presses(caio, group, table["message_id"], vote)
        assert answer["show_alert"]  # not for his own seat
        answer = await server.user_presses(ana, group, table["message_id"], vote)
        assert answer["text"] == "Um robô joga nesse lugar até a pessoa voltar.", answer
        await h.wait(lambda: tables.load(db, gid).seats[1].robot is not None)
        await h.wait(lambda: newest(h, caio, "Um robô joga por você"))


def test_minha_mao_stars_the_manilhas() -> None:
    from bot.i18n import translations
    from bot.telegram.render.hand import inline_results
    from engine.cards import DeckStyle, parse_cards

    m = Match.from_hand(
        "paulista",
        TableOptions(players=2),
        score=(0, 0),
        dealer=1,
        hands=[parse_cards("6S KH 5D"), parse_cards("2S QD 7C")],
        vira=parse_cards("5C")[0],
    )
    results = inline_results(translations("pt"), _a_table(), m.view(0), DeckStyle.TRADITIONAL, "B")
    assert "Jogar 6♠ ★" in [r.title for r in results]
    assert all("Sua mão: 6♠ ★ K♥ 5♦" in (r.description or "") for r in results)
