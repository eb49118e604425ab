"""What several handlers share: replying without waiting, admin checks, greeting privately."""

from __future__ import annotations

import logging
from typing import Any

from telegram import Update
from telegram.constants import ChatMemberStatus
from telegram.error import Forbidden, TelegramError

from bot.domain import PlayerInfo, people
from bot.domain.values import Table
from bot.i18n import person_translations
from bot.telegram.context import BotContext
from bot.telegram.publish import schedule_table

log = logging.getLogger(__name__)


async def reply(update: Update, context: BotContext, text: str, **kw: Any) -> None:
    """Answer a command in its chat (counted against the group budget), without waiting.

    Sends queue behind Telegram's 30 messages a second; the handler returns at once
    so that a backlog never holds an update slot that a button press needs.
    """
    msg = update.effective_message
    chat = update.effective_chat
    if msg is None or chat is None:
        return
    context.runtime.budget.spend(chat.id)

    async def send() -> None:
        try:
            await msg.reply_text(text, do_quote=False, **kw)
        except TelegramError as exc:
            log.warning("reply in %s failed: %s", chat.id, exc)

    context.application.create_task(send(), update=update)


async def is_admin(context: BotContext, chat_id: int, user_id: int) -> bool:
    """Whether a person administers a group (private chats: always)."""
    if chat_id > 0:
        return True
    try:
        member = await context.bot.get_chat_member(chat_id, user_id)
    except TelegramError:
        return False
    return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


async def greet_privately(context: BotContext, player: PlayerInfo) -> bool:
    """Tell a person privately they sat down; False (and unmarked) if they never started us."""
    t = person_translations(player.language_code)
    try:
        await context.bot.send_message(
            player.id, t.gettext("Você sentou numa mesa de truco. Suas cartas chegam aqui.")
        )
    except Forbidden:
        return False
    except TelegramError:
        return player.started
    people.set_started(context.db, player.id, True)
    return True


def greet_later(context: BotContext, player: PlayerInfo, table: Table) -> None:
    """Greet a newly seated person in the background; redraw the lobby if they turn out reachable."""

    async def greet() -> None:
        if await greet_privately(context, player):
            schedule_table(context.application, table.chat_id, table.thread_id, table.id)

    context.application.create_task(greet())
