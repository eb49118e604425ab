"""/tutorial: the guided lesson in private, one button at a time."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.constants import ChatType
from telegram.error import TelegramError

from bot.domain import people
from bot.telegram import lesson
from bot.telegram.context import BotContext
from bot.telegram.handlers.buttons import Press, button
from bot.telegram.handlers.common import reply
from bot.telegram.render.wording import tutorial_in_private

log = logging.getLogger(__name__)


async def tutorial_command(update: Update, context: BotContext) -> None:
    """/tutorial: the lesson menu in private; each lesson is checked by the engine."""
    person, chat = context.person, update.effective_chat
    if chat is None or person is None:
        return
    if chat.type != ChatType.PRIVATE:
        text = tutorial_in_private(context.t)
        await reply(update, context, text)
        return
    await context.call(people.meet, context.db, person, started=True)
    text, markup = await context.call(lesson.begin, context.db, person.id)
    await reply(update, context, text, reply_markup=markup)


@button(str, personal=True)  # the lesson reads its own buttons (a menu pick or a move)
async def on_tutorial(press: Press[str], context: BotContext) -> None:
    """A tutorial button: a lesson opens; right move → the next prompt; wrong → a hint."""
    q = press.query
    answer = await context.call(lesson.press, context.db, press.person.id, press.data)
    await q.answer(answer.alert or None, show_alert=bool(answer.alert))
    if answer.text is not None:
        try:
            await q.edit_message_text(answer.text, reply_markup=answer.markup)
        except TelegramError as exc:
            log.info("tutorial edit failed: %s", exc)
