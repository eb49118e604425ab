"""Updates stopped before any handler sees them.

- **Edited messages** never run commands: editing an old message into ``/truco`` or
  ``/cancelar`` must not open or end a table.
- **Channel posts**: a channel has no players, and its posts have no sender.
- **Other bots**: a bot account cannot play, open a table or spend a group's budget on
  answers; its messages are dropped unseen (anonymous admins and channels, whose messages
  Telegram signs with a bot user, are told apart by ``sender_chat``).
- **Buttons pressed where they were never drawn**: a client can send any callback_data
  from any message. The hand's and the tutorial's buttons count only in the presser's own
  private chat; any other button only on a message that carries a button for the same
  thing (the same game's lobby, question or Revanche, the same marcador, a panel of
  the same kind). This
  one check stands before every button handler, those added later included; the handlers
  then check the rest (the game, its version, the presser) against the database.
- **Anonymous senders** (an anonymous admin posting as the group, or someone posting
  as a channel) cannot play: every one of them is the same user in every group. They
  are told to write as themselves; what only needs an admin (``/cancelar``,
  ``/config``) and what only reads (``/placar``, ``/regras``...) goes on.
"""

from __future__ import annotations

from typing import Any

from telegram import CallbackQuery, Message, Update
from telegram.ext import (
    Application,
    ApplicationHandlerStop,
    BaseHandler,
    MessageHandler,
    filters,
)

from bot.domain.values.errors import Reason
from bot.telegram.callbacks import PRIVATE_KINDS, Prefix, target
from bot.telegram.command_table import ANONYMOUS_OK
from bot.telegram.context import BotContext
from bot.telegram.handlers.common import refuse
from bot.wording.refusals import reason_text

GUARD_GROUP = 0
"""The handlers' own group: only the first matching handler of a group runs, so the
guards, registered first, shadow every command for the updates they match (the
updates are still counted by the metrics hook of group -1)."""


def command_of(message: Message) -> str | None:
    """The command a message starts with, if it is addressed to this bot (``/truco@Bot``)."""
    text = message.text or ""
    if not text.startswith("/"):
        return None
    name, _, target = text.split()[0][1:].partition("@")
    if target and target.lower() != (message.get_bot().username or "").lower():
        return None
    return name.lower()


class _AnonymousPlayer(filters.MessageFilter):
    """A command to play (not only to read or administer) sent as a group or a channel."""

    def filter(self, message: Message) -> bool:
        command = command_of(message)
        return (
            message.sender_chat is not None
            and command is not None
            and (command not in ANONYMOUS_OK)  # they read, or need an admin, not a player
        )


class _FromBot(filters.MessageFilter):
    """A message written by a bot account (not one sent on behalf of a group or channel)."""

    def filter(self, message: Message) -> bool:
        sender = message.from_user
        return sender is not None and sender.is_bot and message.sender_chat is None


KINDS = frozenset(p.value for p in Prefix)


def pressed_here(q: CallbackQuery) -> bool:
    """Whether a button was pressed on a message that carries it (see the module's rules)."""
    data = q.data or ""
    if data[:1] not in KINDS:
        return True  # no button of ours: the last handler says it is invalid
    msg = q.message
    if msg is None:
        return False  # an inline message: none of the bot's buttons are drawn there
    if data[:1] in PRIVATE_KINDS:
        # the presser's own chat: a hand's buttons come and go with the turns, and a
        # press that raced a redraw is answered by the game (that move is past)
        return msg.chat.id == q.from_user.id
    if not isinstance(msg, Message):
        return True  # too old for Telegram to show its buttons: the handler's checks decide
    wanted = target(data)
    markup = msg.reply_markup
    drawn = markup.inline_keyboard if markup is not None else ()
    return any(
        isinstance(b.callback_data, str) and target(b.callback_data) == wanted
        for row in drawn
        for b in row
    )


class _Misplaced(BaseHandler[Update, BotContext, None]):
    """Matches a button press made away from any message carrying that button."""

    def __init__(self) -> None:
        super().__init__(refuse_misplaced)

    def check_update(self, update: object) -> bool:
        q = update.callback_query if isinstance(update, Update) else None
        return q is not None and not pressed_here(q)


async def refuse_misplaced(update: Update, context: BotContext) -> None:
    """Say the button is not of this message; nothing else happens."""
    q = update.callback_query
    if q is not None:
        await q.answer(reason_text(context.t, Reason.NOT_HERE), show_alert=True)
    raise ApplicationHandlerStop


async def drop(update: Update, context: Any) -> None:
    """Stop the update here: no other handler runs."""
    raise ApplicationHandlerStop


async def refuse_anonymous(update: Update, context: BotContext) -> None:
    """Tell an anonymous sender to write as themselves to play; nothing else happens."""
    await refuse(update, context, Reason.ANONYMOUS)
    raise ApplicationHandlerStop


def install(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Register the guards in front of every handler of ``app`` (call before adding those)."""
    ignored = filters.UpdateType.EDITED | filters.UpdateType.CHANNEL_POSTS
    app.add_handler(MessageHandler(ignored, drop), group=GUARD_GROUP)
    app.add_handler(MessageHandler(_FromBot(), drop), group=GUARD_GROUP)
    app.add_handler(_Misplaced(), group=GUARD_GROUP)
    app.add_handler(MessageHandler(_AnonymousPlayer(), refuse_anonymous), group=GUARD_GROUP)
