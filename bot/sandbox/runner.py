"""``truco sandbox``: the fake Telegram, the real bot and the sandbox page, on 127.0.0.1 only.

The bot runs as its own process (``truco bot``) with the fake server's URL and a sandbox
token, exactly as it would run against Telegram. The fake server's chats are saved next to the
bot's database, so a second run shows the same conversations and the bot finds its games.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shlex
import signal
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.ops.lifecycle import stop_signals
from bot.sandbox.fakeapi import FakeTelegram
from bot.sandbox.web import SandboxWeb, populate

SANDBOX_TOKEN = "100200300:sandbox-not-a-real-token"
BOT_USERNAME = "TrucoBot"
BOT_NAME = "Truco"
STATE_FILE = "sandbox-telegram.json"
WEBAPP_NAME = "mesa"
"""The Mini App's short name in the sandbox (``https://t.me/TrucoBot/mesa?startapp=...``)."""
SAVE_EVERY = 1.0
STOP_GRACE = 10.0


class SandboxError(Exception):
    """A problem the user can fix (printed as one line, exit status 2)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``truco sandbox``."""
    parser.add_argument("--host", default="127.0.0.1", help="endereço da página (padrão 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8080, help="porta da página (padrão 8080)")
    parser.add_argument(
        "--api-port", type=int, default=0, help="porta do Telegram de mentira (padrão: livre)"
    )
    parser.add_argument(
        "--data", default="data", help="pasta do banco e das conversas (padrão ./data)"
    )
    parser.add_argument(
        "--database-url", default=None, help="banco do bot (padrão sqlite:///<data>/sandbox.db)"
    )
    parser.add_argument(
        "--bot-command",
        default=None,
        help="comando que roda o bot (padrão: truco bot)",
    )
    parser.add_argument("--no-bot", action="store_true", help="só o servidor e a página")


def build_parser() -> argparse.ArgumentParser:
    """A stand-alone parser for ``python -m bot.sandbox``."""
    parser = argparse.ArgumentParser(
        prog="truco sandbox", description="Joga com o bot de verdade num Telegram de mentira."
    )
    add_arguments(parser)
    return parser


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now (the bot's own HTTP port; the bench's and the
    tests' servers)."""
    with socket.socket() as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port


def default_bot_command() -> list[str]:
    """``truco bot`` from this virtualenv (or from PATH)."""
    local = Path(sys.executable).with_name("truco")
    return [str(local) if local.exists() else "truco", "bot"]


def load_state(server: FakeTelegram, path: Path) -> None:
    """Restore the chats of a previous run, refusing (not overwriting) a damaged file."""
    if not path.exists():
        return
    try:
        server.restore(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SandboxError(
            f"não consegui ler {path} ({exc.__class__.__name__}); apague ou mova o arquivo"
        ) from None


def save_state(server: FakeTelegram, path: Path) -> None:
    """Write the chats atomically (a crash mid-write keeps the previous file)."""
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(server.snapshot(), ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)


def _die_with_parent() -> None:
    """In the bot process (Linux): get SIGTERM if the sandbox itself is killed."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


async def stop_process(proc: asyncio.subprocess.Process) -> int:
    """Ask the bot to stop like Ctrl-C would, then insist."""
    if proc.returncode is not None:
        return proc.returncode
    for sig, grace in ((signal.SIGINT, STOP_GRACE), (signal.SIGTERM, 3.0), (signal.SIGKILL, 3.0)):
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(sig)
        try:
            return await asyncio.wait_for(proc.wait(), grace)
        except TimeoutError:
            continue
    return await proc.wait()


async def serve(args: argparse.Namespace, ready: asyncio.Event | None = None) -> int:
    """Run until Ctrl-C (or SIGTERM, or the bot process ending); returns the exit status."""
    with stop_signals() as stop:
        return await _serve(args, stop, ready)


async def _serve(args: argparse.Namespace, stop: asyncio.Event, ready: asyncio.Event | None) -> int:
    data = Path(args.data)
    data.mkdir(parents=True, exist_ok=True)
    state_path = data / STATE_FILE
    server = FakeTelegram(token=SANDBOX_TOKEN, bot_username=BOT_USERNAME, bot_name=BOT_NAME)
    load_state(server, state_path)
    populate(server)
    dirty = asyncio.Event()
    server.listeners.append(lambda event: dirty.set())

    try:
        await server.start(args.host, args.api_port)
    except OSError as exc:
        raise SandboxError(f"não consegui abrir a porta {args.api_port}: {exc.strerror}") from None
    bot_port = free_port(args.host)
    webapp = (f"http://{args.host}:{bot_port}/app/", WEBAPP_NAME)
    web = SandboxWeb(server, webapp=None if args.no_bot else webapp)
    try:
        await web.start(args.host, args.port)
    except OSError as exc:
        await server.stop()
        raise SandboxError(
            f"não consegui abrir a porta {args.port} ({exc.strerror}); tente --port 8081"
        ) from None

    proc: asyncio.subprocess.Process | None = None
    status = 0
    try:
        if not args.no_bot:
            command = shlex.split(args.bot_command) if args.bot_command else default_bot_command()
            env = {
                **os.environ,
                "TELEGRAM_BOT_TOKEN": SANDBOX_TOKEN,
                "TELEGRAM_API_URL": server.api_url,
                "DATABASE_URL": args.database_url or f"sqlite:///{data}/sandbox.db",
                # the Mini App, served by the bot itself beside /healthz and /metrics
                "TRUCO_LISTEN": f"{args.host}:{bot_port}",
                "TELEGRAM_WEBAPP_URL": webapp[0],
                "TELEGRAM_WEBAPP_NAME": webapp[1],
            }
            try:
                # Own session: Ctrl-C reaches only us, and we stop the bot in order.
                proc = await asyncio.create_subprocess_exec(
                    *command,
                    env=env,
                    start_new_session=True,
                    preexec_fn=_die_with_parent if sys.platform == "linux" else None,
                )
            except OSError as exc:
                raise SandboxError(f"não consegui rodar {command[0]}: {exc.strerror}") from None
        print(f"Sandbox do Truco em {web.url}  (Ctrl-C para sair)", flush=True)
        if ready is not None:
            ready.set()
        waiters: list[asyncio.Future[Any]] = [asyncio.ensure_future(stop.wait())]
        if proc is not None:
            waiters.append(asyncio.ensure_future(proc.wait()))
        while not stop.is_set() and (proc is None or proc.returncode is None):
            await asyncio.wait(waiters, timeout=SAVE_EVERY)
            if dirty.is_set():
                dirty.clear()
                save_state(server, state_path)
        for w in waiters:
            w.cancel()
        if proc is not None and proc.returncode is not None and not stop.is_set():
            print(f"truco sandbox: o bot parou (código {proc.returncode})", file=sys.stderr)
            status = 1
    finally:
        if proc is not None:
            await stop_process(proc)
        await web.stop()
        await server.stop()
        save_state(server, state_path)
    print("Sandbox encerrada.", flush=True)
    return status


def cmd_sandbox(args: argparse.Namespace) -> int:
    """Handler for the ``truco sandbox`` subcommand."""
    try:
        return asyncio.run(serve(args))
    except SandboxError as exc:
        print(f"truco sandbox: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def add_sandbox_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``sandbox`` on a ``truco`` parser (see ``engine.tools.cli.add_engine_commands``)."""
    p = sub.add_parser("sandbox", help="joga com o bot num Telegram de mentira no navegador")
    add_arguments(p)
    p.set_defaults(handler=cmd_sandbox)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: ``python -m bot.sandbox [options]``."""
    return cmd_sandbox(build_parser().parse_args(argv))
