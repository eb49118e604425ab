"""The public table: score, cards on the table (covered ones hidden), rounds, stake,
calls, whose turn and the clock; the lines said in the group; the table's buttons.

Public pictures read only what every seat may see."""

from __future__ import annotations

from html import escape

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from bot.domain.values.drawings import TableDrawing
from bot.domain.values.game import GameStatus, Occupant, Said, Saying, Table, TimeoutNote
from bot.i18n import Translations, words_for
from bot.links import app_link, button_url
from bot.telegram.callbacks import deep_link, vote_data
from bot.telegram.render.common import HTML, plays_line, rounds_line, seat_name, team_name
from bot.telegram.render.lobby import lobby_keyboard, lobby_text
from bot.telegram.render.results import (
    cancelled_by_text,
    hand_over_line,
    match_won_line,
    points_over_lines,
    rematch_keyboard,
)
from bot.telegram.render.sinais import signals_made
from bot.wording.table import Seats, countdown, play_makers, points_lines
from engine import HandKind, Phase, View, get_ruleset
from engine.actions import ACCEPT, ENVIDO_CALLS, RUN, Act
from engine.cards import Card, DeckStyle


def table_text(
    t: Translations,
    table: Table,
    view: View,
    time_left: float | None,
    *,
    style: DeckStyle = DeckStyle.TRADITIONAL,
    own: int | None = None,
    claims: bool = True,
) -> str:
    """The public picture of the match (``own`` = the seat whose covered cards show).

    ``claims``: show the hand's state (score, hand, cards, whose turn). Without them, for a
    message redrawn seldom, where they would be stale before its next edit: the variant
    and the teams only (the announcements below carry the score)."""
    lines = table_head(t, table, view, style)
    if view.match_winner is not None:
        return "\n".join(lines)
    if not claims:
        teams = f"<b>{team_name(table.seats, 0, t)}</b>  ×  <b>{team_name(table.seats, 1, t)}</b>"
        return "\n".join([lines[0], teams])
    lines += _table_rest(t, table, view, time_left, style, own)
    return "\n".join(lines)


def table_head(t: Translations, table: Table, view: View, style: DeckStyle) -> list[str]:
    """What stays the same during a hand: variant, score, the hand's vira and manilhas."""
    _ = t.gettext
    w = words_for(t)
    seats = table.seats
    rs = view.ruleset
    size = "2×2" if view.players == 4 else "1×1"
    lines = [
        _("🃏 <b>{variant}</b> · {size} · até {target}").format(
            variant=w.variant(rs), size=size, target=view.target
        ),
        f"<b>{team_name(seats, 0, t)}</b>  {view.score[0]} × {view.score[1]}  <b>{team_name(seats, 1, t)}</b>",
    ]
    if view.match_winner is not None:
        lines.append(match_won_line(t, seats, view.match_winner))
        return lines
    hand = _("Mão {n}").format(n=view.hand_number + 1)
    if view.vira is not None:
        manilha = w.rank_label(view.manilhas[0].rank, style) if view.manilhas else "?"
        hand += " · " + _("vira {vira} → manilha {rank}").format(
            vira=w.card(view.vira, style), rank=manilha
        )
    elif rs.envido:
        # gaudério: the four top cards by strength (no zap nor copas: other names, R13.1),
        # called by the South's word for them, as the Mini App calls them
        named = " > ".join(w.card(c, style) for c in view.manilhas)
        hand += " · " + _("bravas {cards}").format(cards=named)
    else:
        # the fixed manilhas by the names players call them (zap, copas, espadilha, pica-fumo)
        named = " · ".join(f"{w.manilha(c.suit)} {w.card(c, style)}" for c in view.manilhas)
        hand += " · " + _("manilhas {cards}").format(cards=named)
    lines.append(hand)
    if view.kind == HandKind.IRON:
        lines.append(_("🔥 Mão de ferro: todos jogam às cegas, sem truco."))
    elif view.kind == HandKind.SPECIAL:
        lines.append(
            _("⚠️ {hand}: vale {value}, sem truco.").format(
                hand=w.special_hand(view.ruleset).capitalize(),
                value=rs.special_hand_value,
            )
        )
    return lines


def _table_rest(
    t: Translations,
    table: Table,
    view: View,
    time_left: float | None,
    style: DeckStyle,
    own: int | None,
) -> list[str]:
    """What changes during a hand: vazas, cards on the table, stake, calls, turn, signals."""
    _ = t.gettext
    w = words_for(t)
    seats = table.seats
    lines: list[str] = []
    # each card keeps the name of who played it (a robot that took a seat did not)
    makers = play_makers(table, view)
    n = view.players
    if view.rounds:
        lines.append(rounds_line(t, view.rounds, seats))
        # the cards of each closed vaza stay until the hand ends: what won it shows
        for i, plays in enumerate(closed_vazas(view)):
            by = makers[i * n : (i + 1) * n]
            shown = plays_line(plays, seats, t, style, own, view.manilhas, makers=by)
            lines.append(_("{n}ª vaza: {plays}").format(n=i + 1, plays=shown))
    if view.table:
        by = makers[len(makers) - len(view.table) :]
        shown = plays_line(view.table, seats, t, style, own, view.manilhas, makers=by)
        lines.append(_("Na mesa: {plays}").format(plays=shown))
    if view.phase != Phase.DECIDE:
        # while the team decides, the hand is worth what the ⚠️ line says, not the stake
        lines.append(_("Valendo {n}").format(n=view.stake))
    if view.phase == Phase.ANSWER and view.call_team is not None:
        lines.append(
            _("❗ {call} de {team}: vale {value} se aceitar").format(
                team=team_name(seats, view.call_team, t),
                call=w.shout(view.pending_step, view.ruleset).upper(),
                value=view.pending_value,
            )
        )
    lines += points_lines(t, seats, view, HTML)
    if view.phase == Phase.DECIDE and view.call_team is not None:
        lines.append(
            _("🤔 {team}: jogar ou correr da {hand}?").format(
                team=team_name(seats, view.call_team, t), hand=w.special_hand(view.ruleset)
            )
        )
    if view.to_act:
        names = [seat_name(seats[s], t) for s in view.to_act]
        if len(names) == 2:  # a team answering or deciding: either partner may
            line = "👉 " + _("Vez de {a} ou {b}").format(a=names[0], b=names[1])
        else:
            line = _("👉 Vez de {who}").format(who=", ".join(names))
        people = any((x := seats[s]) and not x.robot for s in view.to_act)
        if table.deadline_at and time_left is not None and people:
            line += " · " + countdown(t, time_left)
        lines.append(line)
    note = timeout_note(t, table, view, style)
    if note:
        lines.append(note)
    made = signals_made(view)
    if made:
        who = ", ".join(seat_name(seats[s], t) for s in made)
        lines.append(
            t.ngettext("👁️ {who} fez um sinal", "👁️ {who} fizeram sinais", len(made)).format(who=who)
        )
    return lines


def own_plays(view: View) -> list[list[tuple[int, Card | None, bool]]]:
    """The seat's own cards played in this hand (they change only when it plays)."""
    plays = [
        (seat, a.card, a.act is Act.COVER)
        for seat, a in view.history
        if seat == view.seat and a.act in (Act.PLAY, Act.COVER, Act.BLIND)
    ]
    return [plays]


def closed_vazas(view: View) -> list[list[tuple[int, Card | None, bool]]]:
    """The cards of the hand's closed vazas, as (seat, card, covered), one list per vaza
    (another seat's covered card has no card)."""
    plays = [
        (seat, a.card, a.act is Act.COVER)
        for seat, a in view.history
        if a.act in (Act.PLAY, Act.COVER, Act.BLIND)
    ]
    n = view.players
    return [plays[i * n : (i + 1) * n] for i in range(len(view.rounds))]


def timeout_note(t: Translations, table: Table, view: View, style: DeckStyle) -> str:
    """The ⏰ line telling who ran out of time in this hand and what was done for them."""
    note = table.note
    if note is None or note.hand != view.hand_number:
        return ""
    return timeout_line(t, note, table.seats, view, style)


def timeout_line(
    t: Translations,
    note: TimeoutNote,
    seats: Seats,
    view: View,
    style: DeckStyle = DeckStyle.TRADITIONAL,
) -> str:
    """``⏰ Tempo esgotado: Ana jogou 3♣`` (the table's line, and the group's announcement).

    A person's run at a call while their robot partner still answers is no run of the
    team (R6): the line says the robot answers for it. A seat this timeout gave to a
    robot (the second in a row) is said once, here. The time ran out for the person, so
    the line names them, not the robot that plays their seat from now on: "🤖 Caio
    jogou 4♣" would credit the robot with the person's timeout.
    """
    _ = t.gettext

    def timed_out(seat: int) -> str:
        x = seats[seat]
        return escape(x.name) if x is not None and x.user is not None else seat_name(x, t)

    parts = []
    for seat, action in note.items:
        mate = seats[(seat + 2) % 4] if len(seats) == 4 else None
        if action.act is Act.RUN and mate is not None and mate.robot and mate.user is None:
            parts.append(
                _("o tempo de {who} acabou, e {robot} responde pelo time").format(
                    who=timed_out(seat), robot=seat_name(mate, t)
                )
            )
            continue
        parts.append(
            _("{who} {what}").format(
                who=timed_out(seat),
                what=words_for(t).did(action, view, style, public=True),
            )
        )
    line = _("⏰ Tempo esgotado: {what}").format(what="; ".join(parts))
    for seat in note.away:
        x = seats[seat]
        level = words_for(t).level(x.robot) if x is not None and x.robot else ""
        line += "\n" + _(
            "🤖 {who} deixou o tempo acabar duas vezes seguidas: um robô ({level}) joga no "
            "lugar até {who} tocar em 🙋 Voltei no privado."
        ).format(who=escape(x.name) if x is not None else "", level=level)
    return line


def said_by(said: Said, table: Table) -> Occupant | None:
    """Who said a line: who sat there then (a person, or the robot playing their seat), not
    who sits there now."""
    return said.maker if said.maker is not None else table.seats[said.seat]


def said_line(t: Translations, said: Said, table: Table, view: View) -> str:
    """A call, answer or decision as the group hears it: ``📣 Ana: TRUCO!``, ``Beto: Desce!``.

    ``view``: any view of the table (it names the answers in the reader's language).
    """
    _ = t.gettext
    w = words_for(t)
    rs = get_ruleset(table.variant)
    who = seat_name(said_by(said, table), t)
    if said.saying == Saying.CALL:
        return _("📣 {who}: {call}").format(who=who, call=w.shout(said.step, rs).upper())
    if said.saying == Saying.ACCEPT:
        return _("👍 {who}: {answer} Valendo {value}.").format(
            who=who, answer=w.button(ACCEPT, view), value=said.value
        )
    if said.saying == Saying.RUN:
        return _("🏃 {who}: {answer}").format(who=who, answer=w.button(RUN, view))
    if said.saying in POINTS_SAYINGS:
        return points_said_line(t, said, table)
    team = said.seat & 1
    if said.saying == Saying.PLAY11:
        members = sum(1 for i, _s in enumerate(table.seats) if i % 2 == team)
        return t.ngettext(
            "🤝 {team} vai jogar a {hand}, valendo {value}.",
            "🤝 {team} vão jogar a {hand}, valendo {value}.",
            members,
        ).format(
            team=team_name(table.seats, team, t),
            hand=w.special_hand(rs),
            value=rs.special_hand_value,
        )
    return _("🏃 {who} quer correr da {hand}.").format(who=who, hand=w.special_hand(rs))


POINTS_SAYINGS = (
    Saying.ENVIDO,
    Saying.QUERO,
    Saying.NAO_QUERO,
    Saying.ENVIDO_WON,
    Saying.FLOR,
)
"""What is said of gaudério's points game (``points_said_line``)."""


def points_said_line(t: Translations, said: Said, table: Table) -> str:
    """An envido call, its answer, the showdown or a flor as the group hears it:
    ``📣 Ana: REAL ENVIDO! (vale 5)``, ``🎯 Time 1 ganhou o envido com 31 pontos (Ana): 5``."""
    _ = t.gettext
    w = words_for(t)
    who = seat_name(said_by(said, table), t)
    if said.saying == Saying.ENVIDO:
        call = w.envido_shout(ENVIDO_CALLS[said.step or 0]).upper()
        return _("📣 {who}: {call} (vale {value})").format(who=who, call=call, value=said.value)
    if said.saying == Saying.QUERO:
        return _("👍 {who}: {answer}").format(who=who, answer=w.envido_shout(Act.QUERO))
    if said.saying == Saying.NAO_QUERO:
        answer = w.envido_shout(Act.NAO_QUERO)
        if said.value is None:  # the partner still answers (R6)
            return _("🙅 {who}: {answer}").format(who=who, answer=answer)
        team = team_name(table.seats, 1 - (said.seat & 1), t)
        if _follows_its_person(said, table):
            # the robot only follows the person who spoke for the team (R6): under its own
            # name it would read as a second answer to a call already answered
            return _("🎯 Envido não querido: {worth} para {team}").format(
                worth=said.value, team=team
            )
        return _("🙅 {who}: {answer}. {value} para {team}.").format(
            who=who, answer=answer, value=said.value, team=team
        )
    if said.saying == Saying.ENVIDO_WON:
        team = team_name(table.seats, said.seat & 1, t)
        return _("🎯 Envido para {team}: {points} pontos de {who} (+{value})").format(
            team=team, points=said.points, who=who, value=said.value
        )
    return _("🌸 {who}: {flor} (+{value})").format(
        who=who, flor=w.envido_shout(Act.FLOR).upper(), value=said.value
    )


def _follows_its_person(said: Said, table: Table) -> bool:
    """A robot's answer that follows its person partner's (2×2): never the team's first."""
    if len(table.seats) != 4:
        return False
    maker, partner = said_by(said, table), table.seats[said.seat ^ 2]
    robot = maker is not None and maker.robot is not None
    return robot and partner is not None and partner.user is not None


def table_keyboard(
    t: Translations,
    table: Table,
    bot_username: str,
    webapp: tuple[str, str] | None = None,
) -> InlineKeyboardMarkup:
    """🃏 Minha mão (inline mode here) and a link to the private hand; with a Mini App
    (``webapp``: its URL and short name), 🃏 Abrir a mesa too."""
    _ = t.gettext
    row = [InlineKeyboardButton(_("🃏 Minha mão"), switch_inline_query_current_chat="")]
    if bot_username:
        row.append(
            # half a phone's width: a label longer than ~14 characters is cut
            InlineKeyboardButton(_("📩 No privado"), url=deep_link(bot_username, table.id))
        )
    rows = [row]
    strikes = table.note.strikes if table.note is not None else ()
    for seat in strikes:  # a person whose time ran out last time: the table may vote
        x = table.seats[seat]
        if x is not None and x.user is not None and not x.robot and not table.private:
            label = _("🤖 Robô por {name}").format(name=x.name[:12])
            rows.append([InlineKeyboardButton(label, callback_data=vote_data(table.id, seat))])
    if webapp is not None and (bot_username or table.private):
        rows.append([open_table_button(t, table, bot_username, webapp)])
    return InlineKeyboardMarkup(rows)


def open_table_label(t: Translations) -> str:
    """The words of every button that opens the table in the Mini App."""
    return t.gettext("🃏 Abrir a mesa")


def open_table_button(
    t: Translations, table: Table, bot_username: str, webapp: tuple[str, str]
) -> InlineKeyboardButton:
    """🃏 Abrir a mesa: a ``web_app`` button in a private chat (Telegram allows them only
    there), elsewhere the Mini App's direct link with the table as ``startapp``."""
    url, name = webapp
    text = open_table_label(t)
    if table.private:
        return InlineKeyboardButton(text, web_app=WebAppInfo(button_url(url, table.id)))
    return InlineKeyboardButton(text, url=app_link(bot_username, name, table.id))


def with_open_table(
    t: Translations,
    table: Table,
    markup: InlineKeyboardMarkup | None,
    webapp: tuple[str, str],
) -> InlineKeyboardMarkup:
    """A private table's hand message (the table itself, in private) with 🃏 Abrir a mesa
    below its buttons."""
    rows = [list(row) for row in markup.inline_keyboard] if markup is not None else []
    rows.append([open_table_button(t, table, "", webapp)])
    return InlineKeyboardMarkup(rows)


def fast_note(t: Translations) -> str:
    """The table message's last line while the group's minute is under pressure: the
    message is redrawn seldom then, so it shows no state and says where the match is."""
    return t.gettext("⏩ O jogo está rápido: a vez de cada um está na mão dele.")


def in_app_note(t: Translations) -> str:
    """The table message's last line while everyone seated plays in the Mini App: the
    message is redrawn seldom then, so it says where the match is live."""
    return t.gettext("🃏 A partida está no app da mesa: aqui ela anda de minuto em minuto.")


def public_table(
    t: Translations,
    drawing: TableDrawing,
    time_left: float | None,
    bot_username: str,
    webapp: tuple[str, str] | None = None,
    *,
    claims: bool = True,
) -> tuple[str, InlineKeyboardMarkup | None]:
    """The group's table message for any status: lobby, match, end or cancellation.

    ``claims``: show the hand's state (``table_text``).

    An ended match whose ending message may never have been shown carries the Revanche
    itself: the ending is never sent twice, and without it nobody could ask for one.
    """
    table, missing = drawing.table, drawing.missing
    if table.status == GameStatus.LOBBY:
        text = lobby_text(t, table, missing, drawing.waiting)
        markup = lobby_keyboard(t, table, missing, bot_username)
        if webapp is not None and (bot_username or table.private):
            # the app's lobby shows the chairs and takes Entrar, a team or Começar
            rows = [*markup.inline_keyboard, [open_table_button(t, table, bot_username, webapp)]]
            markup = InlineKeyboardMarkup(rows)
        return text, markup
    if table.status == GameStatus.CANCELLED:
        return cancelled_by_text(t, table, drawing.cancelled_by), None
    style = get_ruleset(table.variant).deck_style  # the group sees the variant's look
    text = table_text(t, table, table.view(0), time_left, style=style, claims=claims)
    if table.status == GameStatus.PLAYING:
        if drawing.last_hand is not None and claims:  # the group chose not to hear it
            ended = drawing.last_hand
            deck = get_ruleset(table.variant).deck_style
            said = [hand_over_line(t, ended, table.seats)]
            said += points_over_lines(t, ended, table.seats, deck)
            text = "🏁 " + "\n".join(said) + "\n" + text
        return text, table_keyboard(t, table, bot_username, webapp)
    return text, rematch_keyboard(t, table) if drawing.ending_unsure else None
