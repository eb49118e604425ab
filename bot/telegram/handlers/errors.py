"""The last resort: unknown buttons and exceptions no handler caught."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.error import TelegramError

from bot.domain.values.errors import Reason
from bot.i18n import person_translations
from bot.telegram.context import BotContext
from bot.wording.refusals import reason_text

log = logging.getLogger(__name__)


async def on_garbage(update: Update, context: BotContext) -> None:
    """Any callback_data no handler recognised: a short alert, nothing else."""
    q = update.callback_query
    if q is not None:
        t = person_translations(q.from_user.language_code)
        await q.answer(reason_text(t, Reason.BAD_BUTTON), show_alert=True)


async def on_error(update: object, context: BotContext) -> None:
    """Log any exception a handler raised; answer a pending button so it stops spinning.

    A Telegram call that failed (the network, a button answered too late) is one line:
    what was stored is stored, and its jobs redraw the table. Anything else is a defect,
    logged with its traceback."""
    if isinstance(context.error, TelegramError):
        log.warning("update failed: a Telegram call: %s", context.error)
    else:
        log.error("update failed: %s", context.error, exc_info=context.error)
    if isinstance(update, Update) and update.callback_query is not None:
        try:
            t = person_translations(update.callback_query.from_user.language_code)
            await update.callback_query.answer(reason_text(t, Reason.UNKNOWN), show_alert=True)
        except TelegramError:
            pass  # already answered
