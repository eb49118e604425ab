"""/marcador: a scoreboard message for friends playing with a real deck at the same table."""

from __future__ import annotations

import html

from telegram import Update

from bot.domain import marcador, people
from bot.domain.marcador import BoardRefused, Command, NewMatch, Press, Undo
from bot.i18n import Translations
from bot.telegram.arguments import marcador_request
from bot.telegram.callbacks import parse_marcador
from bot.telegram.context import BotContext
from bot.telegram.handlers import buttons
from bot.telegram.handlers.common import reply
from bot.telegram.publish.marcador import schedule_board
from engine.rulesets import MAX_TARGET, MIN_TARGET

ECHOED = 30
"""Characters of a misunderstood argument shown back (as /truco does)."""


def refusal_text(t: Translations, refused: BoardRefused) -> str:
    """A refused ``/marcador`` request or press in one line."""
    _ = t.gettext
    texts = {
        "bad_arg": _("Não entendi “{arg}”. Exemplo: /marcador mineiro 12 Nós x Eles"),
        "bad_target": _("A partida vai de {low} a {high} pontos."),
        "no_board": _("Esse marcador não existe mais."),
        "over": _("A partida acabou: toque em Nova partida."),
        "value": _("A mão não pode valer isso agora."),
        "empty": _("Não há mão para desfazer."),
        "busy": _("Muita gente tocando ao mesmo tempo: tente de novo."),
    }
    text = texts.get(refused.reason, _("Botão inválido."))
    # the argument is shown back inside HTML: escaped, and short enough for one line
    arg = html.escape(str(refused)[:ECHOED])
    return text.format(arg=arg, low=MIN_TARGET, high=MAX_TARGET)


async def marcador_command(update: Update, context: BotContext) -> None:
    """/marcador [variante] [pontos] [Time A x Time B]: post a scoreboard everyone can press."""
    person, chat, msg = context.person, update.effective_chat, update.effective_message
    if person is None or chat is None or msg is None:
        return
    t = context.t
    settings = await context.call(
        people.chat_settings, context.db, chat.id, chat.type, chat.title or ""
    )
    try:
        placar = marcador_request(list(context.args or []), settings)
    except BoardRefused as refused:
        await reply(update, context, refusal_text(t, refused))
        return
    throttle = context.runtime.throttle
    if not await context.call(throttle.may_open_board, chat.id, person.id):
        # a repeat (or a crowd) asking again: the scoreboards above serve, the table comes first
        text = t.gettext("Já tem marcador novo aqui: use o de cima (um por minuto).")
        await reply(update, context, text)
        return
    thread = msg.message_thread_id if msg.is_topic_message else None
    board = await context.call(marcador.open_board, context.db, chat.id, thread, person, placar)
    schedule_board(context.application, chat.id, board.id, wait=0)


@buttons.button(buttons.plain(parse_marcador))
async def on_marcador(
    press: buttons.Press[tuple[int, Command]], context: BotContext
) -> buttons.Answer | None:
    """A scoreboard button: anyone in the group marks a hand, undoes it or starts again."""
    q, person, t = press.query, press.person, press.t
    if q.message is None:
        return None
    board_id, command = press.data
    found = await context.call(marcador.load, context.db, board_id)
    if found is None or found.chat_id != q.message.chat.id:
        raise buttons.Alert(refusal_text(t, BoardRefused("no_board")))
    try:
        board = await context.call(marcador.press, context.db, board_id, person, command)
    except BoardRefused as refused:
        raise buttons.Alert(refusal_text(t, refused)) from None
    p = board.placar
    if isinstance(command, Press):
        note = f"{p.names[command.team]} +{command.points}: {p.score[0]} × {p.score[1]}"
    elif isinstance(command, Undo):
        note = t.gettext("Desfeito: {a} × {b}").format(a=p.score[0], b=p.score[1])
    else:
        assert isinstance(command, NewMatch)
        note = t.gettext("Nova partida: 0 × 0")

    async def redraw() -> None:
        schedule_board(context.application, board.chat_id, board.id)

    return buttons.Answer(text=note, then=redraw)
