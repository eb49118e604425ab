"""What several handlers share: replying without waiting, refusing a command, admin checks,
greeting privately."""

from __future__ import annotations

import html
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from telegram import CallbackQuery, Message, Update
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import Forbidden, TelegramError

from bot.domain import PlayerInfo, people
from bot.domain.values.errors import Reason, Refused
from bot.domain.values.game import Table
from bot.i18n import Translations, person_translations
from bot.numbers import NumberRefused
from bot.telegram.budget import Looked, table_traffic
from bot.telegram.context import BotContext
from bot.telegram.publish import schedule_table
from bot.telegram.render.wording import routed_note, seated_greeting
from bot.telegram.throttle import Route
from bot.wording.refusals import reason_text

log = logging.getLogger(__name__)
Parsed = TypeVar("Parsed")


async def parse_button(
    q: CallbackQuery, t: Translations, parse: Callable[[str], Parsed]
) -> Parsed | None:
    """A button's data read by ``parse``; ``None`` once the person was told why it cannot act."""
    try:
        return parse(q.data or "")
    except NumberRefused:
        reason = Reason.NO_GAME  # an id too big to be one of ours
    except ValueError:
        reason = Reason.BAD_BUTTON
    await q.answer(reason_text(t, reason), show_alert=True)
    return None


async def reply(update: Update, context: BotContext, text: str, **kw: Any) -> None:
    """Answer a command, without waiting: in its chat, privately, or not at all.

    In a group the table comes first (``throttle``): an answer goes out only while
    the group's budget keeps room for the table, and one person's repeated command
    is answered there once in a while, else privately. Sends queue behind Telegram's
    30 messages a second; the handler returns at once so that a backlog never holds
    an update slot that a button press needs.
    """
    msg = update.effective_message
    chat = update.effective_chat
    if msg is None or chat is None:
        return
    person = context.person
    target = chat.id
    if chat.type != ChatType.PRIVATE:
        known = await context.call(people.player, context.db, person.id) if person else None
        where = await route_of(update, context, text)
        if where is Route.PRIVATE and person is not None and "reply_markup" not in kw:
            target = person.id
            # said where it comes from: a command typed in the group is answered here
            mine = person_translations(known.language_code if known else person.language_code)
            text = routed_note(mine, chat.title or "") + "\n" + text
        elif where is not Route.GROUP:
            return  # a keyboard (/config) belongs in its chat; the table needs the budget

    post(update, context, text, target, **kw)


ECHOED = 30
"""Characters of a word the person typed shown back in a refusal (one line)."""


async def refuse(
    update: Update, context: BotContext, refusal: Refused | Reason, t: Translations | None = None
) -> None:
    """Answer a command with why it cannot act (``reply``), in ``t`` (the update's language
    by default). A refusal's params (the words typed) are shown back inside HTML: escaped,
    and short enough for one line."""
    if isinstance(refusal, Reason):
        refusal = Refused(refusal)
    params = {k: html.escape(str(v)[:ECHOED]) for k, v in refusal.params.items()}
    await reply(update, context, reason_text(t or context.t, refusal.reason, params))


def post(
    update: Update,
    context: BotContext,
    text: str,
    target: int | None = None,
    *,
    then: Callable[[Message], Awaitable[None]] | None = None,
    **kw: Any,
) -> None:
    """Send a command's answer in the background, routed already (``route_of``): in its
    chat, or to ``target``; ``then``: what to do with the message once sent."""
    msg, chat = update.effective_message, update.effective_chat
    if msg is None or chat is None:
        return
    to = chat.id if target is None else target

    async def send() -> None:
        try:
            if to == chat.id:
                sent = await msg.reply_text(text, do_quote=False, **kw)
            else:
                sent = await context.bot.send_message(to, text, **kw)
        except TelegramError as exc:
            log.warning("reply in %s failed: %s", to, exc)
            return
        if then is not None:
            await then(sent)

    context.application.create_task(send(), update=update)


async def route_of(update: Update, context: BotContext, text: str) -> Route:
    """Where the answer ``text`` to a command in a group goes now (``throttle.route``):
    the group while its budget keeps room for the table, else privately or nowhere."""
    chat, person = update.effective_chat, context.person
    if chat is None or chat.type == ChatType.PRIVATE:
        return Route.GROUP
    known = await context.call(people.player, context.db, person.id) if person else None
    throttle = context.runtime.throttle
    left = await context.runtime.budget.wait(chat.id, 1 + throttle.reserve)
    where: Route = await context.call(
        throttle.route,
        Looked(left),
        chat.id,
        person.id if person else None,
        text,  # the same answer to the same person is the repeat, whatever they typed
        started=bool(known and known.started),
    )
    return where


async def ask(update: Update, context: BotContext, text: str, markup: Any) -> None:
    """Post a question with its buttons (/cancelar's Sim / Não) in the command's chat.

    ``reply`` keeps a keyboard out of a group whose minute the table needs, so a
    question would be lost there; this one is planned as a match's call is (it may spend
    the calls' reserve, ``bot.telegram.planner``) and waits only for the group's second. Only those who may answer are asked; the same person asking
    again while the question is still open (``CommandThrottle.may_ask``, noted where
    every replica sees it) goes through ``reply``: one open question, not a stream of them.
    """
    msg, chat, person = update.effective_message, update.effective_chat, context.person
    if msg is None or chat is None:
        return
    throttle = context.runtime.throttle
    if not await context.call(throttle.may_ask, chat.id, person.id if person else None):
        await reply(update, context, text, reply_markup=markup)
        return

    async def send() -> None:
        try:
            # a question that must be asked goes as a match's call does: it may spend the
            # calls' reserve (asked once per person while open, ``may_ask``)
            with table_traffic():
                await msg.reply_text(text, do_quote=False, reply_markup=markup)
        except TelegramError as exc:
            log.warning("question in %s failed: %s", chat.id, exc)

    context.application.create_task(send(), update=update)


async def answered(context: BotContext, chat_id: int) -> None:
    """A question in ``chat_id`` was answered: whoever asks next is asked at once."""
    await context.call(context.runtime.throttle.answered, chat_id)


def anonymous_admin(update: Update) -> bool:
    """Whether the message was sent by an anonymous admin: the group itself is the sender.

    Telegram shows such a message as coming from the group (sender_chat) and from the
    same ``GroupAnonymousBot`` user in every group; only admins can post that way.
    """
    msg = update.effective_message
    return bool(msg and msg.sender_chat and msg.sender_chat.id == msg.chat.id)


async def sender_is_admin(update: Update, context: BotContext) -> bool:
    """Whether the sender of a command administers its chat (an anonymous admin does)."""
    chat, person = update.effective_chat, context.person
    if chat is None or person is None:
        return False
    return anonymous_admin(update) or await is_admin(context, chat.id, person.id)


async def answer_after(query: CallbackQuery, **kw: Any) -> None:
    """Answer a button whose change is already stored (with its jobs), or its refusal: a
    failure here (network, 5xx, "query is too old") only stops the spinner, never the
    table, and is one line in the log."""
    try:
        await query.answer(**kw)
    except TelegramError as exc:
        log.info("button answer failed: %s", exc)


async def is_admin(context: BotContext, chat_id: int, user_id: int) -> bool:
    """Whether a person administers a group (private chats: always)."""
    if chat_id > 0:
        return True
    try:
        member = await context.bot.get_chat_member(chat_id, user_id)
    except TelegramError:
        return False
    return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


async def greet_privately(context: BotContext, player: PlayerInfo) -> bool:
    """Tell a person privately they sat down; False (and unmarked) if they never started us."""
    t = person_translations(player.language_code)
    try:
        await context.bot.send_message(player.id, seated_greeting(t))
    except Forbidden:
        return False
    except TelegramError:
        return player.started
    await context.call(people.set_started, context.db, player.id, True)
    return True


def greet_later(context: BotContext, player: PlayerInfo, table: Table) -> None:
    """Greet a newly seated person in the background; redraw the lobby if they turn out reachable."""

    async def greet() -> None:
        if await greet_privately(context, player):
            schedule_table(context.application, table.chat_id, table.thread_id, table.id)

    context.application.create_task(greet())
