"""What every screen shares: seat and team names, cards on the table, rounds taken, the
countdown and its warning."""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from bot.domain.values.game import Occupant
from bot.i18n import Translations, words_for
from engine.cards import Card, DeckStyle

COVERED = "🂠"


Seats = Sequence[Occupant | None]


WARNING_SECONDS = 10
"""A person still to act this close to their deadline is warned once (a new message)."""


def warning_due(deadline_at: float | None, decision_seconds: float, now: float) -> bool:
    """Whether the last warning is due: the time is nearly out, and it was long enough to
    be worth a warning at all."""
    if deadline_at is None or decision_seconds < 2 * WARNING_SECONDS:
        return False
    return deadline_at - now <= WARNING_SECONDS


def countdown_words(t: Translations) -> str:
    """The countdown with ``{n}`` for the seconds left: a Mini App page fills it in as it
    ticks."""
    return t.gettext("⏱ {n} s")


def countdown(t: Translations, seconds: float) -> str:
    """How long there is to decide, ``⏱ 30 s``: a duration, since the chat shows when a
    message was sent, and a clock time would be in someone else's time zone."""
    return countdown_words(t).format(n=max(0, math.ceil(seconds - 0.05)))


def seat_name(seat: Occupant | None, t: Translations) -> str:
    """A seat as shown: the person's name, a robot with 🤖, or an empty seat."""
    if seat is None:
        return t.gettext("(livre)")
    if seat.robot:
        return f"🤖 {escape(seat.name)}"
    return escape(seat.name)


def team_name(seats: Seats, team: int, t: Translations) -> str:
    """Both partners (or the one player) of a team."""
    return " & ".join(seat_name(s, t) for i, s in enumerate(seats) if i % 2 == team)


def plays_line(
    plays: Sequence[tuple[int, Card | None, bool]],
    seats: Seats,
    t: Translations,
    style: DeckStyle,
    own: int | None,
    manilhas: Sequence[Card] = (),
) -> str:
    """Cards on the table; a covered card shows only to its owner (``own``); a manilha is
    starred, as on the hand's buttons."""
    parts = []
    for seat, card, covered in plays:
        if card is None or (covered and seat != own):
            shown = COVERED
        else:
            star = " ★" if card in manilhas else ""
            shown = words_for(t).card(card, style) + star + (f" ({COVERED})" if covered else "")
        parts.append(f"{seat_name(seats[seat], t)} {shown}")
    return " · ".join(parts)


def rounds_line(t: Translations, rounds: Sequence[int | None], seats: Seats) -> str:
    """Who took each round of the hand so far (a team, or a tie)."""
    _ = t.gettext
    names = []
    for i, r in enumerate(rounds):
        who = _("empate") if r is None else team_name(seats, r, t)
        names.append(_("{n}ª {who}").format(n=i + 1, who=who))  # the ordinal is the language's
    return _("Vazas: {rounds}").format(rounds=" · ".join(names))
