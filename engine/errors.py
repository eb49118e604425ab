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
    ENVIDO_NOT_ALLOWED = "envido_not_allowed"
    NO_ENVIDO_PENDING = "no_envido_pending"
    SIGNAL_NOT_ALLOWED = "signal_not_allowed"
    """Not part of the scenario format: scenarios carry no signals (R12)."""


class InvalidValue(ValueError):
    """A value the rules do not know (a variant, a card, a table option), with its facts.

    ``text`` is a pt-BR source text with ``{fields}`` and ``params`` fill them: the
    exception reads as that sentence in pt-BR, and ``engine.words`` translates it
    (``words.get(lang).refusal(exc)``). A ``ValueError``, so callers that only need
    "bad value" keep catching that.
    """

    def __init__(self, text: str, **params: object) -> None:
        """The refusal ``text`` (pt-BR, ``str.format`` fields) with the ``params`` it names."""
        self.text = text
        self.params: dict[str, object] = params
        super().__init__(text.format(**params))


class IllegalAction(Exception):
    """An action (or a scenario) the rules do not allow now: codes and parameters, no words.

    ``code`` is the stable scenario-format reason; ``reason`` a finer, stable detail
    (``"own_call"``, ``"ladder_spent"``...) or ``None``; ``params`` the facts a text
    needs (``seat``, ``card``...). ``engine.words`` turns them into a sentence in the
    reader's language: ``words.get(lang).refusal(exc)``.
    """

    def __init__(self, code: ErrorCode, reason: str | None = None, **params: object) -> None:
        """A refusal with ``code``, an optional ``reason`` and the ``params`` its text uses."""
        self.code = code
        self.reason = reason
        self.params: dict[str, object] = params
        detail = f" ({reason})" if reason else ""
        facts = f" {params}" if params else ""
        super().__init__(f"{code}{detail}{facts}")
