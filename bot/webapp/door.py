"""Who comes in: the launch data of every API request, and the answers that refuse.

:func:`launch_data` is the API's middleware: it checks the ``Authorization: tma
<initData>`` Telegram signed (``initdata.verify``) before any view runs and attaches the
person to the request (:func:`person_of`); a request that does not check out is answered
401 in the language its launch data names. Views refuse by raising :class:`Refusal`,
which :func:`refusals` turns into the JSON answer: no view returns early with a response
it got from a helper.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from bot import acting
from bot.domain.values.errors import Reason
from bot.domain.values.game import Table
from bot.i18n import person_translations
from bot.services import BotApp, services_of
from bot.webapp.initdata import BadInitData, WebAppUser, parse_fields, verify
from bot.webapp.members import Members
from bot.webapp.state import page_words
from bot.wording.refusals import reason_text

log = logging.getLogger(__name__)
BOT = web.AppKey("bot", BotApp)
"""The running bot whose tables the app serves."""
MEMBERS = web.AppKey("members", Members)
"""Telegram's recent answers about who is in which group."""
PERSON = web.RequestKey("person", WebAppUser)
"""Where :func:`launch_data` leaves the request's person."""
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
JSON = dict[str, Any]
_LOCAL_PEERS = frozenset({"127.0.0.1", "::1"})
_STATUS = {Reason.NO_GAME: 404, Reason.NOT_MEMBER: 403}
"""The domain's refusals that have an HTTP status of their own (the rest are 409)."""
MAX_BODY = 4096
"""Bytes a page's POST may carry (its bodies are a few dozen): longer ones are refused unread."""
MAX_DEPTH = 2
"""How deep a POST's JSON may nest (a page sends one flat object)."""
BODY_SECONDS = 10.0
"""A POST's body must arrive within this (a half-sent body holds nothing longer)."""
_LANGUAGE = re.compile(r'"language_code"\s*:\s*"([A-Za-z_-]{2,16})"')


class Refusal(Exception):
    """An answer that refuses the request: its status and JSON body."""

    def __init__(self, status: int, body: JSON, why: str) -> None:
        """Answer ``body`` with ``status``; ``why`` goes in the log line."""
        super().__init__(status)
        self.status = status
        self.body = body
        self.why = why


def bot_of(request: web.Request) -> BotApp:
    """The bot the request's app serves."""
    return request.config_dict[BOT]


def launch(request: web.Request) -> WebAppUser:
    """The person of the request's signed launch data (``BadInitData`` if it does not
    check out)."""
    scheme, _, raw = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "tma":
        raise BadInitData("no launch data")
    rt = services_of(bot_of(request))
    return verify(raw.strip(), rt.config.token, now=rt.rules.clock())


def person_of(request: web.Request) -> WebAppUser:
    """The person :func:`launch_data` found for this request."""
    return request[PERSON]


def refusal(request: web.Request, status: int, key: str) -> Refusal:
    """A refusal with one of the page's words, in the language the launch data names
    (read unchecked: it only picks the words of the answer)."""
    _scheme, _, raw = request.headers.get("Authorization", "").partition(" ")
    try:
        # a pattern, not a JSON parser: unchecked input gets no work done on it
        found = _LANGUAGE.search(parse_fields(raw.strip()).get("user", ""))
    except BadInitData:
        found = None
    words = page_words(person_translations(found[1] if found else None))
    return Refusal(status, {"error": words[key]}, key)


def bad_button(user: WebAppUser) -> Refusal:
    """A request no button of the page makes (400), refused as a forged button is."""
    t = person_translations(user.language_code)
    return Refusal(400, {"error": reason_text(t, Reason.BAD_BUTTON)}, Reason.BAD_BUTTON.value)


def address_of(request: web.Request) -> str:
    """Where the request comes from: the peer, or, behind the proxy on this machine
    (``deploy/nginx-truco.conf``), the address it says in ``X-Real-IP``."""
    peer = request.remote or ""
    forwarded = request.headers.get("X-Real-IP", "").strip()
    if forwarded and peer in _LOCAL_PEERS:
        return forwarded[:64]
    return peer


def too_many_streams(user: WebAppUser) -> Refusal:
    """A live stream over the person's or the address's limit (429)."""
    t = person_translations(user.language_code)
    return Refusal(429, {"error": reason_text(t, Reason.BUSY)}, "too many streams")


async def may_see(request: web.Request, table: Table) -> None:
    """Refuse (404, as a table that is not there: its id tells a stranger nothing) unless
    the person may see the table: those seated at it, and for a group's table the group's
    members (Telegram is asked: ``members``). A private table (a person against robots)
    is its seats' alone."""
    user = person_of(request)
    if table.seat_of(user.id) is not None:
        return
    if not table.private and await _member(request, table):
        return
    raise refusal(request, 404, "no_table")


async def may_act(request: web.Request, table: Table) -> None:
    """Refuse unless the person may act on the table's lobby or Revanche from the app: the
    seated may (Sair, confirming a seat), and for a group's table its members, as only
    they see its buttons in the group (403, worded as a button's refusal); a private
    table answers strangers as one that is not there (404)."""
    user = person_of(request)
    if table.seat_of(user.id) is not None:
        return
    if table.private:
        raise refusal(request, 404, "no_table")
    if not await _member(request, table):
        t = person_translations(user.language_code)
        raise refused(acting.Refusal(Reason.NOT_MEMBER, reason_text(t, Reason.NOT_MEMBER)))


async def _member(request: web.Request, table: Table) -> bool:
    members = request.config_dict[MEMBERS]
    return await members.is_member(bot_of(request).bot, table.chat_id, person_of(request).id)


def refused(refusal: acting.Refusal) -> Refusal:
    """The domain's refusal, in the person's words as a button's alert says it: 404 for a
    table that is not there, 409 for the rest."""
    status = _STATUS.get(refusal.reason, 409)
    return Refusal(
        status, {"error": refusal.text, "reason": refusal.reason.value}, refusal.reason.value
    )


def too_deep(text: str, limit: int) -> bool:
    """Whether JSON ``text`` nests arrays or objects deeper than ``limit`` (counted in one
    pass over the characters, strings skipped: before any parser recurses into it)."""
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a page sends")


async def json_body(request: web.Request) -> JSON:
    """A POST's JSON object, read within ``BODY_SECONDS``; 400 (a forged button) for a
    body too long, too deep, with ``NaN`` or ``Infinity``, not JSON or not an object."""
    user = request[PERSON]
    if (request.content_length or 0) > MAX_BODY:
        raise bad_button(user)
    try:
        async with asyncio.timeout(BODY_SECONDS):
            raw = bytearray()
            while len(raw) <= MAX_BODY:
                chunk = await request.content.read(MAX_BODY + 1 - len(raw))
                if not chunk:
                    break
                raw += chunk
    except TimeoutError:
        raise Refusal(408, bad_button(user).body, "body too slow") from None
    if len(raw) > MAX_BODY:
        raise bad_button(user)
    try:
        text = bytes(raw).decode()
        if too_deep(text, MAX_DEPTH):
            raise ValueError("too deep")
        body = json.loads(text, parse_constant=_no_constant)
    except ValueError:
        raise bad_button(user) from None
    if not isinstance(body, dict):
        raise bad_button(user)
    return body


TELEGRAM_CLIENTS = "https://web.telegram.org https://*.telegram.org"
"""The web clients of Telegram that frame the page (the phone and desktop apps open it in
a web view of their own, framed by nobody)."""
LOCAL_CLIENTS = "http://127.0.0.1:* http://localhost:*"
"""A fake Telegram's web client on this machine (the sandbox), which frames the page too
when the app itself is served on a local ``http://`` address."""
HEADERS = web.AppKey("headers", dict[str, str])


def security_headers(local: bool) -> dict[str, str]:
    """The headers of every answer under the app's path: everything the page loads is its
    own (the cards are SVG its own script draws), only Telegram's
    web clients may frame it (and, for an app on a local address, the sandbox's), no type
    sniffing, and no address (with its table) leaves in a Referer."""
    ancestors = TELEGRAM_CLIENTS + (" " + LOCAL_CLIENTS if local else "")
    return {
        "Content-Security-Policy": (
            "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
            f"form-action 'none'; frame-ancestors {ancestors}"
        ),
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    }


async def add_security_headers(request: web.Request, response: web.StreamResponse) -> None:
    """``on_response_prepare``: add the app's :func:`security_headers` (a live stream's too,
    which a middleware would see only after its headers were sent)."""
    response.headers.update(request.config_dict[HEADERS])


@web.middleware
async def refusals(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Answer a view's :class:`Refusal`."""
    try:
        return await handler(request)
    except Refusal as exc:
        # one line per refused request; never the launch data or the body
        log.info("app %s %s refused %d: %s", request.method, request.path, exc.status, exc.why)
        return web.json_response(exc.body, status=exc.status)


@web.middleware
async def launch_data(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Attach the person of the signed launch data; refuse the request (401) without it."""
    try:
        request[PERSON] = launch(request)
    except BadInitData:
        raise refusal(request, 401, "reopen") from None
    return await handler(request)
