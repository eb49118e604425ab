"""Signals (R12): their names, the partner's ping, the list of signals on a hand."""

from __future__ import annotations

from html import escape

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.domain.values.game import Table
from bot.i18n import Translations, words_for
from bot.telegram.callbacks import Move, signals_data
from engine import View
from engine.actions import Act
from engine.sinais import Sinal


def signals_made(view: View) -> list[int]:
    """Seats that signalled in the round being played (R12: everyone sees that, never which)."""
    seats: list[int] = []
    plays = 0
    for s, a in view.history:
        if a.act in (Act.PLAY, Act.COVER, Act.BLIND):
            plays += 1
            if plays % view.players == 0:
                seats = []
        elif a.act is Act.SIGNAL and s not in seats:
            seats.append(s)
    return seats


def sinal_name(t: Translations, sinal: Sinal) -> str:
    """A signal as buttons and messages name it: emoji and name (``😉 zap``)."""
    return f"{sinal.info.emoji} {words_for(t).sinal(sinal)}"


def signal_ping(t: Translations, name: str, sinal: Sinal, caught: bool) -> str:
    """The private message of a signal: to the partner, or to an opponent who caught it."""
    if caught:
        face = words_for(t).sinal_face(sinal)
        return t.gettext("👀 Você viu {name} {face}: {sinal}!").format(
            name=escape(name), face=face, sinal=sinal_name(t, sinal)
        )
    return t.gettext("👁️ Sinal de {name}: {sinal}").format(
        name=escape(name), sinal=sinal_name(t, sinal)
    )


def signals_keyboard(t: Translations, table: Table, view: View) -> InlineKeyboardMarkup | None:
    """The list 👁️ Sinal opens: one button per signal this seat may send, and ↩️ back."""
    if not view.legal_signals:
        return None
    version = table.version if view.legal else 0  # off its turn: see ``hand_keyboard``
    buttons = [
        InlineKeyboardButton(
            sinal_name(t, a.sinal), callback_data=Move(table.id, version, a).encode()
        )
        for a in view.legal_signals
        if a.sinal is not None
    ]
    rows = [buttons[i : i + 2] for i in range(0, len(buttons), 2)]
    back = signals_data(table.id, version, False)
    rows.append([InlineKeyboardButton(t.gettext("↩️ Voltar às cartas"), callback_data=back)])
    return InlineKeyboardMarkup(rows)
