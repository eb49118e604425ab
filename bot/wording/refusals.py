"""Why a request is refused, in words: one short sentence per ``Reason``, with its values.

Plain text: a button's alert, a command's answer and a Mini App page's refusal all say it
as it is.
"""

from __future__ import annotations

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
