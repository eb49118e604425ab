"""Every callback_data, inline result id and deep link the bot makes: short, untrusted, strict.

One prefix letter per kind of button; this module alone knows them, builds the
handlers' patterns (``pattern``) and refuses to encode anything over Telegram's
64 bytes. Parsing turns UI codes into the domain's typed commands, so nothing
past the handlers ever sees ``j`` or ``r1``.

- ``g<game>:<version>:<action>`` a move: one letter plus a card code or slot
  (``p4C`` play, ``c4C`` cover, ``b0`` blind, ``t`` truco, ``a`` accept, ``r`` run,
  ``R`` raise, ``o`` play the mão de onze/dez, ``x`` run from it, ``s0``-``s7`` a
  signal, R12); also the id of an inline result.
- ``z<game>:<version>:<o|c>`` opens (``o``) or closes (``c``) the list of signals
  on a private hand: only the keyboard changes, nothing is stored.
- ``l<game>:<version>:<op>`` a lobby button (``j0``/``j1``: sit on team 1/2);
  ``v<game>`` Revanche; ``k<key>[:<i>]`` a ``/config`` setting (its list of values, or
  its ``i``-th value; ``k-`` back to the settings); ``d<style>`` a ``/baralho`` choice;
  ``u<step>:<action>`` a tutorial move, ``uL<n>`` a lesson picked in the /tutorial menu.
- ``x<game>:<y|n>`` the answer to ``/cancelar`` mid-match (Sim / Não).
- ``m<marcador>:<op>`` a ``/marcador`` button: ``<team>.<points>`` (``0.3``), ``u`` undo,
  ``n`` new match.
- ``/start g<game>`` the deep link back to a table.

Nothing decoded here is trusted: the domain checks the game, the version and the
presser against the database. Numbers go through ``bot.numbers.parse_number``: an
id too large for the database raises ``NumberRefused`` (a ``ValueError``): no such game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from bot.domain.marcador import Command, NewMatch, Press, Undo
from bot.domain.values.commands import (
    AddRobot,
    CancelTable,
    Join,
    Leave,
    LobbyCommand,
    RemoveRobot,
    Start,
)
from bot.domain.values.game import RobotLevel
from bot.domain.values.settings import Setting
from bot.links import start_parameter
from bot.numbers import parse_number
from engine import actions as A
from engine.actions import Act, Action
from engine.cards import Card, DeckStyle

MAX_BYTES = 64
"""Telegram's limit for callback_data and inline result ids."""


class Prefix(StrEnum):
    """The first letter of each kind of callback_data."""

    MOVE = "g"
    LOBBY = "l"
    REMATCH = "v"
    CONFIG = "k"
    DECK = "d"
    TUTORIAL = "u"
    MARCADOR = "m"
    SIGNALS = "z"
    CANCEL = "x"
    BACK = "b"
    VOTE = "r"


PRIVATE_KINDS = frozenset({Prefix.MOVE, Prefix.SIGNALS, Prefix.TUTORIAL})
"""Buttons drawn only in the presser's own private chat: their hand, their lesson."""
_FAMILIES: dict[str, str] = {
    Prefix.MOVE: "hand",
    Prefix.SIGNALS: "hand",  # the hand message turns into the list of signals and back
    Prefix.LOBBY: Prefix.LOBBY,
    Prefix.CANCEL: Prefix.CANCEL,
    Prefix.MARCADOR: Prefix.MARCADOR,
}
"""Kinds whose first number names what they act on (a game, a marcador). Revanche is
not one: a result's Revanche may answer for a newer match of its chat (still in play, or
gone), and it rewrites no message."""
_TARGET = re.compile(r"([A-Za-z])([0-9]*)")


def target(data: str) -> tuple[str, str]:
    """What a button acts on, for telling where it belongs: ``("hand", "12")`` for every
    button of game 12's hand message, ``("m", "3")`` for marcador 3's, the bare prefix
    (``("k", "")``) for the kinds that name nothing (``/config``, the tutorial) or are unknown.
    """
    found = _TARGET.match(data or "")
    if found is None:
        return ("", "")
    family = _FAMILIES.get(found[1])
    return (family, found[2]) if family else (found[1], "")


def pattern(prefix: Prefix) -> str:
    """The ``CallbackQueryHandler`` pattern of one kind of button."""
    return f"^{re.escape(prefix)}"


def _checked(data: str) -> str:
    if len(data.encode()) > MAX_BYTES:
        raise ValueError(f"callback_data over {MAX_BYTES} bytes: {data!r}")
    return data


def _read(pattern: re.Pattern[str], data: str) -> re.Match[str]:
    """``data`` matched whole by ``pattern``; ``ValueError`` for anything else."""
    found = pattern.fullmatch(data or "")
    if found is None:
        raise ValueError("botão ilegível")
    return found


# ----------------------------------------------------------------------- moves

_SIMPLE = {
    A.TRUCO: "t",
    A.ACCEPT: "a",
    A.RUN: "r",
    A.RAISE: "R",
    A.PLAY11: "o",
    A.RUN11: "x",
    # gaudério's points game (R13.3)
    A.ENVIDO: "e",
    A.REAL_ENVIDO: "re",
    A.FALTA_ENVIDO: "fe",
    A.QUERO: "q",
    A.NAO_QUERO: "n",
}
_SIMPLE_BACK = {v: k for k, v in _SIMPLE.items()}
# ids are checked by parse_number (an id past the database's range names no game)
_MOVE = re.compile(r"g([0-9]{1,20}):([0-9]{1,20}):([A-Za-z0-9]{1,3})")


def action_code(action: Action) -> str:
    """The short code of an action (``p4C``, ``t``, ``b2``...)."""
    if action.act is Act.PLAY and action.card is not None:
        return "p" + action.card.code
    if action.act is Act.COVER and action.card is not None:
        return "c" + action.card.code
    if action.act is Act.BLIND and action.slot is not None:
        return f"b{action.slot}"
    if action.act is Act.SIGNAL and action.sinal is not None:
        return f"s{int(action.sinal)}"
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
    if head == "s" and rest.isdigit() and rest == str(int(rest)) and int(rest) < len(A.SIGNAL):
        return A.SIGNAL[int(rest)]
    raise ValueError(f"código de ação inválido: {code!r}")


@dataclass(frozen=True)
class Move:
    """A decoded move: which game, at which version, what action."""

    game_id: int
    version: int
    action: Action

    def encode(self) -> str:
        """The callback_data / inline result id of this move."""
        return _checked(f"{Prefix.MOVE}{self.game_id}:{self.version}:{action_code(self.action)}")


def parse_move(data: str) -> Move:
    """Decode ``g<game>:<version>:<code>``; ``ValueError`` for garbage."""
    found = _read(_MOVE, data)
    return Move(parse_number(found[1]), parse_number(found[2]), parse_action_code(found[3]))


# --------------------------------------------------------------------- sinais

_SIGNALS = re.compile(r"z([0-9]{1,20}):([0-9]{1,20}):([oc])")


def signals_data(game_id: int, version: int, show: bool) -> str:
    """callback_data of 👁️ Sinal (``show``: open the list) or of its ↩️ back button."""
    return _checked(f"{Prefix.SIGNALS}{game_id}:{version}:{'o' if show else 'c'}")


def parse_signals(data: str) -> tuple[int, int, bool]:
    """Decode a 👁️ Sinal / back button: (game, version, show); ``ValueError`` for garbage."""
    found = _read(_SIGNALS, data)
    return parse_number(found[1]), parse_number(found[2]), found[3] == "o"


# ----------------------------------------------------------------------- lobby

LOBBY_CODES: dict[str, LobbyCommand] = {
    "j": Join(),
    "j0": Join(0),
    "j1": Join(1),
    "s": Leave(),
    "go": Start(),
    "x": CancelTable(),
    "rm": RemoveRobot(),
    # + Robô, one per level, weakest first: r1, r2, r3
    **{f"r{i}": AddRobot(level) for i, level in enumerate(RobotLevel, 1)},
}
"""The lobby's buttons in the group, by their code in callback_data (the Mini App page's
names for the ones it offers: ``bot.webapp.state.PAGE_LOBBY``)."""
_LOBBY_BACK = {command: code for code, command in LOBBY_CODES.items()}
# the version is optional: lobby messages drawn before it was carried still work
_LOBBY = re.compile(r"l([0-9]{1,20}):(?:([0-9]{1,20}):)?(" + "|".join(LOBBY_CODES) + ")")


def lobby_data(game_id: int, command: LobbyCommand, version: int) -> str:
    """callback_data of a lobby button drawn for the lobby's ``version``."""
    return _checked(f"{Prefix.LOBBY}{game_id}:{version}:{_LOBBY_BACK[command]}")


def parse_lobby(data: str) -> tuple[int, LobbyCommand, int | None]:
    """Decode a lobby button: (game, command, version or ``None``); ``ValueError`` for garbage."""
    found = _read(_LOBBY, data)
    version = parse_number(found[2]) if found[2] else None
    return parse_number(found[1]), LOBBY_CODES[found[3]], version


# -------------------------------------------------------------------- rematch

_REMATCH = re.compile(r"v([0-9]{1,20})")


def rematch_data(game_id: int) -> str:
    """callback_data of the Revanche button."""
    return _checked(f"{Prefix.REMATCH}{game_id}")


def parse_rematch(data: str) -> int:
    """Decode a Revanche button; ``ValueError`` for garbage."""
    found = _read(_REMATCH, data)
    return parse_number(found[1])


_BACK = re.compile(r"b([0-9]+)")


def back_data(game_id: int) -> str:
    """callback_data of 🙋 Voltei: a person takes back the seat a robot plays for them."""
    return _checked(f"{Prefix.BACK}{game_id}")


def parse_back(data: str) -> int:
    """Decode a 🙋 Voltei button; ``ValueError`` for garbage."""
    found = _read(_BACK, data)
    return parse_number(found[1])


_VOTE = re.compile(r"r([0-9]+):([0-3])")


def vote_data(game_id: int, seat: int) -> str:
    """callback_data of 🤖 on the table: a vote to give an absent person's seat to a robot."""
    return _checked(f"{Prefix.VOTE}{game_id}:{seat}")


def parse_vote(data: str) -> tuple[int, int]:
    """Decode a vote button: (game, seat); ``ValueError`` for garbage."""
    found = _read(_VOTE, data)
    return parse_number(found[1]), int(found[2])


# ------------------------------------------------------------------- /cancelar

_CANCEL = re.compile(r"x([0-9]{1,20}):([yn])")


def cancel_data(game_id: int, yes: bool) -> str:
    """callback_data of the Sim / Não answer to /cancelar mid-match."""
    return _checked(f"{Prefix.CANCEL}{game_id}:{'y' if yes else 'n'}")


def parse_cancel(data: str) -> tuple[int, bool]:
    """Decode a /cancelar answer: (game, yes); ``ValueError`` for garbage."""
    found = _read(_CANCEL, data)
    return parse_number(found[1]), found[2] == "y"


# ------------------------------------------------------------ /config, /baralho

_CONFIG = {
    Setting.VARIANT: "v",
    Setting.PLAYERS: "p",
    Setting.TARGET: "t",
    Setting.TIMER: "T",
    Setting.COVERED: "c",
    Setting.LADDER: "l",
    Setting.SINAIS: "s",
    Setting.FLOR: "f",
    Setting.LANGUAGE: "L",
    Setting.NOISE: "n",
}
_CONFIG_BACK = {code: setting for setting, code in _CONFIG.items()}


_CONFIG_PRESS = re.compile(r"k(?:([A-Za-z])(?::([0-9]{1,2}))?|(-)|(\.))(?:@(-[0-9]{1,19}))?")


@dataclass(frozen=True)
class ConfigPress:
    """A ``/config`` button: open a setting's list (``index`` None), pick its ``index``-th
    value, go back to the settings (``setting`` None) or close the panel (``close``).

    ``chat``: the group whose settings a panel sent privately changes (``None``: the
    chat the panel sits in)."""

    setting: Setting | None
    index: int | None = None
    close: bool = False
    chat: int | None = None


def config_data(
    setting: Setting | None,
    index: int | None = None,
    *,
    chat: int | None = None,
    close: bool = False,
) -> str:
    """callback_data of a ``/config`` button: ``k<key>`` opens the list of a setting's
    values, ``k<key>:<i>`` picks one, ``k-`` goes back to the settings, ``k.`` closes;
    ``@<chat>`` after any of them names the group of a panel sent privately."""
    where = "" if chat is None else f"@{chat}"
    if close:
        return _checked(f"{Prefix.CONFIG}.{where}")
    if setting is None:
        return _checked(f"{Prefix.CONFIG}-{where}")
    tail = "" if index is None else f":{index}"
    return _checked(f"{Prefix.CONFIG}{_CONFIG[setting]}{tail}{where}")


def parse_config(data: str) -> ConfigPress:
    """Decode a ``/config`` button; ``ValueError`` for garbage."""
    found = _read(_CONFIG_PRESS, data)
    chat = -parse_number(found[5][1:], 1, 2**63 - 1) if found[5] else None  # a BigInteger chat id
    if found[4]:
        return ConfigPress(None, close=True, chat=chat)
    if found[3]:
        return ConfigPress(None, chat=chat)
    setting = _CONFIG_BACK.get(found[1])
    if setting is None:
        raise ValueError("botão ilegível")
    return ConfigPress(setting, int(found[2]) if found[2] else None, chat=chat)


_DECK = {DeckStyle.TRADITIONAL: "t", DeckStyle.SPANISH: "s"}
_DECK_BACK = {code: style for style, code in _DECK.items()}


def deck_data(style: DeckStyle) -> str:
    """callback_data of a ``/baralho`` button."""
    return _checked(f"{Prefix.DECK}{_DECK[style]}")


def parse_deck(data: str) -> DeckStyle:
    """Decode a ``/baralho`` button; ``ValueError`` for garbage."""
    found = _DECK_BACK.get(data[1:]) if data[:1] == Prefix.DECK else None
    if found is None:
        raise ValueError("botão ilegível")
    return found


# -------------------------------------------------------------------- tutorial

_TUTORIAL = re.compile(r"u([0-9]{1,4}):([A-Za-z0-9]{1,3})")
_LESSON = re.compile(r"uL([0-9]{1,2})")


def lesson_data(number: int) -> str:
    """callback_data of a lesson picked in the /tutorial menu (``uL<n>``)."""
    return _checked(f"{Prefix.TUTORIAL}L{number}")


def parse_lesson(data: str) -> int | None:
    """The lesson number of a menu button, or ``None`` when ``data`` is not one."""
    found = _LESSON.fullmatch(data or "")
    return parse_number(found[1]) if found else None


def tutorial_data(step: int, action: Action) -> str:
    """callback_data of a tutorial move."""
    return _checked(f"{Prefix.TUTORIAL}{step}:{action_code(action)}")


def parse_tutorial(data: str) -> tuple[int, Action]:
    """Decode a tutorial move; ``ValueError`` for garbage."""
    found = _read(_TUTORIAL, data)
    return parse_number(found[1]), parse_action_code(found[2])


# -------------------------------------------------------------------- marcador

_MARCADOR = re.compile(r"m([0-9]{1,20}):(u|n|([01])\.([0-9]{1,2})(e?))")
_ENVIDO = "e"
"""The mark of a marcador press that scores an envido (gaudério), not a hand."""


def marcador_data(marcador_id: int, command: Command) -> str:
    """callback_data of a ``/marcador`` button."""
    if isinstance(command, Press):
        op = f"{command.team}.{command.points}{_ENVIDO if command.kind == 'envido' else ''}"
    else:
        op = "u" if isinstance(command, Undo) else "n"
    return _checked(f"{Prefix.MARCADOR}{marcador_id}:{op}")


def parse_marcador(data: str) -> tuple[int, Command]:
    """Decode a ``/marcador`` button; ``ValueError`` for garbage."""
    found = _read(_MARCADOR, data)
    marcador_id = parse_number(found[1])
    if found[2] == "u":
        return marcador_id, Undo()
    if found[2] == "n":
        return marcador_id, NewMatch()
    kind = "envido" if found[5] == _ENVIDO else "mao"
    return marcador_id, Press(int(found[3]), int(found[4]), kind)


# ------------------------------------------------------------------ deep links


def deep_link(bot_username: str, game_id: int) -> str:
    """``https://t.me/<bot>?start=g<game>``."""
    return f"https://t.me/{bot_username}?start={start_parameter(game_id)}"


def parse_start(arg: str) -> int | None:
    """The table of a ``/start`` parameter (``g<game>``, or a posted move's ``m...``).

    ``NumberRefused`` for ``g`` followed by anything but a number in range. The link of
    a posted inline move (``m...``) also leads back to its table.
    """
    if arg.startswith("m"):
        move = _posted_move(arg)
        return move.game_id if move is not None else None
    if not arg.startswith("g"):
        return None
    return parse_number(arg[1:], low=1)


# ---------------------------------------------------------------- inline moves
#
# Telegram does not say in which chat an inline result was posted. The posted
# message does reach the bot ("via @bot", even in privacy mode) with its chat, so
# the move travels in it: its first word links to ``?start=m<game>_<version>_<code>``
# (start parameters allow only letters, digits, ``_`` and ``-``), and the bot applies
# the move only when the message was posted in the table's own chat.

_POSTED = re.compile(r"m([0-9]{1,20})_([0-9]{1,20})_([A-Za-z0-9]{1,3})")


def posted_link(bot_username: str, move: Move) -> str:
    """The link a posted inline move carries (it opens the bot on the move's table)."""
    code = f"m{move.game_id}_{move.version}_{action_code(move.action)}"
    return f"https://t.me/{bot_username}?start={_checked(code)}"


def _posted_move(parameter: str) -> Move | None:
    found = _POSTED.fullmatch(parameter)
    if found is None:
        return None
    try:
        return Move(parse_number(found[1]), parse_number(found[2]), parse_action_code(found[3]))
    except ValueError:
        return None


def parse_posted_link(url: str, bot_username: str) -> Move | None:
    """The move of a link made by :func:`posted_link` for this bot, or ``None``."""
    prefix = f"https://t.me/{bot_username}?start="
    if not url.lower().startswith(prefix.lower()):
        return None
    return _posted_move(url[len(prefix) :])
