"""Sentences that belong to no screen: greetings, the one-line replies of commands and the
toasts of buttons (why a request is refused: ``bot.wording.refusals``)."""

from __future__ import annotations

from html import escape

from bot.i18n import Translations


def routed_note(t: Translations, group: str) -> str:
    """Above a group command's answer sent privately: where it was asked, and why here."""
    return t.gettext("↪️ Seu comando em {group}, respondido aqui para poupar o grupo:").format(
        group=escape(group)
    )


def seated_greeting(t: Translations) -> str:
    """The private line to a person who just sat at a table."""
    return t.gettext("Você sentou numa mesa de truco. Suas cartas chegam aqui.")


def welcome_text(t: Translations, name: str) -> str:
    """/start in private, with no table to go back to."""
    return t.gettext(
        "Olá, {name}! Aqui chegam as suas cartas quando você joga num grupo.\n"
        "Jogue contra robôs agora com /truco (ou /truco 2x2), aprenda com /tutorial "
        "e veja tudo em /ajuda."
    ).format(name=escape(name))


def group_welcome_text(t: Translations) -> str:
    """The bot added to a group: what it does there and how to start."""
    return t.gettext(
        "🃏 Olá! Eu levo a mesa de truco do grupo.\n"
        "Abra uma com /truco (ou /truco 2x2): quem quiser entra, robôs completam os "
        "lugares, e cada um recebe as suas cartas no privado.\n"
        "As regras em /regras, e tudo em /ajuda."
    )


def tutorial_in_private(t: Translations) -> str:
    """/tutorial asked in a group."""
    return t.gettext("O tutorial é no privado: me chame lá com /tutorial.")


def no_match_here(t: Translations) -> str:
    """/placar where no match is being played."""
    return t.gettext("Nenhuma partida em andamento. Abra uma com /truco.")


def no_table_here(t: Translations) -> str:
    """/cancelar where no table is open."""
    return t.gettext("Não há mesa aberta aqui.")


def not_understood(t: Translations) -> str:
    """An unknown command or free text in private."""
    return t.gettext("Não entendi. Jogue com /truco ou veja os comandos em /ajuda.")


def back_text(t: Translations) -> str:
    """The toast of 🙋 Voltei: the person has their seat back."""
    return t.gettext("De volta à mesa: o robô sai do seu lugar.")


def vote_text(t: Translations, missing: int) -> str:
    """The toast of a vote for a robot in an absent person's seat."""
    if missing:
        return t.ngettext(
            "Voto contado: falta {n} voto.", "Voto contado: faltam {n} votos.", missing
        ).format(n=missing)
    return t.gettext("Um robô joga nesse lugar até a pessoa voltar.")
