"""From stored state to Telegram: the table message, hand messages, closings, timers.

Nothing here decides a rule or keeps game state: every job asks the domain what
the messages must show now and draws it.

- ``table``: the public table of each chat, coalesced per chat within its flood budget.
- ``hands``: each person's private hand message.
- ``timers``: the deadline and robot-turn jobs of a game.
- ``sinais``: the private pings of a signal (R12).
- ``sending``: sends and edits, what to retry.
"""

from __future__ import annotations

from bot.domain.values import Change, GameStatus
from bot.telegram.context import TrucoApp
from bot.telegram.publish.hands import schedule_hands, schedule_warning
from bot.telegram.publish.sinais import ping_signal
from bot.telegram.publish.table import schedule_table
from bot.telegram.publish.timers import schedule_timers

__all__ = ["refresh", "schedule_hands", "schedule_table", "schedule_timers"]


def refresh(app: TrucoApp, change: Change) -> None:
    """After a stored change: reschedule timers and queue the redraw of the table and the hands.

    Nothing here waits for Telegram: the caller has answered its button already and
    returns at once, so a backlog of messages (30 a second overall, 20 a minute per
    group) never holds an update slot. The jobs redraw whatever the database holds
    when they run, so the newest state always wins.
    """
    schedule_timers(app, change)
    schedule_table(app, change.chat_id, change.thread_id, change.game_id)
    if change.status != GameStatus.LOBBY:
        schedule_hands(app, change.chat_id, change.game_id)
    if change.status == GameStatus.PLAYING and change.deadline_at is not None:
        schedule_warning(app, change.chat_id, change.game_id, change.deadline_at)
    if change.signal is not None:
        ping_signal(app, change.signal)
