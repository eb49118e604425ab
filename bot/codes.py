"""callback_data and inline result ids: short, untrusted, parsed strictly.

A move is ``g<game>:<version>:<action>``; the action codes are one letter plus a
card code or slot (``p4C`` play, ``c4C`` cover, ``b0`` blind, ``t`` truco, ``a``
accept, ``r`` run, ``R`` raise, ``o`` play the mão de onze/dez, ``x`` run from it).
Everything fits Telegram's 64 bytes and carries no trust: the handlers check the
game, the version and the presser against the database. An id too large for the
database raises :class:`~bot.numbers.NumberRefused` (a ``ValueError``): no such game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.numbers import parse_number
from engine import actions as A
from engine.actions import Act, Action
from engine.cards import Card

MAX_BYTES = 64
_SIMPLE = {A.TRUCO: "t", A.ACCEPT: "a", A.RUN: "r", A.RAISE: "R", A.PLAY11: "o", A.RUN11: "x"}
_SIMPLE_BACK = {v: k for k, v in _SIMPLE.items()}
# ids are checked by parse_number (an id past the database's range names no game)
_MOVE = re.compile(r"g([0-9]{1,20}):([0-9]{1,20}):([A-Za-z0-9]{1,3})")
_LOBBY = re.compile(r"l([0-9]{1,20}):(j|s|go|x|rm|r[123])")
_REMATCH = re.compile(r"v([0-9]{1,20})")
LOBBY_OPS = ("j", "s", "go", "x", "rm", "r1", "r2", "r3")
ROBOT_LEVELS = {"r1": "facil", "r2": "medio", "r3": "dificil"}


def action_code(action: Action) -> str:
    """The short code of an action (``p4C``, ``t``, ``b2``...)."""
    if action.act is Act.PLAY and action.card is not None:
        return "p" + action.card.code
    if action.act is Act.COVER and action.card is not None:
        return "c" + action.card.code
    if action.act is Act.BLIND and action.slot is not None:
        return f"b{action.slot}"
    return _SIMPLE[action]


def parse_action_code(code: str) -> Action:
    """The action of a short code; ``ValueError`` for anything else."""
    if code in _SIMPLE_BACK:
        return _SIMPLE_BACK[code]
    head, rest = code[:1], code[1:]
    if head in ("p", "c"):
        card = Card.parse(rest)
        return (A.PLAY if head == "p" else A.COVER)[card]
    if head == "b" and rest in ("0", "1", "2"):
        return A.BLIND[int(rest)]
    raise ValueError(f"código de ação inválido: {code!r}")


@dataclass(frozen=True)
class Move:
    """A decoded move: which game, at which version, what action."""

    game_id: int
    version: int
    action: Action

    def encode(self) -> str:
        """The callback_data / inline result id of this move."""
        return f"g{self.game_id}:{self.version}:{action_code(self.action)}"


def parse_move(data: str) -> Move:
    """Decode ``g<game>:<version>:<code>``; ``ValueError`` for garbage."""
    found = _MOVE.fullmatch(data or "")
    if found is None:
        raise ValueError("jogada ilegível")
    return Move(parse_number(found[1]), parse_number(found[2]), parse_action_code(found[3]))


def lobby_data(game_id: int, op: str) -> str:
    """callback_data of a lobby button."""
    return f"l{game_id}:{op}"


def parse_lobby(data: str) -> tuple[int, str]:
    """Decode a lobby button; ``ValueError`` for garbage."""
    found = _LOBBY.fullmatch(data or "")
    if found is None:
        raise ValueError("botão ilegível")
    return parse_number(found[1]), found[2]


def rematch_data(game_id: int) -> str:
    """callback_data of the Revanche button."""
    return f"v{game_id}"


def parse_rematch(data: str) -> int:
    """Decode a Revanche button; ``ValueError`` for garbage."""
    found = _REMATCH.fullmatch(data or "")
    if found is None:
        raise ValueError("botão ilegível")
    return parse_number(found[1])
