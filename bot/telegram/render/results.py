"""Closings: a hand's and a match's end, Revanche, cancelling, an answer that came second,
and /ranking."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.domain.values.game import HandSummary, MatchEnd, Table
from bot.i18n import Translations, words_for
from bot.telegram.callbacks import cancel_data, rematch_data
from bot.telegram.render.common import Seats, plays_line, rounds_line, team_name
from engine.actions import Action
from engine.cards import DeckStyle


def hand_over_line(t: Translations, data: HandSummary, seats: Seats) -> str:
    """One line closing a hand: who won it, how many points, the score."""
    _ = t.gettext
    n = data.hand + 1
    score = f"{data.score[0]} × {data.score[1]}"
    if data.winner is None:
        return _("Mão {n}: empate, ninguém pontua. Placar {score}").format(n=n, score=score)
    winner = data.winner
    points = data.points[winner]
    if data.ran:
        loser = 1 - winner
        members = sum(1 for i in range(len(seats)) if i % 2 == loser)
        ran = t.ngettext("{loser} correu", "{loser} correram", members).format(
            loser=team_name(seats, loser, t)
        )
        scored = t.ngettext(
            "{points} ponto para {team}", "{points} pontos para {team}", points
        ).format(points=points, team=team_name(seats, winner, t))
        return _("Mão {n}: {ran}; {scored}. Placar {score}").format(
            n=n, ran=ran, scored=scored, score=score
        )
    text = t.ngettext(
        "Mão {n}: {points} ponto para {team}. Placar {score}",
        "Mão {n}: {points} pontos para {team}. Placar {score}",
        points,
    )
    return text.format(n=n, team=team_name(seats, winner, t), points=points, score=score)


def hand_closed_text(
    t: Translations,
    data: HandSummary,
    seats: Seats,
    style: DeckStyle,
    match_winner: int | None = None,
) -> str:
    """A private hand message once its hand is over: how it ended; no turn, no buttons.

    ``data`` is the hand's ``hand_over`` event (public facts only: covered cards
    stay covered); ``match_winner`` adds the match's end when that hand closed it.
    """
    _ = t.gettext
    lines = [_("<b>Mão {n} encerrada</b>").format(n=data.hand + 1)]
    if data.rounds:
        lines.append(rounds_line(t, data.rounds, seats))
    last = last_round_line(t, data, seats, style)
    if last:
        lines.append(last)
    lines.append("🏁 " + hand_over_line(t, data, seats))
    if match_winner is not None:
        lines.append(match_won_line(t, seats, match_winner))
    return "\n".join(lines)


def last_round_line(t: Translations, data: HandSummary, seats: Seats, style: DeckStyle) -> str:
    """The cards of an ended hand's last vaza (covered ones stay covered); empty when the
    hand ended before any card of it was played."""
    last = [(seat, card, card is None) for seat, card in data.last]
    if not last:
        return ""
    return t.gettext("Última vaza: {plays}").format(plays=plays_line(last, seats, t, style, None))


def match_won_line(t: Translations, seats: Seats, team: int) -> str:
    """The match's end: who won it."""
    return t.gettext("🏆 Vitória de {team}!").format(team=team_name(seats, team, t))


def match_over_text(t: Translations, data: MatchEnd, seats: Seats) -> str:
    """The closing message of a match: winners and the final score (``12 × 7``)."""
    _ = t.gettext
    return _("🏆 Fim de jogo: vitória de <b>{team}</b>! <b>{x} × {y}</b>").format(
        team=team_name(seats, data.winner, t), x=data.score[0], y=data.score[1]
    )


def rematch_label(t: Translations) -> str:
    """The Revanche button's words, in the group and on a Mini App page."""
    return t.gettext("🔁 Revanche")


def rematch_keyboard(t: Translations, table: Table) -> InlineKeyboardMarkup:
    """The Revanche button."""
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(rematch_label(t), callback_data=rematch_data(table.id))]]
    )


def retired_text(t: Translations) -> str:
    """What an old table message turns into once the table was posted again below."""
    return t.gettext("🃏 A mesa continua abaixo ⬇️")


def answered_first(t: Translations, table: Table, seat: int, action: str) -> str:
    """To the loser of two answers at once: who answered first, and what."""
    who = table.seats[seat]
    done = words_for(t).did(Action.parse(action), table.view(seat), public=True)
    return t.gettext("{who} respondeu primeiro: {what}.").format(
        who=who.name if who else "?", what=done
    )


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
