"""The database layer: migrations match the models, optimistic concurrency, commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlmodel import SQLModel
from test_bot_buttons import moves, paulista_hand, press
from test_bot_harness import Harness, button, database_url, harness, seat_match, server

from bot import service
from bot.models import Chat, Player
from bot.store import Database

__all__ = ["harness", "server"]  # fixtures


def test_migrations_build_exactly_the_models(tmp_path: Path) -> None:
    db = Database(database_url(tmp_path))
    with db.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), SQLModel.metadata)
    db.close()
    assert diff == []


def test_two_changes_for_one_version_store_one(tmp_path: Path) -> None:
    db = Database(database_url(tmp_path))
    rules = service.Rules(decision_seconds=60, seed=3)
    with db.session() as s:
        s.add(Player(id=1, name="Ana", started=True))
        s.add(Player(id=2, name="Beto", started=True))
        chat = Chat(id=-5)
        s.add(chat)
        s.commit()
        request = service.parse_table_args(["1x1"], chat)
    ana = Player(id=1, name="Ana", started=True)
    beto = Player(id=2, name="Beto", started=True)
    game = service.open_table(db, -5, None, ana, request)
    service.lobby_change(db, game.id or 0, beto, "j", authorised=False, rules=rules)
    change = service.lobby_change(db, game.id or 0, ana, "go", authorised=True, rules=rules)
    g = service.load_game(db, change.game_id)
    assert g is not None
    m = service.load_match(g)
    seat = m.to_act()[0]
    user = 1 if seat == 0 else 2
    action = m.legal_actions(seat)[0]
    # a second process read the same version and got there first
    service.act(db, g.id or 0, g.version, None, action, rules, user_id=user)
    with pytest.raises(service.Stale):
        service.act(db, g.id or 0, g.version, None, action, rules, user_id=user)
    events = service.events_of(db, g.id or 0, "button")
    assert len(events) == 1 and json.loads(events[0].data)["action"] == str(action)
    with pytest.raises(service.Refused) as refused:
        service.parse_table_args(["truco-do-cerrado"], chat)
    assert refused.value.reason == "bad_arg"
    with pytest.raises(service.Refused):
        service.parse_table_args(["99"], chat)
    db.close()


async def test_commands_answer_in_the_group(harness: Harness) -> None:
    s = harness.server
    ana, beto = s.add_user("Ana"), s.add_user("Beto")
    group = s.add_group("G", admins=[ana], members=[beto])
    for text, expected in (
        ("/ajuda", "/truco [paulista|mineiro|trembao]"),
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
    msg = await harness.wait(lambda: [m for m in harness.bot_messages(ana) if "👉" in m["text"]])
    lesson = load_script()
    steps = [st for _, st in lesson.steps() if st.yours]
    first = msg[-1]
    wrong = [b for b in button_list(first) if not b["callback_data"].endswith(code(steps[0]))]
    if wrong:
        answer = await s.user_presses(ana, ana, first["message_id"], wrong[0]["callback_data"])
        assert answer["show_alert"] and answer["text"].startswith("Quase!")
    for step in steps:
        current = s.message(ana, first["message_id"])
        right = [b for b in button_list(current) if b["callback_data"].endswith(":" + code(step))]
        assert right, (step.prompt, current["text"])
        answer = await s.user_presses(ana, ana, first["message_id"], right[0]["callback_data"])
        assert not answer["show_alert"], answer
        await harness.wait(
            lambda c=current: s.message(ana, first["message_id"])["text"] != c["text"], 5
        )
    await harness.wait(lambda: "Fim do tutorial" in s.message(ana, first["message_id"])["text"], 5)
    stale = await s.user_presses(ana, ana, first["message_id"], right[0]["callback_data"])
    assert stale["show_alert"]


def button_list(msg: dict) -> list[dict]:
    markup = msg.get("reply_markup") or {}
    return [b for row in markup.get("inline_keyboard", []) for b in row]


def code(step) -> str:
    from bot.codes import action_code

    return action_code(step.action)
