"""Careless and hostile input against the real bot: edits, odd digits, ids out of range."""

from __future__ import annotations

import asyncio
import copy
import itertools
import logging
import time
from typing import Any

import pytest

from bot.domain import messages, tables
from bot.sandbox.fakeapi import FLOOD_CALLS, FakeTelegram
from bot.telegram.context import runtime_of
from bot.telegram.publish.table import REPOST_AFTER
from tests.bot.harness import (
    TOKEN,
    FakeClock,
    Harness,
    as_group,
    button,
    buttons,
    database_url,
    paulista_hand,
    running,
    seat_match,
)

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
    for i, (command, line) in enumerate(lines.items()):
        # each from someone else: one person's repeated answer would go to their private chat
        who = s.add_user(f"P{i}")
        assert await reply_to(harness, who, group, command) == line, command
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
    # a hand's buttons count in the presser's private chat: the game is looked up
    await s.user_sends(ana, ana, "/start")
    greeting = (await harness.wait(lambda: harness.bot_messages(ana)))[0]
    cases = {
        "g2147483648:1:t": gone,
        "g1:99999999999999999999:t": gone,
        "z2147483648:1:o": gone,
        "g١:1:t": "Botão inválido.",  # an Arabic-Indic digit is not a digit here
    }
    for data, text in cases.items():
        answer = await s.user_presses(ana, ana, greeting["message_id"], data)
        assert answer == {"text": text, "show_alert": True, "url": None}, data
    # any other button only on a message that carries one for the same game
    for data in ("l999999999999:j", "l99999999999999999999:go", "v999999999999", "l١:j"):
        answer = await s.user_presses(ana, group, lobby["message_id"], data)
        assert answer["text"] == "Esse botão não é desta mensagem.", data
    assert no_errors(errors) == []


# ------------------------------------------------------------------ buttons bound to their place


async def test_a_lobby_button_acts_only_from_its_lobby_message(harness: Harness) -> None:
    s = harness.server
    ana, eva = s.add_user("Ana", started=True), s.add_user("Eva")
    group = s.add_group("G", admins=[ana])  # Eva is not a member
    await s.user_sends(ana, group, "/truco")
    lobby = await harness.wait(lambda: harness.table(group))
    join = button(lobby, "Entrar")["callback_data"]
    # Eva forges the group's Entrar from her own private chat
    await s.user_sends(eva, eva, "/start")
    greeting = (await harness.wait(lambda: harness.bot_messages(eva)))[0]
    answer = await s.user_presses(eva, eva, greeting["message_id"], join)
    assert answer == {"text": "Esse botão não é desta mensagem.", "show_alert": True, "url": None}
    # nor from another message of the group (the /ajuda answer)
    await s.user_sends(ana, group, "/ajuda")
    other = await harness.wait(lambda: harness.bot_messages(group)[1:])
    answer = await s.user_presses(ana, group, other[0]["message_id"], join)
    assert answer["text"] == "Esse botão não é desta mensagem."
    table = active(harness, group)
    assert table.seat_of(eva) is None and table.version == 0
    assert all("Você sentou" not in t for t in replies(harness, eva))


async def test_robots_are_for_the_seated_the_opener_or_an_admin(harness: Harness) -> None:
    s = harness.server
    ana, bia, caio = (s.add_user(n, started=True) for n in ("Ana", "Bia", "Caio"))
    group = s.add_group("G", admins=[ana, bia], members=[caio])
    await s.user_sends(ana, group, "/truco 2x2")
    lobby = await harness.wait(lambda: harness.table(group))
    mid = lobby["message_id"]

    async def press(who: int, label: str) -> dict[str, Any]:
        return await s.user_presses(who, group, mid, button(lobby, label)["callback_data"])

    refused = "Você não está nessa mesa: robôs, só quem está sentado, quem abriu ou um admin."
    assert (await press(caio, "+ Robô médio"))["text"] == refused
    assert len([x for x in active(harness, group).seats if x]) == 1
    assert (await press(bia, "+ Robô médio"))["show_alert"] is False  # an admin, not seated
    assert (await press(caio, "− Robô"))["text"] == refused
    assert (await press(caio, "Entrar"))["show_alert"] is False
    assert (await press(caio, "− Robô"))["show_alert"] is False  # seated now
    seats = active(harness, group).seats
    assert [x.robot for x in seats if x] == [None, None]
    # /ajuda says who may do what
    text = await reply_to(harness, caio, group, "/ajuda")
    assert "Quem pode" in text and "pôr ou tirar robôs, quem está sentado" in text


async def test_revanche_acts_only_in_the_matchs_chat(harness: Harness) -> None:
    s = harness.server
    ana, beto = s.add_user("Ana", started=True), s.add_user("Beto", started=True)
    group = s.add_group("G", admins=[ana], members=[beto])
    # 11 × 11: one blind hand decides the match
    gid = await seat_match(harness, group, [ana, beto], paulista_hand(score=(11, 11)))
    over = await harness.play_out([ana, beto], group)
    data = button(over, "Revanche")["callback_data"]
    hand = harness.bot_messages(ana)[-1]
    answer = await s.user_presses(ana, ana, hand["message_id"], data)
    assert answer["text"] == "Esse botão não é desta mensagem."
    assert active(harness, group) is None
    assert (await s.user_presses(ana, group, over["message_id"], data))["show_alert"] is False
    await harness.wait(lambda: (t := active(harness, group)) is not None and t.id != gid)


# ------------------------------------------------------------------ inline mode


async def test_inline_moves_count_only_in_the_tables_chat(harness: Harness) -> None:
    s = harness.server
    ana, beto = s.add_user("Ana", started=True), s.add_user("Beto", started=True)
    group = s.add_group("G", admins=[ana], members=[beto])
    other = s.add_group("Outro", admins=[ana])
    gid = await seat_match(harness, group, [ana, beto], paulista_hand())
    await harness.wait(lambda: harness.table(group))
    # typed in a private chat with someone else: no result to post there
    assert await s.user_inline_query(ana, "", chat_type="private") == []
    assert s.inline_answer(ana)["button"]["text"] == "Jogue no chat da mesa"
    # typed in another group (Telegram does not say which): the posted move changes nothing
    results = await s.user_inline_query(ana, "", chat_id=other)
    assert results and "🃏" in results[0]["input_message_content"]["message_text"]
    before = len(harness.bot_messages(ana))
    posted = await s.user_chooses_inline(ana, results[0]["id"], chat_id=other)
    assert posted["text"] == "🃏 Joguei 3♣."  # the person's words; the bot may not delete here
    # (her hand message may arrive meanwhile, drawn late on a loaded machine)
    note = "Essa jogada só vale no chat da mesa: use o 🃏 Minha mão de lá."
    await harness.wait(lambda: any(m["text"] == note for m in harness.bot_messages(ana)[before:]))
    assert tables.load(harness.db, gid).version == 1
    # a copy of the posted text (no "via @bot") is nobody's move either
    await s.updates.put(
        "message",
        {
            **{k: v for k, v in posted.items() if k not in ("via_bot", "deleted")},
            "chat": s.chats[group],
        },
    )
    # in the table's own group the same result is the move
    results = await s.user_inline_query(ana, "", chat_id=group)
    await s.user_chooses_inline(ana, results[0]["id"], chat_id=group)
    await harness.wait(lambda: tables.load(harness.db, gid).version == 2)


# ------------------------------------------------------------------ anonymous admins


async def test_anonymous_admins_are_told_to_play_as_themselves_but_may_cancel(
    harness: Harness,
) -> None:
    s = harness.server
    ana = s.add_user("Ana", started=True)
    group = s.add_group("G", admins=[ana])
    await as_group(s, group, "/truco")
    await harness.wait(lambda: harness.bot_messages(group))
    assert replies(harness, group) == [
        "Para jogar, escreva como você mesmo (desligue o anonimato de admin no grupo)."
    ]
    assert active(harness, group) is None
    await s.user_sends(ana, group, "/truco")
    lobby = await harness.wait(lambda: harness.table(group))
    # Telegram proves an anonymous sender is an admin: cancelling is theirs to do
    await as_group(s, group, "/cancelar")
    await harness.wait(lambda: "cancelada" in s.message(group, lobby["message_id"])["text"])
    assert active(harness, group) is None


# ------------------------------------------------------------------ command spam


async def test_command_spam_never_stalls_the_table(tmp_path: Any) -> None:
    # Telegram's flood control: 20 calls a minute in a group, 429 beyond
    server = FakeTelegram(token=TOKEN, bot_username="TrucoBot", group_limit=20)
    await server.start()
    try:
        async with running(server, tmp_path, clock=FakeClock()) as h:
            ana, beto = server.add_user("Ana", started=True), server.add_user("Beto", started=True)
            eva = server.add_user("Eva")  # a member who never opened the bot
            group = server.add_group("G", admins=[ana], members=[beto, eva])
            gid = await seat_match(h, group, [ana, beto], paulista_hand())
            table = await h.wait(lambda: h.table(group))
            for _ in range(40):
                await server.user_sends(eva, group, "/regras")
            await h.wait(lambda: not server.updates.pending)
            # fetched is not yet counted: the move must find the table buried
            db = runtime_of(h.app).db
            await h.wait(lambda: messages.table_drawing(db, gid).buried >= REPOST_AFTER, 30)
            hand = await h.wait(lambda: h.hand(ana))
            data = next(b["callback_data"] for b in buttons(hand) if b["text"] == "3♣")
            assert (await server.user_presses(ana, ana, hand["message_id"], data))[
                "show_alert"
            ] is False
            # the table shows the move within 30 s (it waited 65 s behind the answers; calls to
            # a group are a second apart, the answers queued may take some of them first);
            # buried under 40 commands it came down the chat, once
            await h.wait(lambda: "Ana 3♣" in h.table_message(group)["text"], 30)
            assert table["message_id"] != h.table_message(group)["message_id"]
            old = table["message_id"]
            await h.wait(lambda: "continua abaixo" in server.message(group, old)["text"])
            assert len([m for m in h.bot_messages(group) if m["text"].startswith("🃏")]) == 2
            # the one answer may come before or after the table's repost (a second apart)
            answers = await h.wait(
                lambda: [m for m in h.bot_messages(group) if "Livro de regras" in m["text"]], 30
            )
            assert len(answers) == 1  # Eva asked 40 times: answered once
            assert tables.load(h.db, gid).version == 2
    finally:
        await server.stop()


# ------------------------------------------------------------------ webhook bodies


async def test_a_webhook_body_that_is_not_an_object_gets_400(
    server: FakeTelegram, tmp_path: Any, errors: list[logging.LogRecord]
) -> None:
    from tests.bot.test_bot_webhook import SECRET, webhook_bots

    async with webhook_bots(server, database_url(tmp_path)):
        for body in ([], [{"update_id": 1}], "update", 7, None, {"update_id": 1, "message": "x"}):
            status = await server.forge_webhook_request(body, secret=SECRET)  # type: ignore[arg-type]
            assert status == 400, body
        ana = server.add_user("Ana")
        await server.user_sends(ana, ana, "/start")  # the real updates still go through
        await server.wait_for(lambda: any(m["from"]["is_bot"] for m in server.messages(ana)))
    assert no_errors(errors) == []


# ------------------------------------------------------------------ /marcador's echo, bot accounts


async def test_marcador_echoes_a_misunderstood_argument_escaped_and_cut(
    harness: Harness, errors: list[logging.LogRecord]
) -> None:
    s = harness.server
    ana = s.add_user("Ana", started=True)
    group = s.add_group("G", admins=[ana])
    example = "Exemplo: /marcador mineiro 12 Nós x Eles"
    cases = {
        "/marcador <i>": f"Não entendi “<i>”. {example}",
        "/marcador <b>x</b>": f"Não entendi “<b>x</b>”. {example}",
        "/marcador " + "é" * 4080: f"Não entendi “{'é' * 30}”. {example}",
    }
    for i, (command, line) in enumerate(cases.items()):
        who = s.add_user(f"P{i}")  # one answer each: a repeat would go private
        answer = await reply_to(harness, who, group, command)
        assert answer == line, command
    sent = [m for m in harness.bot_messages(group) if "Não entendi" in m["text"]]
    assert not any(e["type"] == "bold" for m in sent for e in m.get("entities", []))
    assert no_errors(errors) == []


async def test_a_bot_account_cannot_open_a_table_or_be_answered(harness: Harness) -> None:
    s = harness.server
    ana = s.add_user("Ana", started=True)
    robo = s.add_user("OutroBot")
    s.users[robo]["is_bot"] = True
    group = s.add_group("G", admins=[ana], members=[robo])
    for text in ("/truco", "/marcador", "/regras", "/truco@TrucoBot 2x2"):
        await s.user_sends(robo, group, text)
    # a person's command after them is answered; the bot's were dropped unseen
    assert "Truco no Telegram" in await reply_to(harness, ana, group, "/ajuda")
    ours = [m for m in harness.bot_messages(group) if m["from"]["id"] != robo]
    assert len(ours) == 1
    assert active(harness, group) is None


# ------------------------------------------------------------------ forged buttons, one check


async def test_forged_buttons_never_rewrite_a_group_message(harness: Harness) -> None:
    s = harness.server
    ana, beto = s.add_user("Ana", started=True), s.add_user("Beto", started=True)
    group = s.add_group("G", admins=[ana], members=[beto])
    await s.user_sends(ana, group, "/ajuda")
    help_msg = (await harness.wait(lambda: harness.bot_messages(group)))[0]
    gid = await seat_match(harness, group, [ana, beto], paulista_hand())
    table = await harness.wait(lambda: harness.table(group))
    version = tables.load(harness.db, gid).version
    before = {
        m["message_id"]: (m["text"], m.get("reply_markup")) for m in harness.bot_messages(group)
    }
    not_here = {"text": "Esse botão não é desta mensagem.", "show_alert": True, "url": None}
    forged = {
        "uL0": table,  # the tutorial's menu on the live table
        "uL1": table,  # a lesson on the live table
        f"z{gid}:{version}:c": table,  # the signals' "back": Ana's hand keyboard in the group
        f"z{gid}:{version}:o": table,
        f"x{gid}:n": help_msg,  # an admin's "Não" on an old message
        f"x{gid}:y": help_msg,
        "k-": table,  # /config's panel over the table (Ana is an admin)
    }
    for data, msg in forged.items():
        assert await s.user_presses(ana, group, msg["message_id"], data) == not_here, data
    # nothing was edited: the table, the old answer
    after = {
        m["message_id"]: (m["text"], m.get("reply_markup")) for m in harness.bot_messages(group)
    }
    assert {k: after[k] for k in before} == before
    assert tables.load(harness.db, gid).status == "playing"
    # the real question's buttons still act where they are drawn
    await s.user_sends(ana, group, "/cancelar")
    question = await harness.wait(
        lambda: next(
            (
                m
                for m in harness.bot_messages(group)
                if any(b.get("callback_data", "").startswith("x") for b in buttons(m))
            ),
            None,
        )
    )
    no = button(question, "Não")["callback_data"]
    assert (await s.user_presses(ana, group, question["message_id"], no))["show_alert"] is False
    await harness.wait(lambda: "continua" in s.message(group, question["message_id"])["text"])


# ------------------------------------------------------------------ the table comes first


def closest(times: list[float]) -> float:
    """The shortest time between two of these calls."""
    ordered = sorted(times)
    return min((b - a for a, b in itertools.pairwise(ordered)), default=99.0)


async def test_a_burst_of_commands_never_freezes_the_table(tmp_path: Any) -> None:
    # Telegram's flood control: 20 calls a minute in a group, 429 beyond
    server = FakeTelegram(token=TOKEN, bot_username="TrucoBot", group_limit=20)
    await server.start()
    try:
        async with running(server, tmp_path, clock=FakeClock()) as h:
            ana, beto = server.add_user("Ana", started=True), server.add_user("Beto", started=True)
            caio = server.add_user("Caio", started=True)  # watching, not playing
            others = [server.add_user(f"P{i}") for i in range(6)]
            group = server.add_group("G", admins=[ana], members=[beto, caio, *others])
            gid = await seat_match(h, group, [ana, beto], paulista_hand())
            await h.wait(lambda: h.table(group))
            start = len(server.calls)
            for _ in range(40):
                await server.user_sends(caio, group, "/marcador")
            commands = ["/regras", "/ajuda", "/placar", "/ranking", "/marcador", "/truco"]
            for who in others:
                for text in commands:
                    await server.user_sends(who, group, text)
            await h.wait(lambda: not server.updates.pending)
            hand = await h.wait(lambda: h.hand(ana))
            data = next(b["callback_data"] for b in buttons(hand) if b["text"] == "3♣")
            answer = await server.user_presses(ana, ana, hand["message_id"], data)
            assert answer["show_alert"] is False
            # the table shows the move in the group within 30 s, whatever was asked before
            pressed = time.monotonic()
            await h.wait(lambda: "Ana 3♣" in (h.table_message(group) or {}).get("text", ""), 30)
            assert time.monotonic() - pressed < 30
            assert tables.load(h.db, gid).version == 2
            marcadores = [m for m in h.bot_messages(group) if "Marcador" in m["text"]]
            assert len(marcadores) <= 3  # Caio's forty collapse into one; three a minute per chat
            assert sum("Caio" in str(m) for m in marcadores) <= 1
            calls = [
                c for c in server.calls[start:] if c.chat_id == group and c.method in FLOOD_CALLS
            ]
            # about one a second per chat (counted from Telegram's answer to the one before)
            assert closest([c.time for c in calls]) >= 0.99
            assert server.peak_calls_per_minute(group, FLOOD_CALLS) <= 20
            assert not [e for c, e in server.errors if c.chat_id == group and e.code == 429]
    finally:
        await server.stop()


async def test_a_call_counts_in_the_bots_second_until_a_second_after_its_answer(
    tmp_path: Any,
) -> None:
    from bot.domain import Database
    from bot.telegram.budget import SharedBudget

    db = Database(f"sqlite:///{tmp_path}/one.db")
    clock = FakeClock()
    budget = SharedBudget(db, bot_limit=3, clock=clock)
    taken = [await asyncio.wait_for(budget.take(42), 5) for _ in range(3)]
    clock.now += 0.9  # Telegram answered late: the calls may have reached it just now
    for at in taken:
        assert at is not None
        await budget.sent(at)
    clock.now += 0.2  # 1.1 s after they were taken, 0.2 s after their answers
    with pytest.raises(TimeoutError):  # the clock stands still: a fourth would make 4 in 1 s
        await asyncio.wait_for(budget.take(42), 0.2)
    clock.now += 0.8
    await asyncio.wait_for(budget.take(42), 5)
    db.close()


# ------------------------------------------------------------------ removed from the group


async def my_membership(
    server: FakeTelegram, group: int, admin: int, status: str, old: str = "member"
) -> None:
    """Telegram tells the bot its membership in ``group`` changed from ``old`` to
    ``status`` (``admin`` did it)."""

    def member(status: str) -> JSON:
        found: JSON = {"user": server.bot_user, "status": status}
        if status == "kicked":
            found["until_date"] = 0
        return found

    await server.updates.put(
        "my_chat_member",
        {
            "chat": server.chats[group],
            "from": server.users[admin],
            "date": int(time.time()),
            "old_chat_member": member(old),
            "new_chat_member": member(status),
        },
    )


async def play_some(h: Harness, who: list[int], version: int, gid: int) -> None:
    """The players press their first move buttons until the game reaches ``version``."""
    from tests.bot.harness import press_first

    while tables.load(h.db, gid).version < version:
        for user in who:
            await h.wait(lambda u=user: h.hand(u))
            await press_first(h.server, user)


async def test_removed_from_the_group_the_bot_stops_calling_it(harness: Harness) -> None:
    s = harness.server
    ana, beto = s.add_user("Ana", started=True), s.add_user("Beto", started=True)
    group = s.add_group("G", admins=[ana], members=[beto])
    gid = await seat_match(harness, group, [ana, beto], paulista_hand())
    await harness.wait(lambda: harness.table(group))
    s.remove_bot(group)
    await my_membership(s, group, ana, "kicked")
    await harness.wait(lambda: group in runtime_of(harness.app).budget.gone)
    start = len(s.calls_to(group))
    await play_some(harness, [ana, beto], 3, gid)
    await harness.wait(lambda: not [j for j in waiting_jobs(harness) if j[0] == "table"], 10)
    assert s.calls_to(group)[start:] == []


async def test_a_403_from_the_group_stops_the_calls_without_the_update(harness: Harness) -> None:
    s = harness.server
    ana, beto = s.add_user("Ana", started=True), s.add_user("Beto", started=True)
    group = s.add_group("G", admins=[ana], members=[beto])
    gid = await seat_match(harness, group, [ana, beto], paulista_hand())
    await harness.wait(lambda: harness.table(group))
    s.remove_bot(group)  # no my_chat_member reaches the bot: the first refusal tells it
    start = len(s.calls_to(group))
    await play_some(harness, [ana, beto], 5, gid)
    await harness.wait(lambda: not [j for j in waiting_jobs(harness) if j[0] == "table"], 10)
    refused = s.calls_to(group)[start:]
    assert len(refused) <= 1, [c.method for c in refused]
    assert group in runtime_of(harness.app).budget.gone
    # added back: the group is called again
    await my_membership(s, group, ana, "member")
    await harness.wait(lambda: group not in runtime_of(harness.app).budget.gone)


def waiting_jobs(h: Harness) -> list[tuple[str, str, float]]:
    from bot.domain import jobs

    assert h.db is not None
    return jobs.waiting(h.db)
