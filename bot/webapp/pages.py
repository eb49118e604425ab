"""The open pages of one process: the tables they watch, read once per change for all.

A page's live stream waits on :class:`~bot.webapp.live.Live`; :class:`Pages` keeps the
table each watched one was last read as (one read per change for every page of this
process), hears the database's "a table changed" on PostgreSQL, and tells pages of an
ended match when its Revanche appears (that news comes from another table).
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.domain import Table, miniapp
from bot.domain.presence import REDRAW_GAP
from bot.domain.values.game import GameStatus, HandSummary
from bot.services import BotApp, services_of
from bot.webapp.live import APP_KEY, Live


@dataclass(frozen=True)
class Loaded:
    """A table as read once for every page of this process watching it."""

    table: Table
    ended: dict[int, HandSummary]
    around: miniapp.Around = field(default_factory=miniapp.Around)


STREAMS_PER_PERSON = 8
"""Live streams one person may hold on one process (a page holds one; a few more cover
reloads whose old stream has not been seen closing yet)."""
STREAMS_PER_ADDRESS = 256
"""Live streams one address may hold on one process (a household, an office behind one
address; every page of the sandbox and the bench come from one too)."""


class Streams:
    """How many live streams each person and each address holds."""

    def __init__(self) -> None:
        """None yet."""
        self.people: dict[int, int] = {}
        self.addresses: dict[str, int] = {}

    def open(self, user_id: int, address: str) -> bool:
        """Count a new stream; ``False`` (nothing counted) when either would be over."""
        if self.people.get(user_id, 0) >= STREAMS_PER_PERSON:
            return False
        if self.addresses.get(address, 0) >= STREAMS_PER_ADDRESS:
            return False
        self.people[user_id] = self.people.get(user_id, 0) + 1
        self.addresses[address] = self.addresses.get(address, 0) + 1
        return True

    def close(self, user_id: int, address: str) -> None:
        """A stream counted by :meth:`open` ended."""
        _less(self.people, user_id)
        _less(self.addresses, address)


def _less(counts: dict[Any, int], key: Any) -> None:
    left = counts.pop(key, 0) - 1
    if left > 0:
        counts[key] = left


class Pages:
    """The live connections of one process, and the tables they watch."""

    def __init__(self, app: BotApp) -> None:
        """Pages of the bot ``app``; they hear every change this process stores (its
        notifier) and, on PostgreSQL, every replica's (``listening``)."""
        self.app = app
        self.live = Live()
        self.streams = Streams()
        self._redrawn: dict[tuple[int, int], float] = {}
        """When each person's hands at each table may next be redrawn for their page
        going away (``presence.REDRAW_GAP`` apart), on the bot's clock."""
        self._deferred: dict[tuple[int, int], asyncio.Task[None]] = {}
        """The redraws waiting for their time."""
        self._cache: dict[int, Loaded] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._over: set[int] = set()
        """Ended matches watched here with no Revanche yet."""
        self._checked: set[int] = set()
        """Tables already checked for being the Revanche of one of those."""
        self._hidden: dict[int, dict[int, int]] = {}
        """How often each person said their page of each watched table went to the
        background (``hidden``)."""
        self._presence: weakref.WeakValueDictionary[tuple[int, int], asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        """The lock of each person's presence at each table while it is in use."""
        app.bot_data[APP_KEY] = self
        services_of(app).notifier.on_change(
            lambda change: self.heard(change.game_id, change.version, change.page)
        )

    async def listening(self) -> AsyncIterator[None]:
        """The database's changes heard while the server runs (a cleanup context's body)."""
        db = services_of(self.app).db
        listener = asyncio.create_task(
            miniapp.listen(db, self.heard, self._gap), name="miniapp-listen"
        )
        try:
            yield
        finally:
            listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listener

    def _gap(self) -> None:
        self._cache.clear()
        self.live.gap()

    def heard(self, game_id: int, version: int, carried: str | miniapp.Page | None = None) -> None:
        """A table has (at least) ``version`` now: wake its pages. ``carried``: the table
        the change sent along (``miniapp.carried_table``), kept for them instead of a read.
        A table nobody here watches may be the Revanche of an ended match whose pages wait
        for it (its version never moves again): those are told, once per new table."""
        if carried is not None and game_id in self.live.waiting:
            cached = self._cache.get(game_id)
            if cached is None or cached.table.version < version:
                found = miniapp.carried_table(carried)
                if found is not None and found.table.version == version:
                    self._keep(game_id, Loaded(found.table, found.ended, found.around))
        self.live.changed(game_id, version)
        if game_id in self.live.waiting or not self._over or game_id in self._checked:
            return
        if game_id < min(self._over):
            return  # a Revanche is newer than its match
        self._checked.add(game_id)
        task = asyncio.get_running_loop().create_task(self._revanche(game_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _revanche(self, game_id: int) -> None:
        old = await asyncio.to_thread(miniapp.rematch_source, services_of(self.app).db, game_id)
        if old is not None and old in self._over:
            self._over.discard(old)
            self._cache.pop(old, None)
            self.live.poke(old)

    def read(self, game_id: int) -> Loaded | None:
        """In a thread: the table, how its hands ended, its lobby's waits or Revanche."""
        found = miniapp.page_table(services_of(self.app).db, game_id)
        return Loaded(found.table, found.ended, found.around) if found is not None else None

    async def current(self, game_id: int) -> Loaded | None:
        """The table, read once per change for every page of this process watching it."""
        lock = self._locks.setdefault(game_id, asyncio.Lock())
        async with lock:
            cached = self._cache.get(game_id)
            known = self.live.versions.get(game_id, -1)
            if cached is not None and cached.table.version >= known:
                return cached
            loaded = await asyncio.to_thread(self.read, game_id)
            if loaded is None:
                return None
            kept = self._keep(game_id, loaded)
            self.live.changed(game_id, kept.table.version)
            return kept

    def _keep(self, game_id: int, loaded: Loaded) -> Loaded:
        """Keep ``loaded`` for the table's pages unless a newer version is kept already (a
        change's carried table may come while an older one is being read); the one kept."""
        cached = self._cache.get(game_id)
        if cached is not None and cached.table.version > loaded.table.version:
            return cached
        self._cache[game_id] = loaded
        if loaded.table.status == GameStatus.OVER and loaded.around.rematch is None:
            self._over.add(game_id)  # its Revanche is news that comes from another table
        else:
            self._over.discard(game_id)
        return loaded

    def hidden(self, game_id: int, user_id: int) -> None:
        """The person's page of ``game_id`` went to the background: it let go of its live
        stream, whose end this process may not have seen yet. Those streams end now,
        before they count the person as in the app again (``hides``)."""
        if game_id in self.live.waiting:
            said = self._hidden.setdefault(game_id, {})
            said[user_id] = said.get(user_id, 0) + 1
            self.live.poke(game_id)

    def presence_lock(self, game_id: int, user_id: int) -> asyncio.Lock:
        """Held while a person's presence at a table is written: a stream's keep-alive
        that saw the page open, written after the page said it is hidden, counted the
        person in the app again (until ``PRESENCE`` ran out; forever on a held clock)."""
        key = (game_id, user_id)
        lock = self._presence.get(key)
        if lock is None:
            lock = self._presence[key] = asyncio.Lock()
        return lock

    def hides(self, game_id: int, user_id: int) -> int:
        """How often the person's page of ``game_id`` went to the background so far: a
        stream opened before the latest is one its page let go of."""
        return self._hidden.get(game_id, {}).get(user_id, 0)

    @property
    def redraws_waiting(self) -> int:
        """Hand redraws deferred by :meth:`redraw_soon`, not yet due."""
        return len(self._deferred)

    def redraw_soon(self, game_id: int, user_id: int, redraw: Callable[[], None]) -> bool:
        """Whether the person's hand may be redrawn now for their page going away; if not,
        ``redraw`` is called once when it may (``REDRAW_GAP`` after the previous one, on
        the bot's clock), however often it is asked meanwhile."""
        clock = services_of(self.app).clock
        key, now = (game_id, user_id), clock()
        if key in self._deferred:
            return False
        if self._redrawn.get(key, now) <= now:
            self._redrawn[key] = now + REDRAW_GAP
            if len(self._redrawn) > 10_000:  # entries past their time are as good as absent
                self._redrawn = {k: t for k, t in self._redrawn.items() if t > now}
            return True

        async def later(due: float) -> None:
            await clock.sleep(due - clock())
            del self._deferred[key]
            self._redrawn[key] = clock() + REDRAW_GAP
            redraw()

        task = asyncio.get_running_loop().create_task(later(self._redrawn[key]))
        self._deferred[key] = task
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return False

    def unwatch(self, game_id: int, wake: asyncio.Event) -> None:
        """A page of ``game_id`` closed: keep nothing for tables nobody watches here."""
        self.live.unwatch(game_id, wake)
        if game_id not in self.live.waiting:
            self._cache.pop(game_id, None)
            self._locks.pop(game_id, None)
            self._over.discard(game_id)
            self._hidden.pop(game_id, None)
            if not self._over:
                self._checked.clear()
