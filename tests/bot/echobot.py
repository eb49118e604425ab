"""A tiny scripted bot for the sandbox tests.

Run as a program (``python tests/bot/echobot.py``) it reads ``TELEGRAM_BOT_TOKEN`` and
``TELEGRAM_API_URL`` like ``truco bot`` does, so ``truco sandbox --bot-command`` can start it.
"""

from __future__ import annotations

import os

from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
    Update,
)
from telegram.constants import ParseMode
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChosenInlineResultHandler,
    CommandHandler,
    ContextTypes,
    InlineQueryHandler,
    MessageHandler,
    filters,
)


def table_markup(n: int) -> InlineKeyboardMarkup:
    """The echo table's buttons."""
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton("Somar", callback_data=f"add:{n}"),
                InlineKeyboardButton("Alerta", callback_data="alert"),
                InlineKeyboardButton("Crescer", callback_data=f"grow:{n}"),
            ],
            [InlineKeyboardButton("🃏 Minha mão", switch_inline_query_current_chat="")],
            [InlineKeyboardButton("Abrir o privado", url="https://t.me/TrucoBot?start=mesa")],
        ]
    )


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Greet, echoing the deep-link payload."""
    payload = " ".join(context.args or [])
    await update.effective_message.reply_text(f"Olá! payload={payload or '-'}")


async def mesa(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Post a table message with HTML and buttons."""
    await update.effective_message.reply_html(
        "<b>Mesa</b> de teste: <i>0</i> pontos", reply_markup=table_markup(0)
    )


async def press(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Count up on the table, or answer with an alert."""
    query = update.callback_query
    if query.data == "alert":
        await query.answer("Isto é um alerta", show_alert=True)
        return
    op, count = query.data.split(":")
    n = int(count) + 1
    await query.answer(f"Agora {n}")
    tall = "\n".join(f"linha {i}" for i in range(40)) if op == "grow" else ""
    await query.edit_message_text(
        f"<b>Mesa</b> de teste: <i>{n}</i> pontos{tall and chr(10) + tall}",
        parse_mode=ParseMode.HTML,
        reply_markup=table_markup(n),
    )


async def inline(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Offer two cards to the one who asked."""
    name = update.inline_query.from_user.first_name
    results = [
        InlineQueryResultArticle(
            f"card:{label}",
            f"Jogar {label}",
            InputTextMessageContent(f"{name} joga <b>{label}</b>", parse_mode=ParseMode.HTML),
            description=f"carta de {name}",
            reply_markup=InlineKeyboardMarkup(
                [[InlineKeyboardButton("ok", callback_data="add:0")]]
            ),
        )
        for label in ("4♣", "7♥")
    ]
    await update.inline_query.answer(results, cache_time=0, is_personal=True)


async def chosen(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Acknowledge a chosen inline result in the private chat."""
    result = update.chosen_inline_result
    await context.bot.send_message(result.from_user.id, f"Escolheu {result.result_id}")


async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Echo private text."""
    await update.effective_message.reply_text(f"eco: {update.effective_message.text}")


async def post_init(app: Application) -> None:
    """Publish the command menus."""
    await app.bot.set_my_commands([BotCommand("start", "Começar")])
    await app.bot.set_my_commands(
        [BotCommand("mesa", "Abrir a mesa de teste")], scope=BotCommandScopeAllGroupChats()
    )


def build(token: str, api_url: str) -> Application:
    """The echo bot as a PTB Application."""
    app = (
        Application.builder()
        .token(token)
        .base_url(f"{api_url}/bot")
        .get_updates_read_timeout(5)
        .post_init(post_init)
        .build()
    )
    app.add_handler(CommandHandler("start", start))
    app.add_handler(CommandHandler("mesa", mesa))
    app.add_handler(CallbackQueryHandler(press))
    app.add_handler(InlineQueryHandler(inline))
    app.add_handler(ChosenInlineResultHandler(chosen))
    app.add_handler(MessageHandler(filters.ChatType.PRIVATE & filters.TEXT, echo))
    return app


if __name__ == "__main__":
    build(os.environ["TELEGRAM_BOT_TOKEN"], os.environ["TELEGRAM_API_URL"]).run_polling()
