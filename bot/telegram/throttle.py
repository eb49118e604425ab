"""Where a command's answer goes, so that command spam never stalls a table.

A group gets about 20 messages a minute, and the table's edits, the hand
closings and the answers to commands all count. Game traffic comes first:

- an answer is posted in the group only while the group's budget keeps
  ``reserve`` calls of the minute free for the table;
- one person repeating a command in a chat (the bot would give them the same
  answer again) is answered in the group once a ``window``, and at most
  ``per_person`` of their commands a window; the rest go to their private chat
  (the same answer at most once per ``private_gap``) when they have started the
  bot, otherwise nowhere;
- private chats are not throttled here (Telegram's limit there is per person).

The decision is per process; the budget it reads is the group's flood budget.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol


class Route(Enum):
    """Where an answer goes."""

    GROUP = "group"
    PRIVATE = "private"
    DROP = "drop"


class Budget(Protocol):
    """What the throttle needs of a group's flood budget."""

    def wait(self, chat_id: int, needed: int) -> float:
        """Seconds before ``needed`` more calls fit in the group."""
        ...


@dataclass
class CommandThrottle:
    """Decides where each command's answer goes (see the module's rules)."""

    reserve: int = 8
    """Calls a minute kept free for the table in a group with a 20-a-minute budget."""
    window: float = 60.0
    """Seconds during which the same answer to one person is given in the group once."""
    per_person: int = 8
    """Answers in the group to one person's commands within a window."""
    private_gap: float = 10.0
    """Seconds between two private answers to the same repeated command."""
    clock: Callable[[], float] = time.monotonic
    _group: dict[tuple[int, int], deque[float]] = field(default_factory=dict)
    _same: dict[tuple[int, int, str], float] = field(default_factory=dict)
    _private: dict[tuple[int, int, str], float] = field(default_factory=dict)

    def route(
        self, budget: Budget, chat_id: int, user_id: int | None, answer: str, started: bool
    ) -> Route:
        """Where ``answer`` to a command from ``user_id`` in ``chat_id`` goes (and note it)."""
        if chat_id > 0:
            return Route.GROUP  # a private chat: the answer is the person's own
        now = self.clock()
        self._forget(now)
        person = (chat_id, user_id or 0)
        key = (*person, answer)
        answered = self._group.setdefault(person, deque())
        while answered and now - answered[0] >= self.window:
            answered.popleft()
        fresh = now - self._same.get(key, float("-inf")) >= self.window
        # the minute's budget minus what the table needs; the 1 s spacing is no reason to wait
        room = budget.wait(chat_id, 1 + self.reserve) <= 1.0
        if fresh and room and len(answered) < self.per_person:
            answered.append(now)
            self._same[key] = now
            return Route.GROUP
        if started and user_id and now - self._private.get(key, float("-inf")) >= self.private_gap:
            self._private[key] = now
            return Route.PRIVATE
        return Route.DROP

    def _forget(self, now: float) -> None:
        """Drop what no longer matters once the notes grow (a process meets many people)."""
        if len(self._same) + len(self._private) < 4096:
            return
        for notes in (self._same, self._private):
            for key in [k for k, at in notes.items() if now - at >= self.window]:
                del notes[key]
        for person in [p for p, q in self._group.items() if not q or now - q[-1] >= self.window]:
            del self._group[person]
