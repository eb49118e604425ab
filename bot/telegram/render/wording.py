"""Sentences that belong to no screen: why a request is refused, greetings, the one-line
replies of commands and the toasts of buttons."""

from __future__ import annotations

from html import escape
from typing import Any

from bot.domain.values.errors import Reason
from bot.i18n import Translations


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
        Reason.NOT_MEMBER: _("Essa mesa é de um grupo em que você não está."),
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
        Reason.ANSWERED: _("Essa jogada já passou: alguém do seu time respondeu antes."),
        Reason.NOT_ABSENT: _("Só vai robô no lugar de quem deixou o tempo acabar."),
        Reason.REMATCH_PLAYING: _("A revanche dessa partida já está em jogo: veja a mesa."),
        Reason.NOT_OVER: _("Essa partida ainda está em jogo: a revanche vem depois do fim."),
        Reason.REMATCH_GONE: _("Essa revanche já passou: uma mesa mais nova foi aberta aqui."),
        Reason.MARCADOR_ARG: _("Não entendi “{arg}”. Exemplo: /marcador mineiro 12 Nós x Eles"),
        Reason.NO_MARCADOR: _("Esse marcador não existe mais."),
        Reason.MARCADOR_OVER: _("A partida acabou: toque em Nova partida."),
        Reason.BAD_VALUE: _("A mão não pode valer isso agora."),
        Reason.NOTHING_TO_UNDO: _("Não há mão para desfazer."),
        Reason.BUSY: _("Muita gente tocando ao mesmo tempo: tente de novo."),
    }
    return texts.get(reason, _("Não deu.")).format(**(params or {}))


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
