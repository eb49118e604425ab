"""A fake Telegram Bot API server over real HTTP, for tests and the local sandbox.

The bot talks to it exactly as to ``https://api.telegram.org`` (``base_url=f"{api_url}/bot"``),
so nothing in the bot knows it is not Telegram. Tests and the sandbox page drive the other side:
people send messages, press buttons, use inline mode. Telegram's rules that matter to a game bot
are reproduced: long polling with offsets, "message is not modified", "message to edit not found",
403 for users who never started the bot, 64-byte callback data, 4096-character texts, strict HTML
parse mode, privacy mode in groups, and injectable faults (429 with ``retry_after``).

Every Bot API call is recorded in :attr:`FakeTelegram.calls` for assertions.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import itertools
import json
import math
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from aiohttp import web

from bot.sandbox.html import ParseError, parse_html, utf16_len

JSON = dict[str, Any]
Listener = Callable[[JSON], None]

MAX_TEXT = 4096
MAX_CALLBACK_DATA = 64
MAX_CALLBACK_ANSWER = 200
MAX_INLINE_RESULTS = 50
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
# Update types Telegram sends when allowed_updates is empty or was never set.
DEFAULT_UPDATES = frozenset(
    {
        "message",
        "edited_message",
        "channel_post",
        "edited_channel_post",
        "inline_query",
        "chosen_inline_result",
        "callback_query",
        "shipping_query",
        "pre_checkout_query",
        "poll",
        "poll_answer",
        "my_chat_member",
        "chat_join_request",
    }
)
_JSON_PARAMS = frozenset(
    {
        "reply_markup",
        "entities",
        "caption_entities",
        "results",
        "commands",
        "scope",
        "allowed_updates",
        "menu_button",
        "link_preview_options",
        "reply_parameters",
        "button",
        "message_ids",
    }
)
_INT_PARAMS = frozenset(
    {
        "chat_id",
        "message_id",
        "user_id",
        "offset",
        "limit",
        "timeout",
        "cache_time",
        "message_thread_id",
        "from_chat_id",
        "reply_to_message_id",
    }
)
_BOOL_PARAMS = frozenset(
    {
        "show_alert",
        "is_personal",
        "disable_notification",
        "protect_content",
        "drop_pending_updates",
        "disable_web_page_preview",
        "allow_sending_without_reply",
        "allow_paid_broadcast",
    }
)
_BUTTON_ACTIONS = (
    "url",
    "callback_data",
    "web_app",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
)
# Calls that count against a group's flood limit.
_FLOOD_METHODS = frozenset(
    {"sendmessage", "editmessagetext", "editmessagereplymarkup", "deletemessage"}
)
_COMMAND = re.compile(r"(?<!\S)/[a-zA-Z0-9_]{1,64}(?:@[a-zA-Z0-9_]{3,32})?")
_MENTION = re.compile(r"(?<![\w@])@[a-zA-Z0-9_]{5,32}")
_COMMAND_NAME = re.compile(r"^[a-z0-9_]{1,32}$")


class Call(NamedTuple):
    """One Bot API call the bot made: method name, decoded params, target chat, wall time."""

    method: str
    params: JSON
    chat_id: int | str | None
    time: float


class ApiError(Exception):
    """A Bot API error answer (``{"ok": false, ...}``)."""

    def __init__(self, code: int, description: str, retry_after: int | None = None) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.retry_after = retry_after

    def to_json(self) -> JSON:
        """The error as Telegram serialises it."""
        body: JSON = {"ok": False, "error_code": self.code, "description": self.description}
        if self.retry_after is not None:
            body["parameters"] = {"retry_after": self.retry_after}
        return body


def bad_request(description: str) -> ApiError:
    """A 400 error with Telegram's "Bad Request: " prefix."""
    return ApiError(400, f"Bad Request: {description}")


@dataclass
class _Fault:
    method: str
    chat_id: int | None
    error: ApiError
    times: int


@dataclass
class _InlineQuery:
    user_id: int
    chat_id: int | None
    query: str
    future: asyncio.Future[list[JSON]]
    results: list[JSON] | None = None
    button: JSON | None = None


def _utf16_offsets(text: str, pattern: re.Pattern[str], kind: str) -> list[JSON]:
    return [
        {"type": kind, "offset": utf16_len(text[: m.start()]), "length": utf16_len(m.group(0))}
        for m in pattern.finditer(text)
    ]


def _command_entities(text: str) -> list[JSON]:
    """Entities Telegram's clients attach to a typed text (commands and @mentions)."""
    found = _utf16_offsets(text, _COMMAND, "bot_command") + _utf16_offsets(
        text, _MENTION, "mention"
    )
    return sorted(found, key=lambda e: e["offset"])


def _public(record: JSON) -> JSON:
    """A stored message as the Bot API shows it (without the fake's bookkeeping keys)."""
    return {
        k: copy.deepcopy(v)
        for k, v in record.items()
        if k not in ("deleted", "html", "parse_mode", "inline_message_id")
    }


class FakeTelegram:
    """An in-process fake of the Telegram Bot API, served over HTTP by aiohttp."""

    def __init__(
        self,
        token: str = "123456:TEST",
        bot_username: str = "TrucoBot",
        bot_name: str = "Truco",
        *,
        privacy_mode: bool = True,
        group_limit: int | None = None,
        callback_timeout: float = 15.0,
    ) -> None:
        """Create the fake; nothing listens until :meth:`start`.

        ``group_limit`` enforces Telegram's flood control: more than that many sends, edits
        and deletions in one group within 60 seconds get 429 with ``retry_after``.
        ``callback_timeout``: seconds after which answering a button press is "too old".
        """
        self.token = token
        self.bot_id = int(token.split(":", 1)[0])
        self.bot_username = bot_username
        self.bot_name = bot_name
        self.privacy_mode = privacy_mode
        self.group_limit = group_limit
        self.callback_timeout = callback_timeout
        self._group_sends: dict[int, list[float]] = {}
        self.calls: list[Call] = []
        self.errors: list[tuple[Call, ApiError]] = []
        self.api_url = ""
        self.users: dict[int, JSON] = {}
        self.chats: dict[int, JSON] = {}
        self.started: set[int] = set()
        self.blocked: set[int] = set()
        self.admins: dict[int, list[int]] = {}
        self.members: dict[int, set[int]] = {}
        self.commands: dict[tuple[str, str], list[JSON]] = {}
        self.menu_buttons: dict[int | None, JSON] = {}
        self.listeners: list[Listener] = []
        self._messages: dict[int, dict[int, JSON]] = {}
        self._next_message_id: dict[int, int] = {}
        self._inline_messages: dict[str, tuple[int, int]] = {}
        self._updates: list[JSON] = []
        self._next_update_id = 1
        self._allowed = DEFAULT_UPDATES
        self._poll_generation = 0
        self._changed: asyncio.Condition | None = None
        self._callbacks: dict[str, tuple[asyncio.Future[JSON], float]] = {}
        self._inline_queries: dict[str, _InlineQuery] = {}
        self._last_inline: dict[int, str] = {}
        self._faults: list[_Fault] = []
        self._ids = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self._closing = False
        self._last_group: dict[int, int] = {}

    # ------------------------------------------------------------------ lifecycle

    @property
    def bot_user(self) -> JSON:
        """The bot as a Telegram ``User``."""
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": self.bot_name,
            "username": self.bot_username,
        }

    def make_app(self) -> web.Application:
        """The aiohttp application serving ``/bot{token}/{method}``."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        return app

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        """Listen on ``host:port`` (0 picks a free port); sets and returns :attr:`api_url`."""
        self._closing = False
        self._runner = web.AppRunner(self.make_app(), access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        bound = self._runner.addresses[0]
        self.api_url = f"http://{host}:{bound[1]}"
        return self.api_url

    async def stop(self) -> None:
        """Stop listening; pending long polls return at once."""
        self._closing = True
        await self._notify()
        for fut, _ in self._callbacks.values():
            if not fut.done():
                fut.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def _condition(self) -> asyncio.Condition:
        if self._changed is None:
            self._changed = asyncio.Condition()
        return self._changed

    async def _notify(self) -> None:
        cond = self._condition()
        async with cond:
            cond.notify_all()

    def _emit(self, event: JSON) -> None:
        for listener in list(self.listeners):
            listener(event)

    # ------------------------------------------------------------------ people and chats

    def add_user(
        self,
        first_name: str,
        language_code: str | None = "pt-br",
        *,
        last_name: str | None = None,
        username: str | None = None,
        user_id: int | None = None,
        started: bool = False,
    ) -> int:
        """Add a person; returns the user id (also the id of their private chat with the bot)."""
        uid = user_id if user_id is not None else 100_000_000 + len(self.users) + 1
        user: JSON = {"id": uid, "is_bot": False, "first_name": first_name}
        if last_name:
            user["last_name"] = last_name
        if username:
            user["username"] = username
        if language_code:
            user["language_code"] = language_code
        self.users[uid] = user
        chat: JSON = {"id": uid, "type": "private", "first_name": first_name}
        if last_name:
            chat["last_name"] = last_name
        if username:
            chat["username"] = username
        self.chats[uid] = chat
        if started:
            self.started.add(uid)
        self._emit({"type": "chat", "chat_id": uid})
        return uid

    def add_group(
        self,
        title: str,
        admins: list[int] | None = None,
        forum: bool = False,
        *,
        members: list[int] | None = None,
        chat_id: int | None = None,
    ) -> int:
        """Add a supergroup where the bot is a member; the first admin is its creator."""
        groups = [c for c in self.chats if c < 0]
        gid = chat_id if chat_id is not None else -1_001_000_000_000 - len(groups) - 1
        chat: JSON = {"id": gid, "type": "supergroup", "title": title}
        if forum:
            chat["is_forum"] = True
        self.chats[gid] = chat
        self.admins[gid] = list(admins or [])
        self.members[gid] = set(admins or []) | set(members or [])
        self._emit({"type": "chat", "chat_id": gid})
        return gid

    def block(self, user_id: int) -> None:
        """The user blocks the bot: private messages now get 403."""
        self.blocked.add(user_id)

    def _user(self, user_id: int) -> JSON:
        try:
            return self.users[user_id]
        except KeyError:
            raise KeyError(f"unknown user {user_id}") from None

    # ------------------------------------------------------------------ what people do

    def _store(self, chat_id: int, message: JSON) -> JSON:
        mid = self._next_message_id.get(chat_id, 1)
        self._next_message_id[chat_id] = mid + 1
        message = {"message_id": mid, **message}
        message.setdefault("deleted", False)
        self._messages.setdefault(chat_id, {})[mid] = message
        self._emit({"type": "message", "chat_id": chat_id, "message": copy.deepcopy(message)})
        return message

    async def _enqueue(self, kind: str, payload: JSON) -> None:
        if kind not in self._allowed:
            return
        self._updates.append({"update_id": self._next_update_id, kind: payload})
        self._next_update_id += 1
        await self._notify()

    def _reaches_bot(self, chat_id: int, message: JSON) -> bool:
        """Privacy mode: in groups the bot only sees commands, replies to it and via-bot posts."""
        if chat_id > 0 or not self.privacy_mode:
            return True
        if message.get("via_bot"):
            return True
        reply = message.get("reply_to_message")
        if reply and reply.get("from", {}).get("id") == self.bot_id:
            return True
        for e in message.get("entities", []):
            if e["type"] == "bot_command":
                cmd = message["text"][e["offset"] : e["offset"] + e["length"]]
                target = cmd.partition("@")[2]
                if not target or target.lower() == self.bot_username.lower():
                    return True
        return False

    async def user_sends(
        self,
        user_id: int,
        chat_id: int,
        text: str,
        *,
        message_thread_id: int | None = None,
        reply_to: int | None = None,
    ) -> JSON:
        """A person types ``text`` in a chat (their private chat id is their user id).

        Returns the message as stored; the bot gets an update when Telegram would send one.
        """
        user = self._user(user_id)
        if chat_id > 0 and chat_id != user_id:
            raise ValueError("a private chat with the bot has the user's own id")
        chat = self.chats[chat_id]
        message: JSON = {
            "from": dict(user),
            "chat": dict(chat),
            "date": int(time.time()),
            "text": text,
        }
        entities = _command_entities(text)
        if entities:
            message["entities"] = entities
        if message_thread_id is not None:
            message["message_thread_id"] = message_thread_id
            message["is_topic_message"] = True
        if reply_to is not None:
            original = self._messages.get(chat_id, {}).get(reply_to)
            if original is not None:
                message["reply_to_message"] = _public(original)
        if chat_id > 0:
            self.started.add(user_id)
        else:
            self.members.setdefault(chat_id, set()).add(user_id)
            self._last_group[user_id] = chat_id
        stored = self._store(chat_id, message)
        if self._reaches_bot(chat_id, stored):
            await self._enqueue("message", _public(stored))
        return copy.deepcopy(stored)

    async def user_presses(
        self,
        user_id: int,
        chat_id: int | None,
        message_id: int | str,
        callback_data: str,
        timeout: float = 5,
    ) -> JSON:
        """A person presses an inline button; returns the bot's answer once it comes.

        ``message_id`` is an ``inline_message_id`` (str) for messages sent through inline mode.
        The answer is ``{"text": ..., "show_alert": bool, "url": ...}``; raises
        ``TimeoutError`` when the bot does not answer in time (the client's spinner just stops).
        """
        user = self._user(user_id)
        query_id = str(next(self._ids) * 7919 + self.bot_id)
        query: JSON = {
            "id": query_id,
            "from": dict(user),
            "data": callback_data,
        }
        if isinstance(message_id, str):
            if message_id not in self._inline_messages:
                raise LookupError(f"no inline message {message_id}")
            group, _ = self._inline_messages[message_id]
            query["inline_message_id"] = message_id
            query["chat_instance"] = str(abs(group) * 31 + self.bot_id)
        else:
            assert chat_id is not None
            record = self._messages.get(chat_id, {}).get(message_id)
            if record is None or record["deleted"]:
                raise LookupError(f"no message {message_id} in chat {chat_id}")
            query["message"] = _public(record)
            query["chat_instance"] = str(abs(chat_id) * 31 + self.bot_id)
            group = chat_id
        future: asyncio.Future[JSON] = asyncio.get_running_loop().create_future()
        self._callbacks[query_id] = (future, time.monotonic())
        await self._enqueue("callback_query", query)
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout)
        except TimeoutError:
            raise TimeoutError(f"the bot did not answer callback {callback_data!r}") from None

    async def user_inline_query(
        self,
        user_id: int,
        query: str,
        chat_type: str = "group",
        timeout: float = 5,
        *,
        chat_id: int | None = None,
        offset: str = "",
    ) -> list[JSON]:
        """A person types ``@bot query``; returns the results the bot answered with.

        ``chat_id`` is where the query is typed (default: the last group the person wrote in),
        used by :meth:`user_chooses_inline` to post the chosen result.
        """
        user = self._user(user_id)
        if chat_id is None and chat_type in ("group", "supergroup"):
            chat_id = self._last_group.get(user_id)
            if chat_id is None:
                chat_id = next((g for g, m in self.members.items() if user_id in m), None)
        if chat_id is not None and chat_id < 0:
            chat_type = self.chats[chat_id]["type"]
        query_id = str(next(self._ids) * 104_729 + self.bot_id)
        future: asyncio.Future[list[JSON]] = asyncio.get_running_loop().create_future()
        self._inline_queries[query_id] = _InlineQuery(user_id, chat_id, query, future)
        self._last_inline[user_id] = query_id
        payload: JSON = {
            "id": query_id,
            "from": dict(user),
            "query": query,
            "offset": offset,
            "chat_type": chat_type,
        }
        await self._enqueue("inline_query", payload)
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout)
        except TimeoutError:
            raise TimeoutError(f"the bot did not answer inline query {query!r}") from None

    def inline_answer(self, user_id: int) -> JSON | None:
        """The bot's last answer to this person's inline query: ``{"results", "button"}``."""
        qid = self._last_inline.get(user_id)
        q = self._inline_queries.get(qid) if qid else None
        if q is None or q.results is None:
            return None
        return {"query_id": qid, "query": q.query, "results": q.results, "button": q.button}

    async def user_chooses_inline(
        self, user_id: int, result_id: str, query: str = "", *, chat_id: int | None = None
    ) -> JSON:
        """A person taps an inline result: the result is posted in the chat "via @bot" and the
        bot gets a ``chosen_inline_result`` (with ``inline_message_id`` if it has a keyboard).

        Returns the posted message.
        """
        user = self._user(user_id)
        qid = self._last_inline.get(user_id)
        q = self._inline_queries.get(qid) if qid else None
        if q is None or q.results is None:
            raise LookupError("this person has no answered inline query")
        result = next((r for r in q.results if r.get("id") == result_id), None)
        if result is None:
            raise LookupError(f"no inline result {result_id!r}")
        target = chat_id if chat_id is not None else q.chat_id
        if target is None:
            raise ValueError("unknown chat for the inline result; pass chat_id")
        content = result.get("input_message_content") or {}
        text = content.get("message_text", result.get("title", ""))
        message: JSON = {
            "from": dict(user),
            "chat": dict(self.chats[target]),
            "date": int(time.time()),
            "via_bot": self.bot_user,
        }
        message.update(self._render(text, content.get("parse_mode"), content.get("entities")))
        chosen: JSON = {"result_id": result_id, "from": dict(user), "query": query or q.query}
        markup = result.get("reply_markup")
        if markup:
            message["reply_markup"] = markup
            inline_id = f"AgAAA{next(self._ids):08d}{abs(target) % 10**6:06d}"
            message["inline_message_id"] = inline_id
            chosen["inline_message_id"] = inline_id
        stored = self._store(target, message)
        if "inline_message_id" in stored:
            self._inline_messages[stored["inline_message_id"]] = (target, stored["message_id"])
        await self._enqueue("chosen_inline_result", chosen)
        if self._reaches_bot(target, stored):
            await self._enqueue("message", _public(stored))
        return copy.deepcopy(stored)

    # ------------------------------------------------------------------ what tests look at

    def messages(self, chat_id: int, *, include_deleted: bool = True) -> list[JSON]:
        """Every message of a chat in order, as it looks now.

        Each has Telegram's fields (``message_id``, ``from``, ``text`` without markup,
        ``entities``, ``reply_markup``, ``edit_date``) plus ``html`` (the text as the bot sent
        it, when it used HTML parse mode), ``parse_mode``, ``deleted`` and, for messages posted
        through inline mode, ``inline_message_id``.
        """
        return [
            copy.deepcopy(m)
            for m in self._messages.get(chat_id, {}).values()
            if include_deleted or not m["deleted"]
        ]

    def message(self, chat_id: int, message_id: int) -> JSON:
        """One message as it looks now (KeyError if it never existed)."""
        return copy.deepcopy(self._messages[chat_id][message_id])

    def commands_for(self, chat_id: int, user_id: int | None = None) -> list[JSON]:
        """The command menu a person sees in a chat, resolved through the scopes like Telegram."""
        lang = ""
        if user_id is not None and user_id in self.users:
            lang = (self.users[user_id].get("language_code") or "")[:2]
        scopes: list[str] = []
        if chat_id > 0:
            scopes = [
                _scope_key({"type": "chat", "chat_id": chat_id}),
                _scope_key({"type": "all_private_chats"}),
            ]
        else:
            if user_id is not None:
                scopes.append(
                    _scope_key({"type": "chat_member", "chat_id": chat_id, "user_id": user_id})
                )
            is_admin = user_id in self.admins.get(chat_id, [])
            if is_admin:
                scopes.append(_scope_key({"type": "chat_administrators", "chat_id": chat_id}))
            scopes.append(_scope_key({"type": "chat", "chat_id": chat_id}))
            if is_admin:
                scopes.append(_scope_key({"type": "all_chat_administrators"}))
            scopes.append(_scope_key({"type": "all_group_chats"}))
        scopes.append(_scope_key({"type": "default"}))
        for scope in scopes:
            for language in (lang, ""):
                found = self.commands.get((scope, language))
                if found:
                    return copy.deepcopy(found)
        return []

    def calls_to(self, chat_id: int | str, methods: tuple[str, ...] | None = None) -> list[Call]:
        """The recorded calls aimed at one chat (optionally only some methods)."""
        return [
            c
            for c in self.calls
            if c.chat_id == chat_id and (methods is None or c.method in methods)
        ]

    def peak_calls_per_minute(self, chat_id: int | str) -> int:
        """The largest number of calls to one chat inside any 60-second window."""
        times = sorted(c.time for c in self.calls_to(chat_id))
        best, start = 0, 0
        for end, t in enumerate(times):
            while t - times[start] >= 60:
                start += 1
            best = max(best, end - start + 1)
        return best

    async def wait_for(
        self, predicate: Callable[[], Any], timeout: float = 5, interval: float = 0.01
    ) -> Any:
        """Poll ``predicate`` until it returns something truthy; return it (TimeoutError if not)."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"condition not met within {timeout} s")
            await asyncio.sleep(interval)

    def fail_next(
        self,
        method: str,
        error_code: int = 429,
        description: str = "Too Many Requests: retry after 1",
        retry_after: int | None = 1,
        *,
        chat_id: int | None = None,
        times: int = 1,
    ) -> None:
        """Make the next ``times`` calls of ``method`` (to ``chat_id`` if given) fail."""
        if error_code != 429:
            retry_after = None
        self._faults.append(
            _Fault(method.lower(), chat_id, ApiError(error_code, description, retry_after), times)
        )

    # ------------------------------------------------------------------ persistence

    def snapshot(self) -> JSON:
        """Everything a later run needs to show the same chats (JSON-serialisable)."""
        return {
            "users": list(self.users.values()),
            "chats": list(self.chats.values()),
            "started": sorted(self.started),
            "admins": {str(k): v for k, v in self.admins.items()},
            "members": {str(k): sorted(v) for k, v in self.members.items()},
            "messages": {str(k): list(v.values()) for k, v in self._messages.items()},
            "next_message_id": {str(k): v for k, v in self._next_message_id.items()},
            "inline_messages": {k: list(v) for k, v in self._inline_messages.items()},
            "commands": [[s, lang, cmds] for (s, lang), cmds in self.commands.items()],
            "next_update_id": self._next_update_id,
            "next_id": next(self._ids),
        }

    def restore(self, data: JSON) -> None:
        """Load a :meth:`snapshot` (pending updates are not kept, as after a long pause)."""
        self.users = {u["id"]: u for u in data["users"]}
        self.chats = {c["id"]: c for c in data["chats"]}
        self.started = set(data["started"])
        self.admins = {int(k): v for k, v in data["admins"].items()}
        self.members = {int(k): set(v) for k, v in data["members"].items()}
        self._messages = {
            int(k): {m["message_id"]: m for m in v} for k, v in data["messages"].items()
        }
        self._next_message_id = {int(k): v for k, v in data["next_message_id"].items()}
        self._inline_messages = {k: (v[0], v[1]) for k, v in data["inline_messages"].items()}
        self.commands = {(s, lang): cmds for s, lang, cmds in data["commands"]}
        self._next_update_id = data["next_update_id"]
        self._ids = itertools.count(data["next_id"])

    # ------------------------------------------------------------------ HTTP

    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return web.json_response(ApiError(401, "Unauthorized").to_json(), status=401)
        name = request.match_info["method"]
        handler: Callable[[JSON], Awaitable[Any]] | None = getattr(
            self, f"_api_{name.lower()}", None
        )
        if handler is None:
            return web.json_response(ApiError(404, "Not Found").to_json(), status=404)
        try:
            params = await _read_params(request)
        except ValueError as exc:
            err = bad_request(str(exc))
            return web.json_response(err.to_json(), status=err.code)
        call = Call(name, params, self._target_chat(name, params), time.time())
        if name.lower() != "getupdates":
            self.calls.append(call)
        try:
            self._check_fault(name.lower(), call.chat_id)
            self._check_flood(name.lower(), call.chat_id, call.time)
            result = await handler(params)
        except ApiError as err:
            self.errors.append((call, err))
            return web.json_response(err.to_json(), status=err.code)
        return web.json_response({"ok": True, "result": result})

    def _target_chat(self, method: str, params: JSON) -> int | str | None:
        if "chat_id" in params:
            return params["chat_id"]
        inline_id = params.get("inline_message_id")
        if inline_id in self._inline_messages:
            return self._inline_messages[inline_id][0]
        return None

    def _check_fault(self, method: str, chat_id: int | str | None) -> None:
        for fault in self._faults:
            if fault.method == method and fault.chat_id in (None, chat_id):
                fault.times -= 1
                if fault.times <= 0:
                    self._faults.remove(fault)
                raise fault.error

    def _check_flood(self, method: str, chat_id: int | str | None, now: float) -> None:
        if self.group_limit is None or method not in _FLOOD_METHODS:
            return
        if not isinstance(chat_id, int) or chat_id >= 0:
            return
        recent = [t for t in self._group_sends.get(chat_id, []) if now - t < 60]
        if len(recent) >= self.group_limit:
            wait = max(1, math.ceil(60 - (now - recent[0])))
            self._group_sends[chat_id] = recent
            raise ApiError(429, f"Too Many Requests: retry after {wait}", retry_after=wait)
        recent.append(now)
        self._group_sends[chat_id] = recent

    def _chat(self, chat_id: Any) -> JSON:
        if isinstance(chat_id, str) and chat_id.startswith("@"):
            for chat in self.chats.values():
                if chat.get("username", "").lower() == chat_id[1:].lower():
                    return chat
        if isinstance(chat_id, int) and chat_id in self.chats:
            return self.chats[chat_id]
        raise bad_request("chat not found")

    def _writable_chat(self, chat_id: Any) -> JSON:
        chat = self._chat(chat_id)
        if chat["type"] == "private":
            if chat["id"] in self.blocked:
                raise ApiError(403, "Forbidden: bot was blocked by the user")
            if chat["id"] not in self.started:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        return chat

    def _render(self, text: Any, parse_mode: Any, entities: Any) -> JSON:
        """Text, entities and the original HTML of an outgoing text, checked like Telegram."""
        if not isinstance(text, str) or not text.strip():
            raise bad_request("message text is empty")
        out: JSON = {}
        mode = (parse_mode or "").lower()
        if mode == "html":
            try:
                plain, found = parse_html(text)
            except ParseError as exc:
                raise bad_request(f"can't parse entities: {exc}") from None
            out["html"] = text
            out["parse_mode"] = "HTML"
        else:
            plain, found = text, list(entities or [])
            if mode:
                out["parse_mode"] = parse_mode
        if not plain.strip():
            raise bad_request("message text is empty")
        if utf16_len(plain) > MAX_TEXT:
            raise bad_request("message is too long")
        out["text"] = plain
        if found:
            out["entities"] = found
        return out

    def _check_markup(self, markup: Any) -> JSON | None:
        if markup is None:
            return None
        if not isinstance(markup, dict):
            raise bad_request("can't parse reply keyboard markup JSON object")
        if "inline_keyboard" not in markup:
            return markup
        rows = markup["inline_keyboard"]
        if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
            raise bad_request(
                'field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays'
            )
        for row in rows:
            for button in row:
                if not isinstance(button, dict) or not button.get("text"):
                    raise bad_request("can't parse inline keyboard button: Text must be non-empty")
                actions = [a for a in _BUTTON_ACTIONS if a in button]
                if not actions:
                    raise bad_request(
                        "can't parse inline keyboard button: Text buttons are unallowed in the "
                        "inline keyboard"
                    )
                if "callback_data" in button:
                    data = button["callback_data"]
                    if (
                        not isinstance(data, str)
                        or not 1 <= len(data.encode()) <= MAX_CALLBACK_DATA
                    ):
                        raise bad_request("BUTTON_DATA_INVALID")
                if "url" in button and not re.match(r"^(https?|tg)://", str(button["url"])):
                    raise bad_request("BUTTON_URL_INVALID")
        if not any(rows):
            return None
        return {"inline_keyboard": [[dict(b) for b in row] for row in rows if row]}

    def _find_editable(self, params: JSON) -> tuple[int, JSON]:
        inline_id = params.get("inline_message_id")
        if inline_id:
            if inline_id not in self._inline_messages:
                raise bad_request("MESSAGE_ID_INVALID")
            chat_id, message_id = self._inline_messages[inline_id]
        else:
            chat_id = self._chat(params.get("chat_id"))["id"]
            message_id = params.get("message_id")
            if not isinstance(message_id, int):
                raise bad_request("message identifier is not specified")
        record = self._messages.get(chat_id, {}).get(message_id)
        if record is None or record["deleted"]:
            raise bad_request("message to edit not found")
        if not inline_id and record["from"]["id"] != self.bot_id:
            raise bad_request("message can't be edited")
        return chat_id, record

    def _apply_edit(self, chat_id: int, record: JSON, changes: JSON, inline: bool) -> Any:
        keys = ("text", "entities", "reply_markup")
        before = {k: record.get(k) for k in keys}
        after = {k: changes.get(k, before[k]) for k in keys}
        if before == after:
            raise bad_request(NOT_MODIFIED.removeprefix("Bad Request: "))
        for k in (*keys, "html", "parse_mode"):
            if k in changes:
                if changes[k] is None:
                    record.pop(k, None)
                else:
                    record[k] = changes[k]
        record["edit_date"] = int(time.time())
        self._emit({"type": "edit", "chat_id": chat_id, "message": copy.deepcopy(record)})
        return True if inline else _public(record)

    # ------------------------------------------------------------------ Bot API methods

    async def _api_getme(self, params: JSON) -> JSON:
        return {
            **self.bot_user,
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy_mode,
            "supports_inline_queries": True,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    async def _api_logout(self, params: JSON) -> bool:
        return True

    async def _api_close(self, params: JSON) -> bool:
        return True

    async def _api_deletewebhook(self, params: JSON) -> bool:
        if params.get("drop_pending_updates"):
            self._updates.clear()
        return True

    async def _api_getwebhookinfo(self, params: JSON) -> JSON:
        return {
            "url": "",
            "has_custom_certificate": False,
            "pending_update_count": len(self._updates),
        }

    async def _api_getupdates(self, params: JSON) -> list[JSON]:
        offset = params.get("offset")
        limit = max(1, min(100, params.get("limit") or 100))
        timeout = max(0, params.get("timeout") or 0)
        allowed = params.get("allowed_updates")
        if allowed is not None:
            self._allowed = frozenset(allowed) if allowed else DEFAULT_UPDATES
        if isinstance(offset, int) and offset > 0:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
        self._poll_generation += 1
        generation = self._poll_generation
        cond = self._condition()
        if not self._updates and timeout > 0 and not self._closing:
            # A newer getUpdates wakes us too: Telegram then ends the older poll with 409.
            await self._notify()
            async with cond:
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(
                        cond.wait_for(
                            lambda: (
                                bool(self._updates)
                                or self._closing
                                or self._poll_generation != generation
                            )
                        ),
                        timeout,
                    )
        if self._poll_generation != generation:
            raise ApiError(
                409,
                "Conflict: terminated by other getUpdates request; make sure that only one bot "
                "instance is running",
            )
        return [copy.deepcopy(u) for u in self._updates[:limit]]

    async def _api_setmycommands(self, params: JSON) -> bool:
        commands = params.get("commands")
        if not isinstance(commands, list) or len(commands) > 100:
            raise bad_request('parameter "commands" must be an array of up to 100 BotCommand')
        for c in commands:
            if not _COMMAND_NAME.match(str(c.get("command", ""))):
                raise bad_request("BOT_COMMAND_INVALID")
            if not 1 <= len(str(c.get("description", ""))) <= 256:
                raise bad_request("command description must be 1-256 characters")
        key = (_scope_key(params.get("scope")), params.get("language_code") or "")
        self.commands[key] = [
            {"command": c["command"], "description": c["description"]} for c in commands
        ]
        self._emit({"type": "commands"})
        return True

    async def _api_getmycommands(self, params: JSON) -> list[JSON]:
        key = (_scope_key(params.get("scope")), params.get("language_code") or "")
        return copy.deepcopy(self.commands.get(key, []))

    async def _api_deletemycommands(self, params: JSON) -> bool:
        key = (_scope_key(params.get("scope")), params.get("language_code") or "")
        self.commands.pop(key, None)
        self._emit({"type": "commands"})
        return True

    async def _api_setchatmenubutton(self, params: JSON) -> bool:
        chat_id = params.get("chat_id")
        self.menu_buttons[chat_id] = params.get("menu_button") or {"type": "default"}
        return True

    async def _api_getchatmenubutton(self, params: JSON) -> JSON:
        chat_id = params.get("chat_id")
        return self.menu_buttons.get(chat_id, self.menu_buttons.get(None, {"type": "commands"}))

    async def _api_sendchataction(self, params: JSON) -> bool:
        self._writable_chat(params.get("chat_id"))
        return True

    async def _api_sendmessage(self, params: JSON) -> JSON:
        chat = self._writable_chat(params.get("chat_id"))
        message: JSON = {"from": self.bot_user, "chat": dict(chat), "date": int(time.time())}
        message.update(
            self._render(params.get("text"), params.get("parse_mode"), params.get("entities"))
        )
        markup = self._check_markup(params.get("reply_markup"))
        if markup and "inline_keyboard" in markup:
            message["reply_markup"] = markup
        thread = params.get("message_thread_id")
        if thread is not None and chat.get("is_forum"):
            message["message_thread_id"] = thread
            message["is_topic_message"] = True
        reply = params.get("reply_parameters") or {}
        reply_id = reply.get("message_id") or params.get("reply_to_message_id")
        if reply_id:
            original = self._messages.get(chat["id"], {}).get(reply_id)
            if original is None or original["deleted"]:
                if not reply.get("allow_sending_without_reply"):
                    raise bad_request("message to be replied not found")
            else:
                message["reply_to_message"] = _public(original)
        return _public(self._store(chat["id"], message))

    async def _api_editmessagetext(self, params: JSON) -> Any:
        chat_id, record = self._find_editable(params)
        changes = self._render(params.get("text"), params.get("parse_mode"), params.get("entities"))
        changes.setdefault("entities", None)
        changes.setdefault("html", None)
        changes.setdefault("parse_mode", None)
        # Like Telegram, an edit without reply_markup removes the keyboard.
        changes["reply_markup"] = self._check_markup(params.get("reply_markup"))
        return self._apply_edit(chat_id, record, changes, bool(params.get("inline_message_id")))

    async def _api_editmessagereplymarkup(self, params: JSON) -> Any:
        chat_id, record = self._find_editable(params)
        changes = {"reply_markup": self._check_markup(params.get("reply_markup"))}
        return self._apply_edit(chat_id, record, changes, bool(params.get("inline_message_id")))

    async def _api_deletemessage(self, params: JSON) -> bool:
        chat = self._chat(params.get("chat_id"))
        self._delete(chat, params.get("message_id"))
        return True

    async def _api_deletemessages(self, params: JSON) -> bool:
        chat = self._chat(params.get("chat_id"))
        for mid in params.get("message_ids") or []:
            with contextlib.suppress(ApiError):
                self._delete(chat, mid)
        return True

    def _delete(self, chat: JSON, message_id: Any) -> None:
        record = self._messages.get(chat["id"], {}).get(message_id)
        if record is None or record["deleted"]:
            raise bad_request("message to delete not found")
        if chat["type"] != "private" and record["from"]["id"] != self.bot_id:
            raise bad_request("message can't be deleted")
        record["deleted"] = True
        self._emit({"type": "delete", "chat_id": chat["id"], "message_id": message_id})

    async def _api_answercallbackquery(self, params: JSON) -> bool:
        qid = str(params.get("callback_query_id"))
        entry = self._callbacks.get(qid)
        if entry is None or entry[0].done() or time.monotonic() - entry[1] > self.callback_timeout:
            raise bad_request(QUERY_TOO_OLD.removeprefix("Bad Request: "))
        text = params.get("text") or ""
        if len(text) > MAX_CALLBACK_ANSWER:
            raise bad_request("MESSAGE_TOO_LONG")
        answer = {
            "text": text,
            "show_alert": bool(params.get("show_alert")),
            "url": params.get("url"),
        }
        entry[0].set_result(answer)
        self._emit({"type": "callback_answer", "query_id": qid, **answer})
        return True

    async def _api_answerinlinequery(self, params: JSON) -> bool:
        qid = str(params.get("inline_query_id"))
        q = self._inline_queries.get(qid)
        if q is None or q.future.done():
            raise bad_request(QUERY_TOO_OLD.removeprefix("Bad Request: "))
        results = params.get("results")
        if not isinstance(results, list):
            raise bad_request('parameter "results" must be an array')
        if len(results) > MAX_INLINE_RESULTS:
            raise bad_request("RESULTS_TOO_MUCH")
        seen: set[str] = set()
        for r in results:
            rid = str(r.get("id", ""))
            if not rid or len(rid.encode()) > 64:
                raise bad_request("RESULT_ID_INVALID")
            if rid in seen:
                raise bad_request("RESULT_ID_DUPLICATE")
            seen.add(rid)
            if r.get("type") == "article":
                content = r.get("input_message_content") or {}
                if not r.get("title") or not content.get("message_text"):
                    raise bad_request("MESSAGE_EMPTY")
                self._render(
                    content["message_text"], content.get("parse_mode"), content.get("entities")
                )
            self._check_markup(r.get("reply_markup"))
        q.results = copy.deepcopy(results)
        q.button = params.get("button")
        q.future.set_result(copy.deepcopy(results))
        self._emit({"type": "inline_answer", "user_id": q.user_id, "query_id": qid})
        return True

    async def _api_getchat(self, params: JSON) -> JSON:
        chat = self._chat(params.get("chat_id"))
        return {
            **chat,
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": {
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        }

    def _member(self, chat: JSON, user_id: Any) -> JSON:
        if user_id == self.bot_id:
            return {"user": self.bot_user, "status": "member"}
        if user_id not in self.users:
            raise bad_request("PARTICIPANT_ID_INVALID")
        user = self.users[user_id]
        if chat["type"] == "private":
            status = "member"
        else:
            admins = self.admins.get(chat["id"], [])
            if admins and admins[0] == user_id:
                return {"user": user, "status": "creator", "is_anonymous": False}
            if user_id in admins:
                return {
                    "user": user,
                    "status": "administrator",
                    "can_be_edited": False,
                    "is_anonymous": False,
                    "can_manage_chat": True,
                    "can_delete_messages": True,
                    "can_manage_video_chats": True,
                    "can_restrict_members": True,
                    "can_promote_members": False,
                    "can_change_info": True,
                    "can_invite_users": True,
                    "can_post_stories": False,
                    "can_edit_stories": False,
                    "can_delete_stories": False,
                    "can_pin_messages": True,
                    "can_manage_topics": bool(chat.get("is_forum")),
                }
            status = "member" if user_id in self.members.get(chat["id"], set()) else "left"
        return {"user": user, "status": status}

    async def _api_getchatmember(self, params: JSON) -> JSON:
        chat = self._chat(params.get("chat_id"))
        return self._member(chat, params.get("user_id"))

    async def _api_getchatadministrators(self, params: JSON) -> list[JSON]:
        chat = self._chat(params.get("chat_id"))
        if chat["type"] == "private":
            raise bad_request("there are no administrators in the private chat")
        return [self._member(chat, uid) for uid in self.admins.get(chat["id"], [])]

    async def _api_getchatmembercount(self, params: JSON) -> int:
        chat = self._chat(params.get("chat_id"))
        if chat["type"] == "private":
            return 2
        return len(self.members.get(chat["id"], set())) + 1


def _scope_key(scope: Any) -> str:
    """A canonical key for a BotCommandScope (``default`` when absent)."""
    if not scope:
        scope = {"type": "default"}
    return json.dumps(
        {k: scope[k] for k in ("type", "chat_id", "user_id") if k in scope}, sort_keys=True
    )


def _coerce(name: str, value: Any) -> Any:
    """Form values are strings; give them the JSON types Telegram would read them as."""
    if not isinstance(value, str):
        return value
    if name in _JSON_PARAMS:
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            raise ValueError(f"can't parse {name} JSON object") from None
    if name in _INT_PARAMS:
        try:
            return int(value)
        except ValueError:
            return value
    if name in _BOOL_PARAMS and value.lower() in ("true", "false"):
        return value.lower() == "true"
    return value


async def _read_params(request: web.Request) -> JSON:
    """Parameters from the query string and a JSON, urlencoded or multipart body."""
    params: JSON = dict(request.query)
    if request.method == "POST" and request.can_read_body:
        ctype = request.content_type
        if ctype == "application/json":
            try:
                body = await request.json()
            except json.JSONDecodeError:
                raise ValueError("can't parse JSON body") from None
            if not isinstance(body, dict):
                raise ValueError("JSON body must be an object")
            params.update(body)
        else:
            form = await request.post()
            params.update({k: v for k, v in form.items() if isinstance(v, str)})
    return {k: _coerce(k, v) for k, v in params.items()}
