"""Updates the bot drops before any handler sees them.

- **Edited messages** never run commands: editing an old message into ``/truco`` or
  ``/cancelar`` must not open or end a table.
- **Channel posts**: a channel has no players, and its posts have no sender.
"""

from __future__ import annotations

from typing import Any

from telegram import Update
from telegram.ext import Application, ApplicationHandlerStop, MessageHandler, filters

GUARD_GROUP = 0
"""The handlers' own group: only the first matching handler of a group runs, so the
guards, registered first, shadow every command for the updates they match (the
updates are still counted by the metrics hook of group -1)."""


async def drop(update: Update, context: Any) -> None:
    """Stop the update here: no other handler runs."""
    raise ApplicationHandlerStop


def install(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Register the guards in front of every handler of ``app`` (call before adding those)."""
    ignored = filters.UpdateType.EDITED | filters.UpdateType.CHANNEL_POSTS
    app.add_handler(MessageHandler(ignored, drop), group=GUARD_GROUP)
