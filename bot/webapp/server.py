"""The Mini App on the bot's own HTTP port (``TRUCO_LISTEN``): its app factory and routes.

Under the path of ``TELEGRAM_WEBAPP_URL`` (``/app/`` for ``https://host/app/``),
:func:`make_app` builds the sub-application that ``BotServer`` mounts there (``ROUTES``,
with the views in ``views``):

- ``GET  /app/``              the page (nothing it loads comes from another host);
- ``GET  /app/static/…``      the page's script, style and card drawings (``deck.js``);
- ``GET  /app/api/state``     the table as the person may see it (``?table=g<id>``);
- ``POST /app/api/move``      one action, through ``tables.act`` like a button;
- ``GET  /app/api/events``    the live stream: the state again after every change;
- ``POST /app/api/lobby``     Entrar, Time 1/2, Sair or Começar, as the group's lobby buttons;
- ``POST /app/api/back``      🙋 Voltei: the seat a robot plays for the person is theirs again;
- ``POST /app/api/rematch``   Revanche, as its button in the group;
- ``POST /app/api/presence``  the page went to the background or came back.

Every API request carries the launch data Telegram signed (``Authorization: tma <initData>``),
checked by the API's middleware (``door.launch_data``) before any view runs, and is refused
with 401 when it does not check out (``initdata.verify``). The live stream is Server-Sent
Events read with ``fetch``: updates only flow one way (moves are ordinary POSTs with their
own answer), it is plain HTTP through any proxy, and ``fetch`` lets the launch data travel
in a header, never in a URL that lands in access logs.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from urllib.parse import urlsplit

from aiohttp import web

from bot.services import BotApp, services_of
from bot.webapp import views
from bot.webapp.door import (
    BOT,
    HEADERS,
    MEMBERS,
    add_security_headers,
    launch_data,
    refusals,
    security_headers,
)
from bot.webapp.members import Members
from bot.webapp.pages import Pages
from bot.webapp.views import PAGES

ROUTES = [
    web.get("/", views.page),
    web.static("/static/", views.STATIC, append_version=True),
]
"""The page and what it loads (open to anyone: nothing in them is private)."""
API_ROUTES = [
    web.get("/state", views.state),
    web.post("/move", views.move),
    web.get("/events", views.events),
    web.post("/lobby", views.lobby),
    web.post("/back", views.back),
    web.post("/rematch", views.rematch),
    web.post("/presence", views.presence),
]
"""The API under ``api/``: every request signed by Telegram for a person."""


def base_path(webapp_url: str) -> str:
    """The path the app is served under (``/app/`` for ``https://host/app/``)."""
    path = urlsplit(webapp_url).path or "/"
    return path if path.endswith("/") else path + "/"


def make_app(app: BotApp) -> web.Application:
    """The Mini App of the bot ``app``, to mount at :func:`base_path`: the page, the API
    behind its launch-data middleware, and the pages' lifecycle (their database listener
    runs while the server does; a stopping server lets every live stream go at once, so
    the page reconnects, to another replica if there is one, instead of holding the stop
    for the server's grace period)."""
    pages = Pages(app)
    api = web.Application(middlewares=[launch_data])
    api.add_routes(API_ROUTES)
    web_app = web.Application(middlewares=[refusals])
    web_app[BOT] = app
    web_app[PAGES] = pages
    web_app[MEMBERS] = Members()
    web_app.add_routes(ROUTES)
    web_app.add_subapp("/api/", api)
    web_app.router.add_route("*", "/{tail:.*}", views.not_found)

    async def listening(_web_app: web.Application) -> AsyncIterator[None]:
        async for _ in pages.listening():
            yield

    async def close_streams(_web_app: web.Application) -> None:
        pages.live.close()

    url = urlsplit(services_of(app).config.webapp_url or "")
    web_app[HEADERS] = security_headers(local=url.scheme == "http")  # config: local hosts only
    web_app.on_response_prepare.append(add_security_headers)
    web_app.cleanup_ctx.append(listening)
    web_app.on_shutdown.append(close_streams)
    return web_app


def mount(web_app: web.Application, app: BotApp | None) -> None:
    """Serve the Mini App of ``app`` under its URL's path, when it has one
    (``TELEGRAM_WEBAPP_URL``; nothing without a bot, as in some tests)."""
    if app is None:
        return
    url = services_of(app).config.webapp_url
    if url:
        web_app.add_subapp(base_path(url).rstrip("/") or "/", make_app(app))
