"""The one error type for illegal actions, with the stable codes of the scenario format."""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """Stable, machine-readable reasons an action is refused (scenario-format.md)."""

    NOT_YOUR_TURN = "not_your_turn"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    CALL_PENDING = "call_pending"
    NO_CALL_PENDING = "no_call_pending"
    RAISE_NOT_ALLOWED = "raise_not_allowed"
    TRUCO_NOT_ALLOWED = "truco_not_allowed"
    COVER_NOT_ALLOWED = "cover_not_allowed"
    DECISION_PENDING = "decision_pending"
    NO_DECISION_PENDING = "no_decision_pending"
    HAND_OVER = "hand_over"
    INVALID_SCENARIO = "invalid_scenario"
    SIGNAL_NOT_ALLOWED = "signal_not_allowed"
    """Not part of the scenario format: scenarios carry no signals (R12)."""


MESSAGES: dict[ErrorCode, str] = {
    ErrorCode.NOT_YOUR_TURN: "Não é a sua vez.",
    ErrorCode.CARD_NOT_IN_HAND: "Essa carta não está na sua mão.",
    ErrorCode.CALL_PENDING: "Tem um pedido de truco esperando resposta.",
    ErrorCode.NO_CALL_PENDING: "Não há pedido para você responder.",
    ErrorCode.RAISE_NOT_ALLOWED: "Não dá para aumentar agora.",
    ErrorCode.TRUCO_NOT_ALLOWED: "Não tem truco nesta mão.",
    ErrorCode.COVER_NOT_ALLOWED: "Não dá para jogar coberta agora.",
    ErrorCode.DECISION_PENDING: "Primeiro decidam se jogam a mão.",
    ErrorCode.NO_DECISION_PENDING: "Não há decisão de mão de onze agora.",
    ErrorCode.HAND_OVER: "A mão já acabou.",
    ErrorCode.INVALID_SCENARIO: "Cenário inválido.",
    ErrorCode.SIGNAL_NOT_ALLOWED: "Não dá para fazer sinal agora.",
}


class IllegalAction(Exception):
    """An action the rules do not allow now; ``code`` says why."""

    def __init__(self, code: ErrorCode, message: str | None = None) -> None:
        self.code = code
        self.message = message or MESSAGES[code]
        super().__init__(f"{code}: {self.message}")
