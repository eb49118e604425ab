"""The database layer: migrations match the models, optimistic concurrency, commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine
from sqlalchemy import text as sql
from sqlmodel import SQLModel

from bot.domain import (
    ChatSettings,
    Database,
    Join,
    Person,
    Reason,
    Refused,
    Rules,
    Stale,
    Start,
    messages,
    outbox,
    people,
    store,
    tables,
)
from bot.domain.models import Game
from bot.telegram.arguments import truco_request
from tests.bot.harness import (
    Harness,
    button,
    buttons,
    database_url,
    moves,
    paulista_hand,
    press,
    seat_match,
)


def test_migrations_build_exactly_the_models(tmp_path: Path) -> None:
    db = Database(database_url(tmp_path))
    with db.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), SQLModel.metadata)
    db.close()
    assert diff == []


def test_a_pooled_connection_dropped_while_idle_is_replaced_before_use(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Connections are pinged only after sitting idle, and one found dead is never used."""
    db = Database(database_url(tmp_path))
    if db.engine.dialect.name != "postgresql":
        db.close()
        pytest.skip("a server to drop connections: PostgreSQL only (TRUCO_TEST_DATABASE_URL)")
    with db.engine.connect() as conn:
        pid = conn.execute(sql("SELECT pg_backend_pid()")).scalar()
    other = create_engine(db.engine.url)
    with other.connect() as conn:  # the server drops it (a restart, an idle timeout)
        conn.execute(sql("SELECT pg_terminate_backend(:p)"), {"p": pid})
    other.dispose()
    monkeypatch.setattr(store, "IDLE_PING", 0.0)  # it sat idle long enough to be pinged
    with db.engine.connect() as conn:
        assert conn.execute(sql("SELECT pg_backend_pid()")).scalar() != pid
    db.close()


def test_two_changes_for_one_version_store_one(tmp_path: Path) -> None:
    db = Database(database_url(tmp_path))
    rules = Rules(decision_seconds=60, seed=3)
    ana, beto = Person(1, "Ana"), Person(2, "Beto")
    people.meet(db, ana, started=True)
    people.meet(db, beto, started=True)
    chat = people.chat_settings(db, -5)
    assert chat == ChatSettings(id=-5)
    request = truco_request(["1x1"], chat)
    game = tables.open_table(db, -5, None, ana, request)
    tables.lobby(db, game.id, beto, Join(), authorised=False, rules=rules)
    change = tables.lobby(db, game.id, ana, Start(), authorised=True, rules=rules)
    g = tables.load(db, change.game_id)
    assert g is not None
    m = g.match()
    seat = m.to_act()[0]
    user = 1 if seat == 0 else 2
    action = m.legal_actions(seat)[0]
    # a second process read the same version and got there first
    tables.act(db, g.id, g.version, None, action, rules, user_id=user)
    with pytest.raises(Stale):
        tables.act(db, g.id, g.version, None, action, rules, user_id=user)
    events = messages.events_of(db, g.id, "button")
    assert len(events) == 1 and events[0].data["action"] == str(action)
    with pytest.raises(Refused) as refused:
        truco_request(["truco-do-cerrado"], chat)
    assert refused.value.reason == Reason.BAD_ARG
    with pytest.raises(Refused):
        truco_request(["99"], chat)
    # options the engine refuses come back as a code, never as the engine's own prose
    with pytest.raises(Refused) as refused:
        truco_request(["mineiro"], ChatSettings(id=-5, ladder="5-7-9-11"))
    assert refused.value.reason == Reason.BAD_OPTIONS
    db.close()


async def test_commands_answer_in_the_group(harness: Harness) -> None:
    s = harness.server
    ana, beto = s.add_user("Ana"), s.add_user("Beto")
    group = s.add_group("G", admins=[ana], members=[beto])
    for text, expected in (
        ("/ajuda", "/truco [paulista|mineiro|trem-bao|gauderio]"),
        ("/regras", "Livro de regras completo: https://"),
        ("/placar", "Nenhuma partida em andamento"),
        ("/ranking", "Ainda não há partidas terminadas"),
        ("/cancelar", "Não há mesa aberta"),
    ):
        await s.user_sends(beto, group, text)
        await harness.wait(lambda e=expected: e in str(harness.bot_messages(group)[-1:]), 5)
    await seat_match(harness, group, [ana, beto], paulista_hand())
    await s.user_sends(beto, group, "/placar")
    await harness.wait(lambda: "Ana  0 × 0  Beto" in harness.bot_messages(group)[-1]["text"], 5)
    await s.user_sends(beto, group, "/cancelar")  # not the creator, not an admin
    await harness.wait(lambda: "Só quem abriu" in harness.bot_messages(group)[-1]["text"], 5)
    # /baralho: Spanish labels in Ana's hand from now on (R11)
    await s.user_sends(ana, ana, "/baralho")
    menu = await harness.wait(
        lambda: [m for m in harness.bot_messages(ana) if "Espanhol" in str(m)]
    )
    await s.user_presses(
        ana, ana, menu[-1]["message_id"], button(menu[-1], "Espanhol")["callback_data"]
    )
    await harness.wait(lambda: "3 de bastos" in moves(harness.hand(ana) or {}), 5)
    await press(harness, ana, "3 de bastos")
    await harness.wait(lambda: "Ana 3♣" in (harness.table(group) or {}).get("text", ""), 5)


async def test_tutorial_walks_through_the_lesson(harness: Harness) -> None:
    from engine.tutorial import load_script

    s = harness.server
    ana = s.add_user("Ana")
    await s.user_sends(ana, ana, "/tutorial")
    menu = await harness.wait(
        lambda: [m for m in harness.bot_messages(ana) if "Escolha uma lição" in m["text"]]
    )
    lesson = load_script()
    # the menu offers the site's lessons; the first is the basics
    assert "Mão de ferro" in menu[-1]["text"] and "Trem Bão" in menu[-1]["text"]
    pick = button(menu[-1], "1. " + lesson.title)
    await s.user_presses(ana, ana, menu[-1]["message_id"], pick["callback_data"])
    await harness.wait(lambda: "👉" in s.message(ana, menu[-1]["message_id"])["text"], 5)
    steps = [st for _, st in lesson.steps() if st.yours]
    first = s.message(ana, menu[-1]["message_id"])
    wrong = [b for b in buttons(first) if not b["callback_data"].endswith(code(steps[0]))]
    if wrong:
        answer = await s.user_presses(ana, ana, first["message_id"], wrong[0]["callback_data"])
        assert answer["show_alert"] and answer["text"].startswith("Quase!")
    for step in steps:
        current = s.message(ana, first["message_id"])
        right = [b for b in buttons(current) if b["callback_data"].endswith(":" + code(step))]
        assert right, (step.prompt, current["text"])
        answer = await s.user_presses(ana, ana, first["message_id"], right[0]["callback_data"])
        assert not answer["show_alert"], answer
        await harness.wait(
            lambda c=current: s.message(ana, first["message_id"])["text"] != c["text"], 5
        )
    await harness.wait(lambda: "Lição concluída" in s.message(ana, first["message_id"])["text"], 5)
    assert "Próxima:" in str(s.message(ana, first["message_id"]))
    stale = await s.user_presses(ana, ana, first["message_id"], right[0]["callback_data"])
    assert stale["show_alert"]


async def test_tutorial_offers_every_lesson_of_the_site_and_each_plays_to_its_end(
    harness: Harness,
) -> None:
    """The bot's lessons are the site's: the menu, then each lesson to "Lição concluída"."""
    from engine.tutorial import load_lessons

    s = harness.server
    bia = s.add_user("Bia")
    await s.user_sends(bia, bia, "/tutorial")
    menu = await harness.wait(
        lambda: [m for m in harness.bot_messages(bia) if "Escolha uma lição" in m["text"]]
    )
    mid = menu[-1]["message_id"]
    course = load_lessons()
    assert [b["text"] for b in buttons(menu[-1])] == [
        f"{n}. {lesson.title}" for n, lesson in enumerate(course.lessons, start=1)
    ]
    for n, lesson in enumerate(course.lessons, start=1):
        current = s.message(bia, mid)
        pick = button(current, f"{n}. {lesson.title}" if n == 1 else f"Próxima: {lesson.title}")
        await s.user_presses(bia, bia, mid, pick["callback_data"])
        await harness.wait(lambda c=current: s.message(bia, mid)["text"] != c["text"], 5)
        for step in [st for _, st in lesson.steps() if st.yours]:
            current = s.message(bia, mid)
            right = [b for b in buttons(current) if b["callback_data"].endswith(":" + code(step))]
            assert right, (lesson.id, step.prompt, current["text"])
            answer = await s.user_presses(bia, bia, mid, right[0]["callback_data"])
            assert not answer["show_alert"], (lesson.id, answer)
            await harness.wait(lambda c=current: s.message(bia, mid)["text"] != c["text"], 5)
        assert "Lição concluída" in s.message(bia, mid)["text"], lesson.id


def code(step) -> str:
    from bot.telegram.callbacks import action_code

    return action_code(step.action)


def test_upgrade_moves_json_seats_into_rows(tmp_path: Path) -> None:
    from alembic import command
    from sqlalchemy import text

    from bot.domain import Occupant, RobotLevel
    from bot.domain.store import alembic_config

    db = Database(database_url(tmp_path), migrate=False)
    cfg = alembic_config()
    seats = [{"name": "Ana", "user": 10, "robot": None}, None, {"name": "Zé", "robot": "dificil"}]
    with db.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
        conn.execute(
            text(
                "INSERT INTO games (chat_id, status, private, creator_id, variant, options,"
                " seats, seed, version, announced_hands, announced_end, created_at, updated_at)"
                " VALUES (-7, 'lobby', false, 10, 'paulista', :options, :seats, 0, 3, 0, false,"
                " CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
            ),
            {
                "options": json.dumps(
                    {"players": 4, "target": 12, "covered_cards": True, "ladder": None, "timer": 60}
                ),
                "seats": json.dumps([*seats, None]),
            },
        )
    with db.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
    table = tables.active_table(db, -7, None)
    assert table is not None and table.version == 3
    assert table.seats == (
        Occupant("Ana", user=10),
        None,
        Occupant("Zé", robot=RobotLevel.DIFICIL),
        None,
    )
    assert table.seat_of(10) == 0
    with db.engine.begin() as conn:  # and back: the JSON column again, the same seats
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0001")
        stored = conn.execute(text("SELECT seats FROM games")).scalar_one()
    assert json.loads(stored) == [
        {"name": "Ana", "user": 10, "robot": None},
        None,
        {"name": "Zé", "user": None, "robot": "dificil"},
        None,
    ]
    db.close()


def test_every_callback_fits_64_bytes_and_round_trips() -> None:
    from bot.domain import AddRobot, CancelTable, Leave, RemoveRobot, RobotLevel, Setting
    from bot.numbers import DB_INT_MAX
    from bot.telegram import callbacks as cb
    from engine import actions as A
    from engine.cards import DeckStyle

    biggest = DB_INT_MAX
    for command in (
        Join(),
        Join(0),
        Join(1),
        Leave(),
        Start(),
        CancelTable(),
        RemoveRobot(),
        *tuple(AddRobot(level) for level in RobotLevel),
    ):
        data = cb.lobby_data(biggest, command, biggest)
        assert cb.parse_lobby(data) == (biggest, command, biggest)
        assert len(data.encode()) <= cb.MAX_BYTES
    # a lobby drawn before buttons carried the version still works (no version check)
    assert cb.parse_lobby("l12:r2") == (12, AddRobot(RobotLevel.MEDIO), None)
    for action in (A.TRUCO, A.RAISE, A.PLAY[0], A.COVER[39], A.BLIND[2], A.RUN11):
        move = cb.Move(biggest, biggest, action)
        assert cb.parse_move(move.encode()) == move and len(move.encode()) <= cb.MAX_BYTES
        link = cb.posted_link("TrucoBot", move)
        assert cb.parse_posted_link(link, "TrucoBot") == move
        assert cb.parse_posted_link(link, "OutroBot") is None
    assert cb.parse_rematch(cb.rematch_data(biggest)) == biggest
    for setting in Setting:
        assert cb.parse_config(cb.config_data(setting)) == cb.ConfigPress(setting)
        assert cb.parse_config(cb.config_data(setting, 11)) == cb.ConfigPress(setting, 11)
    assert cb.parse_config(cb.config_data(None)) == cb.ConfigPress(None)
    assert [cb.parse_deck(cb.deck_data(d)) for d in DeckStyle] == list(DeckStyle)
    assert cb.parse_start(cb.start_parameter(42)) == 42 and cb.parse_start("ajuda") is None
    # the prefixes are distinct, so each handler's pattern catches only its own buttons
    assert len({p.value for p in cb.Prefix}) == len(cb.Prefix)
    with pytest.raises(ValueError, match="64 bytes"):
        cb.lobby_data(10**70, Join(), 1)


def test_an_ending_is_unsure_once_its_sender_may_have_died_during_the_call(tmp_path: Path) -> None:
    db = Database(database_url(tmp_path))
    ana = Person(1, "Ana")
    people.meet(db, ana, started=True)
    request = truco_request(["1x1"], people.chat_settings(db, -5))
    game = tables.open_table(db, -5, None, ana, request)
    with db.session() as s:
        row = s.get(Game, game.id)
        assert row is not None
        ending = {"winner": 0, "score": [12, 3]}
        outbox.record(s, row, outbox.Announcement.MATCH_OVER, f"{game.id}:over", ending)
        s.commit()

    def unsure(now: float) -> bool:
        with db.session() as s:
            return outbox.ending_unsure(s, game.id, now)

    assert not unsure(100.0)  # owed: it will be sent
    [end] = outbox.pending(db, game.id, 100.0)
    assert outbox.begin(db, end.id, "w1", 130.0)
    assert not unsure(120.0)  # its sender is on it
    assert unsure(131.0)  # past the lease: the sender died during the call
    outbox.sent(db, end.id, "w1", 77)
    assert not unsure(131.0)
    db.close()
