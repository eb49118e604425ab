"""The answers of /regras and /ajuda."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from bot.i18n import Translations, words_for
from engine import get_ruleset
from engine.cards import DeckStyle


def rules_text(t: Translations, variant: str, rulebook_url: str) -> str:
    """/regras: a short summary of a variant and the rulebook's address."""
    _ = t.gettext
    w = words_for(t)
    rs = get_ruleset(variant)
    if not rs.special_hands:  # gaudério (R13): no vira, no mão de onze; envido and flor
        return _(
            "<b>{title}</b>\n"
            "• Baralho espanhol, sem vira. As quatro mais fortes: {top}; depois os 3, os 2, "
            "os ases falsos, 12, 11, 10, os setes falsos, 6, 5 e 4.\n"
            "• Até três vazas; quem ganha duas leva a mão, que vale {value}. Truco, retruco "
            "e vale quatro sobem a mão para {ladder}.\n"
            "• Na primeira vaza, antes de jogar a carta: envido (2), real envido (3) ou "
            "falta envido; o envido está primeiro que o truco. Flor (três cartas do mesmo "
            "naipe) vale 3, e o bot canta.\n"
            "• Ganha quem fizer {target} pontos ({two} no 1×1).\n"
            "Livro de regras completo: {url}"
        ).format(
            title=w.variant(rs),
            top=" > ".join(w.card(c, DeckStyle.SPANISH) for c in rs.manilhas or ()),
            value=rs.hand_value,
            ladder=w.ladder(rs.ladder),
            target=rs.default_target,
            two=rs.default_target_1x1,
            url=escape(rulebook_url),
        )
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
