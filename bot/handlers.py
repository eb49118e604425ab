"""Update handlers: small async functions that check, store, answer, then redraw.

A button is answered only after its change is committed; every piece of
callback_data is parsed strictly and checked against the database.
"""

from __future__ import annotations

import contextlib
import html
import logging
from typing import Any

from sqlmodel import col, select
from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultsButton,
    Update,
    User,
)
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import Forbidden, TelegramError
from telegram.ext import ContextTypes

from bot import service, tutorial
from bot.codes import parse_lobby, parse_move, parse_rematch
from bot.i18n import translations
from bot.models import Chat, Game, Player
from bot.numbers import NumberRefused, parse_number
from bot.publish import (
    chat_translations,
    player_translations,
    refresh,
    runtime,
    schedule_hands,
    schedule_table,
)
from bot.render import (
    Translations,
    card_label,
    inline_results,
    reason_text,
    table_text,
    zone,
)
from bot.service import Refused, TableRequest
from engine import TableOptions, get_ruleset
from engine.cards import Card

log = logging.getLogger(__name__)
CONFIG_TARGETS = (12, 15, 18, 24, 30, 6, 9)
CONFIG_TIMERS = (60, 90, 120, 30, 45)
CONFIG_KEYS = ("kv", "kp", "kt", "kT", "kc", "kl", "kL")


def _t_user(user: User | None) -> Translations:
    from bot.i18n import language_for

    return translations(language_for(user.language_code if user else None))


async def _is_admin(context: ContextTypes.DEFAULT_TYPE, chat_id: int, user_id: int) -> bool:
    """Whether a person administers a group (private chats: always)."""
    if chat_id > 0:
        return True
    try:
        member = await context.bot.get_chat_member(chat_id, user_id)
    except TelegramError:
        return False
    return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


def _thread(update: Update) -> int | None:
    msg = update.effective_message
    if msg is not None and msg.is_topic_message and msg.message_thread_id:
        return msg.message_thread_id
    return None


def _upsert(context: ContextTypes.DEFAULT_TYPE, user: User, *, started: bool = False) -> Player:
    rt = runtime(context.application)
    with rt.db.session() as s:
        p = service.upsert_player(s, user.id, user.full_name, user.username, user.language_code)
        if started:
            p.started = True
        s.commit()
        return p


async def _reply(update: Update, context: ContextTypes.DEFAULT_TYPE, text: str, **kw: Any) -> None:
    """Answer a command in its chat (counted against the group budget), without waiting.

    Sends queue behind Telegram's 30 messages a second; the handler returns at once
    so that a backlog never holds an update slot that a button press needs.
    """
    msg = update.effective_message
    chat = update.effective_chat
    if msg is None or chat is None:
        return
    runtime(context.application).budget.spend(chat.id)

    async def send() -> None:
        try:
            await msg.reply_text(text, do_quote=False, **kw)
        except TelegramError as exc:
            log.warning("reply in %s failed: %s", chat.id, exc)

    context.application.create_task(send(), update=update)


def _group_t(context: ContextTypes.DEFAULT_TYPE, chat_id: int) -> Translations:
    with runtime(context.application).db.session() as s:
        return chat_translations(s, chat_id)


def _chat_t(update: Update, context: ContextTypes.DEFAULT_TYPE) -> Translations:
    chat = update.effective_chat
    if chat is not None and chat.type != ChatType.PRIVATE:
        return _group_t(context, chat.id)
    return _t_user(update.effective_user)


async def _greet_privately(context: ContextTypes.DEFAULT_TYPE, player: Player, game: Game) -> bool:
    """Tell a person privately they sat down; False (and unmarked) if they never started us."""
    t = player_translations(player)
    rt = runtime(context.application)
    try:
        await context.bot.send_message(
            player.id, t.gettext("Você sentou numa mesa de truco. Suas cartas chegam aqui.")
        )
    except Forbidden:
        return False
    except TelegramError:
        return player.started
    with rt.db.session() as s:
        p = s.get(Player, player.id)
        if p is not None:
            p.started = True
            s.add(p)
            s.commit()
    return True


def _greet_later(context: ContextTypes.DEFAULT_TYPE, player: Player, game: Game) -> None:
    """Greet a newly seated person in the background; redraw the lobby if they turn out reachable."""

    async def greet() -> None:
        if await _greet_privately(context, player, game):
            schedule_table(context.application, game.chat_id, game.thread_id, game.id or 0)

    context.application.create_task(greet())


# ----------------------------------------------------------------- commands


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Greet in private, remember the person can be written to, resume a deep-linked table."""
    user = update.effective_user
    chat = update.effective_chat
    if user is None or chat is None:
        return
    if chat.type != ChatType.PRIVATE:
        await help_command(update, context)
        return
    player = _upsert(context, user, started=True)
    t = player_translations(player)
    _ = t.gettext
    await _reply(
        update,
        context,
        _(
            "Olá, {name}! Aqui chegam as suas cartas quando você joga num grupo.\n"
            "Jogue contra robôs agora com /truco (ou /truco 2x2), aprenda com /tutorial "
            "e veja tudo em /ajuda."
        ).format(name=html.escape(player.name)),
    )
    arg = context.args[0] if context.args else ""
    if arg.startswith("g"):
        try:
            game_id = parse_number(arg[1:], low=1)
        except NumberRefused as refused:
            reason = "no_game" if refused.reason == NumberRefused.TOO_LARGE else "bad_link"
            await _reply(update, context, reason_text(t, reason))
            return
        rt = runtime(context.application)
        game = service.load_game(rt.db, game_id)
        if game is None:
            await _reply(update, context, reason_text(t, "no_game"))
        elif game.status == "lobby":
            schedule_table(context.application, game.chat_id, game.thread_id, game.id or 0)
        elif game.status == "playing":
            schedule_hands(context.application, game.chat_id, game.id or 0)


async def new_table(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/truco: open a lobby in a group, or start a game against robots in private."""
    user = update.effective_user
    chat = update.effective_chat
    if user is None or chat is None:
        return
    rt = runtime(context.application)
    private = chat.type == ChatType.PRIVATE
    player = _upsert(context, user, started=private)
    t = _chat_t(update, context)
    thread = _thread(update)
    try:
        with rt.db.session() as s:
            chat_row = service.get_chat(s, chat.id, chat.type, chat.title or "")
            request = service.parse_table_args(context.args or [], chat_row)
            s.commit()
        game = service.open_table(rt.db, chat.id, thread, player, request, private=private)
    except Refused as r:
        # the argument is shown back inside HTML: escaped, and short enough for one line
        params = {k: html.escape(str(v)[:30]) for k, v in r.params.items()}
        await _reply(update, context, reason_text(t, r.reason, params))
        return
    except ValueError as exc:
        await _reply(update, context, html.escape(str(exc)))
        return
    if private:
        await _start_private(update, context, game, request)
        return
    schedule_table(context.application, game.chat_id, game.thread_id, game.id or 0)
    if not player.started:
        _greet_later(context, player, game)


async def _start_private(
    update: Update, context: ContextTypes.DEFAULT_TYPE, game: Game, request: TableRequest
) -> None:
    rt = runtime(context.application)
    try:
        change = service.start_game(rt.db, game.id or 0, rt.rules)
    except Refused as r:
        await _reply(update, context, reason_text(_chat_t(update, context), r.reason, r.params))
        return
    refresh(context.application, change)


async def score(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/placar: the current table of this chat."""
    chat = update.effective_chat
    if chat is None:
        return
    rt = runtime(context.application)
    t = _chat_t(update, context)
    with rt.db.session() as s:
        game = service.active_game(s, chat.id, _thread(update))
    if game is None or game.snapshot is None:
        await _reply(
            update, context, t.gettext("Nenhuma partida em andamento. Abra uma com /truco.")
        )
        return
    view = service.load_match(game).view(0)
    seats = service.load_seats(game)
    await _reply(update, context, table_text(t, game, view, seats, zone(rt.config.timezone)))


async def ranking(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/ranking: wins and matches per player in this chat."""
    chat = update.effective_chat
    if chat is None:
        return
    rt = runtime(context.application)
    t = _chat_t(update, context)
    rows = service.ranking(rt.db, chat.id)
    if not rows:
        await _reply(update, context, t.gettext("Ainda não há partidas terminadas aqui."))
        return
    lines = [t.gettext("🏆 <b>Ranking</b> (vitórias / partidas)")]
    for i, (name, wins, played) in enumerate(rows, 1):
        lines.append(f"{i}. {html.escape(name)} — {wins}/{played}")
    await _reply(update, context, "\n".join(lines))


async def rules(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/regras: a short summary of the table's variant and a link to the rulebook."""
    chat = update.effective_chat
    if chat is None:
        return
    rt = runtime(context.application)
    t = _chat_t(update, context)
    _ = t.gettext
    with rt.db.session() as s:
        row = s.get(Chat, chat.id)
        variant = row.variant if row else "paulista"
    rs = get_ruleset(variant)
    manilhas = (
        _("a carta seguinte à vira (4 depois do 3)")
        if rs.manilhas is None
        else " ".join(c.label for c in rs.manilhas)
    )
    text = _(
        "<b>{title}</b>\n"
        "• Cartas, da mais fraca à mais forte: 4 5 6 7 Q J K A 2 3.\n"
        "• Manilhas: {manilhas}; entre elas ♣ > ♥ > ♠ > ♦.\n"
        "• Três rodadas; quem ganha duas leva a mão, que vale {value}.\n"
        "• Truco sobe a mão para {ladder}: aceite (Desce!), corra ou aumente.\n"
        "• Quem chega a {special} decide se joga a {hand}; 11 × 11 é a mão de ferro, às cegas.\n"
        "• Ganha quem fizer 12 pontos.\n"
        "Livro de regras completo: {url}"
    ).format(
        title=rs.title,
        manilhas=manilhas,
        value=rs.hand_value,
        ladder="-".join(map(str, rs.ladder)),
        special=rs.threshold(12),
        hand=_("mão de dez") if rs.special_hand == "mao_de_dez" else _("mão de onze"),
        url=html.escape(rt.config.rulebook_url),
    )
    await _reply(update, context, text)


async def help_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/ajuda: what the bot does and its commands."""
    t = _chat_t(update, context)
    text = t.gettext(
        "<b>Truco no Telegram</b>\n"
        "/truco [paulista|mineiro|trembao] [1x1|2x2] [pontos] — abre uma mesa\n"
        "/placar — a partida em andamento\n"
        "/ranking — quem mais ganhou aqui\n"
        "/regras — resumo das regras\n"
        "/baralho — cartas tradicionais ou espanholas\n"
        "/config — opções do grupo (admins)\n"
        "/cancelar — encerra a mesa\n"
        "/tutorial — aprenda jogando (no privado)\n"
        "Suas cartas chegam no privado; no grupo, o botão 🃏 Minha mão mostra suas jogadas."
    )
    await _reply(update, context, text)


async def cancel_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/cancelar: end the table of this chat (creator or admin)."""
    user = update.effective_user
    chat = update.effective_chat
    if user is None or chat is None:
        return
    rt = runtime(context.application)
    t = _chat_t(update, context)
    with rt.db.session() as s:
        game = service.active_game(s, chat.id, _thread(update))
    if game is None:
        await _reply(update, context, t.gettext("Não há mesa aberta aqui."))
        return
    ok = game.creator_id == user.id or await _is_admin(context, chat.id, user.id)
    try:
        change = service.cancel(rt.db, game.id or 0, user.id, authorised=ok)
    except Refused as r:
        await _reply(update, context, reason_text(t, r.reason, r.params))
        return
    refresh(context.application, change)
    if chat.type == ChatType.PRIVATE:
        await _reply(update, context, t.gettext("🚫 Mesa cancelada."))


def _config_view(t: Translations, chat: Chat) -> tuple[str, InlineKeyboardMarkup]:
    _ = t.gettext
    rs = get_ruleset(chat.variant)
    yes_no = _("sim") if chat.covered_cards else _("não")
    ladder = chat.ladder or "-".join(map(str, get_ruleset("mineiro").ladder))
    lang = "English" if chat.language == "en" else "Português"
    text = _(
        "<b>Configuração do grupo</b>\n"
        "Variante: {variant}\nJogadores: {size}\nPontos: {target}\nTempo por jogada: {timer} s\n"
        "Carta coberta: {covered}\nEscada do mineiro: {ladder}\nIdioma: {lang}\n"
        "Toque para mudar (só admins)."
    ).format(
        variant=rs.title,
        size="2×2" if chat.players == 4 else "1×1",
        target=chat.target,
        timer=chat.timer,
        covered=yes_no,
        ladder=ladder,
        lang=lang,
    )
    rows = [
        [
            InlineKeyboardButton(_("Variante"), callback_data="kv"),
            InlineKeyboardButton(_("Jogadores"), callback_data="kp"),
            InlineKeyboardButton(_("Pontos"), callback_data="kt"),
        ],
        [
            InlineKeyboardButton(_("Tempo"), callback_data="kT"),
            InlineKeyboardButton(_("Carta coberta"), callback_data="kc"),
        ],
        [
            InlineKeyboardButton(_("Escada mineira"), callback_data="kl"),
            InlineKeyboardButton(_("Idioma"), callback_data="kL"),
        ],
    ]
    return text, InlineKeyboardMarkup(rows)


async def config_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/config: the group's table defaults, changed with buttons by admins."""
    user = update.effective_user
    chat = update.effective_chat
    if user is None or chat is None:
        return
    t = _chat_t(update, context)
    if chat.type != ChatType.PRIVATE and not await _is_admin(context, chat.id, user.id):
        await _reply(update, context, reason_text(t, "admin_only"))
        return
    rt = runtime(context.application)
    with rt.db.session() as s:
        row = service.get_chat(s, chat.id, chat.type, chat.title or "")
        s.commit()
    text, markup = _config_view(t, row)
    await _reply(update, context, text, reply_markup=markup)


def _cycle(values: tuple[Any, ...], current: Any) -> Any:
    return values[(values.index(current) + 1) % len(values)] if current in values else values[0]


async def on_config(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A /config button: change one setting (admins only)."""
    q = update.callback_query
    if q is None or q.message is None:
        return
    chat_id = q.message.chat.id
    t = _group_t(context, chat_id) if chat_id < 0 else _t_user(q.from_user)
    if not await _is_admin(context, chat_id, q.from_user.id):
        await q.answer(reason_text(t, "admin_only"), show_alert=True)
        return
    key = q.data or ""
    if key not in CONFIG_KEYS:
        await q.answer(reason_text(t, "bad_button"), show_alert=True)
        return
    rt = runtime(context.application)
    with rt.db.session() as s:  # no await inside: an open write would lock SQLite for all
        row = service.get_chat(s, chat_id)
        if key == "kv":
            row.variant = _cycle(("paulista", "mineiro", "trem-bao"), row.variant)
        elif key == "kp":
            row.players = 4 if row.players == 2 else 2
        elif key == "kt":
            row.target = _cycle(CONFIG_TARGETS, row.target)
        elif key == "kT":
            row.timer = _cycle(CONFIG_TIMERS, row.timer)
        elif key == "kc":
            row.covered_cards = not row.covered_cards
        elif key == "kl":
            row.ladder = None if row.ladder else "4-6-10-12"
        else:
            row.language = None if row.language == "en" else "en"
        TableOptions(row.players, row.target, row.covered_cards, None, row.timer).validated(
            get_ruleset(row.variant)
        )
        s.add(row)
        s.commit()
    t = _group_t(context, chat_id) if chat_id < 0 else t
    await q.answer(t.gettext("Configuração salva."))
    text, markup = _config_view(t, row)
    try:
        await q.edit_message_text(text, reply_markup=markup)
    except TelegramError as exc:
        log.info("config edit failed: %s", exc)


async def deck_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/baralho: choose traditional (3♣) or Spanish (3 de bastos) card labels (R11)."""
    user = update.effective_user
    if user is None:
        return
    player = _upsert(context, user)
    t = player_translations(player)
    sample = Card.parse("3C")
    markup = InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    t.gettext("Tradicional ({card})").format(card=card_label(sample)),
                    callback_data="dt",
                ),
                InlineKeyboardButton(
                    t.gettext("Espanhol ({card})").format(card=card_label(sample, "spanish")),
                    callback_data="ds",
                ),
            ]
        ]
    )
    await _reply(update, context, t.gettext("Como você quer ver as cartas?"), reply_markup=markup)


async def on_deck(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A /baralho button: store the person's deck style and redraw their hands."""
    q = update.callback_query
    if q is None:
        return
    style = {"dt": "traditional", "ds": "spanish"}.get(q.data or "")
    player = _upsert(context, q.from_user)
    t = player_translations(player)
    if style is None:
        await q.answer(reason_text(t, "bad_button"), show_alert=True)
        return
    rt = runtime(context.application)
    with rt.db.session() as s:
        p = s.get(Player, q.from_user.id)
        assert p is not None
        p.deck = style
        s.add(p)
        s.commit()
        games = [
            (g.id, g.chat_id)
            for g in s.exec(select(Game).where(col(Game.status) == "playing"))
            if service.seat_of(service.load_seats(g), q.from_user.id) is not None
        ]
    label = card_label(Card.parse("3C"), style)
    await q.answer(t.gettext("Pronto: suas cartas aparecem como {card}.").format(card=label))
    for gid, chat_id in games:
        schedule_hands(context.application, chat_id, gid or 0)


async def tutorial_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/tutorial: a guided hand in private, checked by the engine."""
    chat = update.effective_chat
    user = update.effective_user
    if chat is None or user is None:
        return
    if chat.type != ChatType.PRIVATE:
        t = _chat_t(update, context)
        await _reply(
            update, context, t.gettext("O tutorial é no privado: me chame lá com /tutorial.")
        )
        return
    _upsert(context, user, started=True)
    text, markup = tutorial.begin(runtime(context.application).db, user.id)
    await _reply(update, context, text, reply_markup=markup)


async def on_tutorial(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A tutorial button: right move → explanation and the next prompt; wrong → a hint."""
    q = update.callback_query
    if q is None:
        return
    answer = tutorial.press(runtime(context.application).db, q.from_user.id, q.data or "")
    await q.answer(answer.alert or None, show_alert=bool(answer.alert))
    if answer.text is not None:
        try:
            await q.edit_message_text(answer.text, reply_markup=answer.markup)
        except TelegramError as exc:
            log.info("tutorial edit failed: %s", exc)


# ------------------------------------------------------------------ buttons


async def on_lobby(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A lobby button: Entrar, Sair, + Robô, − Robô, Começar, Cancelar."""
    q = update.callback_query
    if q is None:
        return
    rt = runtime(context.application)
    try:
        game_id, op = parse_lobby(q.data or "")
    except NumberRefused:
        await q.answer(reason_text(_t_user(q.from_user), "no_game"), show_alert=True)
        return
    except ValueError:
        await q.answer(reason_text(_t_user(q.from_user), "bad_button"), show_alert=True)
        return
    game = service.load_game(rt.db, game_id)
    t = _group_t(context, game.chat_id) if game else _t_user(q.from_user)
    if game is None:
        await q.answer(reason_text(t, "no_game"), show_alert=True)
        return
    player = _upsert(context, q.from_user)
    authorised = q.from_user.id == game.creator_id
    if op in ("go", "x") and not authorised:
        authorised = await _is_admin(context, game.chat_id, q.from_user.id)
    if (
        op == "go"
        and not player.started
        and service.seat_of(service.load_seats(game), player.id) is not None
    ):
        player.started = await _greet_privately(context, player, game)
    try:
        change = service.lobby_change(
            rt.db, game_id, player, op, authorised=authorised, rules=rt.rules
        )
    except Refused as r:
        await q.answer(reason_text(t, r.reason, r.params), show_alert=True)
        if r.reason == "must_start":
            schedule_table(context.application, game.chat_id, game.thread_id, game_id)
        return
    if op == "j" and not player.started:
        # the deep link at once; a greeting that gets through makes it moot
        await q.answer(url=f"https://t.me/{context.bot.username}?start=g{game_id}")
        _greet_later(context, player, game)
    else:
        await q.answer()
    refresh(context.application, change)


async def on_move(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A hand button: play, cover, blind card, truco and raises, answers, mão de onze."""
    q = update.callback_query
    if q is None:
        return
    t = _t_user(q.from_user)
    try:
        move = parse_move(q.data or "")
    except NumberRefused:
        await q.answer(reason_text(t, "no_game"), show_alert=True)
        return
    except ValueError:
        await q.answer(reason_text(t, "bad_button"), show_alert=True)
        return
    rt = runtime(context.application)
    try:
        change = service.act(
            rt.db, move.game_id, move.version, None, move.action, rt.rules, user_id=q.from_user.id
        )
    except Refused as r:
        await q.answer(reason_text(t, r.reason, r.params), show_alert=True)
        return
    await q.answer()
    refresh(context.application, change)


async def on_rematch(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Revanche: the same seats start a new match."""
    q = update.callback_query
    if q is None:
        return
    rt = runtime(context.application)
    try:
        game_id = parse_rematch(q.data or "")
        change = service.rematch(rt.db, game_id, q.from_user.id, rt.rules)
    except NumberRefused:
        await q.answer(reason_text(_t_user(q.from_user), "no_game"), show_alert=True)
        return
    except ValueError:
        await q.answer(reason_text(_t_user(q.from_user), "bad_button"), show_alert=True)
        return
    except Refused as r:
        chat = q.message.chat.id if q.message else 0
        t = _group_t(context, chat) if chat < 0 else _t_user(q.from_user)
        await q.answer(reason_text(t, r.reason, r.params), show_alert=True)
        return
    await q.answer()
    refresh(context.application, change)


async def on_garbage(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Any callback_data no handler recognised: a short alert, nothing else."""
    q = update.callback_query
    if q is not None:
        await q.answer(reason_text(_t_user(q.from_user), "bad_button"), show_alert=True)


# ------------------------------------------------------------------ inline mode


def _turn_of(db: Any, user_id: int) -> tuple[Game, int] | None:
    """The person's most relevant running game: one where they must act, else the newest."""
    with db.session() as s:
        games = s.exec(
            select(Game).where(col(Game.status) == "playing").order_by(col(Game.updated_at).desc())
        ).all()
    best: tuple[Game, int] | None = None
    for g in games:
        seat = service.seat_of(service.load_seats(g), user_id)
        if seat is None:
            continue
        if seat in service.load_match(g).to_act():
            return g, seat
        best = best or (g, seat)
    return best


async def on_inline(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """🃏 Minha mão: list the presser's legal actions as inline results."""
    iq = update.inline_query
    if iq is None:
        return
    rt = runtime(context.application)
    player = _upsert(context, iq.from_user)
    t = player_translations(player)
    found = _turn_of(rt.db, iq.from_user.id)
    if found is None:
        button = InlineQueryResultsButton(
            text=t.gettext("Você não está em nenhuma partida"), start_parameter="ajuda"
        )
        await iq.answer([], cache_time=0, is_personal=True, button=button)
        return
    game, seat = found
    view = service.load_match(game).view(seat)
    results = inline_results(t, game, view, player.deck)
    button = None
    if not results:
        cards = " ".join(card_label(c, player.deck) for c in view.hand)
        button = InlineQueryResultsButton(
            text=t.gettext("Não é a sua vez · {cards}").format(cards=cards or "—"),
            start_parameter=f"g{game.id}",
        )
    await iq.answer(results, cache_time=0, is_personal=True, button=button)


async def on_chosen(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """An inline result was chosen: apply it like the button it stands for."""
    chosen = update.chosen_inline_result
    if chosen is None:
        return
    rt = runtime(context.application)
    try:
        move = parse_move(chosen.result_id)
        change = service.act(
            rt.db,
            move.game_id,
            move.version,
            None,
            move.action,
            rt.rules,
            user_id=chosen.from_user.id,
            source="inline",
        )
    except ValueError:
        return
    except Refused as r:
        player = _upsert(context, chosen.from_user)
        if player.started:
            t = player_translations(player)
            with contextlib.suppress(TelegramError):  # nobody to tell
                await context.bot.send_message(player.id, reason_text(t, r.reason, r.params))
        return
    refresh(context.application, change)


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Log any exception a handler raised; answer a pending button so it stops spinning."""
    log.error("update failed: %s", context.error, exc_info=context.error)
    if isinstance(update, Update) and update.callback_query is not None:
        try:
            t = _t_user(update.callback_query.from_user)
            await update.callback_query.answer(reason_text(t, "unknown"), show_alert=True)
        except TelegramError:
            pass  # already answered
