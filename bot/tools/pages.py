"""A Mini App page without a browser, for ``truco bot-bench``: the same HTTP calls the page
makes (its live stream and its moves, with launch data the fake Telegram signs), and the
time each version of a table reached each open page.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from typing import Any

import aiohttp

JSON = dict[str, Any]


class Page:
    """One open page: a live stream on one replica, the states it received and when."""

    def __init__(
        self,
        session: aiohttp.ClientSession,
        base: str,
        init_data: str,
        table: str,
        on_state: Callable[[Page, JSON], None] | None = None,
    ) -> None:
        """A page of ``base`` (``http://host:port/app/``) open at ``table`` (``g<id>``)."""
        self.session, self.base, self.init_data, self.table = session, base, init_data, table
        self.on_state = on_state
        self.state: JSON | None = None
        self.seen: list[tuple[int, float]] = []
        """(version, monotonic time) of every state received, in order."""
        self.reconnects = 0
        self._waiters: list[tuple[int, asyncio.Future[float]]] = []
        self._task: asyncio.Task[None] | None = None

    @property
    def headers(self) -> dict[str, str]:
        """The page's ``Authorization``: the signed launch data."""
        return {"Authorization": "tma " + self.init_data}

    def open(self) -> None:
        """Connect the live stream (and reconnect it whenever it drops) until ``close``."""
        self._task = asyncio.create_task(self._run())

    async def close(self) -> None:
        """Close the page."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for _, fut in self._waiters:
            fut.cancel()

    async def _run(self) -> None:
        url = f"{self.base}api/events?table={self.table}"
        timeout = aiohttp.ClientTimeout(total=None, sock_read=60)
        while True:
            try:
                async with self.session.get(url, headers=self.headers, timeout=timeout) as r:
                    if r.status != 200:
                        raise aiohttp.ClientError(str(r.status))
                    data: list[str] = []
                    async for raw in r.content:
                        line = raw.decode().rstrip("\r\n")
                        if line.startswith("data: "):
                            data.append(line[6:])
                        elif not line and data:
                            self._received(json.loads("\n".join(data)))
                            data = []
            except (aiohttp.ClientError, TimeoutError, ValueError):
                pass
            self.reconnects += 1
            await asyncio.sleep(0.5)

    def _received(self, state: JSON) -> None:
        now = time.monotonic()
        self.state = state
        version = int(state["version"])
        self.seen.append((version, now))
        keep = []
        for wanted, fut in self._waiters:
            if version >= wanted:
                if not fut.done():
                    fut.set_result(now)
            else:
                keep.append((wanted, fut))
        self._waiters = keep
        if self.on_state is not None:
            self.on_state(self, state)

    async def reached(self, version: int, timeout: float) -> float | None:
        """When this page first showed ``version`` or a newer one (``None``: not in time)."""
        for seen, at in self.seen:
            if seen >= version:
                return at
        fut: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self._waiters.append((version, fut))
        try:
            return await asyncio.wait_for(fut, timeout)
        except (TimeoutError, asyncio.CancelledError):
            return None

    async def move(self, base: str, version: int, action: str) -> tuple[int, JSON]:
        """Tap: one action for ``version``, sent to the replica at ``base``; (status, body)."""
        body = {"table": self.table, "version": version, "action": action}
        async with self.session.post(f"{base}api/move", json=body, headers=self.headers) as r:
            return r.status, await r.json()

    async def post(self, base: str, path: str, body: JSON) -> tuple[int, JSON]:
        """A POST of the page about its table (``api/lobby``, ``api/rematch``)."""
        body = {"table": self.table, **body}
        async with self.session.post(base + path, json=body, headers=self.headers) as r:
            return r.status, await r.json()
