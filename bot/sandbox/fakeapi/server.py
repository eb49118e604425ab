"""The fake served over HTTP: ``/bot{token}/{method}`` on 127.0.0.1, like api.telegram.org."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from bot.sandbox.fakeapi.coercion import read_params
from bot.sandbox.fakeapi.driver import PeopleDriver
from bot.sandbox.fakeapi.errors import ApiError, bad_request
from bot.sandbox.fakeapi.updates import Delivery

JSON = dict[str, Any]

__all__ = ["Delivery", "FakeTelegram"]


class FakeTelegram(PeopleDriver):
    """An in-process fake of the Telegram Bot API, served over HTTP by aiohttp."""

    api_url = ""
    _runner: web.AppRunner | None = None

    def make_app(self) -> web.Application:
        """The aiohttp application serving ``/bot{token}/{method}``."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        return app

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        """Listen on ``host:port`` (0 picks a free port); sets and returns :attr:`api_url`."""
        self.updates.reopen()
        self._runner = web.AppRunner(self.make_app(), access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        bound = self._runner.addresses[0]
        self.api_url = f"http://{host}:{bound[1]}"
        return self.api_url

    async def stop(self) -> None:
        """Stop listening; pending long polls return at once, webhook delivery stops."""
        await self.updates.close()
        for fut, _ in self._callbacks.values():
            if not fut.done():
                fut.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def snapshot(self) -> JSON:
        """Everything a later run needs to show the same chats (JSON-serialisable)."""
        return {**super().snapshot(), "next_update_id": self.updates.next_update_id}

    def restore(self, data: JSON) -> None:
        """Load a :meth:`snapshot` (pending updates are not kept, as after a long pause)."""
        super().restore(data)
        self.updates.next_update_id = data["next_update_id"]

    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return web.json_response(ApiError(401, "Unauthorized").to_json(), status=401)
        try:
            params = await read_params(request)
        except ValueError as exc:
            err = bad_request(str(exc))
            return web.json_response(err.to_json(), status=err.code)
        try:
            result = await self.call(request.match_info["method"], params)
        except ApiError as err:
            return web.json_response(err.to_json(), status=err.code)
        return web.json_response({"ok": True, "result": result})
