"""Gaudério's points game as a table's widget says it (R13.3, R13.4): the person's own
envido points in round 1, the envido waiting with what each answer pays, who won it with
how many points, the flors sung, and the cards that proved the last hand's points; the
losing team's points never (a view does not hold them). Plain sentences with their values
(``Sentence``), each in a ``Row`` with the cards it shows; the Mini App lays them out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.domain.values.game import HandSummary
from bot.i18n import Translations, words_for
from bot.wording import Sentence, Value
from bot.wording.table import Seats, seat_name, team_name
from engine.actions import Act
from engine.cards import Card
from engine.envido import FLOR_WORTH
from engine.view import View


@dataclass(frozen=True)
class Row:
    """One line of the widget: its sentence, a second one under it, the calls made so far
    (as said at the table) and the cards it shows."""

    sentence: Sentence
    detail: Sentence | None = None
    calls: tuple[str, ...] = ()
    cards: tuple[Card, ...] = ()


def call_names(t: Translations, calls: Sequence[str]) -> tuple[str, ...]:
    """An envido's calls in the order made, as said at the table without their marks:
    ``Envido``, ``Real envido`` (``¡Envido!`` in Spanish is ``Envido``)."""
    w = words_for(t)
    return tuple(w.envido_shout(Act.from_code(c)).strip("¡!") for c in calls)


def match_target(t: Translations, target: int) -> Sentence:
    """The points the match goes to (24 or 18 by default, R13.1)."""
    return Sentence(
        "match_target", t.gettext("Partida até {n}").format(n=target), {"target": target}
    )


def points_now(t: Translations, seats: Seats, view: View, own: bool) -> list[Row]:
    """The hand's points game as ``view``'s seat may know it; ``own``: the view is the
    person's own seat's (the public table's is made from seat 0's: its points stay out)."""
    _ = t.gettext
    rows: list[Row] = []
    e = view.envido
    # the person's own points while they still count: round 1, no envido settled yet
    counting = e is None or e.state == "pending"
    if own and view.envido_points is not None and not view.rounds and counting:
        text = _("Seus pontos de envido")
        rows.append(Row(Sentence("envido_own", text, {"points": view.envido_points})))
    values: dict[str, Value]
    if e is not None:
        calls = call_names(t, e.calls)
        if e.state == "pending":
            text = _("{call} de {who}").format(
                call=calls[-1].upper(), who=seat_name(seats[e.seat], t)
            )
            values = {
                "calls": list(e.calls),
                "seat": e.seat,
                "quero": e.accept_value,
                "nao_quero": e.decline_value,
            }
            rows.append(Row(Sentence("envido_pending", text, values), calls=calls))
        elif e.winner is not None and e.winner_points is not None and e.winner_seat is not None:
            members = sum(1 for i in range(len(seats)) if i % 2 == e.winner)
            text = t.ngettext(
                "🎯 {team} ganhou o envido: +{worth}",
                "🎯 {team} ganharam o envido: +{worth}",
                members,
            ).format(team=team_name(seats, e.winner, t), worth=e.worth)
            detail = _("{points} pontos de {who}").format(
                points=e.winner_points, who=seat_name(seats[e.winner_seat], t)
            )
            values = {
                "team": e.winner,
                "worth": e.worth,
                "seat": e.winner_seat,
            }
            won = Sentence("envido_won", text, {**values, "points": e.winner_points})
            shown = Sentence(
                "envido_points", detail, {"seat": e.winner_seat, "points": e.winner_points}
            )
            rows.append(Row(won, shown, calls, e.proof or ()))
        elif e.winner is not None:
            text = _("🎯 Envido não querido: {worth} para {team}").format(
                worth=e.worth, team=team_name(seats, e.winner, t)
            )
            values = {"team": e.winner, "worth": e.worth}
            rows.append(Row(Sentence("envido_declined", text, values), calls=calls))
        else:  # withdrawn: a flor was sung over it (R13.4)
            text = _("🌸 A flor anulou o envido")
            rows.append(Row(Sentence("envido_withdrawn", text), calls=calls))
    shown_cards = dict(view.flor_cards)  # the flors' cards once the hand is over
    for s in view.flor:
        text = _("🌸 Flor de {who}: +{worth}").format(who=seat_name(seats[s], t), worth=FLOR_WORTH)
        flor = Sentence("flor", text, {"seat": s, "worth": FLOR_WORTH})
        rows.append(Row(flor, cards=shown_cards.get(s, ())))
    return rows


def points_proved(t: Translations, seats: Seats, last: HandSummary) -> tuple[Sentence, list[Row]]:
    """A hand just over: its heading and the cards that proved its envido's winning points
    and its flors (no rows when none was shown)."""
    _ = t.gettext
    rows: list[Row] = []
    e = last.envido
    if e is not None and e.seat is not None and e.points is not None:
        text = _("🎯 Envido de {who}: {n} pontos").format(
            who=seat_name(seats[e.seat], t), n=e.points
        )
        values = {"seat": e.seat, "points": e.points}
        rows.append(Row(Sentence("envido_proof", text, values), cards=e.proof))
    for s, cards in last.flor:
        text = _("🌸 Flor de {who}").format(who=seat_name(seats[s], t))
        rows.append(Row(Sentence("flor_proof", text, {"seat": s}), cards=cards))
    n = last.hand + 1
    heading = Sentence("points_shown", _("Mão {n}: os pontos mostrados").format(n=n), {"hand": n})
    return heading, rows
