"""Closings: a hand's and a match's end, Revanche, cancelling, an answer that came second,
and /ranking."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from functools import partial
from html import escape
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.domain.values.game import Table
from bot.i18n import Translations, words_for
from bot.telegram.callbacks import cancel_data, rematch_data
from bot.telegram.render.common import HTML, team_name
from bot.wording import table as table_words
from bot.wording.table import rematch_label
from engine.actions import Action

hand_over_line = partial(table_words.hand_over_line, style=HTML)
hand_closed_text = partial(table_words.hand_closed_text, style=HTML)
last_round_line = partial(table_words.last_round_line, style=HTML)
points_over_lines = partial(table_words.points_over_lines, style=HTML)
match_won_line = partial(table_words.match_won_line, style=HTML)
match_over_text = partial(table_words.match_over_text, style=HTML)


def rematch_keyboard(t: Translations, table: Table) -> InlineKeyboardMarkup:
    """The Revanche button."""
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(rematch_label(t), callback_data=rematch_data(table.id))]]
    )


def retired_text(t: Translations) -> str:
    """What an old table message turns into once the table was posted again below."""
    return t.gettext("🃏 A mesa continua abaixo ⬇️")


def answered_first(
    t: Translations, table: Table, seat: int, action: str, step: int | None = None
) -> str:
    """To the loser of two answers at once: who answered first, and what (``step``: the
    call it made, which the hand as it is now no longer tells)."""
    who = table.seats[seat]
    view = table.view(seat)
    if step is not None:
        view = dataclasses.replace(view, next_step=step)
    done = words_for(t).did(Action.parse(action), view, public=True)
    text = t.gettext("{who} respondeu primeiro: {what}.").format(
        who=who.name if who else "?", what=done
    )
    # a shout ends in its own "!" (``pediu Seis!``): no full stop after it
    return text[:-1] if text.endswith("!.") else text


MOVE_TAKEN = "☑️"
"""How a toast saying a move was taken begins: a client that reads the answers (the load
bench, the tests) tells it from a refusal by this. Not "✔️", which begins the answer to a
repeat of a move already made (``Reason.DONE``): a repeat read as a new move made a test
count presses that never happened."""


def move_chosen(t: Translations, label: str) -> str:
    """The toast of a move whose hand message is redrawn a moment later: the button's
    own words."""
    return f"{MOVE_TAKEN} " + t.gettext("Você escolheu: {move}").format(move=label)


def cancelled_text(t: Translations) -> str:
    """What a cancelled table's messages turn into."""
    return t.gettext("🚫 Mesa cancelada.")


def cancelled_by_text(t: Translations, table: Table, name: str | None) -> str:
    """A cancelled table message in its chat: who cancelled it and, mid-match, the score."""
    if name is None:
        return cancelled_text(t)
    if not table.started:
        return t.gettext("🚫 Mesa cancelada por {name}.").format(name=escape(name))
    score = table.view(0).score
    return t.gettext("🚫 Partida cancelada por {name}. Placar {x} × {y}").format(
        name=escape(name), x=score[0], y=score[1]
    )


def cancel_question(t: Translations, table: Table) -> tuple[str, InlineKeyboardMarkup]:
    """/cancelar mid-match: the question and its Sim / Não buttons (opener or admin)."""
    _ = t.gettext
    score = table.view(0).score
    text = _(
        "Cancelar a partida? <b>{us}</b> {x} × {y} <b>{them}</b>\n"
        "Só quem abriu a mesa ou um admin responde."
    ).format(
        us=team_name(table.seats, 0, t),
        them=team_name(table.seats, 1, t),
        x=score[0],
        y=score[1],
    )
    yes = InlineKeyboardButton(_("Sim, cancelar"), callback_data=cancel_data(table.id, True))
    no = InlineKeyboardButton(_("Não"), callback_data=cancel_data(table.id, False))
    return text, InlineKeyboardMarkup([[yes, no]])


def ranking_text(t: Translations, rows: Sequence[Any]) -> str:
    """/ranking: wins and matches per player, best first."""
    if not rows:
        return t.gettext("Ainda não há partidas terminadas aqui.")
    lines = [t.gettext("🏆 <b>Ranking</b> (vitórias / partidas)")]
    for i, row in enumerate(rows, 1):
        lines.append(f"{i}. {escape(row.name)} — {row.wins}/{row.played}")
    return "\n".join(lines)


def cancel_declined_text(t: Translations) -> str:
    """/cancelar's question answered Não: the match goes on."""
    return t.gettext("👍 A partida continua.")
