"""Why the domain refuses a request: ``Reason``, raised as ``Refused`` (``Stale`` for a
button made for an older version); the adapter words it."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class Reason(StrEnum):
    """Why the domain refused a request (the adapter words it)."""

    STALE = "stale"
    DONE = "done"
    """A repeat of the move just made (a double tap): no alert, a toast is enough."""
    NO_GAME = "no_game"
    NOT_LOBBY = "not_lobby"
    NOT_STARTED = "not_started"
    GAME_OVER = "game_over"
    ALREADY_SEATED = "already_seated"
    TABLE_FULL = "table_full"
    NOT_SEATED = "not_seated"
    NO_ROBOT = "no_robot"
    ONLY_CREATOR = "only_creator"
    MUST_START = "must_start"
    NOT_YOUR_TURN = "not_your_turn"
    ILLEGAL = "illegal"
    BAD_BUTTON = "bad_button"
    TABLE_EXISTS = "table_exists"
    BAD_ARG = "bad_arg"
    BAD_TARGET = "bad_target"
    BAD_NUMBER = "bad_number"
    BAD_LINK = "bad_link"
    NOT_HERE = "not_here"
    NOT_MEMBER = "not_member"
    """A group's table acted on from the Mini App by someone Telegram says is not in the
    group (in the group itself only its members see the buttons)."""
    ROBOTS_NOT_ALLOWED = "robots_not_allowed"
    ANONYMOUS = "anonymous"
    WRONG_CHAT = "wrong_chat"
    BAD_OPTIONS = "bad_options"
    ADMIN_ONLY = "admin_only"
    NO_SIGNAL = "no_signal"
    LOBBY_REPEAT = "lobby_repeat"
    """A robot button pressed again on the same lobby drawing (a double tap): a toast."""
    TEAM_FULL = "team_full"
    SAME_TEAM = "same_team"
    ANSWERED = "answered"
    """Two answers at once: the partner's came first (params ``seat``, ``action``)."""
    NOT_ABSENT = "not_absent"
    """A vote for a robot in the seat of someone whose time did not run out."""
    REMATCH_PLAYING = "rematch_playing"
    """Revanche on a result whose rematch is being played."""
    NOT_OVER = "not_over"
    """Revanche on a match still in play."""
    REMATCH_GONE = "rematch_gone"
    """Revanche on a result after a newer table was opened in its chat."""
    MARCADOR_ARG = "marcador_arg"
    """A word after /marcador that is none of its options (param ``arg``)."""
    NO_MARCADOR = "no_marcador"
    MARCADOR_OVER = "marcador_over"
    """A hand marked on a marcador whose match is won: Nova partida first."""
    BAD_VALUE = "bad_value"
    """A hand marked at a value the marcador's next hand cannot be worth."""
    NOTHING_TO_UNDO = "nothing_to_undo"
    BUSY = "busy"
    """A marcador pressed by so many at once that the press gave up."""
    UNKNOWN = "unknown"


class Refused(Exception):
    """A request the rules of the table do not allow; ``params`` fill the message."""

    def __init__(self, reason: Reason, **params: Any) -> None:
        """Refuse for ``reason``."""
        super().__init__(reason)
        self.reason = reason
        self.params = params


class Stale(Refused):
    """The button was made for an older version of the game."""

    def __init__(self, reason: Reason = Reason.STALE, **params: Any) -> None:
        """The button's version is gone (``Reason.DONE``: by this very move;
        ``Reason.ANSWERED``: a partner's answer came first, ``params`` say whose)."""
        super().__init__(reason, **params)
