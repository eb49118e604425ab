"""A table before and between matches: /truco, the lobby buttons, Revanche, /cancelar
(and its Sim / Não mid-match), 🙋 Voltei, the robot vote."""

from __future__ import annotations

import contextlib

from telegram import MaybeInaccessibleMessage, Update
from telegram.constants import ChatType
from telegram.error import TelegramError

from bot.domain import CancelTable, Join, Refused, Start, messages, people, tables
from bot.domain.values.commands import AddRobot, LobbyCommand, RemoveRobot
from bot.domain.values.errors import Reason
from bot.domain.values.game import Change, GameStatus, Table
from bot.telegram.arguments import truco_request
from bot.telegram.callbacks import (
    deep_link,
    parse_back,
    parse_cancel,
    parse_lobby,
    parse_rematch,
    parse_vote,
)
from bot.telegram.context import BotContext
from bot.telegram.handlers.buttons import Answer, Press, button
from bot.telegram.handlers.common import (
    answered,
    ask,
    greet_later,
    greet_privately,
    is_admin,
    refuse,
    reply,
    sender_is_admin,
)
from bot.telegram.publish import refresh, schedule_table
from bot.telegram.publish.table import REPOST_AFTER
from bot.telegram.render.results import (
    cancel_declined_text,
    cancel_question,
    cancelled_by_text,
    cancelled_text,
)
from bot.telegram.render.wording import back_text, no_table_here, vote_text


async def new_table(update: Update, context: BotContext) -> None:
    """/truco: open a lobby in a group, or start a game against robots in private."""
    person, chat = context.person, update.effective_chat
    if person is None or chat is None:
        return
    private = chat.type == ChatType.PRIVATE
    player = await context.call(people.meet, context.db, person, started=private)
    try:
        settings = await context.chat_settings()
        members = None
        if not private and not settings.players:  # the size goes by the group's people
            with contextlib.suppress(TelegramError):
                members = await context.bot.get_chat_member_count(chat.id) - 1  # not us
        request = truco_request(context.args or [], settings, members)
        if not private and context.args:
            # the opener's own lobby, not started yet, takes the new options
            with contextlib.suppress(Refused):
                change = await context.call(
                    tables.reshape,
                    context.db,
                    chat.id,
                    context.thread_id,
                    person.id,
                    request,
                    context.rules,
                )
                # the lobby comes down below the command that changed it: an edit far up
                # the chat answers nobody who is reading the bottom
                await context.call(
                    messages.bring_table_down, context.db, change.game_id, REPOST_AFTER
                )
                refresh(context.application, change)
                return
        table = await context.call(
            tables.open_table,
            context.db,
            chat.id,
            context.thread_id,
            person,
            request,
            private=private,
            rules=context.rules,
        )
        if private:
            started = await context.call(tables.start, context.db, table.id, context.rules)
            refresh(context.application, started)
            return
    except Refused as r:
        await refuse(update, context, r)
        return
    schedule_table(context.application, table.chat_id, table.thread_id, table.id)
    if not player.started:
        greet_later(context, player, table)


async def cancel_command(update: Update, context: BotContext) -> None:
    """/cancelar: end the table of this chat (creator or admin)."""
    person, chat = context.person, update.effective_chat
    if person is None or chat is None:
        return
    t = context.t
    table = await context.call(tables.active_table, context.db, chat.id, context.thread_id)
    if table is None:
        await reply(update, context, no_table_here(t))
        return
    ok = table.creator_id == person.id or await sender_is_admin(update, context)
    if table.status == GameStatus.PLAYING:
        # a match in play is lost on cancelling: ask first (Sim / Não, opener or admin)
        if not ok:
            await refuse(update, context, Reason.ONLY_CREATOR)
            return
        text, markup = cancel_question(t, table)
        await ask(update, context, text, markup)
        return
    try:
        change = await context.call(
            tables.cancel, context.db, table.id, person.id, authorised=ok, rules=context.rules
        )
    except Refused as r:
        await refuse(update, context, r)
        return
    refresh(context.application, change)
    if chat.type == ChatType.PRIVATE:
        await reply(update, context, cancelled_text(t))


@button(parse_cancel)
async def on_cancel(press: Press[tuple[int, bool]], context: BotContext) -> Answer:
    """Sim / Não under /cancelar's question: cancel the match (opener or admin) or keep it."""
    q, person, t = press.query, press.person, press.t  # the table's chat: its language
    game_id, yes = press.data
    table = await context.call(tables.load, context.db, game_id)
    if table is None or q.message is None or q.message.chat.id != table.chat_id:
        raise Refused(Reason.NOT_HERE)
    if table.creator_id != person.id and not await is_admin(context, table.chat_id, person.id):
        raise Refused(Reason.ONLY_CREATOR)
    await context.call(people.meet, context.db, person)  # the table names who cancelled it
    await answered(context, table.chat_id)
    if not yes:

        async def kept() -> None:
            with contextlib.suppress(TelegramError):
                await q.edit_message_text(cancel_declined_text(t))

        return Answer(then=kept)
    try:
        change = await context.call(
            tables.cancel, context.db, game_id, person.id, authorised=True, rules=context.rules
        )
    except Refused:
        with contextlib.suppress(TelegramError):  # the question has nothing left to ask
            await q.edit_message_reply_markup(None)
        raise

    async def cancelled() -> None:
        # the short line at the bottom of the chat; the table far up says the same
        with contextlib.suppress(TelegramError):
            await q.edit_message_text(cancelled_by_text(t, table, person.name))
        await _table_cancelled(context, table, cancelled_by_text(t, table, person.name))

    return Answer(change, then=cancelled)


@button(parse_lobby)
async def on_lobby(
    press: Press[tuple[int, LobbyCommand, int | None]], context: BotContext
) -> Answer:
    """A lobby button: Entrar, Sair, + Robô, − Robô, Começar, Cancelar."""
    q, person = press.query, press.person  # the table's chat: its language
    game_id, command, version = press.data
    table = await context.call(tables.existing, context.db, game_id)
    if not _on_table_message(q.message, table):
        raise Refused(Reason.NOT_HERE)  # a button acts only from the lobby message it was drawn on
    player = await context.call(people.meet, context.db, person)
    authorised = person.id == table.creator_id
    needs_authority = isinstance(command, Start | CancelTable) or (
        isinstance(command, AddRobot | RemoveRobot) and table.seat_of(person.id) is None
    )
    if needs_authority and not authorised:
        authorised = await is_admin(context, table.chat_id, person.id)
    if isinstance(command, Start) and not player.started and table.seat_of(person.id) is not None:
        await greet_privately(context, player)
    try:
        change = await context.call(
            tables.lobby,
            context.db,
            game_id,
            person,
            command,
            authorised=authorised,
            rules=context.rules,
            expected=version,
        )
    except Refused as r:
        # (a double tap on + Robô is a toast: the lobby already shows what the first did)
        if r.reason == Reason.MUST_START:
            schedule_table(context.application, table.chat_id, table.thread_id, game_id)
        raise
    if isinstance(command, Join) and not player.started:

        async def greet() -> None:
            greet_later(context, player, table)

        # the deep link at once; a greeting that gets through makes it moot
        return Answer(change, url=deep_link(context.bot.username, game_id), then=greet)
    return Answer(change)


async def _table_cancelled(context: BotContext, table: Table, text: str) -> None:
    """Take the cancelled table's buttons off at once: its redraw may wait a while behind
    the group's flood budget, and meanwhile its turn line and buttons would still look live."""
    if table.table_message_id is None or table.private:
        return
    with contextlib.suppress(TelegramError):  # the redraw job says it again anyway
        await context.bot.edit_message_text(
            text, table.chat_id, table.table_message_id, reply_markup=None
        )


def _on_table_message(message: MaybeInaccessibleMessage | None, table: Table) -> bool:
    """Whether a pressed button sits on the table's own message, in the table's chat."""
    if message is None or message.chat.id != table.chat_id:
        return False
    return table.table_message_id is None or message.message_id == table.table_message_id


@button(parse_back, personal=True)
async def on_back(press: Press[int], context: BotContext) -> Answer:
    """🙋 Voltei on a private hand: the person takes back the seat a robot plays for them."""
    q, person, t = press.query, press.person, press.t
    if q.message is None or q.message.chat.id != person.id:
        raise Refused(Reason.NOT_HERE)
    change = await context.call(tables.come_back, context.db, press.data, person.id, context.rules)
    return Answer(change, text=back_text(t))


@button(parse_vote)
async def on_vote(press: Press[tuple[int, int]], context: BotContext) -> Answer:
    """🤖 on the table: a seated person votes a robot into an absent person's seat."""
    t = press.t
    game_id, seat = press.data
    table = await context.call(tables.load, context.db, game_id)
    if table is None or not _on_table_message(press.query.message, table):
        raise Refused(Reason.NOT_HERE)
    change, missing = await context.call(
        tables.vote_robot, context.db, game_id, press.person.id, seat, context.rules
    )
    return Answer(change, text=vote_text(t, missing))


@button(parse_rematch)
async def on_rematch(press: Press[int], context: BotContext) -> Change:
    """Revanche: the same seats start a new match."""
    q, game_id = press.query, press.data
    old = await context.call(tables.load, context.db, game_id)
    if old is not None and (q.message is None or q.message.chat.id != old.chat_id):
        # Revanche is drawn in the match's chat (its closing message, or the table)
        raise Refused(Reason.NOT_HERE)
    change: Change = await context.call(
        tables.rematch, context.db, game_id, press.person.id, context.rules
    )
    return change
