"""The informational commands: /start, /ajuda, /regras, /placar, /ranking, and the hint
for anything else written in private."""

from __future__ import annotations

import contextlib

from telegram import Message, Update
from telegram.constants import ChatType
from telegram.error import TelegramError

from bot.domain import GameStatus, Refused, messages, people, tables
from bot.domain.values.errors import Reason
from bot.i18n import person_translations
from bot.numbers import NumberRefused
from bot.telegram.arguments import truco_request
from bot.telegram.budget import Looked
from bot.telegram.callbacks import parse_start
from bot.telegram.context import BotContext
from bot.telegram.handlers.common import post, refuse, reply
from bot.telegram.publish import schedule_hands, schedule_table
from bot.telegram.publish.table import REPOST_AFTER
from bot.telegram.render.hand import seated_text
from bot.telegram.render.help import rules_text
from bot.telegram.render.results import ranking_text
from bot.telegram.render.table import table_text
from bot.telegram.render.wording import no_match_here, not_understood, welcome_text
from bot.telegram.throttle import Route


async def start(update: Update, context: BotContext) -> None:
    """/start in private: greet, remember the person can be written to, resume a
    deep-linked table (in a group /start is /ajuda: ``command_table.start_command``)."""
    person, chat = context.person, update.effective_chat
    if person is None or chat is None or chat.type != ChatType.PRIVATE:
        return
    player = await context.call(people.meet, context.db, person, started=True)
    t = person_translations(player.language_code)
    _ = t.gettext
    try:
        game_id = parse_start(context.args[0] if context.args else "")
    except NumberRefused:
        game_id = None
    live = await context.call(tables.load, context.db, game_id) if game_id is not None else None
    seat = live.seat_of(person.id) if live is not None else None
    if live is not None and live.status == GameStatus.PLAYING and seat is not None:
        # "📩 No privado" mid-match: the live hand comes to the bottom, no greeting
        await context.call(messages.ask_for_hand, context.db, live.id, seat)
        schedule_hands(context.application, live.chat_id, live.id)
        return
    if live is not None and live.status == GameStatus.LOBBY and seat is not None:
        # "Entrar" sent them here: confirm the seat, and the lobby stops asking for them
        title = await context.call(people.chat_title, context.db, live.chat_id)

        async def seated(sent: Message) -> None:
            # the match's first hand message takes its place (or it goes when they leave):
            # the chat keeps nothing of the lobby
            where = (live.id, seat, chat.id, sent.message_id)
            if not await context.call(messages.seated_message, context.db, *where):
                with contextlib.suppress(TelegramError):
                    await sent.delete()  # they left meanwhile, or the lobby is over

        post(update, context, seated_text(t, live, title), then=seated)
        schedule_table(context.application, live.chat_id, live.thread_id, live.id)
        return
    await reply(
        update,
        context,
        welcome_text(t, player.name),
    )
    try:
        game_id = parse_start(context.args[0] if context.args else "")
    except NumberRefused as refused:
        too_large = refused.reason == NumberRefused.TOO_LARGE
        await refuse(update, context, Reason.NO_GAME if too_large else Reason.BAD_LINK, t)
        return
    if game_id is None:
        return
    table = await context.call(tables.load, context.db, game_id)
    if table is None:
        await refuse(update, context, Reason.NO_GAME, t)
    elif table.status == GameStatus.LOBBY:
        schedule_table(context.application, table.chat_id, table.thread_id, table.id)
    elif table.status == GameStatus.PLAYING:
        schedule_hands(context.application, table.chat_id, table.id)


async def rules(update: Update, context: BotContext) -> None:
    """/regras: a short summary of the chat's variant and a link to the rulebook."""
    chat = update.effective_chat
    if chat is None:
        return
    settings = await context.chat_settings()
    # the variant asked for (/regras mineiro), else the chat's newest table's, else its default
    variant = await context.call(tables.last_variant, context.db, chat.id, context.thread_id)
    if context.args:
        try:
            variant = truco_request(context.args[:1], settings).variant
        except Refused as r:
            await refuse(update, context, r)
            return
    variant = variant or settings.variant
    await reply(update, context, rules_text(context.t, variant, context.config.rulebook_url))


async def score(update: Update, context: BotContext) -> None:
    """/placar: the live table comes down to the bottom of the chat (a copy in private).

    In a group the table itself is posted again and the old message retired, within the
    command throttle: a repeated /placar gets no new table, so it cannot flood the group.
    """
    chat = update.effective_chat
    if chat is None:
        return
    table = await context.call(tables.active_table, context.db, chat.id, context.thread_id)
    if table is None or not table.started:
        text = no_match_here(context.t)
        await reply(update, context, text)
        return
    if chat.type == ChatType.PRIVATE or table.private:
        view = table.view(0)
        seconds = tables.decision_seconds(table, context.rules)
        await reply(update, context, table_text(context.t, table, view, seconds))
        return
    person = context.person
    throttle = context.runtime.throttle
    left = await context.runtime.budget.wait(chat.id, 1 + throttle.reserve)
    known = await context.call(people.player, context.db, person.id) if person else None
    where = throttle.route(
        Looked(left),
        chat.id,
        person.id if person else None,
        f"/placar {table.id}",
        started=bool(known and known.started),
    )
    seat = table.seat_of(person.id) if person else None
    if where is Route.GROUP:
        await context.call(messages.bring_table_down, context.db, table.id, REPOST_AFTER)
        schedule_table(context.application, table.chat_id, table.thread_id, table.id)
    elif where is Route.PRIVATE and seat is not None:
        # the group had its table a moment ago: their own hand, with the table, comes down
        await context.call(messages.ask_for_hand, context.db, table.id, seat)
        schedule_hands(context.application, table.chat_id, table.id)


async def on_group_message(update: Update, context: BotContext) -> None:
    """Any message in a group pushes its live table up; enough of them bury it (reposted)."""
    chat = update.effective_chat
    if chat is None or chat.type == ChatType.PRIVATE:
        return
    msg = update.effective_message
    seen = None
    if msg is not None:
        # a message's id says exactly how many lie after the table, in privacy mode too (the
        # chatter between two commands) and whatever order concurrent updates are handled
        # in: adding one per message as well counted some messages twice
        seen = await context.call(
            messages.note_seen, context.db, chat.id, context.thread_id, msg.message_id
        )
    if seen is None:  # a forum's topic (its ids run across topics), or no live table
        found = await context.call(messages.note_posted, context.db, chat.id, context.thread_id)
        if found is not None and found[1] == REPOST_AFTER:  # once, when it becomes buried
            schedule_table(context.application, chat.id, context.thread_id, found[0])
    elif seen[1] >= REPOST_AFTER:
        schedule_table(context.application, chat.id, context.thread_id, seen[0])


async def ranking(update: Update, context: BotContext) -> None:
    """/ranking: wins and matches per player in this chat."""
    chat = update.effective_chat
    if chat is None:
        return
    rows = await context.call(people.ranking, context.db, chat.id)
    await reply(update, context, ranking_text(context.t, rows))


async def unknown(update: Update, context: BotContext) -> None:
    """An unknown command or free text in private: one line pointing to /truco and /ajuda."""
    if context.person is None:
        return
    hint = not_understood(context.t)
    await reply(update, context, hint)
