"""The lobby: options, seats by team, who must still open the bot, and its buttons."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.domain.values.commands import (
    AddRobot,
    CancelTable,
    Join,
    Leave,
    LobbyCommand,
    RemoveRobot,
    Start,
)
from bot.domain.values.game import RobotLevel, Table
from bot.i18n import Translations
from bot.telegram.callbacks import deep_link, lobby_data
from bot.telegram.render.common import HTML
from bot.wording import table as table_words
from bot.wording.table import lobby_label

lobby_text = partial(table_words.lobby_text, style=HTML)


def lobby_keyboard(
    t: Translations, table: Table, missing: Sequence[str], bot_username: str
) -> InlineKeyboardMarkup:
    """Entrar / Sair / Time 1 / Time 2 (2×2) / + Robô / Começar / Cancelar (and the deep
    link when needed)."""
    _ = t.gettext
    gid = table.id

    def b(command: LobbyCommand) -> InlineKeyboardButton:
        data = lobby_data(gid, command, table.version)
        return InlineKeyboardButton(lobby_label(t, command), callback_data=data)

    rows = [[b(Join()), b(Leave())]]
    if table.options.players == 4:
        # partners by choice; Entrar keeps the join order, robots fill what is left
        rows.append([b(Join(n)) for n in (0, 1)])
    rows += [
        [b(AddRobot(lv)) for lv in RobotLevel],
        [b(RemoveRobot()), b(Start()), b(CancelTable())],
    ]
    if missing and bot_username:
        rows.append(
            [InlineKeyboardButton(_("🔓 Abrir o bot no privado"), url=deep_link(bot_username, gid))]
        )
    return InlineKeyboardMarkup(rows)
