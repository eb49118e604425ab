"""The sandbox page's API and the ``truco sandbox`` runner, against the scripted echo bot."""

from __future__ import annotations

import asyncio
import json
import os
import random
import shlex
import signal
import socket
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from bot.sandbox.fakeapi import FakeTelegram
from bot.sandbox.runner import free_port
from bot.sandbox.web import GROUP_ID, PEOPLE, SandboxWeb, populate
from tests import ROOT
from tests.bot.echobot import build

ECHO = f"{sys.executable} {ROOT / 'tests' / 'bot' / 'echobot.py'}"


@pytest.fixture
async def sandbox():
    """Fake server + page + echo bot polling in-process; yields (server, page url, http)."""
    server = FakeTelegram(token="123456:TEST")
    populate(server)
    await server.start()
    web = SandboxWeb(server, press_timeout=3)
    url = await web.start(port=0)
    app = build(server.token, server.api_url)
    async with app, aiohttp.ClientSession(base_url=url) as http:
        await app.post_init(app)
        await app.updater.start_polling(poll_interval=0, timeout=1)
        await app.start()
        yield server, url, http
        await app.updater.stop()
        await app.stop()
    await web.stop()
    await server.stop()


async def post(http: aiohttp.ClientSession, path: str, **body) -> tuple[int, dict]:
    """POST JSON to the page API."""
    async with http.post(path, json=body) as resp:
        return resp.status, await resp.json()


async def test_populate_is_stable_and_idempotent():
    server = FakeTelegram()
    gid = populate(server)
    populate(server)
    assert gid == GROUP_ID
    assert [u["first_name"] for u in server.users.values()] == list(PEOPLE)
    assert server.members[gid] == set(server.users)
    assert server.admins[gid] == [min(server.users)]


async def test_state_is_per_person(sandbox):
    _server, _, http = sandbox
    async with http.get("/api/state", params={"as": "beto"}) as resp:
        state = await resp.json()
    assert state["me"]["first_name"] == "Beto"
    assert [c["type"] for c in state["chats"]] == ["supergroup", "private"]
    assert state["chats"][1]["id"] == state["me"]["id"] and not state["chats"][1]["started"]
    assert state["commands"][str(GROUP_ID)] == [
        {"command": "mesa", "description": "Abrir a mesa de teste"}
    ]
    async with http.get("/api/state", params={"as": "Zeca"}) as resp:
        assert resp.status == 400


async def test_page_plays_through_the_fake_server(sandbox):
    server, _, http = sandbox
    ana = server.users[min(server.users)]["id"]
    status, sent = await post(http, "/api/send", chat=GROUP_ID, text="/mesa", **{"as": "Ana"})
    assert status == 200 and sent["from"]["id"] == ana
    table = await server.wait_for(
        lambda: [m for m in server.messages(GROUP_ID) if m["from"]["is_bot"]]
    )
    mid = table[0]["message_id"]
    status, answer = await post(
        http, "/api/press", chat=GROUP_ID, message_id=mid, data="add:0", **{"as": "Beto"}
    )
    assert answer == {"text": "Agora 1", "show_alert": False, "url": None}
    status, answer = await post(
        http, "/api/press", chat=GROUP_ID, message_id=mid, data="alert", **{"as": "Beto"}
    )
    assert answer["show_alert"] is True
    status, inline = await post(http, "/api/inline", chat=GROUP_ID, query="", **{"as": "Caio"})
    assert [r["title"] for r in inline["results"]] == ["Jogar 4♣", "Jogar 7♥"]
    status, posted = await post(
        http, "/api/choose", chat=GROUP_ID, result_id="card:4♣", **{"as": "Caio"}
    )
    assert posted["text"] == "Caio joga 4♣" and posted["via_bot"]["username"] == "TrucoBot"
    assert posted["inline_message_id"]
    # Pressing a button on the inline message goes through inline_message_id.
    status, answer = await post(
        http,
        "/api/press",
        inline_message_id=posted["inline_message_id"],
        data="add:0",
        **{"as": "Caio"},
    )
    assert answer["text"] == "Agora 1"


async def test_private_chat_start_and_deep_link(sandbox):
    server, _, http = sandbox
    duda = next(uid for uid, u in server.users.items() if u["first_name"] == "Duda")
    status, _ = await post(http, "/api/send", chat=duda, text="/start mesa", **{"as": "Duda"})
    assert status == 200
    reply = await server.wait_for(lambda: server.messages(duda)[1:])
    assert reply[0]["text"] == "Olá! payload=mesa"
    async with http.get("/api/state", params={"as": "Duda"}) as resp:
        state = await resp.json()
    assert state["chats"][1]["started"] is True
    assert [m["text"] for m in state["messages"][str(duda)]] == ["/start mesa", reply[0]["text"]]


async def test_bad_input_is_refused_with_a_message(sandbox):
    server, _, http = sandbox
    ana, _beto = sorted(server.users)[:2]
    cases = [
        {"as": "Beto", "chat": ana, "text": "oi"},  # someone else's private chat
        {"as": "Beto", "chat": GROUP_ID, "text": "   "},
        {"as": "Ninguém", "chat": GROUP_ID, "text": "oi"},
        {"as": "Beto", "chat": "abc", "text": "oi"},
    ]
    for body in cases:
        status, data = await post(http, "/api/send", **body)
        assert status == 400 and data["error"], body
    status, data = await post(
        http, "/api/press", chat=GROUP_ID, message_id=999, data="x", **{"as": "Beto"}
    )
    assert status == 400 and "999" in data["error"]
    async with http.post("/api/send", data=b"not json") as resp:
        assert resp.status == 400


async def test_events_stream_reports_new_and_edited_messages(sandbox):
    server, _, http = sandbox
    events: list[dict] = []

    async def listen() -> None:
        async with http.get("/api/events") as resp:
            assert resp.headers["Content-Type"].startswith("text/event-stream")
            async for line in resp.content:
                if line.startswith(b"data: "):
                    events.append(json.loads(line[6:]))

    task = asyncio.create_task(listen())
    await asyncio.sleep(0.2)
    await post(http, "/api/send", chat=GROUP_ID, text="/mesa", **{"as": "Ana"})
    table = await server.wait_for(
        lambda: [e for e in events if e["type"] == "message" and e["message"]["from"]["is_bot"]]
    )
    mid = table[0]["message"]["message_id"]
    await post(http, "/api/press", chat=GROUP_ID, message_id=mid, data="add:0", **{"as": "Ana"})
    edit = await server.wait_for(lambda: [e for e in events if e["type"] == "edit"])
    assert edit[0]["message"]["text"] == "Mesa de teste: 1 pontos"
    assert edit[0]["message"]["edit_date"]
    assert any(e["type"] == "callback_answer" for e in events)
    task.cancel()


async def test_static_page_is_served_without_cdn(sandbox):
    _, _, http = sandbox
    async with http.get("/") as resp:
        html = await resp.text()
    assert resp.status == 200 and "/static/app.js" in html
    assert "http" not in html.replace('href="data:,"', "")
    for name in ("app.js", "style.css"):
        async with http.get(f"/static/{name}") as resp:
            body = await resp.text()
        assert resp.status == 200 and "cdn" not in body.lower()


# ---------------------------------------------------------------------- the runner


def start_runner(data: Path, port: int, *extra: str) -> subprocess.Popen[str]:
    """``python -m bot.sandbox`` with the echo bot."""
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bot.sandbox",
            "--port",
            str(port),
            "--data",
            str(data),
            "--bot-command",
            # the data folder marks this sandbox's own bot (other tests run echo bots too)
            shlex.join([*shlex.split(ECHO), str(data)]),
            *extra,
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


ROOMY = 120.0
"""A bound for waits on another process, roomy enough for a loaded machine: a wait ends
when its event comes, so this only stops a test that would otherwise hang."""


async def wait_page(
    url: str, timeout: float = ROOMY, proc: subprocess.Popen[str] | None = None
) -> None:
    """Wait until the page answers (a process starting on a loaded machine is slow); with
    ``proc``, fail at once with what it said if it exits instead."""
    async with aiohttp.ClientSession() as http, asyncio.timeout(timeout):
        while True:
            if proc is not None and proc.poll() is not None:
                out, err = proc.communicate()
                raise AssertionError(f"the sandbox exited ({proc.returncode}):\n{out}\n{err}")
            try:
                async with http.get(url + "/api/state") as resp:
                    if resp.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.1)


async def test_runner_serves_stops_cleanly_and_keeps_chats(tmp_path):
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = start_runner(tmp_path, port)
    try:
        await wait_page(url)
        async with aiohttp.ClientSession(base_url=url) as http:
            ana = (await (await http.get("/api/state")).json())["me"]["id"]
            await post(http, "/api/send", chat=ana, text="/start", **{"as": "Ana"})
            async with asyncio.timeout(ROOMY):  # the echo bot answers once it polls
                while True:
                    state = await (await http.get("/api/state")).json()
                    if len(state["messages"][str(ana)]) == 2:
                        break
                    await asyncio.sleep(0.1)
            assert state["messages"][str(ana)][1]["text"] == "Olá! payload=-"
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert f"Sandbox do Truco em {url}" in out and "Sandbox encerrada." in out
    assert (tmp_path / "sandbox-telegram.json").exists()
    # The bot process went away with the sandbox.
    own = shlex.join([*shlex.split(ECHO), str(tmp_path)])
    assert subprocess.run(["pgrep", "-f", own], capture_output=True).returncode == 1

    # A second run shows the same conversation.
    proc = start_runner(tmp_path, port)
    try:
        await wait_page(url)
        async with aiohttp.ClientSession(base_url=url) as http:
            state = await (await http.get("/api/state")).json()
        assert [m["text"] for m in state["messages"][str(ana)]] == ["/start", "Olá! payload=-"]
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=30)
    assert proc.returncode == 0


def test_runner_busy_port_is_one_line_error(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        proc = start_runner(tmp_path, port, "--no-bot")
        _out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2
    assert err.strip().count("\n") == 0 and "--port" in err and "Traceback" not in err


def test_runner_refuses_a_damaged_state_file(tmp_path):
    state = tmp_path / "sandbox-telegram.json"
    state.write_text("{ not json", encoding="utf-8")
    proc = start_runner(tmp_path, free_port(), "--no-bot")
    _out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2 and "sandbox-telegram.json" in err
    assert state.read_text(encoding="utf-8") == "{ not json"


def _port_kept_across_runs() -> int:
    """A free port below Linux's ephemeral range (32768–60999): a port two processes use one
    after the other stays free between them only if no outgoing connection of the other
    tests running meanwhile can be given it."""
    for port in random.sample(range(20_000, 32_000), 200):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port below the ephemeral range")


async def test_real_bot_table_survives_a_sandbox_restart(tmp_path):
    """``truco sandbox`` twice: the second run's bot still serves the first run's lobby."""
    port = _port_kept_across_runs()
    url = f"http://127.0.0.1:{port}"

    def run() -> subprocess.Popen[str]:
        return subprocess.Popen(
            [sys.executable, "-m", "bot.sandbox", "--port", str(port), "--data", str(tmp_path)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1", "TRUCO_ROBOT_DELAY": "0"},
        )

    async def lobby(http: aiohttp.ClientSession) -> dict | None:
        state = await (await http.get("/api/state", params={"as": "Ana"})).json()
        bot_msgs = [m for m in state["messages"][str(GROUP_ID)] if m["from"]["is_bot"]]
        return bot_msgs[-1] if bot_msgs and bot_msgs[-1].get("reply_markup") else None

    proc = run()
    try:
        await wait_page(url, proc=proc)
        async with aiohttp.ClientSession(base_url=url) as http:
            await post(http, "/api/send", chat=GROUP_ID, text="/truco 1x1", **{"as": "Ana"})
            for _ in range(200):
                table = await lobby(http)
                if table:
                    break
                await asyncio.sleep(0.1)
            assert table, "the bot never opened the lobby"
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert (tmp_path / "sandbox.db").exists()

    proc = run()
    try:
        await wait_page(url, proc=proc)
        async with aiohttp.ClientSession(base_url=url) as http:
            join = next(
                b["callback_data"]
                for row in table["reply_markup"]["inline_keyboard"]
                for b in row
                if b["text"] == "Entrar"
            )
            status, answer = await post(
                http,
                "/api/press",
                chat=GROUP_ID,
                message_id=table["message_id"],
                data=join,
                **{"as": "Beto"},
            )
            # the page answers before the new run's bot asks for its first updates; on a
            # loaded machine that can take longer than the sandbox waits for a press's answer
            # ({"timeout": true}, the spinner stopping), and the press is then served when the
            # bot comes up, as Telegram keeps a press for a bot that is starting
            assert status == 200, answer
            now = None
            async with asyncio.timeout(ROOMY):
                while not (now and "Beto" in now["text"]):
                    await asyncio.sleep(0.1)
                    now = await lobby(http)
            assert now["message_id"] == table["message_id"] and "Beto" in now["text"]
            assert now.get("edit_date")
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err


async def test_a_person_switches_to_english_and_bot_commands_are_links(sandbox):
    server, _, http = sandbox
    duda = next(uid for uid, u in server.users.items() if u["first_name"] == "Duda")
    status, _ = await post(http, "/api/language", language="en", **{"as": "Duda"})
    assert status == 200 and server.users[duda]["language_code"] == "en"
    async with http.get("/api/state", params={"as": "Duda"}) as resp:
        state = await resp.json()
    assert {p["name"]: p["language"] for p in state["people"]}["Duda"] == "en"
    status, sent = await post(http, "/api/send", chat=duda, text="/start", **{"as": "Duda"})
    assert sent["from"]["language_code"] == "en"  # what the bot reads to pick its language
    status, _bad = await post(http, "/api/language", language="xx", **{"as": "Duda"})
    assert status == 400
    status, _ = await post(http, "/api/language", language="es", **{"as": "Duda"})
    assert status == 200 and server.users[duda]["language_code"] == "es"
    # a bot's text gets its /commands marked, as Telegram does: the page makes them links
    text = "Abra uma mesa com /truco ou veja <b>/ajuda</b>"
    body = {"chat_id": GROUP_ID, "text": text, "parse_mode": "HTML"}
    async with aiohttp.ClientSession() as api:
        url = f"{server.api_url}/bot{server.token}/sendMessage"
        async with api.post(url, json=body) as resp:
            sent = (await resp.json())["result"]
    kinds = [(e["type"], e["offset"], e["length"]) for e in sent["entities"]]
    # (a command inside an entity of the text's own keeps that entity only)
    assert kinds == [("bot_command", 18, 6), ("bold", 33, 6)]
