"""The lobby: options, seats by team, who must still open the bot, and its buttons."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.domain.tables import REMATCH_SECONDS
from bot.domain.values.commands import (
    AddRobot,
    CancelTable,
    Join,
    Leave,
    LobbyCommand,
    RemoveRobot,
    Start,
)
from bot.domain.values.game import DEFAULT_LEVEL, RobotLevel, Table
from bot.i18n import Translations, words_for
from bot.telegram.callbacks import deep_link, lobby_data
from bot.telegram.render.common import seat_name
from engine import get_ruleset


def lobby_text(
    t: Translations, table: Table, missing: Sequence[str], waiting: Sequence[str] = ()
) -> str:
    """The lobby message: table options, seats by team, who still must open the bot, and a
    Revanche's people who have not confirmed yet."""
    _ = t.gettext
    w = words_for(t)
    o = table.options
    seats = table.seats
    rs = get_ruleset(table.variant)
    size = "2×2" if o.players == 4 else "1×1"
    timer = rs.fixed_timer or o.timer
    head = _("🃏 <b>Mesa de {variant}</b> · {size} · {target} pontos · ⏱ {timer} s").format(
        variant=w.variant(rs), size=size, target=o.target, timer=timer
    )
    if o.players == 4:
        head += " · " + (_("👁️ com sinais") if o.sinais else _("sem sinais"))
    lines = [head]
    if o.players == 4:
        for team in (0, 1):
            members = ", ".join(seat_name(seats[i], t) for i in (team, team + 2))
            lines.append(_("Time {n}: {members}").format(n=team + 1, members=members))
    else:
        lines.append(" × ".join(seat_name(s, t) for s in seats))
    robots = [s for s in seats if s and s.robot]
    if robots:
        levels = ", ".join(
            f"{escape(s.name)} ({words_for(t).level(s.robot)})" for s in robots if s.robot
        )
        lines.append(_("Robôs: {levels}").format(levels=levels))
    if missing:
        lines.append(
            _("⚠️ Falta abrir o bot no privado (botão abaixo): {names}").format(
                names=", ".join(escape(n) for n in missing)
            )
        )
    if waiting:
        lines.append(
            _(
                "🔁 Revanche: falta confirmar com Entrar: {names}. Em {n} s, quem não "
                "confirmar vira robô e a partida começa."
            ).format(names=", ".join(escape(n) for n in waiting), n=int(REMATCH_SECONDS))
        )
    lines.append(
        _("Quem abriu a mesa ou um admin começa; lugares vazios viram robôs ({level}).").format(
            level=words_for(t).level(DEFAULT_LEVEL)
        )
    )
    return "\n".join(lines)


def lobby_label(t: Translations, command: LobbyCommand) -> str:
    """A lobby button's words, the same in the group's keyboard and on a Mini App page."""
    _ = t.gettext
    match command:
        case Join():
            if command.team is None:
                return _("Entrar")
            return _("Time {n}").format(n=command.team + 1)
        case Leave():
            return _("Sair")
        case AddRobot(level=level):
            return _("+ Robô {level}").format(level=words_for(t).level(level))
        case RemoveRobot():
            return _("− Robô")
        case Start():
            return _("Começar")
        case CancelTable():
            return _("Cancelar")


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
