"""The bot's HTTP port (``TRUCO_LISTEN``): Telegram's webhook, ``/healthz`` and ``/metrics``.

This is python-telegram-bot's custom-webhook set-up (the library's answer for serving
other routes beside the webhook): the Application runs without an ``Updater``, the bot
registers the webhook with ``Bot.set_webhook(secret_token=...)``, and each POST becomes
``Update.de_json`` handed to ``Application.process_update``. The update is handled before
Telegram gets its 200, so a process killed mid-update leaves it unacknowledged and
Telegram delivers it again (to another replica behind the proxy); the versioned writes
make a second delivery harmless.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import time
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST
from telegram import Update
from telegram.ext import Application

from bot.domain import Database
from bot.ops.limits import (
    BACKLOG,
    IDLE_SECONDS,
    ConnectionLimit,
    connection_budget,
    quiet_accept_errors,
)
from bot.ops.metrics import Metrics, received_at
from bot.webapp.server import mount

log = logging.getLogger(__name__)
AnyApp = Application[Any, Any, Any, Any, Any, Any]
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
HEALTH_TIMEOUT = 3.0


def webhook_path(url: str) -> str:
    """The path the bot serves: the path of the public webhook URL (``/`` when it has none)."""
    return urlsplit(url).path or "/"


SERVER_NAME = "truco"
"""The ``Server:`` header of every answer (aiohttp's names its version, which helps nobody
but a prober)."""


async def server_header(request: web.Request, response: web.StreamResponse) -> None:
    """``on_response_prepare``: name the server without a version."""
    response.headers["Server"] = SERVER_NAME


class BotServer:
    """The aiohttp server in front of one Application."""

    def __init__(
        self,
        app: AnyApp,
        db: Database,
        metrics: Metrics,
        *,
        path: str | None = None,
        secret: str | None = None,
        idle_seconds: float = IDLE_SECONDS,
        max_connections: int | None = None,
    ) -> None:
        """Serve ``path`` as the webhook (checked against ``secret``) when given, always
        ``/healthz`` and ``/metrics``. A connection that has not sent a whole request
        ``idle_seconds`` after opening (or after its last answer) is closed; at most
        ``max_connections`` are held (by default what the descriptor limit leaves:
        ``limits.connection_budget``)."""
        self.app = app
        self.db = db
        self.metrics = metrics
        self.path = path
        self.secret = (secret or "").encode()
        self.idle_seconds = idle_seconds
        self.max_connections = max_connections
        self.limit: ConnectionLimit | None = None
        self._runner: web.AppRunner | None = None
        self._listening: asyncio.AbstractServer | None = None
        self.address = ""

    def make_app(self) -> web.Application:
        """The routes."""
        middlewares = [self.limit.middleware] if self.limit is not None else []
        web_app = web.Application(client_max_size=1024 * 1024, middlewares=middlewares)
        web_app.on_response_prepare.append(server_header)
        web_app.router.add_get("/healthz", self.healthz)
        web_app.router.add_get("/metrics", self.metrics_page)
        if self.path is not None:
            web_app.router.add_post(self.path, self.webhook)
        mount(web_app, self.app)  # the Mini App's page and API, when TELEGRAM_WEBAPP_URL is set
        return web_app

    async def start(self, host: str, port: int) -> str:
        """Listen; returns ``http://host:port`` (the port picked when 0 was asked)."""
        quiet_accept_errors()
        self.limit = ConnectionLimit(self.max_connections or connection_budget())
        self._runner = web.AppRunner(
            self.make_app(),
            access_log=None,
            shutdown_timeout=10.0,
            keepalive_timeout=self.idle_seconds,  # also runs while a first request is awaited
        )
        await self._runner.setup()
        server = self._runner.server
        assert server is not None
        # listened on here rather than through a TCPSite: every accepted connection goes
        # through the limit's factory, which makes room before the connection is served
        self._listening = await asyncio.get_running_loop().create_server(
            self.limit.protocol_factory(server), host, port, backlog=BACKLOG
        )
        bound = self._listening.sockets[0].getsockname()
        self.address = f"http://{host}:{bound[1]}"
        log.info("HTTP port holds at most %d connections", self.limit.limit)
        return self.address

    async def stop(self) -> None:
        """Stop accepting requests; those in flight finish first (up to 10 s)."""
        if self._listening is not None:
            self._listening.close()
            self._listening = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def webhook(self, request: web.Request) -> web.Response:
        """One update from Telegram: refused (403) unless it carries the secret."""
        given = request.headers.get(SECRET_HEADER, "").encode()
        if not hmac.compare_digest(given, self.secret):
            self.metrics.rejected.inc()
            log.warning("webhook request refused: wrong secret token")
            return web.Response(status=403)
        received_at.set(time.monotonic())
        try:
            data = await request.json()
            if not isinstance(data, dict):  # a list, a string, a number: valid JSON, no update
                raise TypeError(type(data).__name__)
            update = Update.de_json(data, self.app.bot)
        except (ValueError, KeyError, TypeError, AttributeError, json.JSONDecodeError):
            log.warning("webhook request refused: not an update")
            return web.Response(status=400)
        await self.app.process_update(update)
        return web.Response()

    async def healthz(self, request: web.Request) -> web.Response:
        """200 when the database answers, 503 otherwise."""
        try:
            await asyncio.wait_for(asyncio.to_thread(self.db.ping), HEALTH_TIMEOUT)
        except Exception as exc:  # any failure to reach the database is "unhealthy"
            log.warning("health check failed: %s", exc.__class__.__name__)
            return web.Response(status=503, text="database unavailable\n")
        return web.Response(text="ok\n")

    async def metrics_page(self, request: web.Request) -> web.Response:
        """Prometheus text."""
        return web.Response(body=self.metrics.text(), headers={"Content-Type": CONTENT_TYPE_LATEST})
