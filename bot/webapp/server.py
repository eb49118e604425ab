"""The Mini App's routes on the bot's own HTTP port (``TRUCO_LISTEN``).

Under the path of ``TELEGRAM_WEBAPP_URL`` (``/app/`` for ``https://host/app/``):

- ``GET  /app/``            the page (and ``static/``, ``cards.css``): nothing from another host;
- ``GET  /app/api/state``   the table as the person may see it (``?table=g<id>``);
- ``POST /app/api/move``    one action, through ``tables.act`` like a button;
- ``GET  /app/api/events``  the live stream: the state again after every change.

Every API request carries the launch data Telegram signed (``Authorization: tma <initData>``)
and is refused with 401 when it does not check out (``initdata.verify``). The live stream
is Server-Sent Events read with ``fetch``: updates only flow one way (moves are ordinary
POSTs with their own answer), it is plain HTTP through any proxy, and ``fetch`` lets the
launch data travel in a header, never in a URL that lands in access logs.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web

from bot.domain import Refused, Source, Table, messages, miniapp, people, tables
from bot.domain.values import HandSummary
from bot.i18n import person_translations
from bot.telegram.context import TrucoApp, runtime_of
from bot.webapp.initdata import BadInitData, WebAppUser, parse_fields, verify
from bot.webapp.live import APP_KEY, Live
from bot.webapp.state import page_words, table_state
from engine.actions import Action
from engine.cards import DeckStyle
from engine.errors import InvalidValue

log = logging.getLogger(__name__)
STATIC = Path(__file__).with_name("static")
CARDS_CSS = (
    Path(__file__).resolve().parents[2] / "site" / "assets" / "truco.css",
    Path("site") / "assets" / "truco.css",
)
"""The site's cards (both deck styles, R11), served as they are: one drawing of a card. Found
beside the package in a checkout, or in the working directory (``pip install .`` from a
clone run there, as ``deploy/truco-bot@.service`` does)."""
HEARTBEAT = 10.0
"""Seconds between a live connection's keep-alives (and presence refreshes)."""
PRESENCE = 3 * HEARTBEAT
"""A person counts as having the app open this long after their last sign of life."""
TABLE_REF = re.compile(r"g([0-9]{1,18})")
JSON = dict[str, Any]


@dataclass(frozen=True)
class Loaded:
    """A table as read once for every page of this process watching it."""

    table: Table
    ended: dict[int, HandSummary]


class MiniApp:
    """The routes, the live connections and the database listener of one process."""

    def __init__(self, app: TrucoApp, webapp_url: str) -> None:
        """Serve under the path of ``webapp_url``."""
        self.app = app
        path = urlsplit(webapp_url).path or "/"
        self.base = path if path.endswith("/") else path + "/"
        self.live = Live()
        self._cache: dict[int, Loaded] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._listener: asyncio.Task[None] | None = None
        app.bot_data[APP_KEY] = self

    # ----------------------------------------------------------------- set-up

    def install(self, web_app: web.Application) -> None:
        """Add the routes, and the database listener to the server's life."""
        b = self.base
        web_app.router.add_get(b, self.page)
        web_app.router.add_get(b + "cards.css", self.cards_css)
        web_app.router.add_static(b + "static/", STATIC, append_version=True)
        web_app.router.add_get(b + "api/state", self.state)
        web_app.router.add_post(b + "api/move", self.move)
        web_app.router.add_get(b + "api/events", self.events)
        web_app.on_startup.append(self._start)
        web_app.on_cleanup.append(self._stop)

    async def _start(self, _web_app: web.Application) -> None:
        db = runtime_of(self.app).db
        self._listener = asyncio.create_task(
            miniapp.listen(db, self.live.changed, self._gap), name="miniapp-listen"
        )

    async def _stop(self, _web_app: web.Application) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener

    def _gap(self) -> None:
        self._cache.clear()
        self.live.gap()

    # ---------------------------------------------------------------- helpers

    def _user(self, request: web.Request) -> WebAppUser:
        scheme, _, raw = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != "tma":
            raise BadInitData("no launch data")
        rt = runtime_of(self.app)
        return verify(raw.strip(), rt.config.token, now=rt.rules.clock())

    def _refusal(self, request: web.Request, status: int, key: str) -> web.Response:
        """A refusal in the language the launch data names (read unchecked: it only picks
        the words of the answer)."""
        _scheme, _, raw = request.headers.get("Authorization", "").partition(" ")
        try:
            lang = json.loads(parse_fields(raw.strip()).get("user", "{}")).get("language_code")
        except (BadInitData, ValueError, AttributeError):
            lang = None
        words = page_words(person_translations(lang if isinstance(lang, str) else None))
        return web.json_response({"error": words[key]}, status=status)

    @staticmethod
    def _game(request: web.Request, ref: Any) -> int | None:
        found = TABLE_REF.fullmatch(str(ref or ""))
        return int(found.group(1)) if found else None

    def _read(self, game_id: int) -> Loaded | None:
        """In a thread: the table and how its hands ended (domain reads only)."""
        drawing = messages.hands_drawing(runtime_of(self.app).db, game_id)
        if drawing is not None:
            return Loaded(drawing.table, drawing.ended)
        table = tables.load(runtime_of(self.app).db, game_id)
        return Loaded(table, {}) if table is not None else None

    async def _current(self, game_id: int) -> Loaded | None:
        """The table, read once per change for every page of this process watching it."""
        lock = self._locks.setdefault(game_id, asyncio.Lock())
        async with lock:
            cached = self._cache.get(game_id)
            known = self.live.versions.get(game_id, -1)
            if cached is not None and cached.table.version >= known:
                return cached
            loaded = await asyncio.to_thread(self._read, game_id)
            if loaded is None:
                return None
            self._cache[game_id] = loaded
            self.live.changed(game_id, loaded.table.version)
            return loaded

    async def _state_for(self, user: WebAppUser, loaded: Loaded, deck: DeckStyle) -> JSON:
        rt = runtime_of(self.app)
        seat = loaded.table.seat_of(user.id)
        t = person_translations(user.language_code)
        return table_state(t, loaded.table, seat, loaded.ended, deck, rt.rules.clock())

    async def _deck(self, user: WebAppUser) -> DeckStyle:
        info = await asyncio.to_thread(people.player, runtime_of(self.app).db, user.id)
        return info.deck if info is not None else DeckStyle.TRADITIONAL

    # ----------------------------------------------------------------- routes

    async def page(self, request: web.Request) -> web.FileResponse:
        """The page itself (it reads its launch data from the URL fragment)."""
        return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def cards_css(self, request: web.Request) -> web.StreamResponse:
        """The site's card drawings."""
        for path in CARDS_CSS:
            if path.is_file():
                return web.FileResponse(path)
        log.warning("site/assets/truco.css not found: the Mini App draws bare cards")
        return web.Response(text="", content_type="text/css")

    async def state(self, request: web.Request) -> web.Response:
        """The table from the person's seat (the public table when they are not seated)."""
        try:
            user = self._user(request)
        except BadInitData:
            return self._refusal(request, 401, "reopen")
        game_id = self._game(request, request.query.get("table"))
        loaded = await asyncio.to_thread(self._read, game_id) if game_id is not None else None
        if loaded is None:
            return self._refusal(request, 404, "no_table")
        return web.json_response(await self._state_for(user, loaded, await self._deck(user)))

    async def move(self, request: web.Request) -> web.Response:
        """One action of the person's own seat, made for a version, as a button makes it."""
        try:
            user = self._user(request)
        except BadInitData:
            return self._refusal(request, 401, "reopen")
        from bot.telegram.publish import refresh
        from bot.telegram.render.wording import reason_text

        t = person_translations(user.language_code)
        try:
            body = await request.json()
            game_id = self._game(request, body["table"])
            version = int(body["version"])
            action = Action.parse(str(body["action"]))
        except (ValueError, KeyError, TypeError, InvalidValue):
            game_id = None
        if game_id is None:
            return web.json_response({"error": t.gettext("Botão inválido.")}, status=400)
        rt = runtime_of(self.app)
        call = partial(
            tables.act, rt.db, game_id, version, None, action, rt.rules,
            user_id=user.id, source=Source.APP,
        )  # fmt: skip
        try:
            change = await asyncio.get_running_loop().run_in_executor(rt.update_threads(), call)
        except Refused as exc:
            text = reason_text(t, exc.reason, exc.params)
            return web.json_response({"error": text, "reason": exc.reason.value}, status=409)
        refresh(self.app, change)
        return web.json_response({"ok": True, "version": change.version})

    async def events(self, request: web.Request) -> web.StreamResponse:
        """The live stream: the state now, then again after every change of the table."""
        try:
            user = self._user(request)
        except BadInitData:
            return self._refusal(request, 401, "reopen")
        game_id = self._game(request, request.query.get("table"))
        if game_id is None:
            return self._refusal(request, 404, "no_table")
        wake = self.live.watch(game_id)  # before the read: a change made meanwhile wakes it
        loaded = await self._current(game_id)
        if loaded is None:
            self._unwatch(game_id, wake)
            return self._refusal(request, 404, "no_table")
        rt = runtime_of(self.app)
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-cache",
                "X-Accel-Buffering": "no",
            }
        )
        try:
            deck = await self._deck(user)
            await response.prepare(request)
        except BaseException:
            self._unwatch(game_id, wake)
            raise
        seated = loaded.table.seat_of(user.id) is not None
        sent = -1
        loop = asyncio.get_running_loop()
        present_at = -HEARTBEAT
        try:
            while True:
                if seated and loop.time() - present_at >= HEARTBEAT / 2:
                    present_at = loop.time()
                    await asyncio.to_thread(
                        miniapp.present, rt.db, game_id, user.id, rt.rules.clock()
                    )
                if loaded.table.version != sent:
                    data = json.dumps(await self._state_for(user, loaded, deck))
                    await response.write(f"event: state\ndata: {data}\n\n".encode())
                    sent = loaded.table.version
                try:
                    await asyncio.wait_for(wake.wait(), HEARTBEAT)
                except TimeoutError:
                    self._user(request)  # launch data too old now: the page reopens
                    await response.write(b": ping\n\n")
                wake.clear()
                found = await self._current(game_id)
                if found is None:
                    break
                loaded = found
        except (ConnectionResetError, BadInitData, asyncio.CancelledError):
            pass
        finally:
            self._unwatch(game_id, wake)
            if seated:
                await self._left(game_id, user.id, loaded.table.chat_id)
        return response

    def _unwatch(self, game_id: int, wake: asyncio.Event) -> None:
        self.live.unwatch(game_id, wake)
        if game_id not in self.live.waiting:  # keep nothing for tables nobody watches here
            self._cache.pop(game_id, None)
            self._locks.pop(game_id, None)

    async def _left(self, game_id: int, user_id: int, chat_id: int) -> None:
        """The page closed: the person's hand message shows their hand again."""
        from bot.telegram.publish import schedule_hands

        rt = runtime_of(self.app)
        with contextlib.suppress(Exception):  # the process may be stopping
            await asyncio.to_thread(miniapp.absent, rt.db, game_id, user_id)
            schedule_hands(self.app, chat_id, game_id)


def people_in_app(app: TrucoApp, game_id: int) -> frozenset[int]:
    """In a thread: who has this table open in the Mini App now (on any replica); nobody
    when the bot has no Mini App (and then no query is made)."""
    rt = runtime_of(app)
    if rt.config.webapp is None:
        return frozenset()
    return miniapp.in_app(rt.db, game_id, rt.rules.clock() - PRESENCE)


def mini_app(app: TrucoApp | None) -> MiniApp | None:
    """The Mini App of a running bot, made on first use; ``None`` without
    ``TELEGRAM_WEBAPP_URL`` (or without a bot, as in some tests)."""
    if app is None:
        return None
    found = app.bot_data.get(APP_KEY)
    if isinstance(found, MiniApp):
        return found
    url = runtime_of(app).config.webapp_url
    return MiniApp(app, url) if url else None
