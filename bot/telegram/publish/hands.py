"""Each person's private hand message: their view and exactly their legal buttons.

When a hand is over its message goes, and the next hand's message says first how
it ended: a person's chat keeps one hand message per match. The last hand's message
is closed instead (no buttons, how the hand and the match ended). One redraw job per game (``JobKind.HANDS``) is enough: it
draws whatever the database holds when it runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from telegram import InlineKeyboardMarkup
from telegram.error import Forbidden, TelegramError

from bot.domain import jobs, messages, people, tables
from bot.domain.jobs import JobKind
from bot.domain.values import GameStatus, HandMessageInfo, Ping
from bot.i18n import person_translations
from bot.telegram.context import TrucoApp, runtime_of
from bot.telegram.jobs import ClaimedJob, Postpone
from bot.telegram.publish.sending import RETRY_SECONDS, Edited, digest, edit
from bot.telegram.render.common import warning_due
from bot.telegram.render.hand import app_hand, back_keyboard, hand_keyboard, hand_text
from bot.telegram.render.results import cancelled_by_text, hand_closed_text
from bot.telegram.render.table import with_open_table
from bot.webapp.server import people_in_app

log = logging.getLogger(__name__)


def schedule_hands(app: TrucoApp, chat_id: int, game_id: int, wait: float = 0) -> None:
    """Ask for a game's private hand messages to be redrawn (a durable job)."""
    rt = runtime_of(app)
    due = rt.rules.clock() + wait

    async def record() -> None:
        data = {"game": game_id}
        await asyncio.to_thread(
            jobs.request, rt.db, JobKind.HANDS, str(game_id), due, data, keep_earlier=True
        )
        rt.jobs.wake()

    app.create_task(record())


async def flush_hands(app: TrucoApp, job: ClaimedJob) -> None:
    """Job: draw the newest state of a game's private hand messages (also the warning)."""
    if not await update_hands(app, int(job.data["game"])):
        raise Postpone(RETRY_SECONDS)


async def _deleted(app: TrucoApp, chat_id: int, message_id: int) -> bool:
    """Delete a private message; ``False`` when it stays (too old, a network error)."""
    try:
        await app.bot.delete_message(chat_id, message_id)
    except TelegramError:
        return False
    return True


async def update_hands(app: TrucoApp, game_id: int) -> bool:
    """Send or edit each person's hand message so it shows their view and legal buttons.

    ``False`` when a call failed for a passing reason: the job comes back later.
    """
    rt = runtime_of(app)
    async with rt.lock(("hands", game_id)):
        drawing = await asyncio.to_thread(messages.hands_drawing, rt.db, game_id)
        if drawing is None:
            return True
        table = drawing.table
        m = table.shown
        over = table.status == GameStatus.OVER
        cancelled = table.status == GameStatus.CANCELLED
        failed = False
        now = rt.rules.clock()
        seconds = tables.decision_seconds(table, rt.rules)
        warn_time = warning_due(table.deadline_at, seconds, now)
        in_app = await asyncio.to_thread(people_in_app, app, game_id)
        for seat, player in drawing.people.items():
            if not player.started:
                continue
            t = person_translations(player.language_code)
            view = m.view(seat)
            markup: InlineKeyboardMarkup | None
            ping = Ping.NONE
            if cancelled:
                # the words of the group's table: who cancelled, and the score
                text, markup = cancelled_by_text(t, table, drawing.cancelled_by), None
            elif over and view.hand_number in drawing.ended:
                closing = drawing.ended[view.hand_number]
                text = hand_closed_text(t, closing, table.seats, player.deck, view.match_winner)
                markup = None
            else:
                warn = bool(view.legal) and warn_time
                if warn and table.deadline_at is not None:
                    left: float = table.deadline_at - now
                else:
                    left = seconds
                previous = drawing.ended.get(view.hand_number - 1)
                # off their turn at a group's table the message shows only what stays
                # true until their own cards or signals change, so it is redrawn for
                # those and not at every move; it comes anew, whole, at their turn
                away = not view.legal and not table.private
                occupant = table.seats[seat]
                stand_in = occupant is not None and occupant.robot is not None
                text = hand_text(
                    t, table, view, left, player.deck, warn, previous, away=away, stand_in=stand_in
                )
                markup = hand_keyboard(t, table, view, player.deck)
                if stand_in:  # a robot plays their seat: no ring, no moves, one way back
                    markup = back_keyboard(t, table)
                elif view.legal:
                    ping = Ping.WARNING if warn else Ping.TURN
                if player.id in in_app and rt.config.webapp is not None:
                    # the table is open in the Mini App: the message points there, once a hand
                    text, markup = app_hand(t, table, rt.config.webapp)
                    ping = Ping.NONE
                elif table.private and rt.config.webapp is not None:
                    markup = with_open_table(t, table, markup, rt.config.webapp)
            fingerprint = digest(text, markup)
            row = drawing.messages.get(seat)
            saw_ask = row is not None and row.ping == Ping.ASKED
            if row is not None and row.hand_number == view.hand_number and ping > row.ping:
                # the person's turn began (or their time is nearly out, or they asked for
                # it): only a new message makes their phone ring and sits at the bottom of
                # the chat, so the old one goes and the hand comes anew
                with contextlib.suppress(TelegramError):
                    await app.bot.delete_message(row.chat_id, row.message_id)
                row = None
            if row is not None and row.hand_number == view.hand_number:
                if row.digest == fingerprint and row.ping == ping:
                    continue
                outcome = await edit(app, row.chat_id, row.message_id, text, markup)
                if outcome == Edited.DONE:
                    shown = HandMessageInfo(
                        player.id, row.message_id, view.hand_number, fingerprint, ping
                    )
                    await asyncio.to_thread(
                        messages.save_hand_message, rt.db, game_id, seat, shown, saw_ask=saw_ask
                    )
                    continue
                if outcome == Edited.FAILED:
                    failed = True
                    continue
            elif row is not None and await _deleted(app, row.chat_id, row.message_id):
                pass  # a new hand: its message tells how this one ended, the chat keeps one
            elif row is not None:
                data = drawing.ended.get(row.hand_number)
                if data is None:  # no record of how it ended: at least take the buttons off
                    with contextlib.suppress(TelegramError):
                        await app.bot.edit_message_reply_markup(
                            row.chat_id, row.message_id, reply_markup=None
                        )
                else:
                    closed = hand_closed_text(t, data, table.seats, player.deck)
                    if await edit(app, row.chat_id, row.message_id, closed, None) == Edited.FAILED:
                        failed = True
                        continue
            if cancelled:
                continue
            try:
                sent = await app.bot.send_message(player.id, text, reply_markup=markup)
            except Forbidden:
                await asyncio.to_thread(people.set_started, rt.db, player.id, False)
                continue
            except TelegramError as exc:
                log.warning("hand message to %s failed: %s", player.id, exc)
                failed = True
                continue
            shown = HandMessageInfo(player.id, sent.message_id, view.hand_number, fingerprint, ping)
            await asyncio.to_thread(
                messages.save_hand_message, rt.db, game_id, seat, shown, saw_ask=saw_ask
            )
    return not failed
