"""Playing: hand buttons, and inline mode (🃏 Minha mão) in the group."""

from __future__ import annotations

import contextlib

from telegram import InlineQueryResultsButton, Update
from telegram.error import TelegramError

from bot.domain import Refused, Source, people, tables
from bot.domain.values import Reason
from bot.i18n import person_translations, words_for
from bot.numbers import NumberRefused
from bot.telegram.callbacks import parse_move, start_parameter
from bot.telegram.context import BotContext
from bot.telegram.publish import refresh
from bot.telegram.render import inline_results, reason_text


async def on_move(update: Update, context: BotContext) -> None:
    """A hand button: play, cover, blind card, truco and raises, answers, mão de onze."""
    q, person = update.callback_query, context.person
    if q is None or person is None:
        return
    t = person_translations(person.language_code)
    try:
        move = parse_move(q.data or "")
    except NumberRefused:
        await q.answer(reason_text(t, Reason.NO_GAME), show_alert=True)
        return
    except ValueError:
        await q.answer(reason_text(t, Reason.BAD_BUTTON), show_alert=True)
        return
    try:
        change = tables.act(
            context.db,
            move.game_id,
            move.version,
            None,
            move.action,
            context.rules,
            user_id=person.id,
        )
    except Refused as r:
        await q.answer(reason_text(t, r.reason, r.params), show_alert=True)
        return
    await q.answer()
    refresh(context.application, change)


async def on_inline(update: Update, context: BotContext) -> None:
    """🃏 Minha mão: list the presser's legal actions as inline results."""
    iq, person = update.inline_query, context.person
    if iq is None or person is None:
        return
    player = people.meet(context.db, person)
    t = person_translations(player.language_code)
    found = tables.turn_of(context.db, person.id)
    if found is None:
        nowhere = InlineQueryResultsButton(
            text=t.gettext("Você não está em nenhuma partida"), start_parameter="ajuda"
        )
        await iq.answer([], cache_time=0, is_personal=True, button=nowhere)
        return
    table, seat = found
    view = table.view(seat)
    results = inline_results(t, table, view, player.deck)
    button: InlineQueryResultsButton | None = None
    if not results:
        cards = words_for(t).cards(view.hand, player.deck)
        button = InlineQueryResultsButton(
            text=t.gettext("Não é a sua vez · {cards}").format(cards=cards),
            start_parameter=start_parameter(table.id),
        )
    await iq.answer(results, cache_time=0, is_personal=True, button=button)


async def on_chosen(update: Update, context: BotContext) -> None:
    """An inline result was chosen: apply it like the button it stands for."""
    chosen, person = update.chosen_inline_result, context.person
    if chosen is None or person is None:
        return
    try:
        move = parse_move(chosen.result_id)
        change = tables.act(
            context.db,
            move.game_id,
            move.version,
            None,
            move.action,
            context.rules,
            user_id=person.id,
            source=Source.INLINE,
        )
    except ValueError:
        return
    except Refused as r:
        player = people.meet(context.db, person)
        if player.started:
            t = person_translations(player.language_code)
            with contextlib.suppress(TelegramError):  # nobody to tell
                await context.bot.send_message(player.id, reason_text(t, r.reason, r.params))
        return
    refresh(context.application, change)
