"""Where a command's answer goes, so that command spam never stalls a table.

A group gets about 20 messages a minute, and the table's edits, the hand
closings and the answers to commands all count. Game traffic comes first:

- an answer is posted in the group only while the group's budget keeps
  ``reserve`` calls of the minute free for the match's calls (``bot.telegram.planner``);
- one person repeating a command in a chat (the bot would give them the same
  answer again) is answered in the group once a ``window``, and at most
  ``per_person`` of their commands a window; the rest go to their private chat
  (the same answer at most once per ``private_gap``) when they have started the
  bot, otherwise nowhere;
- a question with buttons (/cancelar's Sim / Não) is asked once per person and chat
  while it is open (``ask_gap``), repeats go the throttled way above;
- a new ``/marcador`` message in a group: one per person a ``marcador_gap``, and
  ``marcadores_per_chat`` per chat in that time; a request past those gets no new message
  (the person's repeats collapse into the marcador they already have);
- private chats are not throttled here (Telegram's limit there is per person).

The notes of who was answered when are flood budgets of their own (a person's
answers in a chat, one answer to them, its private copy): with several processes
they live in the database beside the flood budgets (``SharedNotes``), so the
replicas enforce one limit between them; one process on SQLite keeps them in
memory (``LocalNotes``), sparing the single writer a write per command.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol

from bot.domain import flood
from bot.domain.store import Database


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


class Notes(Protocol):
    """Where the throttle counts the answers it gave."""

    def take(self, budgets: Sequence[flood.Budget], now: float, lock: str) -> float:
        """Count one answer in every budget if it fits (0), else the seconds to wait.

        ``lock``: the person's key; two answers to one person are decided in turn.
        """
        ...

    def drop(self, prefix: str) -> None:
        """Forget the answers counted under every key starting with ``prefix``."""
        ...


@dataclass
class LocalNotes:
    """The answers given, in this process's memory (one process: SQLite, tests)."""

    _marks: dict[str, list[float]] = field(default_factory=dict)

    def take(self, budgets: Sequence[flood.Budget], now: float, lock: str) -> float:
        """Count one answer in every budget if it fits (0), else the seconds to wait."""
        self._forget(now)
        worst = 0.0
        for b in budgets:
            marks = self._marks.get(b.key, [])
            worst = max(worst, flood.seconds_to_wait(marks, b, now, 1, spaced=False))
        if worst > 0:
            return worst
        for b in budgets:
            marks = [t for t in self._marks.get(b.key, []) if now - t < b.window]
            self._marks[b.key] = [*marks, now]
        return 0.0

    def drop(self, prefix: str) -> None:
        """Forget the answers counted under every key starting with ``prefix``."""
        for key in [k for k in self._marks if k.startswith(prefix)]:
            del self._marks[key]

    def _forget(self, now: float) -> None:
        """Drop what no longer matters once the notes grow (a process meets many people)."""
        if len(self._marks) < 4096:
            return
        for key in [k for k, marks in self._marks.items() if now - marks[-1] >= flood.LONGEST]:
            del self._marks[key]


@dataclass
class SharedNotes:
    """The answers given, in the database every process shares (PostgreSQL replicas)."""

    db: Database
    forget_every: float = 60.0
    _forgot_at: float = 0.0

    def take(self, budgets: Sequence[flood.Budget], now: float, lock: str) -> float:
        """Count one answer in every budget if it fits (0), else the seconds to wait."""
        if now - self._forgot_at >= self.forget_every:
            self._forgot_at = now
            flood.forget(self.db, now)  # the keys of answers never repeated
        # the person's row is the lock: their answers' own keys need no row of their own
        return flood.take(self.db, budgets, now, lock=[lock])

    def drop(self, prefix: str) -> None:
        """Forget the answers counted under every key starting with ``prefix``."""
        flood.drop(self.db, prefix)


def notes_for(db: Database) -> Notes:
    """Shared notes on PostgreSQL (where replicas run), notes in memory on SQLite."""
    if db.engine.dialect.name == "postgresql":
        return SharedNotes(db)
    return LocalNotes()


@dataclass
class CommandThrottle:
    """Decides where each command's answer goes (see the module's rules)."""

    notes: Notes = field(default_factory=LocalNotes)
    reserve: int = 4
    """Calls a minute kept free for a match's calls (``planner.urgent_keep``: 4 of 20)."""
    window: float = 60.0
    """Seconds during which the same answer to one person is given in the group once."""
    per_person: int = 8
    """Answers in the group to one person's commands within a window."""
    private_gap: float = 10.0
    """Seconds between two private answers to the same repeated command."""
    ask_gap: float = 60.0
    """Seconds during which one person's repeated question in a chat (/cancelar's Sim / Não)
    is not asked again while the first is open."""
    marcador_gap: float = 60.0
    """Seconds during which one person opens one marcador in a chat."""
    marcadores_per_chat: int = 3
    """New marcadores in one chat within ``marcador_gap``, whoever asks."""
    clock: Callable[[], float] = time.time
    """Wall time: shared notes are compared across processes."""

    def may_open_marcador(self, chat_id: int, user_id: int | None) -> bool:
        """Whether a new marcador may be posted for this person in this chat (and note it).

        May block on the database (shared notes): handlers call it off the event loop.
        """
        if chat_id > 0:
            return True
        chat = f"marcador:{chat_id}"
        budgets = [
            flood.Budget(f"{chat}:{user_id or 0}", 1, self.marcador_gap),
            flood.Budget(chat, self.marcadores_per_chat, self.marcador_gap),
        ]
        # the chat's row: two people's requests are decided in turn
        return self.notes.take(budgets, self.clock(), chat) == 0

    def may_ask(self, chat_id: int, user_id: int | None) -> bool:
        """Whether a question with buttons may be posted for this person in this chat (and
        note it): one open question each, whichever replica they reach.

        May block on the database (shared notes): handlers call it off the event loop.
        """
        key = f"ask:{chat_id}:{user_id or 0}"
        return self.notes.take([flood.Budget(key, 1, self.ask_gap)], self.clock(), key) == 0

    def answered(self, chat_id: int) -> None:
        """A question in ``chat_id`` was answered: whoever asks next is asked at once."""
        self.notes.drop(f"ask:{chat_id}:")

    def route(
        self, budget: Budget, chat_id: int, user_id: int | None, answer: str, started: bool
    ) -> Route:
        """Where ``answer`` to a command from ``user_id`` in ``chat_id`` goes (and note it).

        May block on the database (shared notes): handlers call it off the event loop.
        """
        if chat_id > 0:
            return Route.GROUP  # a private chat: the answer is the person's own
        now = self.clock()
        person = f"cmd:{chat_id}:{user_id or 0}"
        same = hashlib.sha1(answer.encode()).hexdigest()[:16]
        in_group = [
            flood.Budget(person, self.per_person, self.window),
            flood.Budget(f"{person}:g:{same}", 1, self.window),
        ]
        # the minute's budget minus what the table needs; the 1 s spacing is no reason to wait
        room = budget.wait(chat_id, 1 + self.reserve) <= 1.0
        if room and self.notes.take(in_group, now, person) == 0:
            return Route.GROUP
        privately = [flood.Budget(f"{person}:p:{same}", 1, self.private_gap)]
        if started and user_id and self.notes.take(privately, now, person) == 0:
            return Route.PRIVATE
        if not room and not started and self.notes.take(in_group, now, person) == 0:
            return Route.GROUP  # nowhere else to answer: it waits for room in the group
        return Route.DROP
