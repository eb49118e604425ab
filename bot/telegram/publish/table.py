"""The public table message of each chat: lobby, match, closings of hands and matches.

Group traffic is coalesced by one job per chat (``JobKind.TABLE``) and kept within
the group's flood budget; the job redraws whatever the database holds when it
runs, so the newest state always wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from bot.domain import messages, tables
from bot.domain.values import GameStatus, Table
from bot.i18n import Translations, translations
from bot.telegram.context import BotContext, TrucoApp, runtime_of
from bot.telegram.jobs import JobKind
from bot.telegram.publish.sending import RETRY_SECONDS, Edited, Later, edit, send_to_group
from bot.telegram.render import (
    hand_over_line,
    match_over_text,
    public_table,
    rematch_keyboard,
)


def _key(chat_id: int, thread_id: int | None) -> str:
    return f"{chat_id}:{thread_id or 0}"


def schedule_table(
    app: TrucoApp, chat_id: int, thread_id: int | None, game_id: int, wait: float | None = None
) -> None:
    """Ask for the chat's table to be redrawn soon; a pending redraw takes the newest state."""
    rt = runtime_of(app)
    key = _key(chat_id, thread_id)
    waiting = rt.jobs.pending(JobKind.TABLE, key)
    if waiting is not None:
        cast(set[int], waiting).add(game_id)
        return
    when = rt.budget.wait(chat_id, 1) if wait is None else wait
    rt.jobs.run_once(app.job_queue, JobKind.TABLE, key, when, {game_id}, chat_id)


async def flush_table(context: BotContext) -> None:
    """Job: draw the newest state of the tables waiting in this chat."""
    assert context.job is not None
    for game_id in sorted(cast(set[int], context.job.data)):
        await publish_game(context.application, game_id)


async def publish_game(app: TrucoApp, game_id: int) -> None:
    """Bring a game's public messages up to date: table (or lobby), hand closings, match end."""
    rt = runtime_of(app)
    async with rt.lock(("chat", game_id)):
        drawing = messages.table_drawing(rt.db, game_id)
        if drawing is None:
            return
        table = drawing.table
        t = translations(drawing.language)
        if not table.private:
            needed = 1 + bool(drawing.closings) + bool(drawing.ending)
            wait = rt.budget.wait(table.chat_id, needed)
            if wait > 0.01:
                schedule_table(app, table.chat_id, table.thread_id, game_id, wait)
                return
        try:
            await _draw_table(app, drawing.table, drawing.missing, t)
            if drawing.closings:
                text = "\n".join(hand_over_line(t, c, table.seats) for c in drawing.closings)
                if await send_to_group(app, table.chat_id, table.thread_id, text, None):
                    last = drawing.closings[-1].hand
                    messages.mark_table(rt.db, game_id, announced_hands=last + 1)
            if drawing.ending is not None:
                text = match_over_text(t, drawing.ending, table.seats)
                markup = rematch_keyboard(t, table)
                if await send_to_group(app, table.chat_id, table.thread_id, text, markup):
                    messages.mark_table(rt.db, game_id, announced_end=True)
        except Later:
            # the newest state, drawn again soon
            schedule_table(app, table.chat_id, table.thread_id, game_id, RETRY_SECONDS)


async def _draw_table(app: TrucoApp, table: Table, missing: Sequence[str], t: Translations) -> None:
    """Edit the table message in place (send it when there is none); ``Later`` to retry."""
    rt = runtime_of(app)
    username = app.bot.username if app.bot._bot_user else ""
    text, markup = public_table(
        t, table, missing, tables.decision_seconds(table, rt.rules), username
    )
    if table.table_message_id is not None:
        rt.budget.spend(table.chat_id)
        try:
            outcome = await edit(app, table.chat_id, table.table_message_id, text, markup)
        finally:
            rt.budget.done(table.chat_id)
        if outcome == Edited.FAILED:
            raise Later
        if outcome == Edited.DONE:
            return
    elif table.status == GameStatus.CANCELLED:
        return  # a lobby cancelled before its message was ever sent
    sent = await send_to_group(app, table.chat_id, table.thread_id, text, markup)
    if sent is not None:
        messages.mark_table(rt.db, table.id, table_message_id=sent.message_id)
