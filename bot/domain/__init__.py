"""The bot's domain layer: the only code that opens database sessions.

The Telegram adapter (``bot.telegram``) calls these modules with plain values and
typed commands, and gets plain values back; it never sees a row or a session.

- ``bot.domain.tables``: a table's life. ``open_table``, ``lobby`` (``Join``,
  ``Leave``, ``AddRobot``, ``RemoveRobot``, ``Start``, ``CancelTable``), ``start``,
  ``act``, ``time_out``, ``rematch``, ``cancel``; reads ``load``, ``active_table``,
  ``playing_tables_of``, ``turn_of``, ``to_resume``. Changes return a ``Change``
  (what to redraw and reschedule); refusals raise ``Refused(reason: Reason)``.
- ``bot.domain.people``: ``meet`` a person, ``set_deck``, ``set_started``, the
  tutorial step, ``chat_settings`` / ``setting_choices`` / ``change_setting`` (``/config``), ``ranking``.
- ``bot.domain.messages``: what the public table and the private hands must show
  (``table_drawing``, ``hands_drawing``) and their bookkeeping; the event log.
- ``bot.domain.marcador``: the ``/marcador`` messages (``GroupMarcador``); ``jobs``: the
  durable jobs; ``outbox``: the announcements owed to a group; ``flood``: the flood windows
  every process shares; ``miniapp``: who has the Mini App open.
- ``bot.domain.values``: every value and command above (``Table``, ``Occupant``,
  ``GameStatus``, ``Rules`` with its injectable clock...).
- ``bot.domain.models`` / ``store`` / ``migrations``: the tables, the engine and
  sessions, Alembic. Nothing outside this package imports the models; the adapter only
  holds ``store``'s ``Database`` handle (and takes its polling lock).
"""

from bot.domain.store import Database, DatabaseError, Unavailable
from bot.domain.values.commands import (
    AddRobot,
    CancelTable,
    Join,
    Leave,
    LobbyCommand,
    RemoveRobot,
    Source,
    Start,
    TableRequest,
)
from bot.domain.values.errors import Reason, Refused, Stale
from bot.domain.values.game import Change, GameStatus, Occupant, RobotLevel, Table
from bot.domain.values.people import Person, PlayerInfo
from bot.domain.values.settings import ChatSettings, Rules, Setting

__all__ = [
    "AddRobot",
    "CancelTable",
    "Change",
    "ChatSettings",
    "Database",
    "DatabaseError",
    "GameStatus",
    "Join",
    "Leave",
    "LobbyCommand",
    "Occupant",
    "Person",
    "PlayerInfo",
    "Reason",
    "Refused",
    "RemoveRobot",
    "RobotLevel",
    "Rules",
    "Setting",
    "Source",
    "Stale",
    "Start",
    "Table",
    "TableRequest",
    "Unavailable",
]
