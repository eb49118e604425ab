"""Who comes in: the launch data of every API request, and the answers that refuse.

:func:`launch_data` is the API's middleware: it checks the ``Authorization: tma
<initData>`` Telegram signed (``initdata.verify``) before any view runs and attaches the
person to the request (:func:`person_of`); a request that does not check out is answered
401 in the language its launch data names. Views refuse by raising :class:`Refusal`,
which :func:`refusals` turns into the JSON answer: no view returns early with a response
it got from a helper.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from bot.domain.values.errors import Reason, Refused
from bot.i18n import person_translations
from bot.services import BotApp, services_of
from bot.telegram.render.wording import reason_text
from bot.webapp.initdata import BadInitData, WebAppUser, parse_fields, verify
from bot.webapp.state import page_words

log = logging.getLogger(__name__)
BOT = web.AppKey("bot", BotApp)
"""The running bot whose tables the app serves."""
PERSON = web.RequestKey("person", WebAppUser)
"""Where :func:`launch_data` leaves the request's person."""
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
JSON = dict[str, Any]


class Refusal(Exception):
    """An answer that refuses the request: its status and JSON body."""

    def __init__(self, status: int, body: JSON) -> None:
        """Answer ``body`` with ``status``."""
        super().__init__(status)
        self.status = status
        self.body = body


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
        lang = json.loads(parse_fields(raw.strip()).get("user", "{}")).get("language_code")
    except (BadInitData, ValueError, AttributeError):
        lang = None
    words = page_words(person_translations(lang if isinstance(lang, str) else None))
    return Refusal(status, {"error": words[key]})


def bad_button(user: WebAppUser) -> Refusal:
    """A request no button of the page makes (400), refused as a forged button is."""
    t = person_translations(user.language_code)
    return Refusal(400, {"error": reason_text(t, Reason.BAD_BUTTON)})


def refused(user: WebAppUser, exc: Refused) -> Refusal:
    """The domain's refusal, in the person's words (409), as a button's alert says it."""
    text = reason_text(person_translations(user.language_code), exc.reason, exc.params)
    return Refusal(409, {"error": text, "reason": exc.reason.value})


@web.middleware
async def refusals(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Answer a view's :class:`Refusal`."""
    try:
        return await handler(request)
    except Refusal as exc:
        return web.json_response(exc.body, status=exc.status)


@web.middleware
async def launch_data(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Attach the person of the signed launch data; refuse the request (401) without it."""
    try:
        request[PERSON] = launch(request)
    except BadInitData:
        raise refusal(request, 401, "reopen") from None
    return await handler(request)
