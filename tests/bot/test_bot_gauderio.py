"""Truco gaudério in the bot (R13): /truco gauderio and /config, what the tables store, the
envido and flor buttons and lines, a robot partner waiting on an envido, and a whole 2×2
match of two people and two robots through the real bot, on the held clock."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.domain import ChatSettings, Database, Person, Reason, Refused, people, tables
from bot.domain.messages import events_of
from bot.domain.values.settings import Setting
from bot.i18n import translations
from bot.sandbox.fakeapi import FakeTelegram
from bot.telegram.arguments import truco_request
from bot.telegram.context import runtime_of
from bot.telegram.render.config import config_view
from bot.wording.table import lobby_text
from engine import Match, TableOptions
from engine.cards import parse_cards
from tests.bot.harness import (
    JSON,
    FakeClock,
    Harness,
    database_url,
    moves,
    newest,
    press,
    running,
    strip_tags,
)

HANDS = [
    parse_cards("7S 6S 3D"),  # Ana, the mão: 33 of envido, the best there is
    parse_cards("4C 5H KD"),  # robot: 5
    parse_cards("AS 2C QH"),  # Beto: the espadão
    parse_cards("4H 5C JD"),  # robot: 5
]
FLOR_SEED = 23
"""A seed whose second hand deals the mão (seat 1, a robot) three espadas: its flor is sung
at the deal (``test_the_seed_deals_a_flor_in_the_second_hand`` keeps it so)."""
ENVIDO_CALLS = ("Envido!", "Real envido!", "Falta envido!")


def gauderio_hand(seed: int = FLOR_SEED, target: int = 12, flor: bool = True) -> Match:
    """A gaudério 2×2 hand with known cards: seat 0 (Ana) is the mão and leads."""
    opts = TableOptions(players=4, target=target, flor=flor)
    return Match.from_hand("gauderio", opts, score=(0, 0), dealer=3, hands=HANDS, seed=seed)


def test_the_seed_deals_a_flor_in_the_second_hand() -> None:
    m = gauderio_hand()
    while m.phase.name not in ("HAND_OVER", "MATCH_OVER"):
        seat = m.to_act()[0]
        action = m.default_action(seat)
        assert action is not None
        m.apply(seat, action)
    m.deal()
    assert m.flor == (1,)


def test_truco_gauderio_and_config_offer_the_variant_with_its_options(tmp_path: Path) -> None:
    chat = ChatSettings(id=-5)
    # any spelling of the variant; the target by the table's size (R13.1)
    for words, players, target in (
        (["gauderio", "2x2"], 4, 24),
        (["gaúcho"], 2, 18),
        (["cego", "2x2", "30"], 4, 30),
        (["Gaudério", "1x1", "12"], 2, 12),
    ):
        request = truco_request(words, chat)
        assert request.variant == "gauderio"
        assert (request.options.players, request.options.target) == (players, target), words
        assert request.options.flor
    assert not truco_request(["gauderio", "sem-flor"], chat).options.flor
    assert truco_request(["gauderio", "2x2"], chat).options.sinais_on  # R13.5's list
    assert truco_request([], chat).options.target == 12  # paulista keeps its 12
    with pytest.raises(Refused) as refused:
        truco_request(["gauderio", "6"], chat)  # a gaudério match goes from 12 to 30
    assert refused.value.reason == Reason.BAD_TARGET and refused.value.params["low"] == 12
    # a number out of every variant's range is refused with the bounds of the game asked
    # for, or the chat's own: 12 to 30 in a gaudério chat, not the 6 of the others
    home = ChatSettings(id=-7, variant="gauderio")
    for words in (["2x2", "99"], ["99", "gauderio"], ["3"]):
        with pytest.raises(Refused) as refused:
            truco_request(words, home)
        assert refused.value.params == {"low": 12, "high": 30}, words
    with pytest.raises(Refused) as refused:
        truco_request(["paulista", "99"], home)
    assert refused.value.params == {"low": 6, "high": 30}

    db = Database(database_url(tmp_path))
    choices = people.setting_choices(Setting.VARIANT)
    assert "gauderio" in choices
    settings = people.change_setting(db, -5, Setting.VARIANT, choices.index("gauderio"))
    assert truco_request([], settings, people=4).options.target == 24
    assert truco_request([], settings, people=2).options.target == 18
    t = translations("pt")
    text, markup = config_view(t, settings)
    assert "Truco gaudério" in text and "Flor: sim" in text
    assert "Pontos: padrão: 24 no 2×2, 18 no 1×1" in text
    names = [b.text for row in markup.inline_keyboard for b in row]
    assert "Flor" in names
    # a gaudério table has no covered card: nothing to set, and the list says so
    assert "Carta coberta" not in names
    assert "Carta coberta: não se joga no Truco gaudério" in text
    settings = people.change_setting(db, -5, Setting.FLOR, 1)
    assert people.chat_settings(db, -5).flor is False
    assert not truco_request([], settings, people=4).options.flor
    # a target the variant refuses is not stored (6 is below gaudério's 12)
    with pytest.raises(Refused):
        people.change_setting(
            db, -5, Setting.TARGET, people.setting_choices(Setting.TARGET).index(6)
        )
    assert people.chat_settings(db, -5).target == 0
    # a paulista group's /config has no flor to set
    text, markup = config_view(t, ChatSettings(id=-6))
    assert "Flor" not in [b.text for row in markup.inline_keyboard for b in row]
    assert "Carta coberta" in [b.text for row in markup.inline_keyboard for b in row]

    # what the table stores comes back the same (variant, target, flor)
    request = truco_request(["gauderio", "2x2", "sem-flor"], settings)
    opened = tables.open_table(db, -5, None, Person(1, "Ana"), request)
    loaded = tables.load(db, opened.id)
    assert loaded is not None and loaded.variant == "gauderio"
    assert (loaded.options.target, loaded.options.flor) == (24, False)
    head = lobby_text(t, loaded, []).splitlines()[0]
    assert "Truco gaudério" in head and "24 pontos" in head and "sem flor" in head
    db.close()


def test_upgrade_makes_the_old_defaults_the_variants_and_back(tmp_path: Path) -> None:
    from alembic import command
    from sqlalchemy import text

    from bot.domain.store import alembic_config

    db = Database(database_url(tmp_path), migrate=False)
    cfg = alembic_config()
    with db.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0009_table_digest")
        conn.execute(
            text(
                "INSERT INTO chats (id, kind, title, variant, players, target, timer,"
                " covered_cards, sinais, noise, created_at) VALUES"
                " (-1, 'group', '', 'paulista', 0, 12, 60, true, true, 'all', CURRENT_TIMESTAMP),"
                " (-2, 'group', '', 'paulista', 0, 15, 60, true, true, 'all', CURRENT_TIMESTAMP)"
            )
        )
        conn.execute(
            text(
                "INSERT INTO players (id, name, deck, started, created_at) VALUES"
                " (1, 'Ana', 'traditional', true, CURRENT_TIMESTAMP),"
                " (2, 'Beto', 'spanish', true, CURRENT_TIMESTAMP)"
            )
        )
    with db.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
    assert people.chat_settings(db, -1).target == 0  # the variant's: 24 once gaudério
    assert people.chat_settings(db, -2).target == 15
    assert people.chat_settings(db, -1).flor is True
    ana, beto = people.player(db, 1), people.player(db, 2)
    assert ana is not None and ana.chosen_deck is None and ana.deck_at("gauderio").name == "SPANISH"
    assert ana.deck_at("paulista").name == "TRADITIONAL"
    assert beto is not None and beto.deck_at("paulista").name == "SPANISH"
    with db.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0009_table_digest")
        targets = conn.execute(text("SELECT target FROM chats ORDER BY id")).scalars().all()
        decks = conn.execute(text("SELECT deck FROM players ORDER BY id")).scalars().all()
    assert targets == [15, 12] and decks == ["traditional", "spanish"]
    db.close()


def _db(h: Harness) -> Database:
    return runtime_of(h.app).db


def _group_text(h: Harness, group: int) -> str:
    """Everything the bot said in the group (its table message as drawn last included)."""
    return "\n".join(strip_tags(m.get("text", "")) for m in h.bot_messages(group))


async def _said(h: Harness, group: int, words: str) -> JSON:
    found: JSON = await h.wait(lambda: newest(h, group, words))
    return found


async def test_a_whole_gauderio_match_in_a_group_with_envido_flor_and_truco(
    server: FakeTelegram, tmp_path: Path
) -> None:
    async with running(server, tmp_path, clock=FakeClock(), TRUCO_DECISION_SECONDS=60) as h:
        s = h.server
        ana, beto = s.add_user("Ana"), s.add_user("Beto")
        group = s.add_group("Galpão", admins=[ana], members=[beto])
        # Ana (0) and Beto (2) against two robots (1, 3)
        gid = await seat_gauderio(h, group, ana, beto)

        # round 1, Ana's turn before her card: the three envido calls and truco
        hand = await h.wait(lambda: h.hand(ana) if "Envido!" in moves(h.hand(ana) or {}) else None)
        offered = moves(hand)
        assert all(call in offered for call in ENVIDO_CALLS) and "Truco!" in offered
        assert "Quero!" not in offered
        # her cards are drawn in the Spanish deck, the table's look (R13.1)
        assert "6 de espadas" in offered and "Seus pontos de envido: 33" in hand["text"]
        assert not any(call in moves(h.hand(beto) or {}) for call in ENVIDO_CALLS)

        await press(h, ana, "Envido!")
        await _said(h, group, "📣 Ana: ENVIDO! (vale 2)")
        # the robots answer; a raise comes back to Ana's team, who accepts it
        raised = await h.wait(
            lambda: (
                newest(h, group, "Quero!")
                or newest(h, group, "Não quero")
                or ("Quero!" in moves(h.hand(ana) or {}) and "raised")
            )
        )
        if raised == "raised":
            await press(h, ana, "Quero!")
        await h.wait(
            lambda: "Envido para" in _group_text(h, group) or "Não quero." in _group_text(h, group)
        )
        text = _group_text(h, group)
        if "Envido para" in text:
            # the showdown: the winners' points (Ana's 33) and who holds them
            assert "33 pontos de Ana" in text
        # after the envido nobody calls it again; Ana's truco goes to the robots
        hand = await h.wait(lambda: h.hand(ana) if "Truco!" in moves(h.hand(ana) or {}) else None)
        assert not any(call in moves(hand) for call in ENVIDO_CALLS)
        await press(h, ana, "Truco!")
        await _said(h, group, "📣 Ana: TRUCO!")

        # the first hand ends: its closing shows the envido's proving cards (Ana's 7 and
        # 6 de espadas) when it was accepted; the second hand's mão sings a flor at once
        await h.wait(lambda: events_of(_db(h), gid, "hand_over"), 60)
        await _said(h, group, "🌸")
        text = _group_text(h, group)
        envido = events_of(_db(h), gid, "hand_over")[0].data["envido"]
        if envido["points"] is not None:
            assert envido == {
                "team": 0,
                "worth": envido["worth"],
                "seat": 0,
                "points": 33,
                "proof": ["7S", "6S"],
            }
            assert "7 de espadas, 6 de espadas de Ana (33 pontos)" in text
        assert "🌸 🤖 Tonho: FLOR! (+3)" in text
        assert " 5 pontos de 🤖" not in text  # the losing team's points are never said

        # the rest is played out: a whole match to 12
        end = await h.play_out([ana, beto], group, timeout=240)
        assert "Fim de jogo" in end["text"]
        closings = events_of(_db(h), gid, "hand_over")
        assert any(e.data["flor"] for e in closings)
        table = tables.load(_db(h), gid)
        assert table is not None and table.variant == "gauderio" and table.options.flor


async def seat_gauderio(
    h: Harness, group: int, ana: int, beto: int, match: Match | None = None
) -> int:
    """A gaudério table in ``group`` playing ``match`` (``gauderio_hand()``): Ana in seat 0
    and Beto in seat 2 with médio robots in 1 and 3 (1×1: Ana against Beto)."""
    return await seat_people(h, group, {0: ana, 2: beto}, match or gauderio_hand())


async def seat_people(h: Harness, group: int, people: dict[int, int], match: Match) -> int:
    """A table in ``group`` playing ``match``, people in the seats ``people`` gives (seat →
    user), médio robots in the others; its id."""
    from bot.domain import Occupant, RobotLevel, TableRequest
    from bot.telegram.publish import refresh

    rt = runtime_of(h.app)
    for u in people.values():
        await h.server.user_sends(u, u, "/start")
        await h.wait(lambda u=u: h.bot_messages(u))
    seats: list[Any] = []
    for i in range(match.players):
        u = people.get(i)
        if u is None:
            seats.append(tables.robot(RobotLevel.MEDIO, i))
        else:
            seats.append(Occupant(name=h.server.users[u]["first_name"], user=u))
    request = TableRequest(match.ruleset.name, match.options)
    creator = next(iter(people.values()))
    table = tables.open_table(
        rt.db, group, None, Person(creator, seats[0].name), request, seats=seats, rules=rt.rules
    )
    refresh(h.app, tables.start(rt.db, table.id, rt.rules, match=match))
    return table.id


async def test_a_robot_partner_waits_for_its_person_on_envido_and_the_clock_declines(
    server: FakeTelegram, tmp_path: Path
) -> None:
    async with running(server, tmp_path, clock=FakeClock(), TRUCO_DECISION_SECONDS=30) as h:
        s = h.server
        ana, beto = s.add_user("Ana"), s.add_user("Beto")
        group = s.add_group("Galpão", admins=[ana], members=[beto])
        # Ana (0) and a robot (2) against Beto (1) and a robot (3); Ana leads a card,
        # Beto calls envido before his
        hands = [HANDS[1], HANDS[0], HANDS[3], HANDS[2]]
        opts = TableOptions(players=4, target=24, sinais=False)
        m = Match.from_hand("gauderio", opts, score=(0, 0), dealer=3, hands=hands)
        gid = await seat_people(h, group, {0: ana, 1: beto}, m)
        await press(h, ana, "4 de bastos")
        await press(h, beto, "Envido!")
        await h.wait(lambda: "Não quero" in moves(h.hand(ana) or {}))
        # the envido waits for Ana's team, and nobody but Ana speaks for it (R6)
        table = tables.load(_db(h), gid)
        assert table is not None and tables.robot_turn_of(table) is None
        # her time runs out: the clock declines for her (R10), then the robot decides alone
        h.advance(31)
        await h.wait(
            lambda: [e for e in events_of(_db(h), gid) if e.kind == "robot" and e.seat == 2],
            timeout=30,
        )
        log = [
            (e.kind, e.seat, e.data["action"])
            for e in events_of(_db(h), gid)
            if e.kind in ("button", "robot", "timeout")
        ]
        assert log[:4] == [
            ("button", 0, "play 4C"),
            ("button", 1, "envido"),
            ("timeout", 0, "nao-quero"),
            ("robot", 2, log[3][2]),
        ]
        assert log[3][2] in ("quero", "nao-quero", "real-envido", "falta-envido", "envido")


async def test_a_person_s_nao_quero_is_followed_by_the_robot_partner(
    server: FakeTelegram, tmp_path: Path
) -> None:
    async with running(server, tmp_path, clock=FakeClock(), TRUCO_DECISION_SECONDS=30) as h:
        s = h.server
        ana, beto = s.add_user("Ana"), s.add_user("Beto")
        group = s.add_group("Galpão", admins=[ana], members=[beto])
        hands = [HANDS[1], HANDS[0], HANDS[3], HANDS[2]]
        opts = TableOptions(players=4, target=24, sinais=False)
        m = Match.from_hand("gauderio", opts, score=(0, 0), dealer=3, hands=hands)
        gid = await seat_people(h, group, {0: ana, 1: beto}, m)
        await press(h, ana, "4 de bastos")
        await press(h, beto, "Envido!")
        answer = await press(h, ana, "Não quero")
        assert answer["show_alert"] is False
        # her answer is the team's: the robot's following one is told as the result alone
        await _said(h, group, "🎯 Envido não querido: 1 para")
        assert not [m for m in h.bot_messages(group) if re.search(r"🤖 \w+: Não quero", m["text"])]
        log = [
            (e.kind, e.seat, e.data["action"])
            for e in events_of(_db(h), gid)
            if e.kind in ("button", "robot", "timeout")
        ]
        assert log[2:4] == [("button", 0, "nao-quero"), ("robot", 2, "nao-quero")]


async def test_an_es_ar_person_plays_gauderio_in_spanish(
    server: FakeTelegram, tmp_path: Path
) -> None:
    async with running(server, tmp_path, clock=FakeClock(), TRUCO_DECISION_SECONDS=60) as h:
        s = h.server
        sofi = s.add_user("Sofía", language_code="es-AR")
        beto = s.add_user("Beto")
        group = s.add_group("Galpón", admins=[sofi], members=[beto])
        m = Match.from_hand(
            "gauderio",
            TableOptions(players=2, target=18),
            score=(0, 0),
            dealer=1,
            hands=[parse_cards("7S 6S 3D"), parse_cards("5C 4C KH")],
        )
        await seat_people(h, group, {0: sofi, 1: beto}, m)
        hand = await h.wait(lambda: h.hand(sofi))
        offered = moves(hand)
        for word in ("¡Envido!", "¡Real envido!", "¡Falta envido!", "¡Truco!"):
            assert word in offered, word
        assert "Tus tantos de envido: 33" in hand["text"]
        await press(h, sofi, "¡Envido!")
        await press(h, beto, "Real envido!")
        hand = await h.wait(
            lambda: h.hand(sofi) if "¡Quiero!" in moves(h.hand(sofi) or {}) else None
        )
        assert {"¡Quiero!", "No quiero", "¡Falta envido!"} <= set(moves(hand))
        await press(h, sofi, "¡Quiero!")
        await press(h, sofi, "¡Truco!")
        await press(h, beto, "Retruco!")
        hand = await h.wait(
            lambda: h.hand(sofi) if "¡Vale cuatro!" in moves(h.hand(sofi) or {}) else None
        )
        assert {"¡Quiero!", "No quiero", "¡Vale cuatro!"} <= set(moves(hand))
        # the table in her hand message: the envido won, in her words
        assert "🎯 Envido (5) para Sofía: 33 de Sofía" in strip_tags(hand["text"])
        assert "RETRUCO" in strip_tags(hand["text"])
        # gaudério's four top cards by the South's word, not paulista's manilhas
        assert "bravas 1 de espadas > 1 de bastos > 7 de espadas > 7 de oros" in hand["text"]
        # and her own brava starred as one, not by a paulista manilha's name (espadilha)
        assert "Tu mano:</b> 7 de espadas (★ brava), 6 de espadas, 3 de oros" in hand["html"]
        # and a Spanish group's /config names flor
        text, _markup = config_view(translations("es"), ChatSettings(id=-9, variant="gauderio"))
        assert "Flor: sí" in text
