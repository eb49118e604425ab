"""/marcador: a marcador message for friends playing with a real deck at the same table."""

from __future__ import annotations

from telegram import Update

from bot.domain import Reason, Refused, marcador
from bot.domain.marcador import Command
from bot.i18n import words_for
from bot.telegram.arguments import marcador_request
from bot.telegram.callbacks import parse_marcador
from bot.telegram.context import BotContext
from bot.telegram.handlers import buttons
from bot.telegram.handlers.common import refuse, reply
from bot.telegram.publish.marcador import schedule_marcador
from bot.telegram.render.marcador import marcador_repeat_text, press_note


async def marcador_command(update: Update, context: BotContext) -> None:
    """/marcador [variante] [pontos] [Time A x Time B]: post a marcador everyone can press."""
    person, chat, msg = context.person, update.effective_chat, update.effective_message
    if person is None or chat is None or msg is None:
        return
    t = context.t
    settings = await context.chat_settings()
    try:
        requested = marcador_request(list(context.args or []), settings, words_for(t))
    except Refused as refused:
        await refuse(update, context, refused)
        return
    throttle = context.runtime.throttle
    if not await context.call(throttle.may_open_marcador, chat.id, person.id):
        # a repeat (or a crowd) asking again: the marcadores above serve, the table comes first
        text = marcador_repeat_text(t)
        await reply(update, context, text)
        return
    thread = msg.message_thread_id if msg.is_topic_message else None
    posted = await context.call(
        marcador.open_marcador, context.db, chat.id, thread, person, requested
    )
    schedule_marcador(context.application, chat.id, posted.id, wait=0)


@buttons.button(buttons.plain(parse_marcador))
async def on_marcador(
    press: buttons.Press[tuple[int, Command]], context: BotContext
) -> buttons.Answer | None:
    """A marcador button: anyone in the group marks a hand, undoes it or starts again."""
    q, person, t = press.query, press.person, press.t
    if q.message is None:
        return None
    marcador_id, command = press.data
    found = await context.call(marcador.load, context.db, marcador_id)
    if found is None or found.chat_id != q.message.chat.id:
        raise Refused(Reason.NO_MARCADOR)
    posted = await context.call(marcador.press, context.db, marcador_id, person, command)
    note = press_note(t, posted.marcador, command)

    async def redraw() -> None:
        schedule_marcador(context.application, posted.chat_id, posted.id)

    return buttons.Answer(text=note, then=redraw)
