"""The Mini App's routes on the bot's own HTTP port (``TRUCO_LISTEN``).

Under the path of ``TELEGRAM_WEBAPP_URL`` (``/app/`` for ``https://host/app/``), as
``MiniApp.install`` adds them:

- ``GET  /app/``              the page (nothing it loads comes from another host);
- ``GET  /app/cards.css``     the site's card drawings;
- ``GET  /app/static/…``      the page's script and style;
- ``GET  /app/api/state``     the table as the person may see it (``?table=g<id>``);
- ``POST /app/api/move``      one action, through ``tables.act`` like a button;
- ``GET  /app/api/events``    the live stream: the state again after every change;
- ``POST /app/api/lobby``     Entrar, Time 1/2, Sair or Começar, as the group's lobby buttons;
- ``POST /app/api/rematch``   Revanche, as its button in the group;
- ``POST /app/api/presence``  the page went to the background or came back.

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
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web

from bot.domain import Refused, Source, Table, miniapp, people, tables
from bot.domain.values.errors import Reason
from bot.domain.values.game import Change, GameStatus, HandSummary
from bot.domain.values.people import Person
from bot.i18n import person_translations
from bot.telegram.callbacks import PAGE_LOBBY
from bot.telegram.context import TrucoApp, runtime_of
from bot.telegram.render.wording import reason_text
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
APP_TABLE_GAP = 60.0
"""While everyone seated at a group's match plays it in the Mini App, the group's table
message is redrawn at most this often (seconds): the players see every move in the app,
the group can watch it live there (🃏 Abrir a mesa), and each edit counts against the
bot's 30 messages a second. Calls and hands' ends are announced as the group chose."""
TABLE_REF = re.compile(r"g([0-9]{1,18})")
JSON = dict[str, Any]


@dataclass(frozen=True)
class Loaded:
    """A table as read once for every page of this process watching it."""

    table: Table
    ended: dict[int, HandSummary]
    around: miniapp.Around = field(default_factory=miniapp.Around)


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
        self._tasks: set[asyncio.Task[None]] = set()
        self._over: set[int] = set()
        """Ended matches watched here with no Revanche yet."""
        self._checked: set[int] = set()
        """Tables already checked for being the Revanche of one of those."""
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
        web_app.router.add_post(b + "api/lobby", self.lobby)
        web_app.router.add_post(b + "api/rematch", self.rematch)
        web_app.router.add_post(b + "api/presence", self.presence)
        web_app.on_startup.append(self._start)
        web_app.on_shutdown.append(self._close_streams)
        web_app.on_cleanup.append(self._stop)

    async def _start(self, _web_app: web.Application) -> None:
        db = runtime_of(self.app).db
        self._listener = asyncio.create_task(
            miniapp.listen(db, self.heard, self._gap), name="miniapp-listen"
        )

    async def _close_streams(self, _web_app: web.Application) -> None:
        self.live.close()

    async def _stop(self, _web_app: web.Application) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener

    def _gap(self) -> None:
        self._cache.clear()
        self.live.gap()

    def heard(self, game_id: int, version: int) -> None:
        """A table has (at least) ``version`` now: wake its pages. A table nobody here
        watches may be the Revanche of an ended match whose pages wait for it (its version
        never moves again): those are told, once per new table."""
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
        old = await asyncio.to_thread(miniapp.rematch_source, runtime_of(self.app).db, game_id)
        if old is not None and old in self._over:
            self._over.discard(old)
            self._cache.pop(old, None)
            self.live.poke(old)

    # ---------------------------------------------------------------- helpers

    def _launch(self, request: web.Request) -> WebAppUser:
        """The person of the request's signed launch data (``BadInitData`` if it does not
        check out)."""
        scheme, _, raw = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != "tma":
            raise BadInitData("no launch data")
        rt = runtime_of(self.app)
        return verify(raw.strip(), rt.config.token, now=rt.rules.clock())

    def _user(self, request: web.Request) -> WebAppUser | web.Response:
        """The person of the request's signed launch data; else the refusal to answer (401)."""
        try:
            return self._launch(request)
        except BadInitData:
            return self._refusal(request, 401, "reopen")

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
    def _bad_button(user: WebAppUser) -> web.Response:
        """A request no button of the page makes (400), refused as a forged button is."""
        t = person_translations(user.language_code)
        return web.json_response({"error": reason_text(t, Reason.BAD_BUTTON)}, status=400)

    @staticmethod
    def _game(request: web.Request, ref: Any) -> int | None:
        found = TABLE_REF.fullmatch(str(ref or ""))
        return int(found.group(1)) if found else None

    def _read(self, game_id: int) -> Loaded | None:
        """In a thread: the table, how its hands ended, its lobby's waits or Revanche."""
        found = miniapp.page_table(runtime_of(self.app).db, game_id)
        return Loaded(found.table, found.ended, found.around) if found is not None else None

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
            if loaded.table.status == GameStatus.OVER and loaded.around.rematch is None:
                self._over.add(game_id)  # its Revanche is news that comes from another table
            else:
                self._over.discard(game_id)
            return loaded

    async def _state_for(self, user: WebAppUser, loaded: Loaded, deck: DeckStyle) -> JSON:
        rt = runtime_of(self.app)
        seat = loaded.table.seat_of(user.id)
        t = person_translations(user.language_code)
        return table_state(
            t, loaded.table, seat, loaded.ended, deck, rt.rules.clock(), loaded.around, user.id
        )

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
        user = self._user(request)
        if isinstance(user, web.Response):
            return user
        game_id = self._game(request, request.query.get("table"))
        loaded = await asyncio.to_thread(self._read, game_id) if game_id is not None else None
        if loaded is None:
            return self._refusal(request, 404, "no_table")
        return web.json_response(await self._state_for(user, loaded, await self._deck(user)))

    async def move(self, request: web.Request) -> web.Response:
        """One action of the person's own seat, made for a version, as a button makes it."""
        found = await self._body(request)
        if isinstance(found, web.Response):
            return found
        user, game_id, body = found
        try:
            version = int(body["version"])
            action = Action.parse(str(body["action"]))
        except (ValueError, KeyError, TypeError, InvalidValue):
            return self._bad_button(user)
        rt = runtime_of(self.app)
        call = partial(
            tables.act, rt.db, game_id, version, None, action, rt.rules,
            user_id=user.id, source=Source.APP,
        )  # fmt: skip
        change = await self._change(user, call)
        if isinstance(change, web.Response):
            return change
        return web.json_response({"ok": True, "version": change.version})

    async def _change(self, user: WebAppUser, call: Callable[[], Change]) -> web.Response | Change:
        """Run a domain call as a button's handler does (in the update threads); a refusal
        is answered in the person's words (409)."""
        from bot.telegram.publish import refresh

        rt = runtime_of(self.app)
        try:
            change = await asyncio.get_running_loop().run_in_executor(rt.update_threads(), call)
        except Refused as exc:
            text = reason_text(person_translations(user.language_code), exc.reason, exc.params)
            return web.json_response({"error": text, "reason": exc.reason.value}, status=409)
        refresh(self.app, change)
        return change

    async def _body(self, request: web.Request) -> tuple[WebAppUser, int, JSON] | web.Response:
        """The person and the table of a POST (401 or 400 when they do not check out)."""
        user = self._user(request)
        if isinstance(user, web.Response):
            return user
        try:
            body = await request.json()
            game_id = self._game(request, body["table"]) if isinstance(body, dict) else None
        except (ValueError, KeyError):
            game_id = None
        if game_id is None:
            return self._bad_button(user)
        return user, game_id, body

    async def lobby(self, request: web.Request) -> web.Response:
        """Entrar (which also confirms a Revanche seat), Sair or Começar, as the lobby's
        buttons in the group do them; Começar is the table's opener's."""
        found = await self._body(request)
        if isinstance(found, web.Response):
            return found
        user, game_id, body = found
        command = PAGE_LOBBY.get(str(body.get("command")))
        if command is None:
            return self._bad_button(user)
        rt = runtime_of(self.app)
        person = Person(user.id, user.name, language_code=user.language_code)
        table = await asyncio.to_thread(tables.load, rt.db, game_id)
        authorised = table is not None and table.creator_id == user.id

        def call() -> Change:
            people.meet(rt.db, person)
            # the app is open at this table: its first deal needs no hand message
            miniapp.present(rt.db, game_id, user.id, rt.rules.clock())
            return tables.lobby(
                rt.db, game_id, person, command, authorised=authorised, rules=rt.rules
            )

        change = await self._change(user, call)
        if isinstance(change, web.Response):
            return change
        return web.json_response({"ok": True, "version": change.version})

    async def rematch(self, request: web.Request) -> web.Response:
        """Revanche, as its button in the group: the answer names the new table, which the
        page opens."""
        found = await self._body(request)
        if isinstance(found, web.Response):
            return found
        user, game_id, _body = found
        rt = runtime_of(self.app)

        def call() -> Change:
            # the page opens the Revanche next: it counts as open there from the start
            return tables.rematch(rt.db, game_id, user.id, rt.rules, in_app=True)

        change = await self._change(user, call)
        if isinstance(change, web.Response):
            return change
        return web.json_response({"ok": True, "table": f"g{change.game_id}"})

    async def presence(self, request: web.Request) -> web.Response:
        """The page went to the background (``hidden``) or came back. Hidden, it does not
        count as open: the hand message and the turn's ping come back as if it were closed
        (its live stream ends too; this says so at once, before the stream's end is seen)."""
        found = await self._body(request)
        if isinstance(found, web.Response):
            return found
        user, game_id, body = found
        rt = runtime_of(self.app)
        table = await asyncio.to_thread(tables.load, rt.db, game_id)
        if table is not None and table.seat_of(user.id) is not None:
            if body.get("hidden"):
                await self._left(table, user.id)
            else:
                await asyncio.to_thread(miniapp.present, rt.db, game_id, user.id, rt.rules.clock())
        return web.json_response({"ok": True})

    async def events(self, request: web.Request) -> web.StreamResponse:
        """The live stream: the state now, then again after every change of the table."""
        user = self._user(request)
        if isinstance(user, web.Response):
            return user
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
        sent: tuple[int, miniapp.Around] | None = None
        loop = asyncio.get_running_loop()
        present_at = -HEARTBEAT
        was_seated = False
        try:
            while True:
                if request.transport is None or request.transport.is_closing():
                    break  # the page let go (and may have said it is hidden): not present
                if self.live.closing:
                    break
                # a lobby's seats change under an open page: present once seated
                seated = loaded.table.seat_of(user.id) is not None
                if seated and not was_seated:
                    present_at = -HEARTBEAT
                was_seated = was_seated or seated
                if seated and loop.time() - present_at >= HEARTBEAT / 2:
                    present_at = loop.time()
                    await asyncio.to_thread(
                        miniapp.present, rt.db, game_id, user.id, rt.rules.clock()
                    )
                if (loaded.table.version, loaded.around) != sent:
                    data = json.dumps(await self._state_for(user, loaded, deck))
                    await response.write(f"event: state\ndata: {data}\n\n".encode())
                    sent = (loaded.table.version, loaded.around)
                try:
                    await asyncio.wait_for(wake.wait(), HEARTBEAT)
                except TimeoutError:
                    self._launch(request)  # launch data too old now: the page reopens
                    await response.write(b": ping\n\n")
                wake.clear()
                if self.live.closing:
                    break
                found = await self._current(game_id)
                if found is None:
                    break
                loaded = found
        except (ConnectionResetError, BadInitData, asyncio.CancelledError):
            pass
        finally:
            self._unwatch(game_id, wake)
            if was_seated:
                await self._left(loaded.table, user.id)
        return response

    def _unwatch(self, game_id: int, wake: asyncio.Event) -> None:
        self.live.unwatch(game_id, wake)
        if game_id not in self.live.waiting:  # keep nothing for tables nobody watches here
            self._cache.pop(game_id, None)
            self._locks.pop(game_id, None)
            self._over.discard(game_id)
            if not self._over:
                self._checked.clear()

    async def _left(self, table: Table, user_id: int) -> None:
        """The page closed (or went to the background): the person's hand message shows
        their hand again, and the group's table follows every move again (only a match in
        play is drawn otherwise while its people are in the app: an ended match's table,
        redrawn when its pages close, would be the same edit again)."""
        from bot.telegram.publish import schedule_hands, schedule_table

        rt = runtime_of(self.app)
        with contextlib.suppress(Exception):  # the process may be stopping
            await asyncio.to_thread(miniapp.absent, rt.db, table.id, user_id)
            schedule_hands(self.app, table.chat_id, table.id)
            if not table.private and table.status == GameStatus.PLAYING:
                schedule_table(self.app, table.chat_id, table.thread_id, table.id)


def people_in_app(app: TrucoApp, game_id: int) -> frozenset[int]:
    """In a thread: who has this table open in the Mini App now (on any replica); nobody
    when the bot has no Mini App (and then no query is made)."""
    rt = runtime_of(app)
    if rt.config.webapp is None:
        return frozenset()
    return miniapp.in_app(rt.db, game_id, rt.rules.clock() - PRESENCE)


def seated_people(table: Table) -> frozenset[int]:
    """The people (not robots, nor robots standing in for someone) seated at a table."""
    return frozenset(
        x.user for x in table.seats if x is not None and x.user is not None and x.robot is None
    )


def table_gate(app: TrucoApp, table: Table) -> tuple[float, bool]:
    """In a thread: seconds before the group's table message of this match should be
    redrawn (0: now), and whether everyone seated plays it in the Mini App. It waits only
    then, and only while the last such drawing (by any replica) is under ``APP_TABLE_GAP``
    seconds old. Nothing is read for private tables, tables not in play or without the app."""
    rt = runtime_of(app)
    if rt.config.webapp is None or table.private or table.status != GameStatus.PLAYING:
        return 0.0, False
    seated = seated_people(table)
    now = rt.rules.clock()
    seen = miniapp.presence(rt.db, table.id)
    everyone = bool(seated) and all(seen.get(u, -PRESENCE) >= now - PRESENCE for u in seated)
    last = seen.get(miniapp.GROUP_TABLE)
    if not everyone or last is None:
        return 0.0, everyone
    return max(0.0, last + APP_TABLE_GAP - now), everyone


def table_drawn(app: TrucoApp, game_id: int) -> None:
    """In a thread: the group's table of ``game_id`` was just drawn for a match played in
    the Mini App (every replica's ``table_gate`` counts from now)."""
    rt = runtime_of(app)
    miniapp.present(rt.db, game_id, miniapp.GROUP_TABLE, rt.rules.clock())


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
