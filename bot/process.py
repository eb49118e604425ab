"""One bot process, from its start to its stop: the HTTP port (webhook, ``/healthz``,
``/metrics`` and the Mini App), the Telegram Application, the job runner, and taking
updates (webhook or long polling) last; stopped in the reverse order.

It sits above both adapters: it composes the Telegram adapter (``bot.telegram.app``)
and the HTTP port that also serves the Mini App (``bot.ops.webserver``), so neither
adapter starts the other. ``truco bot`` (``run``), ``truco bot-bench`` and the tests'
``Harness`` all start and stop the bot with ``Runner``.
"""

from __future__ import annotations

import asyncio
import logging
import sys

from telegram import Update

from bot.config import Config
from bot.domain import Database
from bot.domain.store import polling_lock
from bot.ops.lifecycle import stop_signals
from bot.ops.limits import raise_descriptor_limit
from bot.ops.webserver import BotServer, webhook_path
from bot.telegram.app import (
    build_application,
    on_shutdown,
    on_startup,
    start_jobs,
    stop_jobs,
)
from bot.telegram.context import TrucoApp, runtime_of

log = logging.getLogger(__name__)
SWITCH_INTERVAL = 0.0005
"""Seconds a thread may hold the GIL while another waits for it (Python's default: 0.005)."""


def run(config: Config) -> int:
    """Run the bot until SIGINT/SIGTERM: long polling, or a webhook when one is configured."""
    # The database calls run on threads, and each round trip gives the GIL back; with the
    # default 5 ms switch interval a thread waits up to 5 ms for it after every round trip
    # while the event loop draws messages (a move is about ten round trips).
    sys.setswitchinterval(SWITCH_INTERVAL)
    db = Database(config.database_url)
    try:
        app = build_application(config, db)
        if config.webhook_url:
            asyncio.run(serve(app, config))
        else:
            with polling_lock(db):
                asyncio.run(serve(app, config))
    finally:
        db.close()
    return 0


async def serve(app: TrucoApp, config: Config) -> None:
    """Run until SIGINT or SIGTERM, then stop in order."""
    with stop_signals() as stop:
        runner = Runner(app, config)
        try:
            await runner.start()
            await stop.wait()
        finally:
            await runner.stop()


class Runner:
    """One running bot: the Application, its HTTP port and, without a webhook, the poller."""

    def __init__(self, app: TrucoApp, config: Config) -> None:
        """Nothing runs until :meth:`start`."""
        self.app = app
        self.config = config
        self.server: BotServer | None = None

    @property
    def address(self) -> str:
        """``http://host:port`` of the HTTP port (empty when there is none)."""
        return self.server.address if self.server is not None else ""

    async def start(self) -> None:
        """Open the HTTP port, resume the tables, then take updates (webhook or polling)."""
        app, config = self.app, self.config
        rt = runtime_of(app)
        await app.initialize()
        if config.listen is not None:
            path = webhook_path(config.webhook_url) if config.webhook_url else None
            raise_descriptor_limit()  # each connection holds one (bot/ops/limits.py)
            self.server = BotServer(app, rt.db, rt.metrics, path=path, secret=config.webhook_secret)
            await self.server.start(*config.listen)
            log.info("listening on %s", self.server.address)
        await on_startup(app)
        await app.start()
        start_jobs(app)
        if config.webhook_url:
            # idempotent: every replica registers the same address and secret
            await app.bot.set_webhook(
                config.webhook_url,
                secret_token=config.webhook_secret,
                allowed_updates=Update.ALL_TYPES,
            )
        else:
            assert app.updater is not None
            await app.updater.start_polling(
                allowed_updates=Update.ALL_TYPES,
                timeout=config.poll_timeout,
                poll_interval=0,
            )

    async def stop(self) -> None:
        """Stop taking updates, finish those in flight and the jobs running, shut down."""
        app = self.app
        if self.server is not None:
            await self.server.stop()
            self.server = None
        if app.updater is not None and app.updater.running:
            await app.updater.stop()
        await stop_jobs(app)
        if app.running:
            await app.stop()
        await app.shutdown()
        await on_shutdown(app)
        # a start that failed early (a rejected token) leaves the Bot API session open
        http = runtime_of(app).http
        if http is not None:
            await http.shutdown()
