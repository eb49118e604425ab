"""The sandbox web page: a small Telegram-like client over a :class:`FakeTelegram`.

Every action on the page is one of the fake server's people-side calls (``user_sends``,
``user_presses``, ``user_inline_query``, ``user_chooses_inline``); changes reach the page as
server-sent events. The page is plain HTML, CSS and JavaScript served from ``static/``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from aiohttp import web

from bot.sandbox.fakeapi import FakeTelegram

STATIC = Path(__file__).with_name("static")
PEOPLE = ("Ana", "Beto", "Caio", "Duda")
GROUP_TITLE = "Truco da firma"
GROUP_ID = -1_001_000_000_001
FIRST_USER_ID = 100_000_001
HEARTBEAT = 15.0
LANGUAGE_CODES = ("pt-br", "en", "es")
"""The Telegram languages a sandbox person can switch to (the page's toggle cycles them)."""

JSON = dict[str, Any]


def populate(server: FakeTelegram, people: tuple[str, ...] = PEOPLE) -> int:
    """Add the sandbox's people and group if missing (ids are stable across runs).

    Returns the group's chat id. The first person is the group's creator.
    """
    for i, name in enumerate(people):
        uid = FIRST_USER_ID + i
        if uid not in server.users:
            server.add_user(name, language_code="pt-br", user_id=uid)
    if GROUP_ID not in server.chats:
        ids = [FIRST_USER_ID + i for i in range(len(people))]
        server.add_group(GROUP_TITLE, admins=ids[:1], members=ids, chat_id=GROUP_ID)
    return GROUP_ID


class BadInput(ValueError):
    """A request from the page that cannot be served (answered with HTTP 400)."""


class SandboxWeb:
    """Serves the page, its JSON API and the live event stream for one fake server."""

    def __init__(
        self,
        server: FakeTelegram,
        press_timeout: float = 10.0,
        webapp: tuple[str, str] | None = None,
    ) -> None:
        """Attach to ``server``; listening starts with :meth:`start`. ``webapp``: the bot's
        Mini App (its URL and short name), which the page opens over the chat."""
        self.server = server
        self.press_timeout = press_timeout
        self.webapp = webapp
        self.url = ""
        self._streams: set[asyncio.Queue[JSON | None]] = set()
        self._runner: web.AppRunner | None = None
        server.listeners.append(self._broadcast)

    def make_app(self) -> web.Application:
        """The aiohttp application of the page."""
        app = web.Application()
        app.router.add_get("/", self._index)
        app.router.add_static("/static/", STATIC, append_version=True)
        app.router.add_get("/api/state", self._state)
        app.router.add_get("/api/events", self._events)
        app.router.add_post("/api/send", self._send)
        app.router.add_post("/api/language", self._language)
        app.router.add_post("/api/press", self._press)
        app.router.add_post("/api/inline", self._inline)
        app.router.add_post("/api/choose", self._choose)
        app.router.add_post("/api/webapp", self._webapp)
        return app

    async def start(self, host: str = "127.0.0.1", port: int = 8080) -> str:
        """Listen on ``host:port`` (0 picks a free port); returns the page's URL."""
        self._runner = web.AppRunner(self.make_app(), access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        await web.TCPSite(self._runner, host, port).start()
        self.url = f"http://{host}:{self._runner.addresses[0][1]}"
        return self.url

    async def stop(self) -> None:
        """Close the event streams and stop listening."""
        for queue in list(self._streams):
            queue.put_nowait(None)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        with contextlib.suppress(ValueError):
            self.server.listeners.remove(self._broadcast)

    # ------------------------------------------------------------------ helpers

    def _broadcast(self, event: JSON) -> None:
        for queue in self._streams:
            queue.put_nowait(event)

    def _person(self, value: Any) -> int:
        """A user id from an id or a first name (case-insensitive)."""
        if isinstance(value, int) and value in self.server.users:
            return value
        text = str(value or "").strip()
        if text.isdigit() and int(text) in self.server.users:
            return int(text)
        for uid, user in self.server.users.items():
            if user["first_name"].lower() == text.lower():
                return uid
        raise BadInput(f"pessoa desconhecida: {text or '(vazio)'}")

    def _chat_for(self, user_id: int, value: Any) -> int:
        try:
            chat_id = int(value)
        except (TypeError, ValueError):
            raise BadInput("chat inválido") from None
        if chat_id > 0 and chat_id != user_id:
            raise BadInput("só dá para abrir a sua própria conversa com o bot")
        if chat_id < 0 and user_id not in self.server.members.get(chat_id, set()):
            raise BadInput("você não está nesse grupo")
        if chat_id not in self.server.chats:
            raise BadInput("chat desconhecido")
        return chat_id

    def _chats_of(self, user_id: int) -> list[JSON]:
        chats = [
            {**chat, "started": True}
            for cid, chat in self.server.chats.items()
            if cid < 0 and user_id in self.server.members.get(cid, set())
        ]
        chats.append(
            {
                "id": user_id,
                "type": "private",
                "title": self.server.bot_name,
                "started": user_id in self.server.started,
            }
        )
        return chats

    @staticmethod
    async def _body(request: web.Request) -> JSON:
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise BadInput("corpo JSON inválido") from None
        if not isinstance(body, dict):
            raise BadInput("corpo JSON inválido")
        return body

    # ------------------------------------------------------------------ routes

    async def _index(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html")

    async def _state(self, request: web.Request) -> web.Response:
        try:
            me = self._person(request.query.get("as") or PEOPLE[0])
        except BadInput as exc:
            return web.json_response({"error": str(exc)}, status=400)
        chats = self._chats_of(me)
        return web.json_response(
            {
                "bot": self.server.bot_user,
                "me": self.server.users[me],
                "people": [
                    {"id": uid, "name": u["first_name"], "language": u.get("language_code")}
                    for uid, u in self.server.users.items()
                ],
                "chats": chats,
                "messages": {
                    str(c["id"]): self.server.messages(c["id"], include_deleted=False)
                    for c in chats
                },
                "commands": {str(c["id"]): self.server.commands_for(c["id"], me) for c in chats},
            }
        )

    async def _events(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-cache",
                "X-Accel-Buffering": "no",
            }
        )
        await response.prepare(request)
        queue: asyncio.Queue[JSON | None] = asyncio.Queue()
        self._streams.add(queue)
        try:
            await response.write(b"retry: 1000\n\n")
            while True:
                try:
                    event = await asyncio.wait_for(queue.get(), HEARTBEAT)
                except TimeoutError:
                    await response.write(b": ping\n\n")
                    continue
                if event is None:
                    break
                data = json.dumps(event, ensure_ascii=False)
                await response.write(f"data: {data}\n\n".encode())
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self._streams.discard(queue)
        return response

    async def _guard(self, request: web.Request, action: Any) -> web.Response:
        try:
            result = await action(await self._body(request))
        except (BadInput, LookupError) as exc:
            message = exc.args[0] if exc.args else str(exc)
            return web.json_response({"error": str(message)}, status=400)
        return web.json_response(result)

    async def _send(self, request: web.Request) -> web.Response:
        async def act(body: JSON) -> JSON:
            me = self._person(body.get("as"))
            chat = self._chat_for(me, body.get("chat"))
            text = str(body.get("text") or "")
            if not text.strip():
                raise BadInput("mensagem vazia")
            if len(text) > 4096:
                raise BadInput("mensagem longa demais")
            thread = body.get("thread")
            return await self.server.user_sends(
                me, chat, text, message_thread_id=int(thread) if thread else None
            )

        return await self._guard(request, act)

    async def _language(self, request: web.Request) -> web.Response:
        """Switch a person's Telegram language (pt-BR, English or Spanish): the bot answers them
        in it from their next update on, as it would a phone set to that language."""

        async def act(body: JSON) -> JSON:
            me = self._person(body.get("as"))
            language = str(body.get("language") or "")
            if language not in LANGUAGE_CODES:
                raise BadInput("idioma desconhecido")
            self.server.users[me]["language_code"] = language
            return {"ok": True, "language": language}

        return await self._guard(request, act)

    async def _press(self, request: web.Request) -> web.Response:
        async def act(body: JSON) -> JSON:
            me = self._person(body.get("as"))
            data = str(body.get("data") or "")
            inline_id = body.get("inline_message_id")
            if inline_id:
                target: int | str = str(inline_id)
                chat: int | None = None
            else:
                chat = self._chat_for(me, body.get("chat"))
                try:
                    target = int(body.get("message_id"))  # type: ignore[arg-type]
                except (TypeError, ValueError):
                    raise BadInput("message_id inválido") from None
            try:
                answer = await self.server.user_presses(
                    me, chat, target, data, timeout=self.press_timeout
                )
            except TimeoutError:
                return {"timeout": True}
            return answer

        return await self._guard(request, act)

    async def _inline(self, request: web.Request) -> web.Response:
        async def act(body: JSON) -> JSON:
            me = self._person(body.get("as"))
            chat = self._chat_for(me, body.get("chat"))
            chat_type = "sender" if chat > 0 else "supergroup"
            try:
                await self.server.user_inline_query(
                    me,
                    str(body.get("query") or ""),
                    chat_type=chat_type,
                    chat_id=chat,
                    timeout=self.press_timeout,
                )
            except TimeoutError:
                return {"timeout": True, "results": []}
            return self.server.inline_answer(me) or {"results": []}

        return await self._guard(request, act)

    async def _choose(self, request: web.Request) -> web.Response:
        async def act(body: JSON) -> JSON:
            me = self._person(body.get("as"))
            chat = self._chat_for(me, body.get("chat"))
            return await self.server.user_chooses_inline(
                me, str(body.get("result_id")), str(body.get("query") or ""), chat_id=chat
            )

        return await self._guard(request, act)

    async def _webapp(self, request: web.Request) -> web.Response:
        """Open the bot's Mini App as Telegram would: the address with launch data signed
        for the person, from a direct link (``t.me/<bot>/<name>?startapp=``) or a
        ``web_app`` button's address."""

        async def act(body: JSON) -> JSON:
            me = self._person(body.get("as"))
            if self.webapp is None:
                raise BadInput("este bot não tem Mini App")
            base, name = self.webapp
            url = str(body.get("url") or "")
            parts = urlsplit(url)
            direct = f"/{self.server.bot_username}/{name}".lower()
            if parts.netloc in ("t.me", "telegram.me") and parts.path.lower() == direct:
                start = parse_qs(parts.query).get("startapp", [None])[0]
                if start is not None and not _START_APP.fullmatch(start):
                    raise BadInput("startapp inválido")
                return {"url": self.server.web_app_launch(me, base, start)}
            if url.startswith(base):
                return {"url": self.server.web_app_launch(me, url)}
            raise BadInput("esse endereço não é o Mini App do bot")

        return await self._guard(request, act)


_START_APP = re.compile(r"[A-Za-z0-9_-]{1,512}")
"""What Telegram allows in ``startapp``."""
