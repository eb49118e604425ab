"""Limits on the bot's HTTP port, so that held connections never stop the bot.

Every connection holds a file descriptor, and so do the bot's own database connections and
its calls to Telegram. A flood of connections that never finish a request (half-sent
headers) or of live streams used to fill the process's descriptors (a soft limit of 1,024
by default): ``accept()`` failed, ``/healthz`` and ``getUpdates`` stopped, and asyncio logged
every failed accept. So:

- at start the bot raises its soft descriptor limit to its hard limit
  (:func:`raise_descriptor_limit`; the systemd unit raises both, ``LimitNOFILE``);
- the port holds at most :func:`connection_budget` connections: when a new one comes in at
  the limit, the oldest connection with no request in progress is closed to make room
  (:class:`ConnectionLimit`), so a held connection cannot keep out ``/healthz``, Telegram's
  webhook or a page; descriptors stay free for the database and Telegram;
- a connection must send a whole request within ``IDLE_SECONDS`` of opening (or of its
  last answer), or it is closed (aiohttp's keep-alive timer, which also runs while the
  first request's headers are awaited);
- the "socket.accept() out of system resource" line asyncio logs on every failed accept is
  let through once per ``ACCEPT_LOG_SECONDS`` with the count of those held back
  (:class:`AcceptErrorFilter`).
"""

from __future__ import annotations

import logging
import os
import resource
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

log = logging.getLogger(__name__)
IDLE_SECONDS = 10.0
"""A connection is closed when it has not sent a whole request this long after opening
(or after its last answer): half-sent headers hold nothing longer."""
FD_RESERVE = 160
"""Descriptors kept out of the port's reach: the database pool, the calls to Telegram, the
robots' worker processes, log files."""
BACKLOG = 128
"""Connections the kernel queues before the bot accepts them. asyncio accepts up to this
many in one go, before the connections closed to make room for them have let their
descriptors go: the port's budget leaves room for one such burst."""
MIN_CONNECTIONS = 64
"""The port holds at least this many connections, whatever the descriptor limit says."""
ACCEPT_LOG_SECONDS = 10.0
"""At most one "out of system resource" line this often."""
WANTED_DESCRIPTORS = 65536
"""The soft limit the bot asks for at start (at most its hard limit)."""
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def raise_descriptor_limit(wanted: int = WANTED_DESCRIPTORS) -> int:
    """Raise the soft limit of open files towards ``wanted`` (never past the hard limit,
    never down); the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError) as exc:
            log.warning("could not raise the open-files limit to %d: %s", target, exc)
    return soft


def open_descriptors() -> int:
    """How many descriptors this process holds now (0 where the system does not say)."""
    try:
        return len(os.listdir("/proc/self/fd"))
    except OSError:
        return 0


def connection_budget() -> int:
    """How many connections the port may hold: the soft descriptor limit, less those
    already open, ``FD_RESERVE`` and one burst of accepts (``BACKLOG``)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        soft = WANTED_DESCRIPTORS
    return max(MIN_CONNECTIONS, soft - open_descriptors() - FD_RESERVE - BACKLOG)


class ConnectionLimit:
    """At most ``limit`` connections on a port; at the limit, the oldest idle one goes.

    ``protocol_factory`` wraps the aiohttp server's protocol factory (it is called for
    every accepted connection, before the connection is served); :meth:`middleware`
    marks the connections with a request in progress (never closed to make room: a live
    stream or a request being answered)."""

    def __init__(self, limit: int) -> None:
        """Hold at most ``limit`` connections."""
        self.limit = limit
        self.busy: dict[Any, int] = {}
        """Connections (aiohttp's protocol objects) with requests in progress: how many."""
        self.closed = 0
        """Connections closed to make room, since the start."""

    def protocol_factory(self, server: web.Server) -> Callable[[], RequestHandler]:
        """The factory to listen with: ``server``'s, making room first when at the limit."""

        def factory() -> RequestHandler:
            self.make_room(server)
            return server()

        return factory

    def make_room(self, server: web.Server) -> None:
        """Close the oldest idle connections until a new one fits. Connections already
        closing count for nothing: within one burst of accepts they are still listed
        (their descriptors go at the loop's next turn), and closing them again would make
        no room."""
        live = [h for h in server.connections if h.transport and not h.transport.is_closing()]
        excess = len(live) + 1 - self.limit
        for handler in live:  # oldest first
            if excess <= 0:
                break
            if handler in self.busy:
                continue
            handler.force_close()
            self.closed += 1
            excess -= 1

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Mark the request's connection busy while its request is answered."""
        protocol = request.protocol
        self.busy[protocol] = self.busy.get(protocol, 0) + 1
        try:
            return await handler(request)
        finally:
            left = self.busy.pop(protocol) - 1
            if left:
                self.busy[protocol] = left


class AcceptErrorFilter(logging.Filter):
    """Let asyncio's "socket.accept() out of system resource" through once per
    ``every`` seconds, saying how many were held back; other records pass."""

    MESSAGE = "socket.accept() out of system resource"

    def __init__(
        self, every: float = ACCEPT_LOG_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        """A filter timed by ``clock``."""
        super().__init__()
        self.every = every
        self.clock = clock
        self._last: float | None = None
        self.held_back = 0

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether ``record`` is logged."""
        if self.MESSAGE not in str(record.msg):
            return True
        now = self.clock()
        if self._last is not None and now - self._last < self.every:
            self.held_back += 1
            return False
        self._last = now
        if self.held_back:
            record.msg = f"{record.msg} ({self.held_back} more held back)"
            self.held_back = 0
        record.exc_info = None  # one line: the error is always the same
        record.exc_text = None
        return True


def quiet_accept_errors() -> AcceptErrorFilter:
    """Install :class:`AcceptErrorFilter` on asyncio's logger (once per process)."""
    logger = logging.getLogger("asyncio")
    for existing in logger.filters:
        if isinstance(existing, AcceptErrorFilter):
            return existing
    found = AcceptErrorFilter()
    logger.addFilter(found)
    return found
