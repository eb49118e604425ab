"""The ``/marcador`` messages: drawn from the stored score, edited in place within the budget.

Presses only store; one job per marcador (``JobKind.MARCADOR``) redraws the message with
whatever the database holds when it runs, so a burst of presses costs one edit, and the
group's flood budget decides when it may run.
"""

from __future__ import annotations

import asyncio

from bot.domain import jobs, marcador, people
from bot.domain.jobs import MarcadorJob
from bot.i18n import translations
from bot.telegram.budget import patience
from bot.telegram.context import TrucoApp, runtime_of
from bot.telegram.job_runner import ClaimedJob, Postpone
from bot.telegram.publish.sending import RETRY_SECONDS, Edited, Later, edit, send_to_group
from bot.telegram.publish.table import SHORT_WAIT
from bot.telegram.render.marcador import marcador_keyboard, marcador_text


def schedule_marcador(app: TrucoApp, chat_id: int, marcador_id: int, wait: float = 0.0) -> None:
    """Ask for a marcador to be redrawn (a durable job; one waiting takes the newest score)."""
    rt = runtime_of(app)
    due = rt.rules.clock() + wait

    async def record() -> None:
        key = f"{chat_id}:{marcador_id}"
        await asyncio.to_thread(
            jobs.request, rt.db, key, due, MarcadorJob(marcador_id), keep_earlier=True
        )
        rt.jobs.wake()

    app.create_task(record())


async def flush_marcador(app: TrucoApp, job: ClaimedJob, redraw: MarcadorJob) -> None:
    """Job: draw the newest score of one marcador (later when the group's budget is spent)."""
    with patience(SHORT_WAIT):  # no room soon in the group: the job comes back, not waits
        wait = await publish_marcador(app, redraw.board)
    if wait > 0:
        raise Postpone(wait)


async def publish_marcador(app: TrucoApp, marcador_id: int) -> float:
    """Edit the marcador's message in place (or send it), unless it already shows the newest.

    Returns the seconds to come back after (0: done).
    """
    rt = runtime_of(app)
    async with rt.lock(("marcador", marcador_id)):
        posted = await asyncio.to_thread(marcador.load, rt.db, marcador_id)
        if posted is None or (posted.message_id is not None and posted.drawn >= posted.version):
            return 0.0
        # a marcador is not the table: it leaves the table's share of the minute alone
        wait = await rt.budget.wait(posted.chat_id, 1 + rt.budget.reserve)
        if wait > SHORT_WAIT:
            return wait
        if wait > 0.01:
            await rt.clock.sleep(wait)
        lang = await asyncio.to_thread(people.chat_language, rt.db, posted.chat_id)
        t = translations(lang)
        text, markup = marcador_text(t, lang, posted), marcador_keyboard(t, posted)
        try:
            if posted.message_id is not None:
                outcome = await edit(app, posted.chat_id, posted.message_id, text, markup)
                if outcome == Edited.FAILED:
                    raise Later
                if outcome == Edited.DONE:
                    await asyncio.to_thread(marcador.mark_drawn, rt.db, marcador_id, posted.version)
                    return 0.0
            sent = await send_to_group(app, posted.chat_id, posted.thread_id, text, markup)
            if sent is not None:
                await asyncio.to_thread(marcador.set_message, rt.db, marcador_id, sent.message_id)
                await asyncio.to_thread(marcador.mark_drawn, rt.db, marcador_id, posted.version)
        except Later:
            return RETRY_SECONDS
        return 0.0
