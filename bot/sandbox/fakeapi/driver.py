"""The people's side of the fake: what they type and press, and what tests look at.

Tests and the sandbox page drive Telegram from here: a person sends a message, presses
a button, uses inline mode; a test waits for a condition, counts calls, injects faults,
routes the webhook to replicas or forges a webhook request.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from bot.sandbox.fakeapi.content import clone, command_entities, public, render_text
from bot.sandbox.fakeapi.methods import BotApi, Call, _InlineQuery
from bot.sandbox.fakeapi.updates import Delivery
from bot.webapp.initdata import sign, user_json

JSON = dict[str, Any]
IDLE_INTERVAL = 0.1
"""The longest pause between two checks of :meth:`PeopleDriver.wait_for` when nothing
happens in the fake."""


class PeopleDriver(BotApi):
    """The Bot API plus the people using Telegram."""

    # ------------------------------------------------------------------ what people do

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
        entities = command_entities(text)
        if entities:
            message["entities"] = entities
        if message_thread_id is not None:
            message["message_thread_id"] = message_thread_id
            message["is_topic_message"] = True
        if reply_to is not None:
            original = self._messages.get(chat_id, {}).get(reply_to)
            if original is not None:
                message["reply_to_message"] = public(original)
        if chat_id > 0:
            self.started.add(user_id)
        else:
            self.members.setdefault(chat_id, set()).add(user_id)
            self._last_group[user_id] = chat_id
        stored = self._store(chat_id, message)
        if self._reaches_bot(chat_id, stored):
            await self.updates.put("message", public(stored))
        return clone(stored)

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
            query["message"] = public(record)
            query["chat_instance"] = str(abs(chat_id) * 31 + self.bot_id)
            group = chat_id
        future: asyncio.Future[JSON] = asyncio.get_running_loop().create_future()
        self._callbacks[query_id] = (future, time.monotonic())
        await self.updates.put("callback_query", query)
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
        await self.updates.put("inline_query", payload)
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
        message.update(render_text(text, content.get("parse_mode"), content.get("entities")))
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
        await self.updates.put("chosen_inline_result", chosen)
        if self._reaches_bot(target, stored):
            await self.updates.put("message", public(stored))
        return clone(stored)

    # ------------------------------------------------------------------ what tests look at

    def calls_to(self, chat_id: int | str, methods: tuple[str, ...] | None = None) -> list[Call]:
        """The recorded calls aimed at one chat (optionally only some methods)."""
        return [
            c
            for c in self.calls
            if c.chat_id == chat_id and (methods is None or c.method in methods)
        ]

    def peak_calls_per_minute(
        self, chat_id: int | str, methods: tuple[str, ...] | None = None
    ) -> int:
        """The largest number of calls to one chat inside any 60-second window (``methods``:
        only those, e.g. the sends and edits Telegram's flood limits count)."""
        times = sorted(c.time for c in self.calls_to(chat_id, methods))
        best, start = 0, 0
        for end, t in enumerate(times):
            while t - times[start] >= 60:
                start += 1
            best = max(best, end - start + 1)
        return best

    async def wait_for(
        self, predicate: Callable[[], Any], timeout: float = 5, interval: float = 0.01
    ) -> Any:
        """Check ``predicate`` until it returns something truthy; return it (TimeoutError if
        not).

        It is checked again as soon as the fake changes (a message, an edit, an answer, a
        call) and otherwise every ``interval`` seconds, growing to ``IDLE_INTERVAL`` while
        nothing happens: a condition on the bot's database has no event here. Checking
        every 10 ms whatever happened, with predicates that copy a chat's messages, was
        most of the suite's CPU.
        """
        loop = asyncio.get_running_loop()
        deadline = time.monotonic() + timeout
        changed = asyncio.Event()
        watcher = (loop, changed)
        self.watchers.add(watcher)
        pause, idle = interval, max(interval, IDLE_INTERVAL)
        try:
            while True:
                changed.clear()
                value = predicate()
                if value:
                    return value
                if time.monotonic() > deadline:
                    raise TimeoutError(f"condition not met within {timeout} s")
                timer = loop.call_later(pause, changed.set)
                try:
                    await changed.wait()
                finally:
                    timer.cancel()
                # the bot often stores a change just before or after it calls Telegram
                quiet = loop.time() >= timer.when()
                pause = min(pause * 1.5, idle) if quiet else interval
        finally:
            self.watchers.discard(watcher)

    def fail_next(self, method: str, *args: Any, **kwargs: Any) -> None:
        """Make the next calls of ``method`` fail: ``Faults.add`` (its options: the error,
        ``chat_id``, ``times``)."""
        self.faults.add(method, *args, **kwargs)

    # ------------------------------------------------------------------ webhooks

    def route_webhook(self, addresses: list[str]) -> None:
        """Put a reverse proxy in front of the webhook: POSTs go to these addresses in turn.

        Each address is ``http://host:port``; the path of the URL the bot registered is kept.
        A delivery that fails (no answer or not 2xx) is retried on the next address.
        """
        self.updates.route(addresses)

    @property
    def deliveries(self) -> list[Delivery]:
        """Every webhook POST made so far, in order."""
        return list(self.updates.deliveries)

    async def forge_webhook_request(
        self, update: JSON, secret: str | None = "wrong-secret", address: str | None = None
    ) -> int:
        """Someone who is not Telegram POSTs ``update`` to the webhook; the HTTP status."""
        if self.updates.webhook is None:
            raise LookupError("no webhook is set")
        return await self.updates.post(update, secret, address or self._first_route())

    def _first_route(self) -> str | None:
        return self.updates.routes[0] if self.updates.routes else None

    # ------------------------------------------------------------------ Mini Apps

    def web_app_launch(
        self,
        user_id: int,
        url: str,
        start_param: str | None = None,
        *,
        auth_date: float | None = None,
        theme: JSON | None = None,
    ) -> str:
        """The address Telegram opens for a Mini App: ``url`` with the launch data in the
        fragment, signed with the bot's token for ``user_id`` (as Telegram signs it, with
        ``signature`` and the ``user`` JSON's ``/`` escaped). A direct link's
        ``startapp`` becomes ``tgWebAppStartParam`` in the query and ``start_param`` in the
        signed data. Signed now by the fake's clock unless ``auth_date`` says when."""
        from urllib.parse import quote, urlencode

        user = {k: v for k, v in self.users[user_id].items() if k != "is_bot"}
        user["allows_write_to_pm"] = True
        fields = {
            "query_id": f"AAF{user_id}",
            "user": user_json(user),
            "auth_date": str(int(self.clock() if auth_date is None else auth_date)),
            "signature": "fake-ed25519-signature-for-third-parties",
        }
        if start_param is not None:
            fields["start_param"] = start_param
        theme = theme or {"bg_color": "#ffffff", "text_color": "#000000", "button_color": "#2481cc"}
        fragment = urlencode(
            {
                "tgWebAppData": sign(fields, self.token),
                "tgWebAppVersion": "8.0",
                "tgWebAppPlatform": "web",
                "tgWebAppThemeParams": json_dumps(theme),
            },
            quote_via=quote,
        )
        if start_param is not None:
            sep = "&" if "?" in url else "?"
            url = f"{url}{sep}tgWebAppStartParam={quote(start_param)}"
        return f"{url}#{fragment}"


def json_dumps(value: Any) -> str:
    """Compact JSON, as Telegram writes its launch parameters."""
    import json

    return json.dumps(value, separators=(",", ":"))
