"""/marcador: the marcador message, its buttons and the toast of a press (its refusals are
``Reason``'s, worded in ``wording``)."""

from __future__ import annotations

import html

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.domain.marcador import Command, GroupMarcador, NewMatch, Press, Undo
from bot.i18n import Translations
from bot.telegram.callbacks import marcador_data
from engine import words
from engine.marcador import Marcador, warning

LOG_LINES = 6
"""Hands listed under the score (the newest ones)."""


def marcador_text(t: Translations, lang: str, posted: GroupMarcador) -> str:
    """The marcador: variant and target, the score, the warning, the last hands and who."""
    _ = t.gettext
    p = posted.marcador
    w = words.get(lang)
    a, b = (html.escape(n) for n in p.names)
    lines = [
        _("📋 <b>Marcador</b> · {variant} · até {target}").format(
            variant=w.variant(p.ruleset), target=p.target
        ),
        f"<b>{a}  {p.score[0]} × {p.score[1]}  {b}</b>",
    ]
    note = warning(p, w)
    if note:
        lines.append(html.escape(note))
    if p.hands:
        lines.append("")
        partial = [0, 0]
        shown = []
        for (team, points), who in zip(p.hands, posted.pressed_by, strict=True):
            partial[team] = min(p.target, partial[team] + points)
            # names and numbers only: nothing to translate
            name = html.escape(p.names[team])
            shown.append(f"{html.escape(who)}: {name} +{points} ({partial[0]} × {partial[1]})")
        skipped = len(shown) - LOG_LINES
        if skipped > 0:
            lines.append(
                t.ngettext("… e {n} mão antes", "… e {n} mãos antes", skipped).format(n=skipped)
            )
        lines.extend(shown[-LOG_LINES:])
    else:
        lines.append(_("Toque no valor da mão do lado de quem ganhou."))
    return "\n".join(lines)


def marcador_keyboard(t: Translations, posted: GroupMarcador) -> InlineKeyboardMarkup:
    """One row of values per team (only what the next hand may be worth), undo, new match."""
    _ = t.gettext
    p = posted.marcador
    rows = []
    for team in (0, 1):
        row = [
            InlineKeyboardButton(
                f"{p.names[team]} +{v}" if i == 0 else f"+{v}",
                callback_data=marcador_data(posted.id, Press(team, v)),
            )
            for i, v in enumerate(p.values(team))
        ]
        if row:
            rows.append(row)
    for team in (0, 1):
        # gaudério: the envido worths no hand is worth (5, 7, the falta at this score); the
        # others are marked with the hand's buttons, and a flor with +3 for each
        hands = set(p.values(team))
        extra = [v for v in p.points_values("envido") if v not in hands]
        if extra:
            rows.append(
                [
                    InlineKeyboardButton(
                        _("🎯 {team} envido +{n}").format(team=p.names[team], n=v)
                        if i == 0
                        else f"+{v}",
                        callback_data=marcador_data(posted.id, Press(team, v, "envido")),
                    )
                    for i, v in enumerate(extra)
                ]
            )
    last = [InlineKeyboardButton(_("↶ Desfazer"), callback_data=marcador_data(posted.id, Undo()))]
    if p.hands:
        last.append(
            InlineKeyboardButton(
                _("Nova partida"), callback_data=marcador_data(posted.id, NewMatch())
            )
        )
    rows.append(last)
    return InlineKeyboardMarkup(rows)


def press_note(t: Translations, p: Marcador, command: Command) -> str:
    """The toast of a marcador press: the new score."""
    if isinstance(command, Press):
        return f"{p.names[command.team]} +{command.points}: {p.score[0]} × {p.score[1]}"
    if isinstance(command, Undo):
        return t.gettext("Desfeito: {a} × {b}").format(a=p.score[0], b=p.score[1])
    assert isinstance(command, NewMatch)
    return t.gettext("Nova partida: 0 × 0")


def marcador_repeat_text(t: Translations) -> str:
    """/marcador asked again within the minute: the marcadores above serve."""
    return t.gettext("Já tem marcador novo aqui: use o de cima (um por minuto).")
