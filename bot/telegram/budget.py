"""The flood budget of each group: calls made in the last minute, so the bot stays within it.

Telegram allows about 20 messages a minute in one group; the table, closings and
replies of a group all draw on this budget and wait their turn.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field

WINDOW = 60.0
MIN_GAP = 1.0


@dataclass
class GroupBudget:
    """Calls made to each group in the last minute, to stay within the flood budget."""

    limit: int = 20
    calls: dict[int, deque[float]] = field(default_factory=dict)

    def _recent(self, chat_id: int, now: float) -> deque[float]:
        q = self.calls.setdefault(chat_id, deque())
        while q and now - q[0] >= WINDOW:
            q.popleft()
        return q

    def wait(self, chat_id: int, needed: int, now: float | None = None) -> float:
        """Seconds to wait before ``needed`` more calls fit (1 s apart, ``limit`` a minute)."""
        now = time.monotonic() if now is None else now
        q = self._recent(chat_id, now)
        gap = max(0.0, q[-1] + MIN_GAP - now) if q else 0.0
        over = len(q) + needed - self.limit
        if over <= 0:
            return gap
        if over > len(q):
            return WINDOW
        return max(gap, q[over - 1] + WINDOW - now)

    def spend(self, chat_id: int, now: float | None = None) -> None:
        """Record one call to a group."""
        if chat_id < 0:
            now = time.monotonic() if now is None else now
            self._recent(chat_id, now).append(now)

    def done(self, chat_id: int) -> None:
        """The last call ended (maybe after waiting out a 429): space the next from now."""
        q = self.calls.get(chat_id)
        if q:
            q[-1] = max(q[-1], time.monotonic())
