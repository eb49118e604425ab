"""A connection flood against the bot's HTTP port, and what still gets through meanwhile.

``python -m bot.tools.flood figure`` runs the whole figure of the hostile review: a real
``truco bot`` (a child process whose descriptor limit is 1,024, soft and hard) against the
fake Telegram, a group with one member, and, from another process, ~1,100 half-sent
requests and ~1,000 live streams of that member held open; meanwhile it times ``/healthz``
and a group command (``/regras``) and prints the figures as JSON.

``python -m bot.tools.flood hold HOST PORT ...`` is that other process (the tests use it
with smaller numbers): it opens the connections, prints one JSON line with what it got
(streams answered 200, refused 429, or otherwise), and holds everything (with ``--keep``,
opening again each connection the bot closes) until its
standard input closes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import shutil
import socket
import statistics
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from bot.ops.limits import raise_descriptor_limit

JSON = dict[str, Any]


Held = tuple[asyncio.StreamReader, asyncio.StreamWriter]


async def _half_open(host: str, port: int) -> Held | None:
    """A request whose headers never end."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), 10)
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: bot\r\nX-Slow: ")
        await writer.drain()
    except (OSError, TimeoutError):
        return None
    return reader, writer


async def _stream(host: str, port: int, path: str, auth: str) -> tuple[int, Held | None]:
    """A live stream's request: the status it got (0: none), and the connection."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), 10)
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: bot\r\nAuthorization: tma {auth}\r\n\r\n".encode()
        )
        await writer.drain()
        line = await asyncio.wait_for(reader.readline(), 30)
    except (OSError, TimeoutError):
        return 0, None
    parts = line.split()
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0, (reader, writer)


class Flood:
    """Half-sent requests and live streams held open against one port; with ``keep``,
    every connection the bot closes is opened again (as a flood that does not give up)."""

    def __init__(self, host: str, port: int, path: str, auth: str, keep: bool) -> None:
        """Against ``host:port``; streams ask ``path`` with the launch data ``auth``."""
        self.host, self.port, self.path, self.auth, self.keep = host, port, path, auth, keep
        self.held: list[asyncio.StreamWriter] = []
        self.reopened = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._limit = asyncio.Semaphore(200)

    async def open(self, half_open: int, streams: int) -> JSON:
        """Open them; what they got."""
        opened = await asyncio.gather(*(self._one_half_open() for _ in range(half_open)))
        statuses = await asyncio.gather(*(self._one_stream() for _ in range(streams)))
        return {
            "half_open": sum(opened),
            "streams_200": statuses.count(200),
            "streams_429": statuses.count(429),
            "streams_other": len(statuses) - statuses.count(200) - statuses.count(429),
        }

    async def _one_half_open(self) -> bool:
        async with self._limit:
            held = await _half_open(self.host, self.port)
        self._kept(held, self._one_half_open)
        return held is not None

    async def _one_stream(self) -> int:
        async with self._limit:
            status, held = await _stream(self.host, self.port, self.path, self.auth)
        self._kept(held, self._one_stream)
        return status

    def _kept(self, held: Held | None, again: Any) -> None:
        if held is None:
            return
        self.held.append(held[1])
        if self.keep:
            task = asyncio.create_task(self._reopen(held, again))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _reopen(self, held: Held, again: Any) -> None:
        reader, writer = held
        with contextlib.suppress(OSError):
            while await reader.read(65536):
                pass  # a stream's events, or an answer: the bot closes it at last
        with contextlib.suppress(ValueError):
            self.held.remove(writer)
        writer.close()
        self.reopened += 1
        await again()

    def close(self) -> None:
        """Let everything go."""
        for task in list(self._tasks):
            task.cancel()
        for writer in self.held:
            writer.close()


async def _hold_main(args: argparse.Namespace) -> None:
    flood = Flood(args.host, args.port, args.path, args.auth, args.keep)
    got = await flood.open(args.half_open, args.streams)
    print(json.dumps(got), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    flood.close()


async def start_hold(
    host: str, port: int, half_open: int, streams: int, path: str, auth: str, keep: bool = False
) -> tuple[asyncio.subprocess.Process, JSON]:
    """The ``hold`` process, once its connections are open; what they got."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.tools.flood", "hold", host, str(port),
        "--half-open", str(half_open), "--streams", str(streams),
        "--path", path, "--auth", auth, *(["--keep"] if keep else []),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdout is not None
    line = await asyncio.wait_for(proc.stdout.readline(), 300)
    if not line:
        raise RuntimeError("the flood process stopped before opening its connections")
    return proc, json.loads(line)


async def stop_hold(proc: asyncio.subprocess.Process) -> None:
    """Let the ``hold`` process go."""
    assert proc.stdin is not None
    proc.stdin.close()
    try:
        await asyncio.wait_for(proc.wait(), 30)
    except TimeoutError:
        proc.kill()
        await proc.wait()


def _said(server: Any, chat_id: int) -> list[JSON]:
    """What the bot said in a chat."""
    return [m for m in server.messages(chat_id) if m["from"]["is_bot"] and not m.get("deleted")]


def _more_than(server: Any, chats: tuple[int, ...], count: int) -> bool:
    return sum(len(_said(server, c)) for c in chats) > count


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def figure(half_open: int, streams: int, samples: int, limit: int, keep: bool = True) -> JSON:
    """The whole figure (see the module's docstring)."""
    import aiohttp

    from bot.sandbox.fakeapi import FakeTelegram

    token = "123456:FLOOD"
    server = FakeTelegram(token=token, bot_username="TrucoBot")
    await server.start(host="127.0.0.1", port=0)
    ana = server.add_user("Ana", started=True)
    beto = server.add_user("Beto", started=True)
    # one person per command sample: the bot answers the same command of the same person
    # in the group once a minute (and privately, to who has opened it, past its budget)
    askers = [server.add_user(f"P{i}", started=True) for i in range(samples)]
    group = server.add_group("Truco", admins=[ana], members=[ana, beto, *askers])
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    data = Path(tempfile.mkdtemp(prefix="truco-flood-"))
    env = {
        **os.environ,
        "TELEGRAM_BOT_TOKEN": token,
        "TELEGRAM_API_URL": server.api_url,
        "DATABASE_URL": f"sqlite:///{data}/flood.db",
        "TRUCO_LISTEN": f"127.0.0.1:{port}",
        "TELEGRAM_WEBAPP_URL": base + "/app/",
        "TELEGRAM_WEBAPP_NAME": "mesa",
        "TRUCO_POLL_TIMEOUT": "1",
    }

    def low_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

    truco = shutil.which("truco") or str(Path(sys.executable).with_name("truco"))
    bot = await asyncio.create_subprocess_exec(truco, "bot", env=env, preexec_fn=low_limit)
    hold_proc: asyncio.subprocess.Process | None = None
    try:
        async with aiohttp.ClientSession() as http:
            for _ in range(600):
                with contextlib.suppress(aiohttp.ClientError):
                    async with http.get(base + "/healthz") as r:
                        if r.status == 200:
                            break
                await asyncio.sleep(0.1)
            for person in askers:
                await server.user_sends(person, person, "/start")
            await server.user_sends(ana, group, "/truco")
            await server.wait_for(lambda: _said(server, group), 60)
            launch = server.web_app_launch(beto, base + "/app/", "g1")
            auth = parse_qs(launch.split("#", 1)[1])["tgWebAppData"][0]
            started = time.monotonic()
            hold_proc, got = await start_hold(
                "127.0.0.1", port, half_open, streams, "/app/api/events?table=g1", auth, keep=keep
            )
            got["flood_seconds"] = round(time.monotonic() - started, 1)
            health: list[float] = []
            command: list[float] = []
            for person in askers:
                t0 = time.monotonic()
                try:
                    async with http.get(
                        base + "/healthz", timeout=aiohttp.ClientTimeout(total=10)
                    ) as r:
                        await r.read()
                    health.append(time.monotonic() - t0)
                except (aiohttp.ClientError, TimeoutError):
                    health.append(float("inf"))
                # the answer goes to the group, or privately when the group's budget is short
                chats = (group, person)
                before = sum(len(_said(server, c)) for c in chats)
                t0 = time.monotonic()
                await server.user_sends(person, group, "/regras")
                try:
                    await server.wait_for(partial(_more_than, server, chats, before), 10)
                    command.append(time.monotonic() - t0)
                except TimeoutError:
                    command.append(float("inf"))
                await asyncio.sleep(3.0)  # the group's budget: 20 calls a minute, the table first
            got.update(
                healthz_median_s=round(statistics.median(health), 3),
                healthz_max_s=round(max(health), 3),
                command_median_s=round(statistics.median(command), 3),
                command_max_s=round(max(command), 3),
                samples=samples,
                bot_descriptor_limit=limit,
                reopened=keep,
            )
            return got
    finally:
        if hold_proc is not None:
            await stop_hold(hold_proc)
        bot.terminate()
        await bot.wait()
        await server.stop()
        shutil.rmtree(data, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    """``figure`` or ``hold`` (see the module's docstring)."""
    parser = argparse.ArgumentParser(prog="python -m bot.tools.flood")
    sub = parser.add_subparsers(dest="what", required=True)
    fig = sub.add_parser("figure", help="the whole figure against a real bot")
    fig.add_argument("--half-open", type=int, default=1100)
    fig.add_argument("--streams", type=int, default=1000)
    fig.add_argument("--samples", type=int, default=10)
    fig.add_argument("--limit", type=int, default=1024, help="the bot's descriptor limit")
    fig.add_argument("--once", action="store_true", help="open each connection once (no reopening)")
    h = sub.add_parser("hold", help="open the connections and hold them")
    h.add_argument("host")
    h.add_argument("port", type=int)
    h.add_argument("--half-open", type=int, default=0)
    h.add_argument("--streams", type=int, default=0)
    h.add_argument("--path", default="/app/api/events?table=g1")
    h.add_argument("--auth", default="")
    h.add_argument("--keep", action="store_true", help="open again what the bot closes")
    args = parser.parse_args(argv)
    raise_descriptor_limit()
    if args.what == "hold":
        asyncio.run(_hold_main(args))
        return 0
    got = figure(args.half_open, args.streams, args.samples, args.limit, keep=not args.once)
    print(json.dumps(asyncio.run(got)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
