"""The Bot API methods the fake answers, each checked like Telegram checks it."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from bot.sandbox.fakeapi.content import (
    COMMAND_NAME,
    MAX_CALLBACK_ANSWER,
    MAX_INLINE_RESULTS,
    check_markup,
    clone,
    public,
    render_text,
    scope_key,
)
from bot.sandbox.fakeapi.errors import QUERY_TOO_OLD, ApiError, bad_request
from bot.sandbox.fakeapi.faults import Faults
from bot.sandbox.fakeapi.flood import FloodLimit
from bot.sandbox.fakeapi.updates import UpdateQueue
from bot.sandbox.fakeapi.world import World

JSON = dict[str, Any]


class Call(NamedTuple):
    """One Bot API call the bot made: method name, decoded params, target chat, and time
    (``World.clock``)."""

    method: str
    params: JSON
    chat_id: int | str | None
    time: float


@dataclass
class _InlineQuery:
    user_id: int
    chat_id: int | None
    query: str
    future: asyncio.Future[list[JSON]]
    results: list[JSON] | None = None
    button: JSON | None = None


class BotApi(World):
    """The world plus the Bot API: every call is recorded, checked for faults and flood."""

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
        super().__init__(token, bot_username, bot_name, privacy_mode=privacy_mode)
        self.group_limit = group_limit
        self.callback_timeout = callback_timeout
        self.calls: list[Call] = []
        self.errors: list[tuple[Call, ApiError]] = []
        self.updates = UpdateQueue()
        self.flood = FloodLimit(group_limit)
        self.faults = Faults()
        self._callbacks: dict[str, tuple[asyncio.Future[JSON], float]] = {}
        self._inline_queries: dict[str, _InlineQuery] = {}
        self._last_inline: dict[int, str] = {}

    async def call(self, name: str, params: JSON) -> Any:
        """Run one Bot API method (recorded unless it is ``getUpdates``); raises ``ApiError``."""
        handler: Callable[[JSON], Awaitable[Any]] | None = getattr(
            self, f"_api_{name.lower()}", None
        )
        if handler is None:
            raise ApiError(404, "Not Found")
        call = Call(name, params, self._target_chat(name, params), self.clock())
        if name.lower() != "getupdates":
            self.calls.append(call)
        try:
            self.faults.check(name.lower(), call.chat_id)
            self.flood.check(name.lower(), call.chat_id, call.time)
            return await handler(params)
        except ApiError as err:
            self.errors.append((call, err))
            raise
        finally:
            if name.lower() != "getupdates":
                self.poke()  # a test may wait on the calls themselves

    def _target_chat(self, method: str, params: JSON) -> int | str | None:
        if "chat_id" in params:
            chat: int | str | None = params["chat_id"]
            return chat
        inline_id = params.get("inline_message_id")
        if inline_id in self._inline_messages:
            return self._inline_messages[inline_id][0]
        return None

    # ------------------------------------------------------------------ methods

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

    async def _api_setwebhook(self, params: JSON) -> bool:
        return await self.updates.set_webhook(params)

    async def _api_deletewebhook(self, params: JSON) -> bool:
        return self.updates.delete_webhook(params)

    async def _api_getwebhookinfo(self, params: JSON) -> JSON:
        return self.updates.webhook_info()

    async def _api_getupdates(self, params: JSON) -> list[JSON]:
        return await self.updates.get_updates(params)

    async def _api_setmycommands(self, params: JSON) -> bool:
        commands = params.get("commands")
        if not isinstance(commands, list) or len(commands) > 100:
            raise bad_request('parameter "commands" must be an array of up to 100 BotCommand')
        for c in commands:
            if not COMMAND_NAME.match(str(c.get("command", ""))):
                raise bad_request("BOT_COMMAND_INVALID")
            if not 1 <= len(str(c.get("description", ""))) <= 256:
                raise bad_request("command description must be 1-256 characters")
        key = (scope_key(params.get("scope")), params.get("language_code") or "")
        self.commands[key] = [
            {"command": c["command"], "description": c["description"]} for c in commands
        ]
        self._emit({"type": "commands"})
        return True

    async def _api_getmycommands(self, params: JSON) -> list[JSON]:
        key = (scope_key(params.get("scope")), params.get("language_code") or "")
        return clone(self.commands.get(key, []))

    async def _api_deletemycommands(self, params: JSON) -> bool:
        key = (scope_key(params.get("scope")), params.get("language_code") or "")
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
            render_text(params.get("text"), params.get("parse_mode"), params.get("entities"))
        )
        markup = check_markup(params.get("reply_markup"))
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
                message["reply_to_message"] = public(original)
        return public(self._store(chat["id"], message))

    async def _api_editmessagetext(self, params: JSON) -> Any:
        chat_id, record = self._find_editable(params)
        changes = render_text(params.get("text"), params.get("parse_mode"), params.get("entities"))
        changes.setdefault("entities", None)
        changes.setdefault("html", None)
        changes.setdefault("parse_mode", None)
        # Like Telegram, an edit without reply_markup removes the keyboard.
        changes["reply_markup"] = check_markup(params.get("reply_markup"))
        return self._apply_edit(chat_id, record, changes, bool(params.get("inline_message_id")))

    async def _api_editmessagereplymarkup(self, params: JSON) -> Any:
        chat_id, record = self._find_editable(params)
        changes = {"reply_markup": check_markup(params.get("reply_markup"))}
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
                render_text(
                    content["message_text"], content.get("parse_mode"), content.get("entities")
                )
            check_markup(r.get("reply_markup"))
        q.results = clone(results)
        q.button = params.get("button")
        q.future.set_result(clone(results))
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
