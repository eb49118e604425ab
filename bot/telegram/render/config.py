"""/config (the chat's settings, their values) and /baralho (the deck's style)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.domain.values.settings import ChatSettings, Noise, Setting
from bot.i18n import SOURCE, Translations, language_name, words_for
from bot.telegram.callbacks import config_data, deck_data
from engine import get_ruleset
from engine.cards import Card, DeckStyle
from engine.rulesets import HOUSE_LADDERS


def setting_label(t: Translations, setting: Setting, value: Any) -> str:
    """One value of a ``/config`` setting as its button names it (``45 s``, ``2×2``)."""
    _ = t.gettext
    w = words_for(t)
    if setting is Setting.VARIANT:
        return w.variant(get_ruleset(value))
    if setting is Setting.PLAYERS:
        return {0: _("pelo grupo"), 4: "2×2"}.get(value, "1×1")
    if setting is Setting.TARGET:
        return _("{n} pontos").format(n=value) if value else _("padrão da variante")
    if setting is Setting.TIMER:
        return f"{value} s"  # the same in every language
    if setting in (Setting.COVERED, Setting.SINAIS, Setting.FLOR):
        return _("sim") if value else _("não")
    if setting is Setting.LADDER:
        return value or w.ladder(next(iter(HOUSE_LADDERS.values())).ladder)  # its own
    if setting is Setting.NOISE:
        return {
            Noise.ALL: _("tudo"),
            Noise.CALLS: _("só trucos e o fim"),
            Noise.END: _("só o fim"),
        }.get(Noise(value), _("tudo"))
    return language_name(value or SOURCE)


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
        Setting.FLOR: _("Flor"),
        Setting.LANGUAGE: _("Idioma"),
        Setting.NOISE: _("Avisos"),
    }
    if chat.id > 0:  # a private chat speaks its person's Telegram language: nothing to pick
        del names[Setting.LANGUAGE]
    if not get_ruleset(chat.variant).envido:  # flor exists only at a gaudério table
        del names[Setting.FLOR]
    if not get_ruleset(chat.variant).covered_cards:  # and a gaudério table has no covered card
        del names[Setting.COVERED]
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
        target=target_summary(t, chat),
        timer=chat.timer,
        covered=setting_label(t, Setting.COVERED, chat.covered_cards)
        if rs.covered_cards
        else _("não se joga no {variant}").format(variant=w.variant(rs)),
        ladder=setting_label(t, Setting.LADDER, chat.ladder),
        sinais=setting_label(t, Setting.SINAIS, chat.sinais),
        # a private chat speaks its person's Telegram language (``t``'s), a group its setting
        lang=words_for(t).name
        if chat.id > 0
        else setting_label(t, Setting.LANGUAGE, chat.language),
    )
    if rs.envido:
        text += "\n" + _("Flor: {flor}").format(flor=setting_label(t, Setting.FLOR, chat.flor))
    return (
        text
        + "\n"
        + _("Avisos no grupo: {noise}").format(noise=setting_label(t, Setting.NOISE, chat.noise))
    )


def target_summary(t: Translations, chat: ChatSettings) -> str:
    """The group's target as /config lists it: its number, or the variant's default for
    the table's size (``padrão: 24 no 2×2, 18 no 1×1``)."""
    if chat.target:
        return str(chat.target)
    rs = get_ruleset(chat.variant)
    four, two = rs.default_target_for(4), rs.default_target_for(2)
    if chat.players or four == two:
        return t.gettext("padrão ({n})").format(n=rs.default_target_for(chat.players or 4))
    return t.gettext("padrão: {four} no 2×2, {two} no 1×1").format(four=four, two=two)


def deck_keyboard(t: Translations) -> InlineKeyboardMarkup:
    """/baralho: traditional (3♣) or Spanish (3 de bastos) labels."""
    sample = Card.parse("3C")
    w = words_for(t)
    # one to a row: "Espanhol (3 de bastos)" does not fit half a phone's width
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    t.gettext("Tradicional ({card})").format(card=w.card(sample)),
                    callback_data=deck_data(DeckStyle.TRADITIONAL),
                )
            ],
            [
                InlineKeyboardButton(
                    t.gettext("Espanhol ({card})").format(card=w.card(sample, DeckStyle.SPANISH)),
                    callback_data=deck_data(DeckStyle.SPANISH),
                )
            ],
        ]
    )


def panel_sent_privately(t: Translations, title: str) -> str:
    """Above a /config panel sent to an admin privately: why it came here."""
    return t.gettext(
        "O grupo {title} está com as mensagens contadas agora (a mesa vem primeiro): "
        "o painel veio aqui, e muda a configuração de lá."
    ).format(title=escape(title))


def private_language_text(t: Translations, language: str) -> str:
    """/idioma in a private chat: the bot speaks the person's Telegram language there."""
    return t.gettext(
        "Aqui eu falo {language}, o idioma do seu Telegram. Num grupo, os admins escolhem "
        "o idioma com /idioma."
    ).format(language=language)


def saved_toast(t: Translations) -> str:
    """The toast of a /config value picked."""
    return t.gettext("Configuração salva.")


def saved_text(t: Translations, chat: ChatSettings) -> str:
    """The /config panel once a value is picked: what is stored, no buttons."""
    return config_summary(t, chat) + "\n\n" + t.gettext("✅ Salvo. /config para mudar mais.")


def deck_question(t: Translations) -> str:
    """/baralho's question, above ``deck_keyboard``."""
    return t.gettext("Como você quer ver as cartas?")


def deck_chosen(t: Translations, label: str) -> str:
    """/baralho answered: how cards look now (``label``: the 3♣ drawn so)."""
    return t.gettext("Pronto: suas cartas aparecem como {card}.").format(card=label)
