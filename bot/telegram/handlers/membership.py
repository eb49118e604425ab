"""The bot added to a group or removed from it (``my_chat_member``)."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.constants import ChatMemberStatus

from bot.domain import outbox
from bot.telegram.context import BotContext

log = logging.getLogger(__name__)
OUT = (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED)


async def on_my_membership(update: Update, context: BotContext) -> None:
    """Removed from a group: stop calling it (the table's redraws and announcements go
    nowhere); added again: the group is called as before."""
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
