"""A player's private hand, drawn from that seat's own ``View``, its buttons, and the
inline results that offer the hand in any chat."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
    LinkPreviewOptions,
    WebAppInfo,
)
from telegram.constants import ParseMode

from bot.domain.values.game import HandSummary, Table
from bot.i18n import Translations, words_for
from bot.links import button_url
from bot.telegram.callbacks import Move, back_data, posted_link, signals_data
from bot.telegram.render.common import HTML, seat_name
from bot.telegram.render.results import hand_over_line, last_round_line, points_over_lines
from bot.telegram.render.table import open_table_label, own_plays, table_head, table_text
from bot.wording.sinais import hand_signals
from bot.wording.table import COVERED, countdown
from engine import HandKind, View, get_ruleset
from engine.actions import Act
from engine.cards import Card, DeckStyle


def app_hand(
    t: Translations, table: Table, webapp: tuple[str, str]
) -> tuple[str, InlineKeyboardMarkup]:
    """The private hand message while the person has the table open in the Mini App: it
    points there, with no move button that could go stale."""
    text = t.gettext("🃏 Sua mão está no app da mesa.")
    button = InlineKeyboardButton(
        open_table_label(t), web_app=WebAppInfo(button_url(webapp[0], table.id))
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
    missed: Sequence[HandSummary] = (),
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
    ``missed``: hands that ended before ``previous`` and that no drawing of this message
    told (two hands ended between two drawings): their results, one line each, first.
    """
    away = away or stand_in
    _ = t.gettext
    seats = table.seats
    lines = ["🏁 " + hand_over_line(t, gone, seats) for gone in missed]
    if previous is not None:
        lines.append("🏁 " + hand_over_line(t, previous, seats))
        lines += points_over_lines(t, previous, seats, style)
        last = last_round_line(t, previous, seats, style)
        if last:
            lines.append(last)
        lines.append("")
    if away and view.match_winner is None:
        lines += [*table_head(t, table, view, style), ""]
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
        cards = marked_cards(t, view.hand, view, style)
        lines.append(_("<b>Sua mão:</b> {cards}").format(cards=cards))
    if view.envido_points is not None and not view.rounds:  # gaudério: round 1's envido
        lines.append(_("Seus pontos de envido: {n}").format(n=view.envido_points))
    if view.partner_hand is not None and view.partner is not None:
        lines.append(
            _("Mão de {name}: {cards}").format(
                name=seat_name(seats[view.partner], t),
                cards=marked_cards(t, view.partner_hand, view, style),
            )
        )
    robot_moves = table.stand_in_moves.get(view.seat, ())
    # the hand's signals, sent and known, in the message itself: none is a message of its
    # own (the private chat would fill up with them), the redraw of the hand says them
    lines += [said.text for said in hand_signals(t, view, seats, HTML, robot_moves)]
    if stand_in:
        lines.append(
            _(
                "🤖 Um robô joga por você enquanto você está fora da mesa. "
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
        mine = [(s, card, cov) for vaza in own_plays(view) for s, card, cov in vaza]
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


def marked_cards(t: Translations, cards: Sequence[Card], view: View, style: DeckStyle) -> str:
    """Cards of a hand with each manilha starred and named: ``3♣ 6♦ (★ pica-fumo)``;
    gaudério's four top cards are not manilhas of a suit (the 1 of spades is no espadilha,
    R13.1) and are starred as bravas, the word the group's table and the app use."""
    w, _ = words_for(t), t.gettext

    def named(c: Card) -> str:
        return _("brava") if view.ruleset.envido else w.manilha(c.suit)

    shown = [
        f"{w.card(c, style)} (★ {named(c)})" if c in view.manilhas else w.card(c, style)
        for c in cards
    ]
    return w.card_row(shown, style) or "—"


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

    cards = w.card_row((starred(c) for c in view.hand), style)
    if view.kind == HandKind.IRON:
        cards = " ".join(COVERED for _slot in view.blind_slots)
    summary = _("Sua mão: {cards} · valendo {n}").format(cards=cards or "—", n=view.stake)
    if view.partner_hand is not None:
        summary += " · " + _("parceiro: {cards}").format(
            cards=w.card_row((starred(c) for c in view.partner_hand), style)
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


def inline_nowhere(t: Translations) -> str:
    """🃏 Minha mão from someone in no match."""
    return t.gettext("Você não está em nenhuma partida")


def inline_elsewhere(t: Translations) -> str:
    """🃏 Minha mão asked outside the table's chat."""
    return t.gettext("Jogue no chat da mesa")


def inline_not_your_turn(t: Translations, cards: str) -> str:
    """🃏 Minha mão off the person's turn: their cards."""
    return t.gettext("Não é a sua vez · {cards}").format(cards=cards)
