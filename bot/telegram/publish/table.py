"""The public table message of each chat: lobby, match, and the chat's announcements.

One durable job per chat (``JobKind.TABLE``) redraws whatever the database holds
when it runs, so the newest state always wins, then sends the announcements the
outbox holds for the chat (closings of hands, the end of a match), each at most
once. Both stay within the chat's shared flood budget: when it is spent the job
comes back later instead of waiting in line.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from telegram import InlineKeyboardMarkup
from telegram.error import BadRequest, Forbidden, RetryAfter, TelegramError, TimedOut

from bot.domain import jobs, messages, outbox, tables
from bot.domain.outbox import Announcement, Outgoing
from bot.domain.values import GameStatus, HandSummary, MatchEnd, Table
from bot.i18n import Translations, translations
from bot.telegram.context import TrucoApp, runtime_of
from bot.telegram.jobs import ClaimedJob, JobKind, Postpone
from bot.telegram.publish.sending import RETRY_SECONDS, Edited, Later, edit, send_to_group
from bot.telegram.render import (
    hand_over_line,
    match_over_text,
    public_table,
    rematch_keyboard,
)

log = logging.getLogger(__name__)
SHORT_WAIT = 2.0
"""Budget waits up to this long are waited inside the job; longer ones postpone it."""


def schedule_table(
    app: TrucoApp, chat_id: int, thread_id: int | None, game_id: int, wait: float = 0.0
) -> None:
    """Ask for the chat's table to be redrawn (a durable job; a pending redraw takes it)."""
    rt = runtime_of(app)
    key = jobs.table_key(chat_id, thread_id)
    due = rt.rules.clock() + wait

    async def record() -> None:
        data = {"games": [game_id]}
        await asyncio.to_thread(
            jobs.request, rt.db, JobKind.TABLE, key, due, data, keep_earlier=True
        )
        rt.jobs.wake()

    app.create_task(record())


async def flush_table(app: TrucoApp, job: ClaimedJob) -> None:
    """Job: draw the newest state of the tables waiting in this chat, then their announcements."""
    left: list[int] = []
    later = 0.0
    for game_id in job.data.get("games", []):
        if left:  # keep the chat's order: a newer table never overtakes an older announcement
            left.append(int(game_id))
            continue
        wait = await publish_game(app, int(game_id))
        if wait > 0:
            later = wait
            left.append(int(game_id))
    if left:
        raise Postpone(later, {"games": left})


async def publish_game(app: TrucoApp, game_id: int) -> float:
    """Bring a game's public messages up to date; seconds to come back (0: all done)."""
    rt = runtime_of(app)
    async with rt.lock(("chat", game_id)):
        drawing = await asyncio.to_thread(messages.table_drawing, rt.db, game_id)
        if drawing is None:
            return 0.0
        table = drawing.table
        t = translations(drawing.language)
        owed = await asyncio.to_thread(outbox.pending, rt.db, game_id, rt.rules.clock())
        if not table.private:
            wait = await rt.budget.wait(table.chat_id, 1 + bool(owed))
            if wait > SHORT_WAIT:
                return wait  # the group's minute is spent: come back, free the slot
            if wait > 0.01:
                await asyncio.sleep(wait)  # a second apart: wait here, then draw the newest
        try:
            if not table.private:
                # in a private chat the hand message is the table: a second copy of it, with
                # buttons for a group (🃏 Minha mão, Abrir no privado), would mean nothing
                await _draw_table(app, table, drawing.missing, t, drawing.cancelled_by)
            await _announce(app, table, owed, t)
        except Later:
            return RETRY_SECONDS  # the newest state, drawn again soon
        return 0.0


async def _announce(app: TrucoApp, table: Table, owed: Sequence[Outgoing], t: Translations) -> None:
    """Send what the outbox holds for this table: hand closings together, then the end."""
    closings = [o for o in owed if o.kind == Announcement.HAND_OVER]
    ends = [o for o in owed if o.kind == Announcement.MATCH_OVER]
    if closings:
        summaries = [HandSummary.from_json(o.payload) for o in closings]
        text = "\n".join(hand_over_line(t, h, table.seats) for h in summaries)
        await _send_once(app, table, closings, text, None)
    for end in ends:
        score = end.payload["score"]
        ending = MatchEnd(end.payload["winner"], (score[0], score[1]))
        text = match_over_text(t, ending, table.seats)
        await _send_once(app, table, [end], text, rematch_keyboard(t, table))


async def _send_once(
    app: TrucoApp,
    table: Table,
    items: Sequence[Outgoing],
    text: str,
    markup: InlineKeyboardMarkup | None,
) -> None:
    """One message for some outbox items: claimed, sent, recorded; never sent twice."""
    rt = runtime_of(app)
    worker, until = rt.jobs.worker, rt.rules.clock() + rt.jobs.lease
    taken = [o for o in items if await asyncio.to_thread(outbox.begin, rt.db, o.id, worker, until)]
    if not taken:
        return
    ids = [o.id for o in taken]
    try:
        sent = await app.bot.send_message(
            table.chat_id, text, reply_markup=markup, message_thread_id=table.thread_id
        )
    except Forbidden:
        log.info("chat %s does not accept messages: its announcements are dropped", table.chat_id)
        for i in ids:
            await asyncio.to_thread(outbox.failed, rt.db, i, worker)
        await asyncio.to_thread(outbox.drop_chat, rt.db, table.chat_id)
        return
    except BadRequest as exc:
        log.warning("announcement in %s refused: %s", table.chat_id, exc)
        for i in ids:
            await asyncio.to_thread(outbox.failed, rt.db, i, worker)
        return
    except TimedOut:
        log.warning("announcement in %s timed out: maybe shown, never resent", table.chat_id)
        for i in ids:
            await asyncio.to_thread(outbox.uncertain, rt.db, i, worker)
        return
    except (RetryAfter, TelegramError) as exc:
        log.warning("announcement in %s failed: %s", table.chat_id, exc)
        for i in ids:
            await asyncio.to_thread(outbox.retry, rt.db, i, worker)
        raise Later from exc
    for i in ids:
        await asyncio.to_thread(outbox.sent, rt.db, i, worker, sent.message_id)


async def _draw_table(
    app: TrucoApp,
    table: Table,
    missing: Sequence[str],
    t: Translations,
    cancelled_by: str | None = None,
) -> None:
    """Edit the table message in place (send it when there is none); ``Later`` to retry."""
    rt = runtime_of(app)
    username = app.bot.username if app.bot._bot_user else ""
    seconds = tables.decision_seconds(table, rt.rules)
    text, markup = public_table(t, table, missing, seconds, username, cancelled_by)
    if table.table_message_id is not None:
        outcome = await edit(app, table.chat_id, table.table_message_id, text, markup)
        if outcome == Edited.FAILED:
            raise Later
        if outcome == Edited.DONE:
            return
    elif table.status == GameStatus.CANCELLED:
        return  # a lobby cancelled before its message was ever sent
    sent = await send_to_group(app, table.chat_id, table.thread_id, text, markup)
    if sent is not None:
        await asyncio.to_thread(
            messages.mark_table, rt.db, table.id, table_message_id=sent.message_id
        )
