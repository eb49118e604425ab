"""The ``/marcador`` messages: drawn from the stored score, edited in place within the budget.

Presses only store; one job per scoreboard (``JobKind.MARCADOR``) redraws the message with
whatever the database holds when it runs, so a burst of presses costs one edit, and the
group's flood budget decides when it may run.
"""

from __future__ import annotations

import asyncio
import html

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.domain import jobs, marcador
from bot.domain.jobs import JobKind
from bot.domain.marcador import Board, NewMatch, Press, Undo
from bot.i18n import Translations, translations
from bot.telegram.budget import patience
from bot.telegram.callbacks import marcador_data
from bot.telegram.context import TrucoApp, runtime_of
from bot.telegram.jobs import ClaimedJob, Postpone
from bot.telegram.publish.sending import RETRY_SECONDS, Edited, Later, edit, send_to_group
from bot.telegram.publish.table import SHORT_WAIT
from engine import words
from engine.marcador import warning

LOG_LINES = 6
"""Hands listed under the score (the newest ones)."""


def board_text(t: Translations, lang: str, board: Board) -> str:
    """The scoreboard: variant and target, the score, the warning, the last hands and who."""
    _ = t.gettext
    p = board.placar
    w = words.get(lang)
    a, b = (html.escape(n) for n in p.names)
    lines = [
        _("📋 <b>Marcador</b> · {variant} · até {target}").format(
            variant=w.variant(p.ruleset), target=p.target
        ),
        f"<b>{a}  {p.score[0]} × {p.score[1]}  {b}</b>",
    ]
    note = warning(p, w)
    if note:
        lines.append(html.escape(note))
    if p.hands:
        lines.append("")
        partial = [0, 0]
        shown = []
        for (team, points), who in zip(p.hands, board.pressed_by, strict=True):
            partial[team] = min(p.target, partial[team] + points)
            # names and numbers only: nothing to translate
            name = html.escape(p.names[team])
            shown.append(f"{html.escape(who)}: {name} +{points} ({partial[0]} × {partial[1]})")
        skipped = len(shown) - LOG_LINES
        if skipped > 0:
            lines.append(
                t.ngettext("… e {n} mão antes", "… e {n} mãos antes", skipped).format(n=skipped)
            )
        lines.extend(shown[-LOG_LINES:])
    else:
        lines.append(_("Toque no valor da mão do lado de quem ganhou."))
    return "\n".join(lines)


def board_keyboard(t: Translations, board: Board) -> InlineKeyboardMarkup:
    """One row of values per team (only what the next hand may be worth), undo, new match."""
    _ = t.gettext
    p = board.placar
    rows = []
    for team in (0, 1):
        row = [
            InlineKeyboardButton(
                f"{p.names[team]} +{v}" if i == 0 else f"+{v}",
                callback_data=marcador_data(board.id, Press(team, v)),
            )
            for i, v in enumerate(p.values(team))
        ]
        if row:
            rows.append(row)
    last = [InlineKeyboardButton(_("↶ Desfazer"), callback_data=marcador_data(board.id, Undo()))]
    if p.hands:
        last.append(
            InlineKeyboardButton(
                _("Nova partida"), callback_data=marcador_data(board.id, NewMatch())
            )
        )
    rows.append(last)
    return InlineKeyboardMarkup(rows)


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
