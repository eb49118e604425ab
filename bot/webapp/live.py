"""Which open pages must hear that a table changed, within this process.

The pages' live connections wait here per table. A change is heard from two places:
the process that made it (its notifier, ``bot.services``: the only carrier on
SQLite, one process) and, on PostgreSQL, the database's ``NOTIFY`` for every version any
replica commits (``bot.domain.miniapp.listen``). Versions only grow, so the second
hearing of a change wakes nobody.
"""

from __future__ import annotations

import asyncio

APP_KEY = "miniapp"
"""Where the running Mini App sits in the Application's ``bot_data``."""


class Live:
    """The pages waiting per table, and the newest version heard of each table."""

    def __init__(self) -> None:
        """Nobody waits yet."""
        self.waiting: dict[int, set[asyncio.Event]] = {}
        self.versions: dict[int, int] = {}
        self.closing = False
        """The server is stopping: every live connection ends now."""

    def watch(self, game_id: int) -> asyncio.Event:
        """An event set whenever the table changes (``unwatch`` it when done)."""
        event = asyncio.Event()
        self.waiting.setdefault(game_id, set()).add(event)
        return event

    def unwatch(self, game_id: int, event: asyncio.Event) -> None:
        """Stop waking ``event``."""
        found = self.waiting.get(game_id)
        if found is not None:
            found.discard(event)
            if not found:  # nobody of this process watches it now: forget it
                del self.waiting[game_id]
                self.versions.pop(game_id, None)

    def changed(self, game_id: int, version: int) -> None:
        """The table has (at least) this version now: wake its pages if it is news (tables
        no page of this process watches are not remembered)."""
        if game_id not in self.waiting or version <= self.versions.get(game_id, -1):
            return
        self.versions[game_id] = version
        for event in self.waiting.get(game_id, ()):
            event.set()

    def poke(self, game_id: int) -> None:
        """Wake a table's pages for news that is not a version of the table (its Revanche)."""
        for event in self.waiting.get(game_id, ()):
            event.set()

    def close(self) -> None:
        """The server is stopping: wake every page's connection so that it ends at once
        (the page reconnects, on another replica if there is one) instead of holding the
        stop for the server's grace period."""
        self.closing = True
        for events in self.waiting.values():
            for event in events:
                event.set()

    def gap(self) -> None:
        """Changes may have been missed (the database connection dropped): wake them all."""
        self.versions.clear()
        for events in self.waiting.values():
            for event in events:
                event.set()
