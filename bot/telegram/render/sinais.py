"""Signals (R12) on a private hand: who signalled in the round (the group's table), and
the list 👁️ Sinal opens; what a signal says to whoever knows it is ``bot.wording.sinais``."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.domain.values.game import Table
from bot.i18n import Translations
from bot.telegram.callbacks import Move, signals_data
from bot.wording.sinais import sinal_name
from engine import View
from engine.actions import Act


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
