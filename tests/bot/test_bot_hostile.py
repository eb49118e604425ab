"""Careless and hostile input against the real bot: edits, odd digits, ids out of range."""

from __future__ import annotations

import copy
import logging
import time
from typing import Any

import pytest

from bot.domain import tables
from bot.sandbox.fakeapi import FakeTelegram
from tests.bot.harness import Harness

JSON = dict[str, Any]


async def user_edits(server: FakeTelegram, message: JSON, text: str) -> None:
    """The author edits one of their messages into ``text``; Telegram sends ``edited_message``."""
    edited = copy.deepcopy(message)
    edited.pop("deleted", None)
    edited["text"] = text
    edited["edit_date"] = int(time.time())
    edited.pop("entities", None)
    if text.startswith("/"):
        command = text.split()[0]
        edited["entities"] = [{"type": "bot_command", "offset": 0, "length": len(command)}]
    await server.updates.put("edited_message", edited)


def replies(h: Harness, chat: int) -> list[str]:
    """Texts the bot sent in a chat."""
    return [m["text"] for m in h.bot_messages(chat)]


async def reply_to(h: Harness, user: int, chat: int, text: str) -> str:
    """Send ``text`` and return the bot's next message in that chat."""
    before = len(h.bot_messages(chat))
    await h.server.user_sends(user, chat, text)
    await h.wait(lambda: len(h.bot_messages(chat)) > before)
    return h.bot_messages(chat)[before]["text"]


def active(h: Harness, chat: int) -> Any:
    assert h.db is not None
    return tables.active_table(h.db, chat, None)


@pytest.fixture
def errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """ERROR records and tracebacks logged while the test runs."""
    caplog.set_level(logging.WARNING)
    return caplog.records


def no_errors(records: list[logging.LogRecord]) -> list[str]:
    return [r.getMessage() for r in records if r.levelno >= logging.ERROR or r.exc_info]


# ------------------------------------------------------------------ edited messages


async def test_an_edited_message_never_runs_a_command(harness: Harness) -> None:
    s = harness.server
    ana = s.add_user("Ana", started=True)
    group = s.add_group("G", admins=[ana])
    old = await s.user_sends(ana, group, "/placar")
    await harness.wait(lambda: harness.bot_messages(group))
    await user_edits(s, old, "/truco")
    # commands are answered in order of arrival; the edit came first and its handler
    # writes the table before it awaits anything
    assert "Truco no Telegram" in await reply_to(harness, ana, group, "/ajuda")
    assert active(harness, group) is None

    await s.user_sends(ana, group, "/truco")
    await harness.wait(lambda: active(harness, group))
    await user_edits(s, old, "/cancelar")
    await reply_to(harness, ana, group, "/ajuda")
    game = active(harness, group)
    assert game is not None and game.status == "lobby"
    assert not any("cancelada" in t for t in replies(harness, group))


# ------------------------------------------------------------------ numbers


def test_parse_number_takes_ascii_digits_within_bounds() -> None:
    from bot.numbers import DB_INT_MAX, NumberRefused, parse_number

    assert parse_number("12", 6, 30) == 12
    assert parse_number("0012", 6, 30) == 12
    assert parse_number(str(DB_INT_MAX)) == DB_INT_MAX
    for text, reason in {
        "²": NumberRefused.NOT_DIGITS,
        "٣": NumberRefused.NOT_DIGITS,
        "１２": NumberRefused.NOT_DIGITS,
        "+12": NumberRefused.NOT_DIGITS,
        "1_2": NumberRefused.NOT_DIGITS,
        " 12": NumberRefused.NOT_DIGITS,
        "": NumberRefused.NOT_DIGITS,
        "5": NumberRefused.TOO_SMALL,
        "31": NumberRefused.TOO_LARGE,
        "9" * 5000: NumberRefused.TOO_LARGE,  # never handed to int()
    }.items():
        with pytest.raises(NumberRefused) as refused:
            parse_number(text, 6, 30)
        assert refused.value.reason == reason, text
    with pytest.raises(NumberRefused):
        parse_number(str(DB_INT_MAX + 1))


async def test_odd_numbers_in_commands_get_their_own_line(
    harness: Harness, errors: list[logging.LogRecord]
) -> None:
    s = harness.server
    ana = s.add_user("Ana", started=True)
    group = s.add_group("G", admins=[ana])
    lines = {
        "/truco ²": "“²” não é um número: escreva os pontos com algarismos de 0 a 9.",
        "/truco ٣": "“٣” não é um número: escreva os pontos com algarismos de 0 a 9.",
        "/truco 99999999999999999999": "A partida vai de 6 a 30 pontos.",
        "/truco 5": "A partida vai de 6 a 30 pontos.",
        "/truco <b>": "Não entendi “<b>”. Exemplo: /truco mineiro 2x2 12",
    }
    for command, line in lines.items():
        assert await reply_to(harness, ana, group, command) == line, command
    assert active(harness, group) is None
    links = {
        "/start g²": "Esse link não é de nenhuma mesa. Abra uma com /truco.",
        "/start g": "Esse link não é de nenhuma mesa. Abra uma com /truco.",
        "/start g99999999999999999999": "Essa mesa não existe mais.",
        "/start g2147483648": "Essa mesa não existe mais.",
        "/start g77": "Essa mesa não existe mais.",
    }
    for command, line in links.items():
        before = len(harness.bot_messages(ana))
        await s.user_sends(ana, ana, command)
        # the greeting, then the line about the link
        await harness.wait(lambda b=before: len(harness.bot_messages(ana)) >= b + 2)
        assert harness.bot_messages(ana)[-1]["text"] == line, command
    assert no_errors(errors) == []


async def test_ids_past_the_database_range_name_no_game(
    harness: Harness, errors: list[logging.LogRecord]
) -> None:
    s = harness.server
    ana = s.add_user("Ana", started=True)
    group = s.add_group("G", admins=[ana])
    await s.user_sends(ana, group, "/truco")
    lobby = await harness.wait(lambda: harness.table(group))
    gone = "Essa mesa não existe mais."
    cases = {
        "l999999999999:j": gone,
        "l99999999999999999999:go": gone,
        "g2147483648:1:t": gone,
        "g1:99999999999999999999:t": gone,
        "v999999999999": gone,
        "l١:j": "Botão inválido.",  # an Arabic-Indic digit is not a digit here
        "g١:1:t": "Botão inválido.",
    }
    for data, text in cases.items():
        answer = await s.user_presses(ana, group, lobby["message_id"], data)
        assert answer == {"text": text, "show_alert": True, "url": None}, data
    assert no_errors(errors) == []
