"""A fake Telegram Bot API server over real HTTP, for tests and the local sandbox.

The bot talks to it exactly as to ``https://api.telegram.org`` (``base_url=f"{api_url}/bot"``),
so nothing in the bot knows it is not Telegram. Tests and the sandbox page drive the other side:
people send messages, press buttons, use inline mode. Telegram's rules that matter to a game bot
are reproduced: long polling with offsets, webhooks (``setWebhook`` with a secret token,
delivery by POST to one or several addresses), "message is not modified", "message to edit not
found", 403 for users who never started the bot, 64-byte callback data, 4096-character texts,
strict HTML parse mode, privacy mode in groups, and injectable faults (429 with ``retry_after``).

Every Bot API call is recorded in :attr:`FakeTelegram.calls` for assertions.

The modules, from the inside out: :mod:`.errors` (Telegram's error answers), :mod:`.content`
(rules for texts and keyboards), :mod:`.world` (people, chats, messages), :mod:`.updates`
(long polling and webhook delivery), :mod:`.flood` and :mod:`.faults`, :mod:`.methods` (the Bot
API), :mod:`.driver` (what people do, what tests look at), :mod:`.coercion` and :mod:`.server`
(HTTP).
"""

from bot.sandbox.fakeapi.content import MAX_CALLBACK_DATA, MAX_TEXT
from bot.sandbox.fakeapi.errors import NOT_MODIFIED, QUERY_TOO_OLD, ApiError, bad_request
from bot.sandbox.fakeapi.flood import FLOOD_CALLS
from bot.sandbox.fakeapi.methods import Call
from bot.sandbox.fakeapi.server import FakeTelegram
from bot.sandbox.fakeapi.updates import SECRET_HEADER, Delivery

__all__ = [
    "FLOOD_CALLS",
    "MAX_CALLBACK_DATA",
    "MAX_TEXT",
    "NOT_MODIFIED",
    "QUERY_TOO_OLD",
    "SECRET_HEADER",
    "ApiError",
    "Call",
    "Delivery",
    "FakeTelegram",
    "bad_request",
]
