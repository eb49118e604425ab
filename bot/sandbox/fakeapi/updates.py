"""The update queue: long polling (``getUpdates``) or webhook delivery by HTTP POST.

Like Telegram, an update stays pending until the bot takes it: a ``getUpdates`` with a
higher offset confirms it, or a webhook POST answered with 2xx. A webhook is posted with
the ``X-Telegram-Bot-Api-Secret-Token`` header to the registered URL; :meth:`route`
plays the reverse proxy in front of several replicas, sending each POST to the next
address in turn (round robin), and a failed delivery is retried on another address.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from dataclasses import dataclass
from typing import Any, NamedTuple
from urllib.parse import urlsplit

import aiohttp

from bot.sandbox.fakeapi.content import clone
from bot.sandbox.fakeapi.errors import POLLING_CONFLICT, WEBHOOK_CONFLICT, ApiError, bad_request

JSON = dict[str, Any]
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
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
_SECRET = re.compile(r"^[A-Za-z0-9_-]{1,256}$")
_WEBHOOK_PORTS = (443, 80, 88, 8443)


class Delivery(NamedTuple):
    """One webhook POST: which update, to which address, and the HTTP status (0: no answer)."""

    update_id: int
    address: str
    status: int
    time: float


@dataclass
class Webhook:
    """The registered webhook (``setWebhook``)."""

    url: str
    secret_token: str | None = None
    max_connections: int = 40
    allowed_updates: list[str] | None = None
    last_error_date: int | None = None
    last_error_message: str | None = None


class UpdateQueue:
    """Pending updates, handed out by long polling or pushed to a webhook."""

    def __init__(self, retry_delay: float = 0.2) -> None:
        """``retry_delay``: seconds before a failed webhook delivery is tried again."""
        self.pending: list[JSON] = []
        self.next_update_id = 1
        self.allowed = DEFAULT_UPDATES
        self.webhook: Webhook | None = None
        self.routes: list[str] = []
        self.deliveries: list[Delivery] = []
        self.in_flight: set[int] = set()
        """Updates being POSTed now. The queue's, not the webhook's: a replica that starts
        sets the same webhook again, and an update another replica is still answering must
        not go out a second time (two replicas would apply one press at once)."""
        self.retry_delay = retry_delay
        self.closing = False
        self._poll_generation = 0
        self._changed: asyncio.Condition | None = None
        self._turn = 0
        self._pusher: asyncio.Task[None] | None = None
        self._http: aiohttp.ClientSession | None = None

    # ---------------------------------------------------------------- adding

    def _condition(self) -> asyncio.Condition:
        if self._changed is None:
            self._changed = asyncio.Condition()
        return self._changed

    async def notify(self) -> None:
        """Wake long polls and the webhook pusher."""
        cond = self._condition()
        async with cond:
            cond.notify_all()

    async def put(self, kind: str, payload: JSON) -> None:
        """Queue an update of ``kind`` if the bot asked for that kind."""
        if kind not in self.allowed:
            return
        self.pending.append({"update_id": self.next_update_id, kind: payload})
        self.next_update_id += 1
        await self.notify()

    def drop_pending(self) -> None:
        """Forget every pending update (``drop_pending_updates``)."""
        self.pending.clear()

    def _allow(self, allowed: Any) -> None:
        if allowed is not None:
            self.allowed = frozenset(allowed) if allowed else DEFAULT_UPDATES

    # ---------------------------------------------------------------- long polling

    async def get_updates(self, params: JSON) -> list[JSON]:
        """``getUpdates``: confirm below ``offset``, wait up to ``timeout`` for something new."""
        if self.webhook is not None:
            raise ApiError(409, WEBHOOK_CONFLICT)
        offset = params.get("offset")
        limit = max(1, min(100, params.get("limit") or 100))
        timeout = max(0, params.get("timeout") or 0)
        self._allow(params.get("allowed_updates"))
        if isinstance(offset, int) and offset > 0:
            self.pending = [u for u in self.pending if u["update_id"] >= offset]
        self._poll_generation += 1
        generation = self._poll_generation
        cond = self._condition()
        if not self.pending and timeout > 0 and not self.closing:
            # A newer getUpdates wakes us too: Telegram then ends the older poll with 409.
            await self.notify()
            async with cond:
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(
                        cond.wait_for(
                            lambda: (
                                bool(self.pending)
                                or self.closing
                                or self._poll_generation != generation
                            )
                        ),
                        timeout,
                    )
        if self._poll_generation != generation:
            raise ApiError(409, POLLING_CONFLICT)
        return [clone(u) for u in self.pending[:limit]]

    # ---------------------------------------------------------------- webhook

    async def set_webhook(self, params: JSON) -> bool:
        """``setWebhook``: register (or replace) the URL; an empty URL removes the webhook."""
        url = str(params.get("url") or "")
        if not url:
            self.delete_webhook(params)
            return True
        parts = urlsplit(url)
        if parts.scheme != "https" or not parts.hostname:
            raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
        if (parts.port or 443) not in _WEBHOOK_PORTS:
            raise bad_request(
                "bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443"
            )
        secret = params.get("secret_token")
        if secret is not None and not _SECRET.match(str(secret)):
            raise bad_request("secret token contains unallowed characters")
        connections = params.get("max_connections") or 40
        if not isinstance(connections, int) or not 1 <= connections <= 100:
            raise bad_request("bad webhook: max_connections must be between 1 and 100")
        if params.get("drop_pending_updates"):
            self.drop_pending()
        allowed = params.get("allowed_updates")
        self._allow(allowed)
        self.webhook = Webhook(url, secret, connections, allowed)
        self._poll_generation += 1  # a long poll still waiting ends with 409
        self._start_pusher()
        await self.notify()
        return True

    def delete_webhook(self, params: JSON) -> bool:
        """``deleteWebhook``: back to ``getUpdates``."""
        if params.get("drop_pending_updates"):
            self.drop_pending()
        self.webhook = None
        return True

    def webhook_info(self) -> JSON:
        """``getWebhookInfo``."""
        info: JSON = {
            "url": self.webhook.url if self.webhook else "",
            "has_custom_certificate": False,
            "pending_update_count": len(self.pending),
        }
        if self.webhook is not None:
            info["max_connections"] = self.webhook.max_connections
            if self.webhook.allowed_updates is not None:
                info["allowed_updates"] = list(self.webhook.allowed_updates)
            if self.webhook.last_error_date is not None:
                info["last_error_date"] = self.webhook.last_error_date
                info["last_error_message"] = self.webhook.last_error_message
        return info

    def route(self, addresses: list[str]) -> None:
        """Play the reverse proxy: POST the webhook's path to these addresses in turn."""
        self.routes = [a.rstrip("/") for a in addresses]

    def target(self, address: str | None = None) -> str:
        """Where a POST goes: ``address`` (or the webhook URL itself) plus the URL's path."""
        assert self.webhook is not None
        if address is None:
            return self.webhook.url
        parts = urlsplit(self.webhook.url)
        path = parts.path or "/"
        return f"{address}{path}" + (f"?{parts.query}" if parts.query else "")

    def _next_address(self) -> str | None:
        if not self.routes:
            return None
        address = self.routes[self._turn % len(self.routes)]
        self._turn += 1
        return address

    def _start_pusher(self) -> None:
        if self._pusher is None or self._pusher.done():
            self._pusher = asyncio.get_running_loop().create_task(self._push_forever())

    async def _push_forever(self) -> None:
        """Hand every pending update to the webhook, up to ``max_connections`` at once."""
        cond = self._condition()
        tasks: set[asyncio.Task[None]] = set()
        try:
            while not self.closing:
                hook = self.webhook
                if hook is None:
                    return
                for update in list(self.pending):
                    if len(self.in_flight) >= hook.max_connections:
                        break
                    uid = update["update_id"]
                    if uid not in self.in_flight:
                        self.in_flight.add(uid)
                        task = asyncio.get_running_loop().create_task(self._deliver(hook, update))
                        tasks.add(task)
                        task.add_done_callback(tasks.discard)
                async with cond:
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(cond.wait(), 0.5)
        finally:
            for task in tasks:
                task.cancel()

    async def _deliver(self, hook: Webhook, update: JSON) -> None:
        """POST one update until an address answers 2xx (each retry on the next address)."""
        uid = update["update_id"]
        try:
            while not self.closing and self.webhook is hook:
                if not any(u["update_id"] == uid for u in self.pending):
                    return  # dropped meanwhile
                address = self._next_address()
                status = await self.post(update, hook.secret_token, address)
                self.deliveries.append(Delivery(uid, address or hook.url, status, time.time()))
                if 200 <= status < 300:
                    self.pending = [u for u in self.pending if u["update_id"] != uid]
                    return
                hook.last_error_date = int(time.time())
                hook.last_error_message = (
                    f"Wrong response from the webhook: {status}" if status else "Connection refused"
                )
                await asyncio.sleep(self.retry_delay)
        finally:
            self.in_flight.discard(uid)
            await self.notify()

    async def post(self, update: JSON, secret: str | None, address: str | None = None) -> int:
        """One POST of ``update`` with ``secret`` in the header; the HTTP status (0: no answer)."""
        if self._http is None:
            self._http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60))
        headers = {SECRET_HEADER: secret} if secret is not None else {}
        try:
            async with self._http.post(self.target(address), json=update, headers=headers) as resp:
                await resp.read()
                return resp.status
        except (TimeoutError, aiohttp.ClientError, OSError):
            return 0

    async def close(self) -> None:
        """Stop polling and pushing."""
        self.closing = True
        await self.notify()
        if self._pusher is not None:
            self._pusher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pusher
            self._pusher = None
        if self._http is not None:
            await self._http.close()
            self._http = None

    def reopen(self) -> None:
        """Accept polls again after :meth:`close` (a restarted fake)."""
        self.closing = False
        if self.webhook is not None:
            self._start_pusher()
