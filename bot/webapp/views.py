"""The Mini App's views: one small function per route (the table is in ``server.ROUTES``).

The API's views find the person already checked (``door.person_of``) and refuse by
raising ``door.Refusal``; a change goes through ``bot.acting.person_acts`` as a button's
does: in the update threads, a refusal worded, the change told to the notifier.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.acting import Refusal, person_acts
from bot.domain import Source, Table, miniapp, people, tables
from bot.domain.presence import PRESENCE, page_closed, present, redraw_hands
from bot.domain.values.game import Change
from bot.domain.values.people import Person
from bot.i18n import person_translations
from bot.numbers import NumberRefused, parse_number
from bot.services import BotApp, services_of
from bot.webapp import door
from bot.webapp.door import bot_of, person_of
from bot.webapp.initdata import BadInitData, WebAppUser
from bot.webapp.pages import Loaded, Pages
from bot.webapp.state import PAGE_LOBBY, table_state
from engine.actions import Action
from engine.cards import DeckStyle
from engine.errors import InvalidValue
from engine.rulesets import get_ruleset

log = logging.getLogger(__name__)
STATIC = Path(__file__).with_name("static")
HEARTBEAT = PRESENCE / 3
"""Seconds between a live connection's keep-alives (and presence refreshes): a person
counts as in the app for three of them (``PRESENCE``)."""
PAGES = web.AppKey("pages", Pages)
"""The process's open pages, in the Mini App's ``web.Application``."""
TABLE_REF = re.compile(r"g([0-9]{1,20})")
JSON = dict[str, Any]
_redraws: set[asyncio.Task[None]] = set()
"""Deferred hand redraws being recorded (held here until done)."""


def pages_of(request: web.Request) -> Pages:
    """The open pages of this process."""
    return request.config_dict[PAGES]


def game_of(ref: Any) -> int | None:
    """The table a page names (``g<id>``), ``None`` for anything else; ``NumberRefused``
    for an id past the database's range (no such table), as a button's id is read."""
    found = TABLE_REF.fullmatch(ref) if isinstance(ref, str) else None
    return parse_number(found.group(1), low=1) if found else None


def table_asked(request: web.Request) -> int:
    """The table of a GET (``?table=g<id>``); 404 for anything else."""
    try:
        game_id = game_of(request.query.get("table"))
    except NumberRefused:
        game_id = None
    if game_id is None:
        raise door.refusal(request, 404, "no_table")
    return game_id


def version_of(user: WebAppUser, value: Any) -> int:
    """The version a tap was made for: a whole number in the database's range, as a
    button's version is read (400 for anything else: a float, a string, ``true``)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise door.bad_button(user)
    try:
        return parse_number(str(value))
    except NumberRefused:
        raise door.bad_button(user) from None


async def state_for(app: BotApp, user: WebAppUser, loaded: Loaded, deck: DeckStyle) -> JSON:
    """The table as ``user`` may see it: their seat's view, or the public table."""
    rt = services_of(app)
    seat = loaded.table.seat_of(user.id)
    t = person_translations(user.language_code)
    return table_state(
        t, loaded.table, seat, loaded.ended, deck, rt.rules.clock(), loaded.around, user.id
    )


async def deck_of(app: BotApp, user: WebAppUser, variant: str) -> DeckStyle:
    """The deck the person draws cards with at a table of ``variant`` (``/baralho``, else
    the variant's look: Spanish at gaudério)."""
    info = await asyncio.to_thread(people.player, services_of(app).db, user.id)
    return info.deck_at(variant) if info is not None else get_ruleset(variant).deck_style


async def change(app: BotApp, user: WebAppUser, call: Callable[[], Change]) -> Change:
    """The person acts as a button's press does (``bot.acting.person_acts``: the domain
    call in the updates' threads, the change told to the notifier); a refusal is answered
    in the person's words (``door.refused``)."""
    services = services_of(app)
    t = person_translations(user.language_code)
    done = await person_acts(services, t, partial(services.call, call))
    if isinstance(done, Refusal):
        raise door.refused(done)
    return done


async def body_of(request: web.Request) -> tuple[int, JSON]:
    """The table a POST names and its JSON body: 400 when they do not check out (the
    body is refused unread past ``door.MAX_BODY`` bytes or nested deeper than a page
    sends), 404 for an id past the database's range."""
    user = person_of(request)
    body = await door.json_body(request)
    try:
        game_id = game_of(body.get("table"))
    except NumberRefused:
        raise door.refusal(request, 404, "no_table") from None
    if game_id is None:
        raise door.bad_button(user)
    return game_id, body


def redraw_spaced(request: web.Request, game_id: int, user_id: int) -> bool:
    """Whether the person's hand may be redrawn now for their page going away or coming
    back; if not, it is redrawn (a job recorded) once when it may: a page toggled back and
    forth gets its hand redrawn at most every ``presence.REDRAW_GAP`` seconds."""
    rt = services_of(bot_of(request))
    loop = asyncio.get_running_loop()

    def redraw() -> None:
        task = loop.create_task(asyncio.to_thread(redraw_hands, rt.db, game_id, rt.rules.clock()))
        _redraws.add(task)
        task.add_done_callback(redrawn)

    def redrawn(task: asyncio.Task[None]) -> None:
        _redraws.discard(task)
        if not task.cancelled() and task.exception() is None:  # else the next move redraws
            rt.notifier.jobs_recorded()

    return pages_of(request).redraw_soon(game_id, user_id, redraw)


async def left(request: web.Request, table: Table, user_id: int) -> None:
    """The page closed (or went to the background): the person's hand message shows
    their hand again, and the group's table follows every move again (only a match in
    play is drawn otherwise while its people are in the app: an ended match's table,
    redrawn when its pages close, would be the same edit again)."""
    rt = services_of(bot_of(request))
    hands = redraw_spaced(request, table.id, user_id)
    with contextlib.suppress(Exception):  # the process may be stopping
        now = rt.rules.clock()
        await asyncio.to_thread(page_closed, rt.db, table, user_id, now, hands=hands)
        rt.notifier.jobs_recorded()


async def came(request: web.Request, game_id: int, user_id: int, now: float) -> None:
    """The page is open (or back from the background): the person counts as in the app,
    and one who came back gets their hand message pointing to the app (``redraw_spaced``)."""
    rt = services_of(bot_of(request))
    if await asyncio.to_thread(present, rt.db, game_id, user_id, now, hands=False):
        if redraw_spaced(request, game_id, user_id):
            await asyncio.to_thread(redraw_hands, rt.db, game_id, now)
        rt.notifier.jobs_recorded()


# ----------------------------------------------------------------- the page


async def page(request: web.Request) -> web.FileResponse:
    """The page itself (it reads its launch data from the URL fragment)."""
    return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


async def not_found(request: web.Request) -> web.Response:
    """Any other address under the app's path."""
    raise web.HTTPNotFound()


# ------------------------------------------------------------------ the API


async def state(request: web.Request) -> web.Response:
    """``GET api/state``: the table from the person's seat (the public table when they
    are not seated)."""
    app, user = bot_of(request), person_of(request)
    game_id = table_asked(request)
    loaded = await asyncio.to_thread(pages_of(request).read, game_id)
    if loaded is None:
        raise door.refusal(request, 404, "no_table")
    await door.may_see(request, loaded.table)
    return web.json_response(
        await state_for(app, user, loaded, await deck_of(app, user, loaded.table.variant))
    )


async def move(request: web.Request) -> web.Response:
    """``POST api/move``: one action of the person's own seat, made for a version, as a
    button makes it."""
    app, user = bot_of(request), person_of(request)
    game_id, body = await body_of(request)
    version = version_of(user, body.get("version"))
    try:
        action = Action.parse(str(body["action"]))
    except (ValueError, KeyError, TypeError, InvalidValue):
        raise door.bad_button(user) from None
    rt = services_of(app)
    call = partial(
        tables.act, rt.db, game_id, version, None, action, rt.rules,
        user_id=user.id, source=Source.APP,
    )  # fmt: skip
    done = await change(app, user, call)
    return web.json_response({"ok": True, "version": done.version})


async def back(request: web.Request) -> web.Response:
    """``POST api/back``: 🙋 Voltei, as in the private hand message: the person takes back
    the seat a robot plays for them (two timeouts, a vote, or a Revanche they were late
    for)."""
    app, user = bot_of(request), person_of(request)
    game_id, _body = await body_of(request)
    rt = services_of(app)
    done = await change(app, user, partial(tables.come_back, rt.db, game_id, user.id, rt.rules))
    return web.json_response({"ok": True, "version": done.version})


async def lobby(request: web.Request) -> web.Response:
    """``POST api/lobby``: Entrar (which also confirms a Revanche seat), a team, a robot
    more or less, Sair or Começar, as the lobby's buttons in the group do them; Começar is
    the table's opener's."""
    app, user = bot_of(request), person_of(request)
    game_id, body = await body_of(request)
    command = PAGE_LOBBY.get(str(body.get("command")))
    if command is None:
        raise door.bad_button(user)
    # the lobby's version the page drew its buttons for: a robot button tapped twice on one
    # drawing adds one robot, as in the group (a page from before it sent none)
    expected = version_of(user, body["version"]) if "version" in body else None
    rt = services_of(app)
    person = Person(user.id, user.name, language_code=user.language_code)
    table = await asyncio.to_thread(tables.load, rt.db, game_id)
    if table is None:
        raise door.refusal(request, 404, "no_table")
    await door.may_act(request, table)
    authorised = table.creator_id == user.id

    def call() -> Change:
        people.meet(rt.db, person)
        # the app is open at this table: the person, once seated, counts as present from
        # the change's own transaction (its first deal needs no hand message)
        return tables.lobby(
            rt.db, game_id, person, command, authorised=authorised, rules=rt.rules,
            expected=expected, in_app=True,
        )  # fmt: skip

    done = await change(app, user, call)
    return web.json_response({"ok": True, "version": done.version})


async def rematch(request: web.Request) -> web.Response:
    """``POST api/rematch``: Revanche, as its button in the group: the answer names the
    new table, which the page opens."""
    app, user = bot_of(request), person_of(request)
    game_id, _body = await body_of(request)
    rt = services_of(app)
    table = await asyncio.to_thread(tables.load, rt.db, game_id)
    if table is None:
        raise door.refusal(request, 404, "no_table")
    await door.may_act(request, table)

    def call() -> Change:
        # the page opens the Revanche next: it counts as open there from the start
        return tables.rematch(rt.db, game_id, user.id, rt.rules, in_app=True)

    done = await change(app, user, call)
    return web.json_response({"ok": True, "table": f"g{done.game_id}"})


async def presence(request: web.Request) -> web.Response:
    """``POST api/presence``: the page went to the background (``hidden``) or came back.
    Hidden, it does not count as open: the hand message and the turn's ping come back as
    if it were closed (its live stream ends too; this says so at once, before the
    stream's end is seen)."""
    app, user = bot_of(request), person_of(request)
    game_id, body = await body_of(request)
    rt = services_of(app)
    table = await asyncio.to_thread(tables.load, rt.db, game_id)
    if table is not None and table.seat_of(user.id) is not None:
        pages = pages_of(request)
        async with pages.presence_lock(game_id, user.id):
            if body.get("hidden"):
                pages.hidden(game_id, user.id)
                await left(request, table, user.id)
            else:
                await came(request, game_id, user.id, rt.rules.clock())
    return web.json_response({"ok": True})


async def events(request: web.Request) -> web.StreamResponse:
    """``GET api/events``: the live stream: the state now, then again after every change
    of the table."""
    user, pages = person_of(request), pages_of(request)
    game_id = table_asked(request)
    wake = pages.live.watch(game_id)  # before the read: a change made meanwhile wakes it
    loaded = await pages.current(game_id)
    address = door.address_of(request)
    try:
        if loaded is None:
            raise door.refusal(request, 404, "no_table")
        await door.may_see(request, loaded.table)
        if not pages.streams.open(user.id, address):
            raise door.too_many_streams(user)
    except BaseException:
        pages.unwatch(game_id, wake)
        raise
    try:
        return await _serve(request, user, game_id, wake, loaded)
    finally:
        pages.streams.close(user.id, address)


async def _serve(
    request: web.Request, user: WebAppUser, game_id: int, wake: asyncio.Event, loaded: Loaded
) -> web.StreamResponse:
    """The stream itself, once the person may hold it."""
    app, pages = bot_of(request), pages_of(request)
    response = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream",
            "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no",
        }
    )
    try:
        deck = await deck_of(app, user, loaded.table.variant)
        await response.prepare(request)
    except BaseException:
        pages.unwatch(game_id, wake)
        raise
    seen = Seen(loaded, hides=pages.hides(game_id, user.id))
    try:
        await _stream(request, response, user, game_id, wake, deck, seen)
    finally:
        pages.unwatch(game_id, wake)
        # a page that said it went to the background was counted out then (``presence``);
        # counting it out again here, seen late, could undo its newer stream's coming back
        async with pages.presence_lock(game_id, user.id):
            if seen.seated and pages.hides(game_id, user.id) == seen.hides:
                await left(request, seen.loaded.table, user.id)
    return response


@dataclass
class Seen:
    """What a live stream last sent: the table as read, and whether the person sat."""

    loaded: Loaded
    seated: bool = False
    hides: int = 0
    """How often the person's page had gone to the background when this stream opened."""


async def _stream(
    request: web.Request,
    response: web.StreamResponse,
    user: WebAppUser,
    game_id: int,
    wake: asyncio.Event,
    deck: DeckStyle,
    seen: Seen,
) -> None:
    """Send the state at every change until the page lets go (``seen`` says what was
    sent last, and whether the person was ever seated: then their leaving is news)."""
    app, pages = bot_of(request), pages_of(request)
    rt = services_of(app)
    sent: tuple[int, miniapp.Around] | None = None
    clock = rt.clock
    present_at = -HEARTBEAT
    loaded = seen.loaded
    hides = seen.hides
    try:
        while True:
            if request.transport is None or request.transport.is_closing():
                break  # the page let go (and may have said it is hidden): not present
            if pages.hides(game_id, user.id) != hides:
                break  # the page said it is hidden: it let go of this stream
            if pages.live.closing:
                break
            # a lobby's seats change under an open page: present once seated
            seated = loaded.table.seat_of(user.id) is not None
            if seated and not seen.seated:
                present_at = -HEARTBEAT
            seen.seated = seen.seated or seated
            # once a heartbeat at most: a stream woken by every move wrote at every other
            # one (a transaction a page every 5 s); the longest gap between two writes is
            # under two heartbeats, well inside ``PRESENCE``
            if seated and clock() - present_at >= HEARTBEAT:
                async with pages.presence_lock(game_id, user.id):
                    if pages.hides(game_id, user.id) != hides:
                        break  # hidden while this waited: counted out, not in again
                    present_at = clock()
                    await came(request, game_id, user.id, present_at)
            if (loaded.table.version, loaded.around) != sent:
                data = json.dumps(await state_for(app, user, loaded, deck))
                await response.write(f"event: state\ndata: {data}\n\n".encode())
                sent = (loaded.table.version, loaded.around)
            if not await clock.wait(wake, HEARTBEAT):
                door.launch(request)  # launch data too old now: the page reopens
                await response.write(b": ping\n\n")
            wake.clear()
            if pages.live.closing:
                break
            found = await pages.current(game_id)
            if found is None:
                break
            loaded = seen.loaded = found
    except (ConnectionResetError, BadInitData, asyncio.CancelledError):
        pass
