"""Deadlines (R10), inline mode, English, configuration errors, flood budget, lost messages."""

from __future__ import annotations

import itertools
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Config, ConfigError
from bot.domain import flood, messages
from bot.domain.store import Database
from bot.sandbox.fakeapi import FakeTelegram
from bot.telegram.publish.table import publish_game
from tests.bot.harness import (
    FakeClock,
    Harness,
    button,
    database_url,
    paulista_hand,
    press,
    running,
    seat_match,
)


async def test_deadline_plays_the_default_action_and_the_table_says_so(
    server: FakeTelegram, tmp_path: Path
) -> None:
    # the table's own 60 s per decision, on a clock that moves only when told to
    async with running(server, tmp_path, clock=FakeClock()) as h:
        ana, beto = server.add_user("Ana"), server.add_user("Beto")
        group = server.add_group("G", admins=[ana], members=[beto])
        gid = await seat_match(h, group, [ana, beto], paulista_hand())
        table = await h.wait(lambda: h.table(group))
        assert re.search(r"Vez de Ana · ⏱ \d+ s", table["text"])  # a countdown, no clock time
        # Ana does nothing for a minute: her strongest card (3♣) is played for her (R10)
        h.advance(60)
        await h.wait(lambda: "⏰ Tempo esgotado: Ana jogou 3♣" in h.table(group)["text"], 5)
        # Beto's turn now: he calls truco and Ana lets the call expire: she runs
        await press(h, beto, "Truco!")
        h.advance(60)
        await h.wait(lambda: any("Ana correu" in m["text"] for m in h.bot_messages(group)), 5)
        assert h.db is not None
        kinds = [e.kind for e in messages.events_of(h.db, gid)]
        assert kinds.count("timeout") == 2


async def test_inline_mode_lists_and_plays_only_the_pressers_moves(harness: Harness) -> None:
    s = harness.server
    ana, beto = s.add_user("Ana"), s.add_user("Beto")
    group = s.add_group("G", admins=[ana], members=[beto])
    gid = await seat_match(harness, group, [ana, beto], paulista_hand())
    table = await harness.wait(lambda: harness.table(group))
    assert button(table, "Minha mão")["switch_inline_query_current_chat"] == ""
    results = await s.user_inline_query(ana, "", chat_id=group)
    assert [r["title"] for r in results] == ["Jogar 3♣", "Jogar K♥", "Jogar 5♦", "Truco!"]
    assert all("Sua mão: 3♣ K♥ 5♦" in r["description"] for r in results)
    assert results[0]["id"] == f"g{gid}:1:p3C"
    # Beto is not to play: no results, and nothing of Ana's hand
    assert await s.user_inline_query(beto, "", chat_id=group) == []
    answer = s.inline_answer(beto)
    assert "Não é a sua vez" in answer["button"]["text"] and "3♣" not in str(answer)
    posted = await s.user_chooses_inline(ana, results[1]["id"])
    assert posted["text"] == "🃏 Joguei K♥."  # the card, as the table shows it
    await harness.wait(lambda: "Ana K♥" in harness.table(group)["text"], 5)
    # choosing the same (now stale) result again changes nothing and Ana is told privately
    await s.user_chooses_inline(ana, results[0]["id"])
    await harness.wait(lambda: "já passou" in harness.bot_messages(ana)[-1]["text"], 5)
    assert harness.db is not None
    acted = messages.events_of(harness.db, gid, "inline")
    assert len(acted) == 1


async def test_english_speakers_get_the_english_catalog(harness: Harness) -> None:
    s = harness.server
    joe = s.add_user("Joe", language_code="en")
    await s.user_sends(joe, joe, "/start")
    await harness.wait(lambda: harness.bot_messages(joe))
    assert harness.bot_messages(joe)[0]["text"].startswith("Hi, Joe!")
    await s.user_sends(joe, joe, "/truco")
    msg = await harness.wait(lambda: harness.hand(joe))
    assert "Your hand:" in msg["text"] and "Your turn!" in msg["text"]
    group = s.add_group("G", admins=[joe])
    await s.user_sends(joe, group, "/config")
    cfg = await harness.wait(lambda: harness.bot_messages(group))
    assert "Configuração do grupo" in cfg[0]["text"]  # groups speak Portuguese by default
    await s.user_presses(
        joe, group, cfg[0]["message_id"], button(cfg[0], "Idioma")["callback_data"]
    )
    menu = await harness.wait(
        lambda: (
            harness.bot_messages(group)[0]
            if "English" in str(harness.bot_messages(group)[0])
            else None
        )
    )
    await s.user_presses(joe, group, menu["message_id"], button(menu, "English")["callback_data"])
    await harness.wait(lambda: "Group settings" in harness.bot_messages(group)[0]["text"], 5)
    assert "Language: English" in harness.bot_messages(group)[0]["text"]
    ana = s.add_user("Ana")
    await s.user_sends(ana, group, "/config")
    await harness.wait(lambda: "Only group admins" in harness.bot_messages(group)[-1]["text"], 5)


def test_every_source_string_has_an_english_translation() -> None:
    from bot.i18n import source_messages, translations

    en = translations("en")
    found = {m.msgid for m in source_messages()}
    assert len(found) > 100
    missing = [m for m in found if en.gettext(m) == m and m not in ("{who} {what}",)]
    # a few strings are the same in both languages (names, the manilha line, the countdown)
    allowed = {
        "manilhas {cards}",
        "vira {vira} → manilha {rank}",
        "⏱ {n} s",
        "📣 {who}: {call}",
        "🏃 {who}: {answer}",
    }
    assert set(missing) <= allowed, missing


def test_config_errors_are_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.cli import main

    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "TRUCO_"))}
    env.pop("DATABASE_URL", None)
    # the real command, as a user runs it
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "bot"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "truco bot: falta TELEGRAM_BOT_TOKEN (crie o bot com o @BotFather e exporte o token)"
    ]
    monkeypatch.chdir(tmp_path)
    for k in list(os.environ):
        if k.startswith(("TELEGRAM_", "TRUCO_")) or k == "DATABASE_URL":
            monkeypatch.delenv(k)
    cases = [
        ({"TELEGRAM_BOT_TOKEN": "1:A", "TRUCO_ROBOT_DELAY": "soon"}, "TRUCO_ROBOT_DELAY"),
        ({"TELEGRAM_BOT_TOKEN": "1:A", "TRUCO_ROBOT_DELAY": "-1"}, "TRUCO_ROBOT_DELAY"),
        ({"TELEGRAM_BOT_TOKEN": "1:A", "TELEGRAM_API_URL": "ftp://x"}, "TELEGRAM_API_URL"),
        ({"TELEGRAM_BOT_TOKEN": "not a token"}, "não parece um token"),
        ({"TELEGRAM_BOT_TOKEN": "1:A", "DATABASE_URL": "nonsense"}, "DATABASE_URL"),
        ({"TELEGRAM_BOT_TOKEN": "1:A", "TRUCO_SEED": "x"}, "TRUCO_SEED"),
        (
            {"TELEGRAM_BOT_TOKEN": "1:A", "DATABASE_URL": "postgresql://u@127.0.0.1:1/x"},
            "não consegui abrir o banco de dados",
        ),
    ]
    for extra, expected in cases:
        with monkeypatch.context() as m:
            for k, v in extra.items():
                m.setenv(k, v)
            assert main(["bot"]) == 2, extra
        lines = capsys.readouterr().err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("truco bot: ") and expected in lines[0]


def test_dotenv_is_read_and_the_environment_wins(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(
        "# comment\nexport TELEGRAM_BOT_TOKEN='9:FROMFILE'\nTRUCO_ROBOT_DELAY=2.5\n"
        "TELEGRAM_API_URL=http://127.0.0.1:9/\n",
        encoding="utf-8",
    )
    c = Config.from_env({"TRUCO_ROBOT_DELAY": "0"}, env_file=env_file)
    assert (c.token, c.robot_delay, c.api_url) == ("9:FROMFILE", 0.0, "http://127.0.0.1:9")
    assert c.database_url == "sqlite:///./data/truco.db"
    env_file.write_text("oops\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="CHAVE=valor"):
        Config.from_env({}, env_file=env_file)


def test_group_budget_spaces_and_caps_calls(tmp_path: Path) -> None:
    db = Database(database_url(tmp_path))
    group, bot = flood.group_budget(-1, 20), flood.bot_budget(30)
    assert flood.wait(db, [group], 0.0) == 0.0
    for i in range(20):
        assert flood.take(db, [group, bot], float(i)) == 0.0
    # the window is a minute and a second (a margin for the requests' travel)
    assert flood.take(db, [group], 19.5) == pytest.approx(41.5)  # the first call leaves at t=61
    assert flood.wait(db, [group], 19.5) == pytest.approx(41.5)  # a refused call is not counted
    assert flood.wait(db, [group], 19.2, needed=1) == pytest.approx(41.8)
    assert flood.take(db, [group], 61.0) == 0.0
    assert flood.take(db, [group], 61.5) == pytest.approx(0.5)  # 20 in the window again
    assert flood.take(db, [group], 62.0) == 0.0  # the call of t=1 left: room, no gap needed
    assert flood.wait(db, [group], 62.2) == pytest.approx(0.8)  # redraws look a second apart
    # the bot's own budget: 30 a second, whatever the chats
    others = [flood.group_budget(-100 - i, 20) for i in range(31)]
    assert all(flood.take(db, [bot, g], 100.0) == 0.0 for g in others[:30])
    assert flood.take(db, [bot, others[30]], 100.0) == pytest.approx(1.0)
    db.close()


async def test_flood_budget_429_and_lost_table_message(
    server: FakeTelegram, tmp_path: Path
) -> None:
    async with running(server, tmp_path) as h:
        ana = server.add_user("Ana")
        group = server.add_group("G", admins=[ana])
        await server.user_sends(ana, ana, "/start")
        await h.wait(lambda: h.bot_messages(ana))
        await server.user_sends(ana, group, "/truco paulista 1x1 6")
        lobby = await h.wait(lambda: h.table(group))
        server.fail_next("editMessageText", 429, retry_after=1, chat_id=group)
        await server.user_presses(
            ana, group, lobby["message_id"], button(lobby, "Começar")["callback_data"]
        )
        table = await h.wait(
            lambda: h.table(group) if "Minha mão" in str(h.table(group)) else None, 15
        )
        assert any(e.code == 429 for _, e in server.errors)
        # someone deletes the table message: the bot posts a new one
        server._delete(server.chats[group], table["message_id"])
        over = await h.play_out([ana], group, timeout=120, seed=5)
        assert re.search(r"\d+ × \d+", over["text"])
        # (the table's last edit comes after the end's announcement)
        await h.wait(lambda: [m for m in h.bot_messages(group) if "Vitória" in m["text"]], 60)
        # the same state again: "message is not modified" is taken in stride
        game_id = int(button(over, "Revanche")["callback_data"][1:])
        await publish_game(h.app, game_id)
        edits = [c.time for c in server.calls_to(group, ("editMessageText",))]
        # a second apart when counted; the fake stamps them on arrival, and on a loaded
        # machine one request may travel a few hundred milliseconds longer than the next
        assert all(b - a >= 0.7 for a, b in itertools.pairwise(edits)), edits
        assert server.peak_calls_per_minute(group) <= 20


async def test_admin_check_does_not_wait_behind_the_groups_flood_budget(
    server: FakeTelegram, tmp_path: Path
) -> None:
    # two calls a minute to a group: the lobby and its redraw with a robot use them up
    async with running(server, tmp_path, TRUCO_GROUP_BUDGET=2) as h:
        ana, bia = server.add_user("Ana"), server.add_user("Bia")
        group = server.add_group("G", admins=[ana, bia], members=[bia])
        await server.user_sends(ana, ana, "/start")
        await server.user_sends(ana, group, "/truco")
        lobby = await h.wait(lambda: h.table(group))
        robot = button(lobby, "+ Robô fácil")["callback_data"]
        await server.user_presses(ana, group, lobby["message_id"], robot)
        await h.wait(lambda: "🤖" in server.message(group, lobby["message_id"])["text"])
        # Bia is an admin, not the creator: checking that (getChatMember) must not queue
        # behind the group's next message, or her button would expire
        answer = await server.user_presses(
            bia, group, lobby["message_id"], button(lobby, "Cancelar")["callback_data"], timeout=3
        )
        assert not answer["show_alert"], answer
        assert server.calls_to(group, ("getChatMember",))
