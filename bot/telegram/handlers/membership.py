"""The bot added to a group or removed from it (``my_chat_member``)."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError

from bot.domain import outbox
from bot.telegram.context import BotContext
from bot.telegram.render.wording import group_welcome_text

log = logging.getLogger(__name__)
OUT = (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED)


async def on_my_membership(update: Update, context: BotContext) -> None:
    """Removed from a group: stop calling it (the table's redraws and announcements go
    nowhere); added (again): the group is called as before, and greeted."""
    changed = update.my_chat_member
    if changed is None or changed.chat.id > 0:
        return
    chat_id = changed.chat.id
    gone = context.runtime.budget.gone
    if changed.new_chat_member.status in OUT:
        gone.add(chat_id)
        dropped = await context.call(outbox.drop_chat, context.db, chat_id)
        log.info("removed from %s: nothing more is sent there (%d dropped)", chat_id, dropped)
    else:
        gone.discard(chat_id)
        if changed.old_chat_member.status in OUT:
            # a group that has just added the bot hears what it is for and how to start,
            # in the group's language: its adder's, when Spanish (and then /truco deals
            # gaudério, the game of that language)
            context.application.create_task(_greet(context, chat_id), update=update)


async def _greet(context: BotContext, chat_id: int) -> None:
    """Say hello to a group that added the bot (one message; nothing if it fails)."""
    try:
        await context.bot.send_message(chat_id, group_welcome_text(context.t))
    except TelegramError as exc:
        log.warning("greeting %s failed: %s", chat_id, exc)
