"""Telegram's flood control for groups: too many sends in a minute get 429 with retry_after."""

from __future__ import annotations

import math

from bot.sandbox.fakeapi.errors import ApiError

WINDOW = 60.0
FLOOD_CALLS = (
    "sendMessage",
    "editMessageText",
    "editMessageReplyMarkup",
    "deleteMessage",
    "deleteMessages",
)
"""The calls that count against a group's flood limit (reads such as ``getChatMember`` do not)."""
FLOOD_METHODS = frozenset(m.lower() for m in FLOOD_CALLS)


class FloodLimit:
    """At most ``limit`` sends, edits and deletions per group in any 60 s (``None``: no limit)."""

    def __init__(self, limit: int | None) -> None:
        """A limit per group; ``None`` lets everything through."""
        self.limit = limit
        self._sends: dict[int, list[float]] = {}

    def check(self, method: str, chat_id: int | str | None, now: float) -> None:
        """Count one call; raise 429 (with ``retry_after``) when the group is over its limit."""
        if self.limit is None or method not in FLOOD_METHODS:
            return
        if not isinstance(chat_id, int) or chat_id >= 0:
            return
        recent = [t for t in self._sends.get(chat_id, []) if now - t < WINDOW]
        if len(recent) >= self.limit:
            wait = max(1, math.ceil(WINDOW - (now - recent[0])))
            self._sends[chat_id] = recent
            raise ApiError(429, f"Too Many Requests: retry after {wait}", retry_after=wait)
        recent.append(now)
        self._sends[chat_id] = recent
