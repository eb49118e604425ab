"""Settings: /config for a group's table defaults, /baralho for a person's card labels."""

from __future__ import annotations

import contextlib
import logging

from telegram import InlineKeyboardMarkup, Update
from telegram.constants import ChatType
from telegram.error import TelegramError

from bot.domain import Refused, people, tables
from bot.domain.values.errors import Reason
from bot.domain.values.settings import ChatSettings, Setting
from bot.i18n import (
    LANGUAGES,
    SOURCE,
    Translations,
    person_translations,
    translations,
    words_for,
)
from bot.telegram.callbacks import ConfigPress, parse_config, parse_deck
from bot.telegram.context import BotContext
from bot.telegram.handlers.buttons import Answer, Press, button, plain
from bot.telegram.handlers.common import ask, is_admin, post, refuse, reply, route_of
from bot.telegram.publish import schedule_hands
from bot.telegram.render.config import (
    config_view,
    deck_chosen,
    deck_keyboard,
    deck_question,
    panel_sent_privately,
    private_language_text,
    saved_text,
    saved_toast,
)
from bot.telegram.throttle import Route
from engine.cards import Card, DeckStyle

log = logging.getLogger(__name__)


async def config_command(update: Update, context: BotContext) -> None:
    """/config: the group's table defaults, changed with buttons by admins.

    An admin always gets the panel: in the group while its flood budget has room for
    it next to the table, else privately (bound to the group, saying why) when they
    started the bot, else in the group once the budget allows.
    """
    await _panel(update, context, None)


async def language_command(update: Update, context: BotContext) -> None:
    """/idioma: in a group, /config's list of languages at once (admins); in a private
    chat, which language the bot speaks there (the person's Telegram language)."""
    chat = update.effective_chat
    if chat is not None and chat.type == ChatType.PRIVATE:
        t = context.t
        await reply(update, context, private_language_text(t, words_for(t).name))
        return
    await _panel(update, context, Setting.LANGUAGE)


def _view(
    t: Translations, settings: ChatSettings, setting: Setting | None, bound: int | None = None
) -> tuple[str, InlineKeyboardMarkup]:
    """The /config panel, or the list of one setting's values."""
    if setting is None:
        return config_view(t, settings, bound=bound)
    choices = people.setting_choices(setting, LANGUAGES)
    current = people.setting_value(settings, setting)
    return config_view(t, settings, setting, choices, current, bound=bound)


async def _panel(update: Update, context: BotContext, setting: Setting | None) -> None:
    """/config's panel (or one ``setting``'s values) for an admin, where it fits."""
    person, chat = context.person, update.effective_chat
    if person is None or chat is None:
        return
    t = context.t
    if chat.type != ChatType.PRIVATE and not await is_admin(context, chat.id, person.id):
        await refuse(update, context, Reason.ADMIN_ONLY)
        return
    settings = await context.chat_settings()
    text, markup = _view(t, settings, setting)
    if chat.type == ChatType.PRIVATE or await route_of(update, context, text) is Route.GROUP:
        post(update, context, text, reply_markup=markup)
        return
    known = await context.call(people.player, context.db, person.id)
    if known is None or not known.started:
        await ask(update, context, text, markup)  # waits for the group's budget
        return
    mine = person_translations(known.language_code)
    text, markup = _view(mine, settings, setting, bound=chat.id)
    note = panel_sent_privately(mine, chat.title or "")
    try:
        await context.bot.send_message(person.id, note + "\n\n" + text, reply_markup=markup)
    except TelegramError as exc:
        log.info("private /config failed: %s", exc)
        await ask(update, context, text, markup)


@button(plain(parse_config))
async def on_config(press: Press[ConfigPress], context: BotContext) -> None:
    """A /config button: open a setting's values, pick one, go back or close (admins only).

    Picking a value closes the panel, showing what is stored: an old panel never keeps
    showing a value that changed since (a new /config opens a fresh one).
    """
    q, person, t, config = press.query, press.person, press.t, press.data
    if q.message is None:
        return
    chat_id = q.message.chat.id
    if config.chat is not None:
        if chat_id != person.id:  # a bound panel lives in its admin's private chat
            raise Refused(Reason.BAD_BUTTON)
        chat_id = config.chat
    if not await is_admin(context, chat_id, person.id):
        raise Refused(Reason.ADMIN_ONLY)
    setting = config.setting
    if config.close:
        await q.answer()
        try:
            await q.delete_message()
        except TelegramError:
            with contextlib.suppress(TelegramError):
                await q.edit_message_reply_markup(None)
        return
    if setting is None or config.index is None:
        settings = await context.call(people.chat_settings, context.db, chat_id)
        await q.answer()
    else:
        settings = await context.call(
            people.change_setting, context.db, chat_id, setting, config.index, LANGUAGES
        )
        if chat_id < 0 and config.chat is None:  # the language may be the setting that changed
            t = translations(settings.language or SOURCE)
        await q.answer(saved_toast(t))
        closed = saved_text(t, settings)
        try:
            await q.edit_message_text(closed, reply_markup=None)
        except TelegramError as exc:
            log.info("config edit failed: %s", exc)
        return
    text, markup = _view(t, settings, setting, bound=config.chat)
    try:
        await q.edit_message_text(text, reply_markup=markup)
    except TelegramError as exc:
        log.info("config edit failed: %s", exc)


async def deck_command(update: Update, context: BotContext) -> None:
    """/baralho: choose traditional (3♣) or Spanish (3 de bastos) card labels (R11)."""
    person = context.person
    if person is None:
        return
    player = await context.call(people.meet, context.db, person)
    t = person_translations(player.language_code)
    text = deck_question(t)
    await reply(update, context, text, reply_markup=deck_keyboard(t))


@button(plain(parse_deck), personal="stored")
async def on_deck(press: Press[DeckStyle], context: BotContext) -> Answer:
    """A /baralho button: store the person's deck style and redraw their hands."""
    q, person, t, style = press.query, press.person, press.t, press.data
    await context.call(people.set_deck, context.db, person.id, style)
    label = words_for(t).card(Card.parse("3C"), style)
    done = deck_chosen(t, label)

    # in a group the question stays for the others, each choosing their own; the presser
    # reads the sample in the toast, so the group never sees a card that is no one's play
    private = q.message is not None and q.message.chat.type == ChatType.PRIVATE

    async def redraw() -> None:
        if private:
            with contextlib.suppress(TelegramError):  # the choice is made: the buttons go
                await q.edit_message_text(done, reply_markup=None)
        for table in await context.call(tables.playing_tables_of, context.db, person.id):
            schedule_hands(context.application, table.chat_id, table.id)

    return Answer(text=done, then=redraw)
