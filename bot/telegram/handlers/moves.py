"""Playing: hand buttons, and inline mode (🃏 Minha mão) in the group."""

from __future__ import annotations

import contextlib

from telegram import CallbackQuery, InlineQueryResultsButton, Message, Update
from telegram.constants import ChatType, MessageEntityType
from telegram.error import TelegramError

from bot.domain import Refused, Source, jobs, people, tables
from bot.domain.values.errors import Reason
from bot.domain.values.game import Change, GameStatus, Table
from bot.i18n import person_translations, words_for
from bot.links import start_parameter
from bot.telegram.callbacks import (
    Move,
    parse_move,
    parse_posted_link,
    parse_signals,
)
from bot.telegram.context import BotContext
from bot.telegram.handlers.buttons import Answer, Press, button
from bot.telegram.publish import refresh
from bot.telegram.render.hand import (
    hand_keyboard,
    inline_elsewhere,
    inline_not_your_turn,
    inline_nowhere,
    inline_results,
)
from bot.telegram.render.results import answered_first, move_chosen
from bot.telegram.render.sinais import signals_keyboard
from bot.wording.refusals import reason_text
from engine.actions import Act


async def _act(
    context: BotContext, move: Move, user_id: int, source: Source = Source.BUTTON
) -> Change:
    """A person's move, made for its version (a hand button or a posted inline result)."""
    change: Change = await context.call(
        tables.act,
        context.db,
        move.game_id,
        move.version,
        None,
        move.action,
        context.rules,
        user_id=user_id,
        source=source,
    )
    return change


@button(parse_move, personal=True)
async def on_move(press: Press[Move], context: BotContext) -> Change | Answer | None:
    """A hand button: play, cover, blind card, truco and raises, answers, mão de onze."""
    move = press.data  # pressed on the person's own hand message (guards.pressed_here)
    try:
        change = await _act(context, move, press.person.id)
    except Refused as r:
        if r.reason != Reason.ANSWERED:
            raise
        # a partner's answer came first: say whose, not only that the move has passed
        table = await context.call(tables.load, context.db, move.game_id)
        if table is None or not table.started:
            raise
        text = answered_first(
            press.t, table, r.params["seat"], r.params["action"], r.params.get("step")
        )
        await press.query.answer(text, show_alert=True)
        return None
    context.runtime.metrics.actions.labels("button").inc()
    robot_next = change.status == GameStatus.PLAYING and change.robot_seat is not None
    if robot_next and jobs.hands_wait(context.rules.robot_delay):
        # the hand message is redrawn once the robot has answered (``jobs.hands_wait``):
        # until then the toast says what was pressed (the message keeps its buttons,
        # each of them now refused as stale)
        label = pressed_label(press.query)
        if label is not None:
            return Answer(change, text=move_chosen(press.t, label))
    return change


def pressed_label(query: CallbackQuery) -> str | None:
    """The text of the button pressed (its own words, in the person's language)."""
    message = query.message
    markup = message.reply_markup if isinstance(message, Message) else None
    if markup is None:
        return None
    for row in markup.inline_keyboard:
        for key in row:
            if key.callback_data == query.data:
                return key.text
    return None


def _chat_kinds(table: Table) -> tuple[str, ...]:
    """The inline query chat types that are the table's own chat."""
    if table.private:
        return (ChatType.SENDER,)
    return (ChatType.GROUP, ChatType.SUPERGROUP)


@button(parse_signals, personal=True)
async def on_signals(press: Press[tuple[int, int, bool]], context: BotContext) -> None:
    """👁️ Sinal on a private hand: show the list of signals (or go back to the cards)."""
    q, t = press.query, press.t
    game_id, version, show = press.data
    table = await context.call(tables.existing, context.db, game_id, started=True)
    seat = table.seat_of(press.person.id)
    if seat is None:
        raise Refused(Reason.NOT_SEATED)
    if version and table.version != version:  # 0: drawn off the seat's turn, any version
        raise Refused(Reason.STALE)
    view = table.view(seat)
    if show:
        markup = signals_keyboard(t, table, view)
        if markup is None:
            raise Refused(Reason.NO_SIGNAL)
    else:
        player = await context.call(people.meet, context.db, press.person)
        markup = hand_keyboard(t, table, view, player.deck_at(table.variant))
    await q.answer()
    with contextlib.suppress(TelegramError):  # the hand was redrawn meanwhile: nothing to fix
        await q.edit_message_reply_markup(markup)


async def on_inline(update: Update, context: BotContext) -> None:
    """🃏 Minha mão: list the presser's legal actions as inline results (in the table's chat)."""
    iq, person = update.inline_query, context.person
    if iq is None or person is None:
        return
    player = await context.call(people.meet, context.db, person)
    t = person_translations(player.language_code)
    found = await context.call(tables.turn_of, context.db, person.id)
    if found is None:
        nowhere = InlineQueryResultsButton(text=inline_nowhere(t), start_parameter="ajuda")
        await iq.answer([], cache_time=0, is_personal=True, button=nowhere)
        return
    table, seat = found
    if iq.chat_type not in _chat_kinds(table):
        # a result posted here would not count: offer none, and say where to play
        elsewhere = InlineQueryResultsButton(
            text=inline_elsewhere(t), start_parameter=start_parameter(table.id)
        )
        await iq.answer([], cache_time=0, is_personal=True, button=elsewhere)
        return
    view = table.view(seat)
    results = inline_results(t, table, view, player.deck_at(table.variant), context.bot.username)
    button: InlineQueryResultsButton | None = None
    if not results:
        cards = words_for(t).cards(view.hand, player.deck_at(table.variant))
        button = InlineQueryResultsButton(
            text=inline_not_your_turn(t, cards),
            start_parameter=start_parameter(table.id),
        )
    await iq.answer(results, cache_time=0, is_personal=True, button=button)


def posted_move(message: Message, bot_username: str) -> Move | None:
    """The move an inline result's posted message carries (its first link), if any."""
    for entity in message.entities:
        if entity.type == MessageEntityType.TEXT_LINK and entity.url:
            return parse_posted_link(entity.url, bot_username)
    return None


async def on_posted(update: Update, context: BotContext) -> None:
    """A message posted through inline mode: apply its move if it is in the table's chat.

    Telegram does not say where a chosen inline result went; this message does.
    Posted anywhere else (another group, a private chat) the move changes nothing.
    """
    msg, person = update.effective_message, context.person
    if msg is None or person is None or msg.via_bot is None or msg.forward_origin is not None:
        return
    if msg.via_bot.id != context.bot.id:
        return
    move = posted_move(msg, context.bot.username)
    if move is None:
        return
    thread = msg.message_thread_id if msg.is_topic_message else None
    try:
        table = await context.call(tables.existing, context.db, move.game_id)
        if msg.chat.id != table.chat_id or (thread is not None and thread != table.thread_id):
            raise Refused(Reason.WRONG_CHAT)
        change = await _act(context, move, person.id, Source.INLINE)
    except Refused as r:
        if move.action.act is Act.PLAY:
            # a move that did not count names a card still in the hand: take it down where
            # the bot may (an admin that deletes messages); elsewhere it stays, harmless
            with contextlib.suppress(TelegramError):
                await msg.delete()
        player = await context.call(people.meet, context.db, person)
        if player.started:
            t = person_translations(player.language_code)
            with contextlib.suppress(TelegramError):  # nobody to tell
                await context.bot.send_message(player.id, reason_text(t, r.reason, r.params))
        return
    refresh(context.application, change)
