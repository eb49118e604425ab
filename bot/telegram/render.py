"""Texts and keyboards: the public table, the lobby and each player's private hand.

Public pictures read only what every seat may see (score, table with covered
cards hidden, rounds, stake, calls, turn); a private hand is drawn from that
seat's own ``View``. Everything drawn here comes as plain values from the domain
(``Table``, ``Occupant``, ``HandSummary``...), never a database row. All text goes
through gettext (``t``) in HTML parse mode.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import Any

from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
    LinkPreviewOptions,
    WebAppInfo,
)
from telegram.constants import ParseMode

from bot.domain.tables import REMATCH_SECONDS
from bot.domain.values import (
    AddRobot,
    CancelTable,
    ChatSettings,
    GameStatus,
    HandSummary,
    Join,
    Leave,
    MatchEnd,
    Noise,
    Occupant,
    Reason,
    RemoveRobot,
    RobotLevel,
    Said,
    Saying,
    Setting,
    Start,
    Table,
    TableDrawing,
    TimeoutNote,
)
from bot.i18n import Translations, language_name, words_for
from bot.telegram.callbacks import (
    Move,
    back_data,
    cancel_data,
    config_data,
    deck_data,
    deep_link,
    lobby_data,
    posted_link,
    rematch_data,
    signals_data,
)
from bot.webapp.links import app_link, button_url
from engine import HandKind, Phase, View, get_ruleset
from engine.actions import ACCEPT, RUN, Act
from engine.cards import Card, DeckStyle
from engine.rulesets import HOUSE_LADDERS
from engine.sinais import Sinal

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


def countdown(t: Translations, seconds: float) -> str:
    """How long there is to decide, ``⏱ 30 s``: a duration, since the chat shows when a
    message was sent, and a clock time would be in someone else's time zone."""
    return t.gettext("⏱ {n} s").format(n=max(0, math.ceil(seconds - 0.05)))


def reason_text(t: Translations, reason: Reason, params: dict[str, Any] | None = None) -> str:
    """The short alert for a refused request."""
    _ = t.gettext
    texts = {
        Reason.STALE: _("Essa jogada já passou."),
        Reason.DONE: _("✔️ Jogada feita."),
        Reason.NO_GAME: _("Essa mesa não existe mais."),
        Reason.NOT_LOBBY: _("Essa mesa já começou ou foi encerrada."),
        Reason.NOT_STARTED: _("A partida ainda não começou."),
        Reason.GAME_OVER: _("Essa partida já terminou."),
        Reason.ALREADY_SEATED: _("Você já está na mesa."),
        Reason.TABLE_FULL: _("A mesa está cheia."),
        Reason.NOT_SEATED: _("Você não está nessa mesa."),
        Reason.NO_ROBOT: _("Não há robô para tirar."),
        Reason.ONLY_CREATOR: _("Só quem abriu a mesa ou um admin do grupo pode fazer isso."),
        Reason.MUST_START: _("Ainda falta abrir o bot no privado: {names}"),
        Reason.NOT_YOUR_TURN: _("Não é a sua vez."),
        Reason.ILLEGAL: _("Essa jogada não vale agora."),
        Reason.BAD_BUTTON: _("Botão inválido."),
        Reason.TABLE_EXISTS: _("Já existe uma mesa aberta aqui. Use /cancelar para encerrá-la."),
        Reason.BAD_ARG: _("Não entendi “{arg}”. Exemplo: /truco mineiro 2x2 12"),
        Reason.BAD_TARGET: _("A partida vai de {low} a {high} pontos."),
        Reason.BAD_NUMBER: _("“{arg}” não é um número: escreva os pontos com algarismos de 0 a 9."),
        Reason.BAD_LINK: _("Esse link não é de nenhuma mesa. Abra uma com /truco."),
        Reason.NOT_HERE: _("Esse botão não é desta mensagem."),
        Reason.ROBOTS_NOT_ALLOWED: _(
            "Você não está nessa mesa: robôs, só quem está sentado, quem abriu ou um admin."
        ),
        Reason.ANONYMOUS: _(
            "Para jogar, escreva como você mesmo (desligue o anonimato de admin no grupo)."
        ),
        Reason.WRONG_CHAT: _("Essa jogada só vale no chat da mesa: use o 🃏 Minha mão de lá."),
        Reason.BAD_OPTIONS: _("Essas opções não combinam com essa variante: veja /config."),
        Reason.ADMIN_ONLY: _("Só admins do grupo mudam a configuração."),
        Reason.NO_SIGNAL: _("Agora não dá para fazer sinal (um por vaza, com carta na mão)."),
        Reason.LOBBY_REPEAT: _("✔️ Já feito: a mesa mostra o robô."),
        Reason.TEAM_FULL: _("O time {team} está completo."),
        Reason.SAME_TEAM: _("Você já está nesse time."),
        Reason.NOT_OVER: _("Essa partida ainda está em jogo: a revanche vem depois do fim."),
        Reason.REMATCH_GONE: _("Essa revanche já passou: uma mesa mais nova foi aberta aqui."),
    }
    return texts.get(reason, _("Não deu.")).format(**(params or {}))


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


# ------------------------------------------------------------------- lobby


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
    lines.append(_("Quem abriu a mesa ou um admin começa; lugares vazios viram robôs (médio)."))
    return "\n".join(lines)


def lobby_keyboard(
    t: Translations, table: Table, missing: Sequence[str], bot_username: str
) -> InlineKeyboardMarkup:
    """Entrar / Sair / Time 1 / Time 2 (2×2) / + Robô / Começar / Cancelar (and the deep
    link when needed)."""
    _ = t.gettext
    gid = table.id

    def b(text: str, command: Any) -> InlineKeyboardButton:
        return InlineKeyboardButton(text, callback_data=lobby_data(gid, command, table.version))

    rows = [[b(_("Entrar"), Join()), b(_("Sair"), Leave())]]
    if table.options.players == 4:
        # partners by choice; Entrar keeps the join order, robots fill what is left
        rows.append([b(_("Time {n}").format(n=n + 1), Join(n)) for n in (0, 1)])
    rows += [
        [
            b(_("+ Robô fácil"), AddRobot(RobotLevel.FACIL)),
            b(_("+ Robô médio"), AddRobot(RobotLevel.MEDIO)),
            b(_("+ Robô difícil"), AddRobot(RobotLevel.DIFICIL)),
        ],
        [b(_("− Robô"), RemoveRobot()), b(_("Começar"), Start()), b(_("Cancelar"), CancelTable())],
    ]
    if missing and bot_username:
        rows.append(
            [InlineKeyboardButton(_("🔓 Abrir o bot no privado"), url=deep_link(bot_username, gid))]
        )
    return InlineKeyboardMarkup(rows)


# ------------------------------------------------------------------- table


def _plays(
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


def table_text(
    t: Translations,
    table: Table,
    view: View,
    time_left: float | None,
    *,
    style: DeckStyle = DeckStyle.TRADITIONAL,
    own: int | None = None,
) -> str:
    """The public picture of the match (``own`` = the seat whose covered cards show)."""
    lines = _table_head(t, table, view, style)
    if view.match_winner is not None:
        return "\n".join(lines)
    lines += _table_rest(t, table, view, time_left, style, own)
    return "\n".join(lines)


def _table_head(t: Translations, table: Table, view: View, style: DeckStyle) -> list[str]:
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
        lines.append(_("🏆 Vitória de {team}!").format(team=team_name(seats, view.match_winner, t)))
        return lines
    hand = _("Mão {n}").format(n=view.hand_number + 1)
    if view.vira is not None:
        manilha = w.rank_label(view.manilhas[0].rank, style) if view.manilhas else "?"
        hand += " · " + _("vira {vira} → manilha {rank}").format(
            vira=w.card(view.vira, style), rank=manilha
        )
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
    if view.rounds:
        lines.append(rounds_line(t, view.rounds, seats))
        # the cards of each closed vaza stay until the hand ends: what won it shows
        for i, plays in enumerate(closed_vazas(view)):
            shown = _plays(plays, seats, t, style, own, view.manilhas)
            lines.append(_("{n}ª vaza: {plays}").format(n=i + 1, plays=shown))
    if view.table:
        shown = _plays(view.table, seats, t, style, own, view.manilhas)
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
    if view.phase == Phase.DECIDE and view.call_team is not None:
        lines.append(
            _("🤔 {team}: jogar ou correr da {hand}?").format(
                team=team_name(seats, view.call_team, t), hand=w.special_hand(view.ruleset)
            )
        )
    if view.to_act:
        who = ", ".join(seat_name(seats[s], t) for s in view.to_act)
        line = _("👉 Vez de {who}").format(who=who)
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


def _own_plays(view: View) -> list[list[tuple[int, Card | None, bool]]]:
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


def rounds_line(t: Translations, rounds: Sequence[int | None], seats: Seats) -> str:
    """Who took each round of the hand so far (a team, or a tie)."""
    _ = t.gettext
    names = []
    for i, r in enumerate(rounds):
        who = _("empate") if r is None else team_name(seats, r, t)
        names.append(f"{i + 1}ª {who}")
    return _("Vazas: {rounds}").format(rounds=" · ".join(names))


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
    robot (the second in a row) is said once, here.
    """
    _ = t.gettext
    parts = []
    for seat, action in note.items:
        mate = seats[(seat + 2) % 4] if len(seats) == 4 else None
        if action.act is Act.RUN and mate is not None and mate.robot and mate.user is None:
            parts.append(
                _("o tempo de {who} acabou, e {robot} responde pelo time").format(
                    who=seat_name(seats[seat], t), robot=seat_name(mate, t)
                )
            )
            continue
        parts.append(
            _("{who} {what}").format(
                who=seat_name(seats[seat], t),
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


def said_line(t: Translations, said: Said, table: Table, view: View) -> str:
    """A call, answer or decision as the group hears it: ``📣 Ana: TRUCO!``, ``Beto: Desce!``.

    ``view``: any view of the table (it names the answers in the reader's language).
    """
    _ = t.gettext
    w = words_for(t)
    rs = get_ruleset(table.variant)
    who = seat_name(table.seats[said.seat], t)
    if said.saying == Saying.CALL:
        return _("📣 {who}: {call}").format(who=who, call=w.shout(said.step, rs).upper())
    if said.saying == Saying.ACCEPT:
        return _("👍 {who}: {answer} Valendo {value}.").format(
            who=who, answer=w.button(ACCEPT, view), value=said.value
        )
    if said.saying == Saying.RUN:
        return _("🏃 {who}: {answer}").format(who=who, answer=w.button(RUN, view))
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
            InlineKeyboardButton(_("Abrir no privado"), url=deep_link(bot_username, table.id))
        )
    rows = [row]
    if webapp is not None and (bot_username or table.private):
        rows.append([open_table_button(t, table, bot_username, webapp)])
    return InlineKeyboardMarkup(rows)


def open_table_button(
    t: Translations, table: Table, bot_username: str, webapp: tuple[str, str]
) -> InlineKeyboardButton:
    """🃏 Abrir a mesa: a ``web_app`` button in a private chat (Telegram allows them only
    there), elsewhere the Mini App's direct link with the table as ``startapp``."""
    url, name = webapp
    text = t.gettext("🃏 Abrir a mesa")
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


# ------------------------------------------------------------- private hand


def app_hand(
    t: Translations, table: Table, webapp: tuple[str, str]
) -> tuple[str, InlineKeyboardMarkup]:
    """The private hand message while the person has the table open in the Mini App: it
    points there, with no move button that could go stale."""
    text = t.gettext("🃏 Sua mão está no app da mesa.")
    button = InlineKeyboardButton(
        t.gettext("🃏 Abrir a mesa"), web_app=WebAppInfo(button_url(webapp[0], table.id))
    )
    return text, InlineKeyboardMarkup([[button]])


def hand_text(
    t: Translations,
    table: Table,
    view: View,
    time_left: float | None,
    style: DeckStyle,
    warning: bool = False,
    previous: HandSummary | None = None,
    *,
    away: bool = False,
    stand_in: bool = False,
) -> str:
    """A player's private message: the table as they see it, their cards, their turn.

    ``previous``: how the hand before ended, said first; the message of that hand is
    gone, so that the private chat keeps one hand message, not one per hand.
    ``away``: the seat is off its turn at a group's table. The message is not redrawn
    for every move then (four edits a move would eat the bot's 30 a second), so it
    shows only what stays true until the seat's own cards or signals change (score,
    vira, cards, partner's hand, signals) and sends the reader to the group for the
    rest: it never claims whose turn it is.
    ``stand_in``: a robot plays the seat for the person (two timeouts in a row): drawn as
    ``away``, saying so, whatever the turn.
    """
    away = away or stand_in
    _ = t.gettext
    seats = table.seats
    lines = []
    if previous is not None:
        lines.append("🏁 " + hand_over_line(t, previous, seats))
        last = [(seat, card, card is None) for seat, card in previous.last]
        if last:
            lines.append(
                _("Última vaza: {plays}").format(plays=_plays(last, seats, t, style, None))
            )
        lines.append("")
    if away and view.match_winner is None:
        lines += [*_table_head(t, table, view, style), ""]
    else:
        lines += [table_text(t, table, view, time_left, style=style, own=view.seat), ""]
    if view.match_winner is not None:
        return "\n".join(lines).rstrip()
    if view.kind == HandKind.IRON:
        lines.append(
            _("<b>Sua mão:</b> {cards} (às cegas)").format(
                cards=" ".join(COVERED for _slot in view.blind_slots) or "—"
            )
        )
    else:
        cards = marked_cards(t, view.hand, view.manilhas, style)
        lines.append(_("<b>Sua mão:</b> {cards}").format(cards=cards))
    if view.partner_hand is not None and view.partner is not None:
        lines.append(
            _("Mão de {name}: {cards}").format(
                name=seat_name(seats[view.partner], t),
                cards=marked_cards(t, view.partner_hand, view.manilhas, style),
            )
        )
    for seat, sinal in view.signals:
        who = seats[seat]
        caught = (seat - view.seat) % 2 == 1
        lines.append(signal_ping(t, who.name if who else "", sinal, caught))
    if stand_in:
        lines.append(
            _(
                "🤖 Um robô joga por você desde que seu tempo acabou duas vezes seguidas. "
                "Toque em 🙋 Voltei para jogar de novo."
            )
        )
    elif view.legal:
        line = _("👉 <b>É a sua vez!</b>")
        if table.deadline_at and time_left is not None:
            line += " " + countdown(t, time_left)
        if warning:
            line = _("⏳ <b>Seu tempo está acabando!</b>") + " " + line
        lines.append(line)
    elif away:
        mine = [(s, card, cov) for vaza in _own_plays(view) for s, card, cov in vaza]
        if mine:
            shown = " · ".join(
                words_for(t).card(card, style) + (f" ({COVERED})" if cov else "")
                for _s, card, cov in mine
                if card is not None
            )
            lines.append(_("Você jogou: {cards}").format(cards=shown))
        # no link to the table's message: it moves down when chatter buries it, and a
        # link that follows it would redraw every seat's message at each repost
        lines.append(_("👥 A vez, as cartas na mesa e as apostas estão na mesa do grupo."))
        lines.append(_("Sua mão volta aqui, com os botões, na sua vez."))
    return "\n".join(lines)


def table_link(table: Table) -> str | None:
    """A link to a group table's message (supergroups only: basic groups have no links)."""
    prefix = -1_000_000_000_000
    if table.private or table.chat_id > prefix or table.table_message_id is None:
        return None
    return f"https://t.me/c/{prefix - table.chat_id}/{table.table_message_id}"


def seated_text(t: Translations, table: Table, title: str) -> str:
    """The private answer to a deep-linked /start from a lobby: which table, and the way back."""
    _ = t.gettext
    rs = get_ruleset(table.variant)
    text = _(
        "✅ Você está na mesa de {variant} em {group}. Suas cartas chegam aqui quando a partida começar."
    ).format(variant=words_for(t).variant(rs), group=escape(title) or _("seu grupo"))
    link = table_link(table)
    if link is not None:
        text += "\n" + _('<a href="{link}">↩️ Voltar para a mesa no grupo</a>').format(link=link)
    return text


def marked_cards(
    t: Translations, cards: Sequence[Card], manilhas: Sequence[Card], style: DeckStyle
) -> str:
    """Cards of a hand with each manilha starred and named: ``3♣ 6♦ (★ pica-fumo)``."""
    w = words_for(t)
    shown = [
        f"{w.card(c, style)} (★ {w.manilha(c.suit)})" if c in manilhas else w.card(c, style)
        for c in cards
    ]
    return " ".join(shown) or "—"


def hand_keyboard(
    t: Translations, table: Table, view: View, style: DeckStyle
) -> InlineKeyboardMarkup | None:
    """Buttons for exactly the legal actions of this seat, or ``None``.

    Off its turn a seat may still signal (R12): its 👁️ Sinal button is drawn for
    version 0, "whatever the table's version is then", so that the message need not
    be redrawn at every move for it.
    """
    if not view.legal:
        if not view.legal_signals:
            return None
        data = signals_data(table.id, 0, True)
        return InlineKeyboardMarkup(
            [[InlineKeyboardButton(t.gettext("👁️ Sinal"), callback_data=data)]]
        )
    rows: dict[str, list[InlineKeyboardButton]] = {}
    for action in view.legal:
        key = {Act.PLAY: "a", Act.BLIND: "a", Act.COVER: "b"}.get(action.act, "c")
        data = Move(table.id, table.version, action).encode()
        label = words_for(t).button(action, view, style)
        if action.card is not None and action.card in view.manilhas:
            label += " ★"  # the buttons are where a phone shows the cards: mark the manilhas
        rows.setdefault(key, []).append(InlineKeyboardButton(label, callback_data=data))
    if view.legal_signals:
        data = signals_data(table.id, table.version, True)
        rows["d"] = [InlineKeyboardButton(t.gettext("👁️ Sinal"), callback_data=data)]
    return InlineKeyboardMarkup([rows[k] for k in sorted(rows)])


def back_keyboard(t: Translations, table: Table) -> InlineKeyboardMarkup:
    """🙋 Voltei: the hand of a seat a robot plays for its person."""
    data = back_data(table.id)
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(t.gettext("🙋 Voltei"), callback_data=data)]]
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


def inline_results(
    t: Translations, table: Table, view: View, style: DeckStyle, bot_username: str
) -> list[InlineQueryResultArticle]:
    """The legal actions as inline results; the message a result posts carries its move.

    The message each one posts in the group says what was done, as the table shows it a
    moment later: the card played (``🃏 Joguei 7♣.``), never a covered one (``🃏 Cobri
    uma carta.``). Its first word links to the move (``posted_link``), which the bot
    applies when that message arrives in the table's chat.
    """
    _ = t.gettext
    w = words_for(t)

    def starred(c: Card) -> str:
        return w.card(c, style) + (" ★" if c in view.manilhas else "")

    cards = " ".join(starred(c) for c in view.hand)
    if view.kind == HandKind.IRON:
        cards = " ".join(COVERED for _slot in view.blind_slots)
    summary = _("Sua mão: {cards} · valendo {n}").format(cards=cards or "—", n=view.stake)
    if view.partner_hand is not None:
        summary += " · " + _("parceiro: {cards}").format(
            cards=" ".join(starred(c) for c in view.partner_hand)
        )
    results = []
    for action in view.legal:
        label = w.button(action, view, style)
        move = Move(table.id, table.version, action)
        icon = f'<a href="{escape(posted_link(bot_username, move))}">🃏</a>'
        if action.act is Act.PLAY and action.card is not None:
            card = w.card(action.card, style)
            posted = _("{icon} Joguei {card}.").format(icon=icon, card=card)
            title = _("Jogar {card}").format(card=starred(action.card))
        elif action.act is Act.COVER and action.card is not None:
            posted = _("{icon} Cobri uma carta.").format(icon=icon)
            title = _("Cobrir {card}").format(card=w.card(action.card, style))
        elif action.act is Act.BLIND:
            posted = _("{icon} Joguei a {slot} às cegas.").format(icon=icon, slot=label)
            title = _("Jogar {card}").format(card=label)
        else:
            posted = f'<a href="{escape(posted_link(bot_username, move))}">{escape(label)}</a>'
            title = label
        results.append(
            InlineQueryResultArticle(
                id=move.encode(),
                title=title,
                description=summary,
                input_message_content=InputTextMessageContent(
                    posted,
                    parse_mode=ParseMode.HTML,
                    link_preview_options=LinkPreviewOptions(is_disabled=True),
                ),
            )
        )
    return results


# ------------------------------------------------------------------ closings


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
    last = [(seat, card, card is None) for seat, card in data.last]
    if last:
        lines.append(_("Última vaza: {plays}").format(plays=_plays(last, seats, t, style, None)))
    lines.append("🏁 " + hand_over_line(t, data, seats))
    if match_winner is not None:
        lines.append(_("🏆 Vitória de {team}!").format(team=team_name(seats, match_winner, t)))
    return "\n".join(lines)


def match_over_text(t: Translations, data: MatchEnd, seats: Seats) -> str:
    """The closing message of a match: winners and the final score (``12 × 7``)."""
    _ = t.gettext
    return _("🏆 Fim de jogo: vitória de <b>{team}</b>! <b>{x} × {y}</b>").format(
        team=team_name(seats, data.winner, t), x=data.score[0], y=data.score[1]
    )


def rematch_keyboard(t: Translations, table: Table) -> InlineKeyboardMarkup:
    """The Revanche button."""
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(t.gettext("🔁 Revanche"), callback_data=rematch_data(table.id))]]
    )


def retired_text(t: Translations) -> str:
    """What an old table message turns into once the table was posted again below."""
    return t.gettext("🃏 A mesa continua abaixo ⬇️")


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


def public_table(
    t: Translations,
    drawing: TableDrawing,
    time_left: float | None,
    bot_username: str,
    webapp: tuple[str, str] | None = None,
) -> tuple[str, InlineKeyboardMarkup | None]:
    """The group's table message for any status: lobby, match, end or cancellation.

    An ended match whose ending message may never have been shown carries the Revanche
    itself: the ending is never sent twice, and without it nobody could ask for one.
    """
    table, missing = drawing.table, drawing.missing
    if table.status == GameStatus.LOBBY:
        text = lobby_text(t, table, missing, drawing.waiting)
        return text, lobby_keyboard(t, table, missing, bot_username)
    if table.status == GameStatus.CANCELLED:
        return cancelled_by_text(t, table, drawing.cancelled_by), None
    text = table_text(t, table, table.view(0), time_left)
    if table.status == GameStatus.PLAYING:
        if drawing.last_hand is not None:  # the group chose not to hear it as a message
            text = "🏁 " + hand_over_line(t, drawing.last_hand, table.seats) + "\n" + text
        return text, table_keyboard(t, table, bot_username, webapp)
    return text, rematch_keyboard(t, table) if drawing.ending_unsure else None


# ------------------------------------------------------------------ commands


def rules_text(t: Translations, variant: str, rulebook_url: str) -> str:
    """/regras: a short summary of a variant and the rulebook's address."""
    _ = t.gettext
    w = words_for(t)
    rs = get_ruleset(variant)
    manilhas = (
        _("a carta seguinte à vira (4 depois do 3)")
        if rs.manilhas is None
        else w.cards(rs.manilhas)
    )
    return _(
        "<b>{title}</b>\n"
        "• Cartas, da mais fraca à mais forte: 4 5 6 7 Q J K A 2 3.\n"
        "• Manilhas: {manilhas}; entre elas ♣ > ♥ > ♠ > ♦.\n"
        "• Até três vazas; quem ganha duas leva a mão, que vale {value}.\n"
        "• Truco sobe a mão para {ladder}: aceite (Desce!), corra ou aumente.\n"
        "• Quem chega a {special} decide se joga a {hand}; 11 × 11 é a mão de ferro, às cegas.\n"
        "• Ganha quem fizer 12 pontos.\n"
        "Livro de regras completo: {url}"
    ).format(
        title=w.variant(rs),
        manilhas=manilhas,
        value=rs.hand_value,
        ladder=w.ladder(rs.ladder),
        special=rs.threshold(12),
        hand=w.special_hand(rs),
        url=escape(rulebook_url),
    )


def help_text(t: Translations, commands: Sequence[str]) -> str:
    """/ajuda: what the bot does and its ``commands`` (``command_table.help_lines``)."""
    return (
        "\n".join(
            [
                t.gettext("<b>Truco no Telegram</b>"),
                *commands,
                t.gettext(
                    "Suas cartas chegam no privado; no grupo, o botão 🃏 Minha mão mostra "
                    "suas jogadas."
                ),
            ]
        )
        + "\n"
        + t.gettext(
            "Com um robô de parceiro, você fala pelo time: ele espera sua resposta ao truco e à "
            "mão de onze/dez, corre se você correr e só decide sozinho se o seu tempo acabar."
        )
        + "\n"
        + t.gettext(
            "<b>Quem pode</b>: entrar, qualquer um do grupo; sair, quem está sentado; pôr ou "
            "tirar robôs, quem está sentado, quem abriu a mesa ou um admin; começar e cancelar, "
            "quem abriu ou um admin; /config, os admins. Admin anônimo cancela e configura, "
            "mas para jogar escreva como você mesmo."
        )
    )


def setting_label(t: Translations, setting: Setting, value: Any) -> str:
    """One value of a ``/config`` setting as its button names it (``45 s``, ``2×2``)."""
    _ = t.gettext
    w = words_for(t)
    if setting is Setting.VARIANT:
        return w.variant(get_ruleset(value))
    if setting is Setting.PLAYERS:
        return {0: _("pelo grupo"), 4: "2×2"}.get(value, "1×1")
    if setting is Setting.TARGET:
        return _("{n} pontos").format(n=value)
    if setting is Setting.TIMER:
        return f"{value} s"  # the same in every language
    if setting is Setting.COVERED or setting is Setting.SINAIS:
        return _("sim") if value else _("não")
    if setting is Setting.LADDER:
        return value or w.ladder(next(iter(HOUSE_LADDERS.values())).ladder)  # its own
    if setting is Setting.NOISE:
        return {
            Noise.ALL: _("tudo"),
            Noise.CALLS: _("só trucos e o fim"),
            Noise.END: _("só o fim"),
        }.get(Noise(value), _("tudo"))
    return language_name(value or "pt")


def config_view(
    t: Translations,
    chat: ChatSettings,
    setting: Setting | None = None,
    choices: Sequence[Any] = (),
    current: Any = None,
    *,
    bound: int | None = None,
) -> tuple[str, InlineKeyboardMarkup]:
    """/config: the group's table defaults and a button per setting; with ``setting``, the
    list of its ``choices`` (``current`` marked ✅) to pick one directly.

    ``bound``: the group a panel sent privately changes (its buttons carry it)."""
    _ = t.gettext
    text = config_summary(t, chat) + "\n" + _("Toque para mudar (só admins).")
    # short labels, two to a row: a phone shows them whole
    names = {
        Setting.VARIANT: _("Variante"),
        Setting.PLAYERS: _("Jogadores"),
        Setting.TARGET: _("Pontos"),
        Setting.TIMER: _("Tempo"),
        Setting.COVERED: _("Carta coberta"),
        Setting.LADDER: _("Escada"),
        Setting.SINAIS: _("Sinais"),
        Setting.LANGUAGE: _("Idioma"),
        Setting.NOISE: _("Avisos"),
    }
    if setting is None:
        buttons = [
            InlineKeyboardButton(n, callback_data=config_data(k, chat=bound))
            for k, n in names.items()
        ]
        buttons.append(
            InlineKeyboardButton(
                _("✖️ Fechar"), callback_data=config_data(None, close=True, chat=bound)
            )
        )
        return text, InlineKeyboardMarkup([buttons[i : i + 2] for i in range(0, len(buttons), 2)])
    text += "\n\n" + _("<b>{setting}</b>: escolha um valor.").format(setting=names[setting])
    picks = [
        InlineKeyboardButton(
            ("✅ " if value == current else "") + setting_label(t, setting, value),
            callback_data=config_data(setting, i, chat=bound),
        )
        for i, value in enumerate(choices)
    ]
    per_row = 1 if setting in (Setting.VARIANT, Setting.NOISE) else 3
    rows = [picks[i : i + per_row] for i in range(0, len(picks), per_row)]
    rows.append([InlineKeyboardButton(_("↩️ Voltar"), callback_data=config_data(None, chat=bound))])
    return text, InlineKeyboardMarkup(rows)


def config_summary(t: Translations, chat: ChatSettings) -> str:
    """The group's settings as /config lists them (also what a closed panel keeps)."""
    _ = t.gettext
    w = words_for(t)
    rs = get_ruleset(chat.variant)
    text = _(
        "<b>Configuração do grupo</b>\n"
        "Variante: {variant}\nJogadores: {size}\nPontos: {target}\nTempo por jogada: {timer} s\n"
        "Carta coberta: {covered}\nEscada do mineiro: {ladder}\nSinais no 2×2: {sinais}\n"
        "Idioma: {lang}"
    ).format(
        variant=w.variant(rs),
        size=setting_label(t, Setting.PLAYERS, chat.players),
        target=chat.target,
        timer=chat.timer,
        covered=setting_label(t, Setting.COVERED, chat.covered_cards),
        ladder=setting_label(t, Setting.LADDER, chat.ladder),
        sinais=setting_label(t, Setting.SINAIS, chat.sinais),
        lang=setting_label(t, Setting.LANGUAGE, chat.language),
    )
    return (
        text
        + "\n"
        + _("Avisos no grupo: {noise}").format(noise=setting_label(t, Setting.NOISE, chat.noise))
    )


def deck_keyboard(t: Translations) -> InlineKeyboardMarkup:
    """/baralho: traditional (3♣) or Spanish (3 de bastos) labels."""
    sample = Card.parse("3C")
    w = words_for(t)
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    t.gettext("Tradicional ({card})").format(card=w.card(sample)),
                    callback_data=deck_data(DeckStyle.TRADITIONAL),
                ),
                InlineKeyboardButton(
                    t.gettext("Espanhol ({card})").format(card=w.card(sample, DeckStyle.SPANISH)),
                    callback_data=deck_data(DeckStyle.SPANISH),
                ),
            ]
        ]
    )


def ranking_text(t: Translations, rows: Sequence[Any]) -> str:
    """/ranking: wins and matches per player, best first."""
    if not rows:
        return t.gettext("Ainda não há partidas terminadas aqui.")
    lines = [t.gettext("🏆 <b>Ranking</b> (vitórias / partidas)")]
    for i, row in enumerate(rows, 1):
        lines.append(f"{i}. {escape(row.name)} — {row.wins}/{row.played}")
    return "\n".join(lines)
