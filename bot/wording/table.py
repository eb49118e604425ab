"""What a table's screens say in both adapters: seat and team names, cards on the table,
rounds taken, the countdown, the lobby, how a hand and a match ended, Revanche.

Every function returns plain text unless its ``style`` marks names and stressed words
(``bot.wording.Style``); the Telegram adapter passes HTML, a Mini App page takes them plain.
A whole sentence comes as a ``Sentence`` (text, with its kind and values), which a page
gets as such (``Sentence.to_json``) and Telegram writes as the text it is.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

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
from bot.domain.values.game import DEFAULT_LEVEL, HandSummary, MatchEnd, Occupant, Table
from bot.i18n import Translations, words_for
from bot.wording import PLAIN, Sentence, Style, Value
from engine import HandKind, View, get_ruleset
from engine.actions import Act
from engine.browser import kind_text, speech_texts
from engine.cards import Card, DeckStyle

COVERED = "🂠"
"""A covered card (R7), wherever a card is shown face down."""

Seats = Sequence[Occupant | None]


def hand_banner(t: Translations, view: View) -> Sentence | None:
    """The banner of a special hand (R7, R8: the mão de onze or dez, the iron hand), in the
    words of the engine's own table; ``None`` in a normal hand."""
    text = kind_text(words_for(t), view)
    if not text:
        return None
    special = view.kind == HandKind.SPECIAL
    value = view.ruleset.special_hand_value if special else view.stake
    return Sentence("hand_kind", text, {"kind": view.kind.name.lower(), "value": value})


def said_now(t: Translations, view: View) -> dict[int, Sentence]:
    """What each seat said in this hand and still shows (``Truco!``, ``Desce!``), by seat:
    a card played clears it."""
    return {
        seat: Sentence("said", text, {"seat": seat})
        for seat, text in speech_texts(words_for(t), view).items()
    }


def countdown_words(t: Translations) -> str:
    """The countdown with ``{n}`` for the seconds left: a Mini App page fills it in as it
    ticks."""
    return t.gettext("⏱ {n} s")


def countdown(t: Translations, seconds: float) -> str:
    """How long there is to decide, ``⏱ 30 s``: a duration, since the chat shows when a
    message was sent, and a clock time would be in someone else's time zone."""
    return countdown_words(t).format(n=max(0, math.ceil(seconds - 0.05)))


def seat_name(seat: Occupant | None, t: Translations, style: Style = PLAIN) -> str:
    """A seat as shown: the person's name, a robot with 🤖, or an empty seat."""
    if seat is None:
        return t.gettext("(livre)")
    if seat.robot:
        return f"🤖 {style.name(seat.name)}"
    return style.name(seat.name)


def team_name(seats: Seats, team: int, t: Translations, style: Style = PLAIN) -> str:
    """Both partners (or the one player) of a team."""
    return " & ".join(seat_name(s, t, style) for i, s in enumerate(seats) if i % 2 == team)


def play_makers(table: Table, view: View) -> list[Occupant | None]:
    """Who made each card play of the hand being played (its plays, covered and blind ones
    too, in order): the seat's occupant, but a person's own plays from before a robot took
    their seat keep the person's name (``Table.stand_in_moves``)."""
    made: dict[int, int] = {}
    makers = []
    for seat, action in view.history:
        k = made[seat] = made.get(seat, -1) + 1
        if action.act not in (Act.PLAY, Act.COVER, Act.BLIND):
            continue
        x = table.seats[seat]
        robots = table.stand_in_moves.get(seat)
        if x is not None and robots is not None and k < len(robots) and not robots[k]:
            x = Occupant(x.name, user=x.user)  # the person played it, not the robot
        makers.append(x)
    return makers


def plays_line(
    plays: Sequence[tuple[int, Card | None, bool]],
    seats: Seats,
    t: Translations,
    style: DeckStyle,
    own: int | None,
    manilhas: Sequence[Card] = (),
    marks: Style = PLAIN,
    makers: Sequence[Occupant | None] = (),
) -> str:
    """Cards on the table; a covered card shows only to its owner (``own``); a manilha is
    starred, as on the hand's buttons. ``makers``: who made each play (``play_makers``),
    when it may not be the seat's occupant now."""
    parts = []
    for i, (seat, card, covered) in enumerate(plays):
        if card is None or (covered and seat != own):
            shown = COVERED
        else:
            star = " ★" if card in manilhas else ""
            shown = words_for(t).card(card, style) + star + (f" ({COVERED})" if covered else "")
        maker = makers[i] if i < len(makers) else seats[seat]
        parts.append(f"{seat_name(maker, t, marks)} {shown}")
    return " · ".join(parts)


def rounds_line(
    t: Translations, rounds: Sequence[int | None], seats: Seats, style: Style = PLAIN
) -> Sentence:
    """Who took each round of the hand so far (a team, or a tie)."""
    _ = t.gettext
    # the ordinal is a word of each language ("1ª" is Portuguese: "1st" in English)
    ordinals = (_("1ª"), _("2ª"), _("3ª"))
    names = []
    for i, r in enumerate(rounds):
        who = _("empate") if r is None else team_name(seats, r, t, style)
        names.append(f"{ordinals[i] if i < len(ordinals) else i + 1} {who}")
    text = _("Vazas: {rounds}").format(rounds=" · ".join(names))
    return Sentence("rounds", text, {"rounds": list(rounds)})


def hand_over_line(
    t: Translations, data: HandSummary, seats: Seats, style: Style = PLAIN
) -> Sentence:
    """One line closing a hand: who won it, how many points, the score."""
    values: dict[str, Value] = {
        "hand": data.hand,
        "winner": data.winner,
        "points": data.points[data.winner] - data.extra[data.winner]
        if data.winner is not None
        else 0,
        "ran": data.ran,
        "score": list(data.score),
    }
    return Sentence("hand_over", _hand_over_words(t, data, seats, style), values)


def _hand_over_words(t: Translations, data: HandSummary, seats: Seats, style: Style) -> str:
    _ = t.gettext
    n = data.hand + 1
    score = f"{data.score[0]} × {data.score[1]}"
    if data.winner is None and any(data.extra):  # gaudério: the match ended on points
        return _("Mão {n}: a partida acabou nos pontos. Placar {score}").format(n=n, score=score)
    if data.winner is None:
        return _("Mão {n}: empate, ninguém pontua. Placar {score}").format(n=n, score=score)
    winner = data.winner
    points = data.points[winner] - data.extra[winner]  # envido and flor: their own lines
    if data.ran:
        loser = 1 - winner
        members = sum(1 for i in range(len(seats)) if i % 2 == loser)
        ran = t.ngettext("{loser} correu", "{loser} correram", members).format(
            loser=team_name(seats, loser, t, style)
        )
        scored = t.ngettext(
            "{points} ponto para {team}", "{points} pontos para {team}", points
        ).format(points=points, team=team_name(seats, winner, t, style))
        return _("Mão {n}: {ran}; {scored}. Placar {score}").format(
            n=n, ran=ran, scored=scored, score=score
        )
    text = t.ngettext(
        "Mão {n}: {points} ponto para {team}. Placar {score}",
        "Mão {n}: {points} pontos para {team}. Placar {score}",
        points,
    )
    return text.format(n=n, team=team_name(seats, winner, t, style), points=points, score=score)


def points_over_lines(
    t: Translations, data: HandSummary, seats: Seats, deck: DeckStyle, style: Style = PLAIN
) -> list[Sentence]:
    """Gaudério, once a hand is over: who won the envido with how many points and the
    cards that prove them, and each flor with its cards (R13.3, R13.4); the losing team's
    points are never said."""
    _ = t.gettext
    w = words_for(t)
    lines = []
    e = data.envido
    if e is not None and e.seat is not None and e.points is not None:
        said = {"worth": e.worth, "team": e.team, "seat": e.seat, "points": e.points}
        proof: dict[str, Value] = {"cards": [c.code for c in e.proof]}
        lines.append(
            Sentence(
                "envido_won",
                _("🎯 Envido: {points} para {team} · {cards} de {who} ({n} pontos)").format(
                    points=e.worth,
                    team=team_name(seats, e.team, t, style),
                    cards=w.cards(e.proof, deck),
                    who=seat_name(seats[e.seat], t, style),
                    n=e.points,
                ),
                {**said, **proof},
            )
        )
    elif e is not None:
        lines.append(
            Sentence(
                "envido_declined",
                _("🎯 Envido não querido: {worth} para {team}").format(
                    worth=e.worth, team=team_name(seats, e.team, t, style)
                ),
                {"worth": e.worth, "team": e.team},
            )
        )
    for seat, cards in data.flor:
        lines.append(
            Sentence(
                "flor",
                _("🌸 Flor de {who}: {cards}").format(
                    who=seat_name(seats[seat], t, style),
                    cards=w.cards(cards, deck),
                ),
                {"seat": seat, "cards": [c.code for c in cards]},
            )
        )
    return lines


def points_lines(t: Translations, seats: Seats, view: View, style: Style = PLAIN) -> list[str]:
    """Gaudério's points game on the table (R13.3, R13.4): the flors sung, the envido
    waiting for its answer or how it ended (the winning points only, never the losers')."""
    _ = t.gettext
    w = words_for(t)
    lines = []
    if view.flor:
        who = ", ".join(seat_name(seats[s], t, style) for s in view.flor)
        lines.append(_("🌸 Flor: {who}").format(who=who))
    e = view.envido
    if e is None:
        return lines
    call = w.envido_shout(Act.from_code(e.calls[-1])).upper()
    if e.state == "pending":
        lines.append(
            _("❗ {call} de {team}: vale {value} se quiser, {declined} se não quiser").format(
                call=call,
                team=team_name(seats, e.team, t, style),
                value=e.accept_value,
                declined=e.decline_value,
            )
        )
    elif e.winner is not None and e.winner_seat is not None and e.winner_points is not None:
        lines.append(
            _("🎯 Envido ({worth}) para {team}: {points} pontos de {who}").format(
                worth=e.worth,
                team=team_name(seats, e.winner, t, style),
                points=e.winner_points,
                who=seat_name(seats[e.winner_seat], t, style),
            )
        )
    elif e.winner is not None:
        lines.append(
            _("🎯 Envido não querido: {worth} para {team}").format(
                worth=e.worth, team=team_name(seats, e.winner, t, style)
            )
        )
    return lines


def last_round_line(
    t: Translations, data: HandSummary, seats: Seats, deck: DeckStyle, style: Style = PLAIN
) -> Sentence:
    """The cards of an ended hand's last vaza (covered ones stay covered); empty when the
    hand ended before any card of it was played."""
    last = [(seat, card, card is None) for seat, card in data.last]
    if not last:
        return Sentence("last_round", "")
    plays = plays_line(last, seats, t, deck, None, marks=style)
    text = t.gettext("Última vaza: {plays}").format(plays=plays)
    return Sentence("last_round", text, {"seats": [seat for seat, _card in data.last]})


def match_won_line(t: Translations, seats: Seats, team: int, style: Style = PLAIN) -> Sentence:
    """The match's end: who won it."""
    text = t.gettext("🏆 Vitória de {team}!").format(team=team_name(seats, team, t, style))
    return Sentence("match_won", text, {"team": team})


def hand_closed_text(
    t: Translations,
    data: HandSummary,
    seats: Seats,
    deck: DeckStyle,
    style: Style = PLAIN,
) -> str:
    """A private hand message once its hand is over: how it ended; no turn, no buttons.

    ``data`` is the hand's ``hand_over`` event (public facts only: covered cards
    stay covered). Who won the match is not said here: the match's closing message
    says it, in the same chat for a private table.
    """
    return "\n".join(hand_closed_sentences(t, data, seats, deck, style))


def hand_closed_sentences(
    t: Translations,
    data: HandSummary,
    seats: Seats,
    deck: DeckStyle,
    style: Style = PLAIN,
) -> list[Sentence]:
    """How a hand ended, one sentence a line (``hand_closed_text``'s lines)."""
    title = style.strong(t.gettext("Mão {n} encerrada").format(n=data.hand + 1))
    lines = [Sentence("hand_closed", title, {"hand": data.hand})]
    if data.rounds:
        lines.append(rounds_line(t, data.rounds, seats, style))
    last = last_round_line(t, data, seats, deck, style)
    if last:
        lines.append(last)
    over = hand_over_line(t, data, seats, style)
    lines.append(Sentence(over.kind, "🏁 " + over, over.values))
    lines += points_over_lines(t, data, seats, deck, style)
    return lines


def match_over_text(
    t: Translations, data: MatchEnd, seats: Seats, style: Style = PLAIN
) -> Sentence:
    """The closing message of a match: winners and the final score (``12 × 7``)."""
    text = t.gettext("🏆 Fim de jogo: vitória de {team}! {score}").format(
        team=style.strong(team_name(seats, data.winner, t, style)),
        score=style.strong(f"{data.score[0]} × {data.score[1]}"),
    )
    return Sentence("match_over", text, {"winner": data.winner, "score": list(data.score)})


def rematch_label(t: Translations) -> str:
    """The Revanche button's words, in the group and on a Mini App page."""
    return t.gettext("🔁 Revanche")


def lobby_text(
    t: Translations,
    table: Table,
    missing: Sequence[str],
    waiting: Sequence[str] = (),
    style: Style = PLAIN,
) -> str:
    """The lobby message: table options, seats by team, who still must open the bot, and a
    Revanche's people who have not confirmed yet."""
    return "\n".join(lobby_sentences(t, table, missing, waiting, style))


def lobby_sentences(
    t: Translations,
    table: Table,
    missing: Sequence[str],
    waiting: Sequence[str] = (),
    style: Style = PLAIN,
) -> list[Sentence]:
    """The lobby message's lines (``lobby_text``), one sentence each."""
    _ = t.gettext
    w = words_for(t)
    o = table.options
    seats = table.seats
    rs = get_ruleset(table.variant)
    size = "2×2" if o.players == 4 else "1×1"
    timer = rs.fixed_timer or o.timer
    title = style.strong(_("Mesa de {variant}").format(variant=w.variant(rs)))
    head = _("🃏 {title} · {size} · {target} pontos · ⏱ {timer} s").format(
        title=title, size=size, target=o.target, timer=timer
    )
    options: dict[str, Value] = {
        "variant": rs.name,
        "players": o.players,
        "target": o.target,
        "timer": timer,
    }
    if o.players == 4:
        head += " · " + (_("👁️ com sinais") if o.sinais else _("sem sinais"))
        options["sinais"] = o.sinais
    if rs.envido:  # gaudério (R13.4)
        head += " · " + (_("🌸 com flor") if o.flor else _("sem flor"))
        options["flor"] = o.flor
    lines = [Sentence("lobby_table", head, options)]

    def names(who: Sequence[int]) -> list[str]:
        return [x.name if (x := seats[i]) is not None else "" for i in who]

    if o.players == 4:
        for team in (0, 1):
            members = ", ".join(seat_name(seats[i], t, style) for i in (team, team + 2))
            text = _("Time {n}: {members}").format(n=team + 1, members=members)
            said: dict[str, Value] = {"team": team, "seats": [team, team + 2]}
            lines.append(Sentence("lobby_team", text, {**said, "names": names((team, team + 2))}))
    else:
        text = " × ".join(seat_name(s, t, style) for s in seats)
        every = list(range(len(seats)))
        lines.append(Sentence("lobby_seats", text, {"seats": every, "names": names(every)}))
    robots = [s for s in seats if s and s.robot]
    if robots:
        levels = ", ".join(f"{style.name(s.name)} ({w.level(s.robot)})" for s in robots if s.robot)
        text = _("Robôs: {levels}").format(levels=levels)
        lines.append(Sentence("lobby_robots", text, {"names": [s.name for s in robots]}))
    if missing:
        text = _("⚠️ Falta abrir o bot no privado (botão abaixo): {names}").format(
            names=", ".join(style.name(n) for n in missing)
        )
        lines.append(Sentence("lobby_missing", text, {"names": list(missing)}))
    if waiting:
        text = _(
            "🔁 Revanche: falta confirmar com Entrar: {names}. Em {n} s a partida "
            "começa, e um robô joga por quem não confirmou até a pessoa tocar em 🙋 "
            "Voltei no privado."
        ).format(names=", ".join(style.name(n) for n in waiting), n=int(REMATCH_SECONDS))
        values: dict[str, Value] = {"names": list(waiting), "seconds": int(REMATCH_SECONDS)}
        lines.append(Sentence("lobby_waiting", text, values))
    text = _("Quem abriu a mesa ou um admin começa; lugares vazios viram robôs ({level}).").format(
        level=w.level(DEFAULT_LEVEL)
    )
    lines.append(Sentence("lobby_start", text, {"level": str(DEFAULT_LEVEL)}))
    return lines


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
