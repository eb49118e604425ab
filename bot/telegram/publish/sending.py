"""Sending and editing messages: what failed for good, what to retry later, digests."""

from __future__ import annotations

import hashlib
import json
import logging
from enum import StrEnum

from telegram import InlineKeyboardMarkup, Message
from telegram.error import BadRequest, Forbidden, TelegramError

from bot.telegram.context import TrucoApp

log = logging.getLogger(__name__)
RETRY_SECONDS = 2.0
"""Wait before redrawing after a call failed for a passing reason (network, 429)."""


class Edited(StrEnum):
    """How an edit went."""

    DONE = "done"
    """Shown (also when it was already so, or can never be: retrying would not help)."""
    GONE = "gone"
    """The message is gone: send a new one."""
    FAILED = "failed"
    """A passing failure: try again later."""


class Later(Exception):
    """A Bot API call failed for a passing reason (network, 429 after retries): redraw later."""


def digest(text: str, markup: InlineKeyboardMarkup | None) -> str:
    """A fingerprint of a message's content, to skip edits that would change nothing."""
    body = text + json.dumps(markup.to_dict() if markup else None, sort_keys=True)
    return hashlib.sha1(body.encode()).hexdigest()


def _gone(exc: BadRequest) -> bool:
    text = exc.message.lower()
    return "not found" in text or "can't be edited" in text or "message_id_invalid" in text


async def send_to_group(
    app: TrucoApp,
    chat_id: int,
    thread_id: int | None,
    text: str,
    markup: InlineKeyboardMarkup | None,
    *,
    quiet: bool = False,
) -> Message | None:
    """Post in a table's chat (the rate limiter counts it); ``Later`` to retry.

    ``quiet``: without a notification (a table posted again is no news).
    """
    try:
        sent: Message = await app.bot.send_message(
            chat_id,
            text,
            reply_markup=markup,
            message_thread_id=thread_id,
            disable_notification=quiet or None,
        )
        return sent
    except Forbidden:
        log.info("chat %s does not accept messages", chat_id)
    except BadRequest as exc:
        log.warning("send to %s refused: %s", chat_id, exc)
    except TelegramError as exc:
        log.warning("send to %s failed: %s", chat_id, exc)
        raise Later from exc
    return None


async def edit(
    app: TrucoApp, chat_id: int, message_id: int, text: str, markup: InlineKeyboardMarkup | None
) -> Edited:
    """Edit a message in place."""
    try:
        await app.bot.edit_message_text(text, chat_id, message_id, reply_markup=markup)
    except BadRequest as exc:
        if "not modified" in exc.message.lower():
            return Edited.DONE
        if _gone(exc):
            return Edited.GONE
        log.warning("edit in %s failed: %s", chat_id, exc)
        return Edited.DONE  # Telegram refuses this content: sending it again would not help
    except Forbidden:
        return Edited.DONE  # the person blocked the bot: nothing to draw until they come back
    except TelegramError as exc:
        log.warning("edit in %s failed: %s", chat_id, exc)
        return Edited.FAILED
    return Edited.DONE
