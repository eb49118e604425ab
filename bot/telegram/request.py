"""The Bot API's HTTP client: PTB's ``BaseRequest`` on aiohttp instead of its default httpx.

Every send, edit and button answer is one request, and httpx (httpcore's pool, anyio's
streams) spent several times aiohttp's CPU on each (the figures: ``docs-dev/bot-bench-log.md``,
"Cliente HTTP da Bot API"); aiohttp already serves the webhook. Errors map as in PTB's ``HTTPXRequest``: any timeout is
``TimedOut`` (the request may have reached Telegram), any other failure to talk to the
server ``NetworkError``; statuses are left to ``BaseRequest``. Long polling keeps PTB's own
request (its ``getUpdates`` lines are the ``-v`` log's sign of life).
"""

from __future__ import annotations

import logging

import aiohttp
from telegram._utils.defaultvalue import DefaultValue
from telegram._utils.types import ODVInput
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

log = logging.getLogger(__name__)


class AiohttpRequest(BaseRequest):
    """Bot API requests over one aiohttp session (PTB's defaults: 256 connections, 5 s
    timeouts, 1 s to get a connection from the pool)."""

    def __init__(
        self,
        connection_pool_size: int = 256,
        read_timeout: float | None = 5.0,
        write_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
    ) -> None:
        """Nothing connects until :meth:`initialize`."""
        self._pool_size = connection_pool_size
        self._read = read_timeout
        self._write = write_timeout
        self._connect = connect_timeout
        self._pool = pool_timeout
        self._session: aiohttp.ClientSession | None = None

    @property
    def read_timeout(self) -> float | None:
        """The default read timeout (seconds)."""
        return self._read

    async def initialize(self) -> None:
        """Open the session (again, after a shutdown)."""
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self._pool_size),
                headers={"User-Agent": self.USER_AGENT},
            )

    async def shutdown(self) -> None:
        """Close the session and its connections."""
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        """One request: its status and body."""
        session = self._session
        if session is None or session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        read = self._read if isinstance(read_timeout, DefaultValue) else read_timeout
        write = self._write if isinstance(write_timeout, DefaultValue) else write_timeout
        connect = self._connect if isinstance(connect_timeout, DefaultValue) else connect_timeout
        pool = self._pool if isinstance(pool_timeout, DefaultValue) else pool_timeout
        # aiohttp has no write timeout: a request body is small, so sending it is bounded
        # together with the connection (waiting for one from the pool, then connecting)
        waits = [t for t in (pool, connect, write) if t is not None]
        timeout = aiohttp.ClientTimeout(
            total=None,
            connect=sum(waits) if len(waits) == 3 else None,
            sock_connect=connect,
            sock_read=read,
        )
        data: aiohttp.FormData | dict[str, str] | None = None
        if request_data is not None:
            fields = request_data.json_parameters
            files = request_data.multipart_data
            if files:
                form = aiohttp.FormData(fields)
                for name, part in files.items():
                    filename, content, mime = part if len(part) == 3 else (*part, None)
                    form.add_field(name, content, filename=filename, content_type=mime)
                data = form
            else:
                data = fields or None
        try:
            async with session.request(method, url, data=data, timeout=timeout) as response:
                body = await response.read()
        except TimeoutError as err:  # aiohttp's own timeouts are TimeoutErrors too
            raise TimedOut from err
        except aiohttp.ClientError as err:
            raise NetworkError(f"aiohttp.{err.__class__.__name__}: {err}") from err
        if log.isEnabledFor(logging.DEBUG):
            log.debug("Bot API %s: %d", url.rsplit("/", 1)[-1], response.status)
        return response.status, body
