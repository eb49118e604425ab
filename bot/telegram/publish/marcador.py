"""The ``/marcador`` messages: drawn from the stored score, edited in place within the budget.

Presses only store; one job per scoreboard (``JobKind.MARCADOR``) redraws the message with
whatever the database holds when it runs, so a burst of presses costs one edit, and the
group's flood budget decides when it may run.
"""

from __future__ import annotations

import asyncio

from bot.domain import jobs, marcador
from bot.domain.jobs import JobKind
from bot.i18n import translations
from bot.telegram.budget import patience
from bot.telegram.context import TrucoApp, runtime_of
from bot.telegram.jobs import ClaimedJob, Postpone
from bot.telegram.publish.sending import RETRY_SECONDS, Edited, Later, edit, send_to_group
from bot.telegram.publish.table import SHORT_WAIT
from bot.telegram.render.marcador import board_keyboard, board_text


def schedule_board(app: TrucoApp, chat_id: int, board_id: int, wait: float = 0.0) -> None:
    """Ask for a scoreboard to be redrawn (a durable job; one waiting takes the newest score)."""
    rt = runtime_of(app)
    due = rt.rules.clock() + wait

    async def record() -> None:
        key, data = f"{chat_id}:{board_id}", {"board": board_id}
        await asyncio.to_thread(
            jobs.request, rt.db, JobKind.MARCADOR, key, due, data, keep_earlier=True
        )
        rt.jobs.wake()

    app.create_task(record())


async def flush_board(app: TrucoApp, job: ClaimedJob) -> None:
    """Job: draw the newest score of one scoreboard (later when the group's budget is spent)."""
    with patience(SHORT_WAIT):  # no room soon in the group: the job comes back, not waits
        wait = await publish_board(app, int(job.data["board"]))
    if wait > 0:
        raise Postpone(wait)


async def publish_board(app: TrucoApp, board_id: int) -> float:
    """Edit the scoreboard's message in place (or send it), unless it already shows the newest.

    Returns the seconds to come back after (0: done).
    """
    rt = runtime_of(app)
    async with rt.lock(("marcador", board_id)):
        board = await asyncio.to_thread(marcador.load, rt.db, board_id)
        if board is None or (board.message_id is not None and board.drawn >= board.version):
            return 0.0
        # a scoreboard is not the table: it leaves the table's share of the minute alone
        wait = await rt.budget.wait(board.chat_id, 1 + rt.budget.reserve)
        if wait > SHORT_WAIT:
            return wait
        if wait > 0.01:
            await rt.clock.sleep(wait)
        from bot.domain import people  # the chat's language

        lang = await asyncio.to_thread(people.chat_language, rt.db, board.chat_id)
        t = translations(lang)
        text, markup = board_text(t, lang, board), board_keyboard(t, board)
        try:
            if board.message_id is not None:
                outcome = await edit(app, board.chat_id, board.message_id, text, markup)
                if outcome == Edited.FAILED:
                    raise Later
                if outcome == Edited.DONE:
                    await asyncio.to_thread(marcador.mark_drawn, rt.db, board_id, board.version)
                    return 0.0
            sent = await send_to_group(app, board.chat_id, board.thread_id, text, markup)
            if sent is not None:
                await asyncio.to_thread(marcador.set_message, rt.db, board_id, sent.message_id)
                await asyncio.to_thread(marcador.mark_drawn, rt.db, board_id, board.version)
        except Later:
            return RETRY_SECONDS
        return 0.0
