"""A PTB Application (the echo bot) polls the fake Bot API like it would poll Telegram."""

from __future__ import annotations

from bot.sandbox.fakeapi import FakeTelegram
from tests.bot.echobot import build


async def test_ptb_application_plays_against_the_fake():
    server = FakeTelegram(token="123456:TEST")
    await server.start()
    ana = server.add_user("Ana")
    grp = server.add_group("G", admins=[ana])
    app = build(server.token, server.api_url)
    try:
        async with app:
            await app.post_init(app)
            await app.updater.start_polling(poll_interval=0, timeout=1)
            await app.start()
            await server.user_sends(ana, grp, "/mesa")
            table = await server.wait_for(
                lambda: [m for m in server.messages(grp) if m["from"]["is_bot"]]
            )
            assert table[0]["text"] == "Mesa de teste: 0 pontos"
            answer = await server.user_presses(ana, grp, table[0]["message_id"], "add:0")
            assert answer["text"] == "Agora 1"
            await server.wait_for(lambda: server.messages(grp)[-1].get("edit_date"))
            assert server.messages(grp)[-1]["text"] == "Mesa de teste: 1 pontos"
            results = await server.user_inline_query(ana, "")
            assert [r["id"] for r in results] == ["card:4♣", "card:7♥"]
            # Ana never opened the private chat: the bot's private reply fails with 403.
            await server.user_chooses_inline(ana, "card:7♥")
            await server.wait_for(lambda: server.errors)
            assert server.errors[-1][1].code == 403
            assert server.commands_for(grp, ana) == [
                {"command": "mesa", "description": "Abrir a mesa de teste"}
            ]
            await app.updater.stop()
            await app.stop()
    finally:
        await server.stop()
