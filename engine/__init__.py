"""Truco rules engine: cards, rulesets, the match state machine and per-seat views.

Standard library only. The bot, the robots and the rulebook site stand on it.
"""

from engine.actions import Act, Action
from engine.cards import Card, Rank, Suit
from engine.errors import ErrorCode, IllegalAction, InvalidValue
from engine.match import HandKind, HandResult, Match, Phase
from engine.rulesets import DEFAULT_VARIANT, RULESETS, Ruleset, TableOptions, get_ruleset
from engine.sinais import SINAIS, Sinal
from engine.view import View

__all__ = [
    "DEFAULT_VARIANT",
    "RULESETS",
    "SINAIS",
    "Act",
    "Action",
    "Card",
    "ErrorCode",
    "HandKind",
    "HandResult",
    "IllegalAction",
    "InvalidValue",
    "Match",
    "Phase",
    "Rank",
    "Ruleset",
    "Sinal",
    "Suit",
    "TableOptions",
    "View",
    "get_ruleset",
]
