"""Every command of the bot, in one table: the menus, the handlers, /ajuda and the guards
are all derived from it.

To add a command: its handler in ``bot/telegram/handlers/`` and one ``Command`` here,
its sentences marked with ``N_`` (and translated in ``bot/locale``).
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from telegram import Update
from telegram.constants import ChatType

from bot.i18n import LANGUAGES, N_, NC_, Translations, translations
from bot.telegram.context import BotContext
from bot.telegram.handlers import commands, lobby, marcador, settings, tutorial
from bot.telegram.handlers.common import reply
from bot.telegram.render.help import help_text
from engine.rulesets import ALL_RULESETS

Handler = Callable[[Update, BotContext], Coroutine[Any, Any, Any]]
COMMAND = "command"
"""The gettext context of a command's name: each language names it its own way (``/ajuda``
is ``/help`` and ``/ayuda``), and every name works in any chat."""
VARIANTS = "|".join(ALL_RULESETS)
"""The variants' names as /ajuda lists them (any spelling of ``get_ruleset`` is read)."""


async def help_command(update: Update, context: BotContext) -> None:
    """/ajuda: what the bot does and its commands (the table's own handler: it lists them)."""
    await reply(update, context, help_text(context.t, help_lines(context.t)))


async def start_command(update: Update, context: BotContext) -> None:
    """/start: in private the welcome (``commands.start``), in a group /ajuda."""
    chat = update.effective_chat
    if context.person is None or chat is None:
        return
    if chat.type == ChatType.PRIVATE:
        await commands.start(update, context)
    else:
        await help_command(update, context)


@dataclass(frozen=True)
class Command:
    """One command: its names, its handler and how the menus and /ajuda present it."""

    name: str
    """Its Portuguese name (``NC_(COMMAND, …)`` when other languages name it otherwise)."""
    handler: Handler
    menu: str | None = None
    """The line of Telegram's command menu (``None``: not in the menu)."""
    does: str | None = None
    """What /ajuda says it does (``None``: /ajuda does not list it)."""
    usage: str | None = None
    """Its arguments, as /ajuda shows them (``{variants}``: the variants' names)."""
    private_only: bool = False
    """In the private chats' menu only."""
    anonymous: bool = False
    """An anonymous sender (an admin posting as the group) may run it: it only reads,
    or it needs an admin, not a player."""

    def name_in(self, t: Translations) -> str:
        """Its name in ``t``'s language, as the menus and /ajuda show it."""
        return t.pgettext(COMMAND, self.name)

    @property
    def names(self) -> tuple[str, ...]:
        """Every name it answers to: its name in each language."""
        return tuple(dict.fromkeys(self.name_in(translations(lang)) for lang in LANGUAGES))


COMMANDS = (
    Command("start", start_command),
    Command(
        "truco",
        lobby.new_table,
        N_("Abre uma mesa: /truco [variante] [1x1|2x2] [pontos]"),
        N_("abre uma mesa"),
        N_("[{variants}] [1x1|2x2] [pontos]"),
    ),
    Command(
        "tutorial",
        tutorial.tutorial_command,
        N_("Aprenda jogando"),
        N_("aprenda jogando (no privado)"),
        private_only=True,
    ),
    Command(
        NC_("command", "placar"),
        commands.score,
        N_("Traz a mesa da partida para baixo"),
        N_("traz a mesa da partida para baixo"),
        anonymous=True,
    ),
    Command(
        NC_("command", "marcador"),
        marcador.marcador_command,
        N_("Placar para jogar com baralho de verdade"),
        N_("placar para jogar com baralho de verdade"),
    ),
    Command(
        "ranking",
        commands.ranking,
        N_("Quem mais ganhou aqui"),
        N_("quem mais ganhou aqui"),
        anonymous=True,
    ),
    Command(
        NC_("command", "regras"),
        commands.rules,
        N_("Resumo das regras"),
        N_("resumo das regras"),
        anonymous=True,
    ),
    Command(
        NC_("command", "baralho"),
        settings.deck_command,
        N_("Cartas tradicionais ou espanholas"),
        N_("cartas tradicionais ou espanholas"),
    ),
    Command(
        "config",
        settings.config_command,
        N_("Opções do grupo (admins)"),
        N_("opções do grupo (admins)"),
        anonymous=True,
    ),
    Command(
        NC_("command", "idioma"),
        settings.language_command,
        N_("Idioma do grupo (admins)"),
        N_("o idioma do grupo (admins)"),
        anonymous=True,
    ),
    Command(
        NC_("command", "cancelar"),
        lobby.cancel_command,
        N_("Encerra a mesa"),
        N_("encerra a mesa"),
        anonymous=True,
    ),
    Command(
        NC_("command", "ajuda"),
        help_command,
        N_("Como usar o bot"),
        anonymous=True,
    ),
)
"""In the order of the menus and of /ajuda."""


def menu(private: bool, t: Translations) -> tuple[tuple[str, str], ...]:
    """The command menu of private chats or of groups in ``t``'s language: (command, line)."""
    return tuple(
        (c.name_in(t), t.gettext(c.menu))
        for c in COMMANDS
        if c.menu is not None and (private or not c.private_only)
    )


def help_lines(t: Translations) -> list[str]:
    """/ajuda's line for each command it lists, in ``t``'s language."""
    lines = []
    for c in COMMANDS:
        if c.does is None:
            continue
        usage = f" {t.gettext(c.usage).format(variants=VARIANTS)}" if c.usage else ""
        lines.append(f"/{c.name_in(t)}{usage} — {t.gettext(c.does)}")
    return lines


ANONYMOUS_OK = frozenset(name for c in COMMANDS if c.anonymous for name in c.names)
"""Commands an anonymous sender may run."""
