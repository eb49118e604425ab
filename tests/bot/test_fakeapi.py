"""The fake Bot API server, driven by a real python-telegram-bot ``Bot`` over HTTP."""

from __future__ import annotations

import asyncio

import pytest
from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeAllGroupChats,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
)
from telegram.constants import ParseMode
from telegram.error import BadRequest, Conflict, Forbidden, RetryAfter

from bot.sandbox.fakeapi import FakeTelegram
from tests.bot.harness import TOKEN


@pytest.fixture
async def server():
    """A running fake server with a group and two people."""
    s = FakeTelegram(token=TOKEN, bot_username="TrucoBot", bot_name="Truco")
    await s.start(host="127.0.0.1", port=0)
    yield s
    await s.stop()


def keyboard(*labels: str) -> InlineKeyboardMarkup:
    """One row of callback buttons whose data equals their label."""
    return InlineKeyboardMarkup([[InlineKeyboardButton(x, callback_data=x) for x in labels]])


async def test_get_me_and_bot_id(server, bot):
    me = await bot.get_me()
    assert me.username == "TrucoBot"
    assert me.id == 123456
    assert me.is_bot and me.supports_inline_queries
    assert server.calls[-1].method == "getMe"


async def test_wrong_token_is_unauthorized(server):
    from telegram.error import InvalidToken

    other = Bot("999:NOPE", base_url=server.api_url + "/bot")
    with pytest.raises(InvalidToken):
        await other.get_me()


async def test_unknown_method_is_404(server):
    import aiohttp

    url = f"{server.api_url}/bot{TOKEN}/fooBar"
    async with aiohttp.ClientSession() as http, http.post(url, json={}) as resp:
        assert resp.status == 404
        body = await resp.json()
    assert body == {"ok": False, "error_code": 404, "description": "Not Found"}


async def test_json_body_and_form_body_are_both_understood(server):
    import aiohttp

    ana = server.add_user("Ana", started=True)
    async with aiohttp.ClientSession() as http:
        url = f"{server.api_url}/bot{TOKEN}/sendMessage"
        async with http.post(url, json={"chat_id": ana, "text": "oi"}) as resp:
            first = await resp.json()
        async with http.post(url, data={"chat_id": str(ana), "text": "true"}) as resp:
            second = await resp.json()
        async with http.get(url, params={"chat_id": str(ana), "text": "123"}) as resp:
            third = await resp.json()
    assert first["ok"] and first["result"]["text"] == "oi"
    assert second["result"]["text"] == "true"
    assert third["result"]["text"] == "123"
    assert third["result"]["chat"]["id"] == ana


async def test_user_message_reaches_get_updates_with_command_entity(server, bot):
    ana = server.add_user("Ana", language_code="pt-br")
    grp = server.add_group("Truco da firma", admins=[ana])
    sent = await server.user_sends(ana, grp, "/truco paulista 2x2")
    assert sent["chat"]["id"] == grp and sent["from"]["id"] == ana
    updates = await bot.get_updates(timeout=1)
    assert len(updates) == 1
    msg = updates[0].message
    assert msg.text == "/truco paulista 2x2"
    assert msg.chat.type == "supergroup" and msg.chat.id == grp
    assert msg.from_user.language_code == "pt-br"
    assert msg.parse_entities(["bot_command"]) == {msg.entities[0]: "/truco"}
    # Confirming with offset removes it.
    assert await bot.get_updates(offset=updates[0].update_id + 1, timeout=0) == ()


async def test_long_poll_waits_for_an_update(server, bot):
    ana = server.add_user("Ana")
    poll = asyncio.create_task(bot.get_updates(timeout=5))
    await asyncio.sleep(0.2)
    assert not poll.done()
    await server.user_sends(ana, ana, "/start")
    updates = await asyncio.wait_for(poll, 2)
    assert updates[0].message.text == "/start"


async def test_long_poll_times_out_empty(server, bot):
    assert await bot.get_updates(timeout=1) == ()


async def test_second_poller_terminates_the_first_with_conflict(server, bot):
    # A restarted bot process polls while the old poll is still open.
    first = asyncio.create_task(bot.get_updates(timeout=5))
    await asyncio.sleep(0.2)
    async with Bot(TOKEN, base_url=server.api_url + "/bot") as restarted:
        second = asyncio.create_task(restarted.get_updates(timeout=1))
        with pytest.raises(Conflict):
            await asyncio.wait_for(first, 2)
        assert await second == ()


async def test_allowed_updates_filters_later_updates(server, bot):
    ana = server.add_user("Ana")
    await bot.get_updates(timeout=0, allowed_updates=["callback_query"])
    await server.user_sends(ana, ana, "/start")
    assert await bot.get_updates(timeout=0) == ()


async def test_privacy_mode_hides_plain_group_text(server, bot):
    ana = server.add_user("Ana")
    grp = server.add_group("G", admins=[ana])
    await server.user_sends(ana, grp, "bora jogar?")
    await server.user_sends(ana, grp, "/ajuda@OutroBot")
    await server.user_sends(ana, grp, "/ajuda@TrucoBot")
    updates = await bot.get_updates(timeout=0)
    assert [u.message.text for u in updates] == ["/ajuda@TrucoBot"]
    # The chat still shows everything people typed.
    assert len(server.messages(grp)) == 3


async def test_private_message_needs_start_first(server, bot):
    beto = server.add_user("Beto")
    with pytest.raises(Forbidden, match=r"(?i)can't initiate conversation"):
        await bot.send_message(beto, "oi")
    await server.user_sends(beto, beto, "/start")
    msg = await bot.send_message(beto, "oi")
    assert msg.text == "oi"
    server.block(beto)
    with pytest.raises(Forbidden, match=r"(?i)blocked"):
        await bot.send_message(beto, "oi")


async def test_send_html_keeps_source_and_entities(server, bot):
    ana = server.add_user("Ana")
    grp = server.add_group("G", admins=[ana])
    msg = await bot.send_message(
        grp,
        "<b>Mesa</b> — vira <i>4♣</i> &amp; manilha <code>5</code>",
        parse_mode=ParseMode.HTML,
        reply_markup=keyboard("Entrar", "Sair"),
    )
    assert msg.text == "Mesa — vira 4♣ & manilha 5"
    assert [(e.type, msg.parse_entity(e)) for e in msg.entities] == [
        ("bold", "Mesa"),
        ("italic", "4♣"),
        ("code", "5"),
    ]
    stored = server.messages(grp)[-1]
    assert stored["html"].startswith("<b>Mesa</b>")
    assert stored["from"]["id"] == server.bot_id
    assert stored["reply_markup"]["inline_keyboard"][0][1]["callback_data"] == "Sair"
    assert stored["deleted"] is False and "edit_date" not in stored


@pytest.mark.parametrize(
    "bad",
    ["linha<br>nova", "<b>sem fim", "<b>x</i>", "1 < 2", '<span class="x">a</span>'],
)
async def test_bad_html_is_rejected_like_telegram(server, bot, bad):
    ana = server.add_user("Ana", started=True)
    with pytest.raises(BadRequest, match=r"(?i)parse entities"):
        await bot.send_message(ana, bad, parse_mode=ParseMode.HTML)


async def test_text_limits(server, bot):
    ana = server.add_user("Ana", started=True)
    await bot.send_message(ana, "x" * 4096)
    with pytest.raises(BadRequest, match=r"(?i)too long"):
        await bot.send_message(ana, "x" * 4097)
    with pytest.raises(BadRequest, match=r"(?i)text is empty"):
        await bot.send_message(ana, "<b></b>", parse_mode=ParseMode.HTML)


async def test_callback_data_over_64_bytes_is_rejected(server, bot):
    ana = server.add_user("Ana", started=True)
    await bot.send_message(ana, "ok", reply_markup=keyboard("x" * 64))
    with pytest.raises(BadRequest, match=r"(?i)BUTTON_DATA_INVALID"):
        await bot.send_message(ana, "no", reply_markup=keyboard("ç" * 33))


async def test_edit_rules(server, bot):
    ana = server.add_user("Ana")
    grp = server.add_group("G", admins=[ana])
    msg = await bot.send_message(grp, "Placar 0 × 0", reply_markup=keyboard("A"))
    with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
        await bot.edit_message_text("Placar 0 × 0", grp, msg.message_id, reply_markup=keyboard("A"))
    edited = await bot.edit_message_text(
        "Placar 1 × 0", grp, msg.message_id, reply_markup=keyboard("A")
    )
    assert edited.text == "Placar 1 × 0" and edited.edit_date is not None
    # Same text but new keyboard is a modification.
    await bot.edit_message_reply_markup(grp, msg.message_id, reply_markup=keyboard("B"))
    # Editing the text without reply_markup drops the keyboard, like Telegram.
    await bot.edit_message_text("Placar 2 × 0", grp, msg.message_id)
    assert "reply_markup" not in server.message(grp, msg.message_id)
    await bot.delete_message(grp, msg.message_id)
    assert server.message(grp, msg.message_id)["deleted"] is True
    with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
        await bot.edit_message_text("Placar 3 × 0", grp, msg.message_id)
    with pytest.raises(BadRequest, match=r"(?i)message to delete not found"):
        await bot.delete_message(grp, msg.message_id)
    with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
        await bot.edit_message_text("x", grp, 999)


async def test_cannot_edit_or_delete_other_peoples_group_messages(server, bot):
    ana = server.add_user("Ana")
    grp = server.add_group("G", admins=[ana])
    sent = await server.user_sends(ana, grp, "/truco")
    with pytest.raises(BadRequest, match=r"(?i)can't be edited"):
        await bot.edit_message_text("x", grp, sent["message_id"])
    with pytest.raises(BadRequest, match=r"(?i)can't be deleted"):
        await bot.delete_message(grp, sent["message_id"])


async def test_press_button_and_answer(server, bot):
    ana = server.add_user("Ana")
    grp = server.add_group("G", admins=[ana])
    msg = await bot.send_message(grp, "Mesa", reply_markup=keyboard("join"))

    async def answer() -> None:
        updates = await bot.get_updates(timeout=5)
        cq = updates[0].callback_query
        assert cq.data == "join" and cq.from_user.id == ana
        assert cq.message.message_id == msg.message_id and cq.message.chat.id == grp
        await cq.answer("Você entrou", show_alert=True)
        with pytest.raises(BadRequest, match=r"(?i)query is too old"):
            await cq.answer("de novo")

    task = asyncio.create_task(answer())
    ans = await server.user_presses(ana, grp, msg.message_id, "join", timeout=5)
    await task
    assert ans == {"text": "Você entrou", "show_alert": True, "url": None}


async def test_late_callback_answer_is_too_old(server, bot):
    server.callback_timeout = 0.2
    ana = server.add_user("Ana", started=True)
    msg = await bot.send_message(ana, "Mão", reply_markup=keyboard("play"))
    press = asyncio.create_task(server.user_presses(ana, ana, msg.message_id, "play", timeout=2))
    (update,) = await bot.get_updates(timeout=2)
    await asyncio.sleep(0.3)
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):
        await update.callback_query.answer("tarde demais")
    with pytest.raises(TimeoutError):
        await press


async def test_press_without_answer_times_out(server, bot):
    ana = server.add_user("Ana", started=True)
    msg = await bot.send_message(ana, "Mão", reply_markup=keyboard("play"))
    with pytest.raises(TimeoutError):
        await server.user_presses(ana, ana, msg.message_id, "play", timeout=0.2)


async def test_inline_query_choose_and_edit_inline_message(server, bot):
    ana = server.add_user("Ana")
    grp = server.add_group("G", admins=[ana])
    await server.user_sends(ana, grp, "/truco")

    async def answer() -> tuple[str, str]:
        updates = await bot.get_updates(timeout=5)
        offset = updates[-1].update_id + 1
        iq = updates[-1].inline_query
        assert iq.chat_type == "supergroup" and iq.query == ""
        await iq.answer(
            [
                InlineQueryResultArticle(
                    "play:4C",
                    "Jogar 4♣",
                    InputTextMessageContent("Ana joga <b>4♣</b>", parse_mode=ParseMode.HTML),
                    reply_markup=keyboard("ok"),
                )
            ],
            cache_time=0,
            is_personal=True,
        )
        more = await bot.get_updates(offset=offset, timeout=5)
        chosen = more[0].chosen_inline_result
        return chosen.result_id, chosen.inline_message_id

    task = asyncio.create_task(answer())
    results = await server.user_inline_query(ana, "", chat_type="group", timeout=5)
    assert [r["id"] for r in results] == ["play:4C"]
    posted = await server.user_chooses_inline(ana, "play:4C")
    result_id, inline_id = await task
    assert result_id == "play:4C" and inline_id == posted["inline_message_id"]
    assert posted["text"] == "Ana joga 4♣" and posted["via_bot"]["username"] == "TrucoBot"
    assert posted["chat"]["id"] == grp
    assert await bot.edit_message_text("Ana jogou 4♣", inline_message_id=inline_id) is True
    assert server.messages(grp)[-1]["text"] == "Ana jogou 4♣"
    assert server.calls[-1].chat_id == grp


async def test_commands_scopes_and_menu(server, bot):
    ana = server.add_user("Ana", language_code="pt-br")
    grp = server.add_group("G", admins=[ana])
    await bot.set_my_commands([BotCommand("start", "Começar")])
    await bot.set_my_commands(
        [BotCommand("truco", "Abrir uma mesa")], scope=BotCommandScopeAllGroupChats()
    )
    assert [c.command for c in await bot.get_my_commands()] == ["start"]
    assert server.commands_for(grp, ana) == [{"command": "truco", "description": "Abrir uma mesa"}]
    assert server.commands_for(ana, ana)[0]["command"] == "start"
    with pytest.raises(BadRequest):
        await bot.set_my_commands([BotCommand("Truco-X", "bad")])
    await bot.delete_my_commands(scope=BotCommandScopeAllGroupChats())
    assert server.commands_for(grp, ana)[0]["command"] == "start"
    assert await bot.set_chat_menu_button()


async def test_chat_info_and_members(server, bot):
    ana = server.add_user("Ana")
    beto = server.add_user("Beto")
    caio = server.add_user("Caio")
    grp = server.add_group("Truco da firma", admins=[ana, beto], forum=True)
    await server.user_sends(caio, grp, "/placar")
    chat = await bot.get_chat(grp)
    assert chat.title == "Truco da firma" and chat.is_forum
    assert (await bot.get_chat_member(grp, ana)).status == "creator"
    assert (await bot.get_chat_member(grp, beto)).status == "administrator"
    assert (await bot.get_chat_member(grp, caio)).status == "member"
    admins = await bot.get_chat_administrators(grp)
    assert {a.user.id for a in admins} == {ana, beto}
    assert await bot.send_chat_action(grp, "typing")
    with pytest.raises(BadRequest, match=r"(?i)chat not found"):
        await bot.get_chat(-42)


async def test_forum_topic_thread_id_kept(server, bot):
    ana = server.add_user("Ana")
    grp = server.add_group("Forum", admins=[ana], forum=True)
    sent = await server.user_sends(ana, grp, "/truco", message_thread_id=7)
    assert sent["message_thread_id"] == 7
    upd = (await bot.get_updates(timeout=0))[0]
    assert upd.message.message_thread_id == 7
    msg = await bot.send_message(grp, "Mesa", message_thread_id=7)
    assert msg.message_thread_id == 7


async def test_injected_429_and_calls_record(server, bot):
    ana = server.add_user("Ana")
    grp = server.add_group("G", admins=[ana])
    server.fail_next("sendMessage", chat_id=grp)
    with pytest.raises(RetryAfter) as info:
        await bot.send_message(grp, "um")
    retry = info.value.retry_after
    assert (retry if isinstance(retry, int) else retry.total_seconds()) == 1
    await bot.send_message(grp, "dois")
    assert [c.method for c in server.calls_to(grp)] == ["sendMessage", "sendMessage"]
    assert server.calls_to(grp)[-1].params["text"] == "dois"
    assert server.peak_calls_per_minute(grp) == 2
    server.fail_next("editMessageText", error_code=400, description="Bad Request: boom")
    with pytest.raises(BadRequest, match=r"(?i)boom"):
        await bot.edit_message_text("x", grp, 1)


async def test_group_flood_limit_answers_429():
    s = FakeTelegram(token=TOKEN, group_limit=3)
    await s.start()
    try:
        async with Bot(TOKEN, base_url=s.api_url + "/bot") as b:
            ana = s.add_user("Ana", started=True)
            grp = s.add_group("G", admins=[ana])
            first = await b.send_message(grp, "1")
            await b.edit_message_text("1b", grp, first.message_id)
            await b.send_message(grp, "2")
            with pytest.raises(RetryAfter) as info:
                await b.send_message(grp, "3")
            retry = info.value.retry_after
            assert 55 <= (retry if isinstance(retry, int) else retry.total_seconds()) <= 60
            # Private chats and other groups are not affected.
            await b.send_message(ana, "ok")
            await b.send_message(s.add_group("H", admins=[ana]), "ok")
            assert len([m for m in s.messages(grp) if not m["deleted"]]) == 2
    finally:
        await s.stop()


async def test_wait_for(server):
    ana = server.add_user("Ana")

    async def later() -> None:
        await asyncio.sleep(0.1)
        await server.user_sends(ana, ana, "oi")

    task = asyncio.create_task(later())
    got = await server.wait_for(lambda: server.messages(ana), timeout=2)
    assert got[0]["text"] == "oi"
    await task
    with pytest.raises(TimeoutError):
        await server.wait_for(lambda: False, timeout=0.05)


async def test_snapshot_restore_round_trip(server, bot):
    ana = server.add_user("Ana")
    grp = server.add_group("G", admins=[ana])
    msg = await bot.send_message(grp, "Mesa")
    other = FakeTelegram(token=TOKEN)
    other.restore(server.snapshot())
    assert other.messages(grp) == server.messages(grp)
    assert other.message(grp, msg.message_id)["text"] == "Mesa"
    assert other.commands_for(grp, ana) == []
