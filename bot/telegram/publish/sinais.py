"""The private pings of a signal (R12): the partner, and each opponent who caught it.

The hand messages show the signal too (they are redrawn like after any move); the
ping is a new message so that the phone buzzes. Private chats only: the group's
table says that a signal was made, never which.
"""

from __future__ import annotations

import asyncio
import logging

from telegram.error import Forbidden, TelegramError

from bot.domain import people
from bot.domain.values.game import SignalNews
from bot.i18n import person_translations
from bot.telegram.context import TrucoApp, runtime_of
from bot.telegram.render.sinais import signal_ping

log = logging.getLogger(__name__)


def ping_signal(app: TrucoApp, news: SignalNews) -> None:
    """Send the signal's private messages in the background (the handler has answered)."""
    app.create_task(_ping(app, news))


async def _ping(app: TrucoApp, news: SignalNews) -> None:
    rt = runtime_of(app)
    for user_id, caught in news.receivers:
        player = await asyncio.to_thread(people.player, rt.db, user_id)
        if player is None or not player.started:
            continue
        t = person_translations(player.language_code)
        try:
            await app.bot.send_message(user_id, signal_ping(t, news.name, news.sinal, caught))
        except Forbidden:
            await asyncio.to_thread(people.set_started, rt.db, user_id, False)
        except TelegramError as exc:  # the hand message shows it anyway
            log.warning("signal ping to %s failed: %s", user_id, exc)
