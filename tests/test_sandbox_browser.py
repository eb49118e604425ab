"""The sandbox in a real browser (headless Debian chromium driven by Playwright).

The first test drives the page against the scripted echo bot; the second plays a hand of the
real bot (``truco bot``) by clicking, as issue 6 asks. Screenshots go to ``artifacts/``.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts"
ECHO = f"{sys.executable} {ROOT / 'tests' / 'test_sandbox_echobot.py'}"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not os.access(CHROMIUM, os.X_OK),
        reason=f"{CHROMIUM} is not installed (apt-get install -y chromium)",
    ),
]


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Sandbox:
    """``python -m bot.sandbox`` running in the background on a free port."""

    def __init__(self, data: Path, bot_command: str | None, env: dict[str, str] | None = None):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        command = [sys.executable, "-m", "bot.sandbox", "--port", str(self.port)]
        command += ["--data", str(data)]
        if bot_command:
            command += ["--bot-command", bot_command]
        self.log = data / "sandbox.log"
        self.proc = subprocess.Popen(
            command,
            cwd=ROOT,
            stdout=self.log.open("w"),
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/api/state", timeout=1):
                    return
            except OSError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"sandbox did not start:\n{self.log.read_text()}")

    def stop(self) -> int:
        """Ctrl-C, as a person would; returns the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        return self.proc.wait(timeout=30)


@pytest.fixture
def browser() -> Iterator[object]:
    """Headless chromium."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def shot(page: object, name: str) -> None:
    """Save a screenshot artifact."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name))  # type: ignore[attr-defined]


def test_echo_bot_in_the_browser(tmp_path, browser):
    from playwright.sync_api import expect

    sandbox = Sandbox(tmp_path, ECHO)
    try:
        errors: list[str] = []
        ana = browser.new_page(viewport={"width": 1100, "height": 760})
        ana.on("pageerror", lambda e: errors.append(str(e)))
        ana.goto(sandbox.url + "/?as=Ana")
        expect(ana.locator("#chat-title")).to_have_text("Truco da firma")

        # Beto watches the same group in another tab (phone-sized).
        beto = browser.new_page(viewport={"width": 390, "height": 800})
        beto.goto(sandbox.url + f"/?as=Beto&chat={-1_001_000_000_001}")
        expect(beto.locator("#chat-title")).to_have_text("Truco da firma")

        # The bot's command menu, then a command.
        ana.click("#menu-btn")
        expect(ana.locator(".command")).to_have_text(["/mesaAbrir a mesa de teste"])
        ana.click(".command")
        table = ana.locator(".msg.from-bot").last
        expect(table.locator(".text b")).to_have_text("Mesa")
        expect(beto.locator(".msg.from-bot .text").last).to_have_text("Mesa de teste: 0 pontos")

        # A callback button: toast from the answer, the message edited in place for everyone.
        table.get_by_role("button", name="Somar").click()
        expect(ana.locator("#toast")).to_have_text("Agora 1")
        expect(table.locator(".edited")).to_have_text("editado")
        expect(beto.locator(".msg.from-bot .text").last).to_have_text("Mesa de teste: 1 pontos")
        table.get_by_role("button", name="Alerta").click()
        expect(ana.locator("#alert-text")).to_have_text("Isto é um alerta")
        shot(ana, "sandbox-echo-alert.png")
        ana.click("#alert-ok")
        expect(ana.locator("#alert")).to_be_hidden()

        # Inline mode from a switch_inline_query_current_chat button, then by typing.
        table.get_by_role("button", name="🃏 Minha mão").click()
        expect(ana.locator(".inline-result .r-title")).to_have_text(["Jogar 4♣", "Jogar 7♥"])
        shot(ana, "sandbox-echo-inline.png")
        ana.locator(".inline-result").first.click()
        expect(beto.locator(".msg .via").last).to_have_text("via @TrucoBot")
        expect(beto.locator(".msg .text").last).to_have_text("Ana joga 4♣")
        ana.fill("#text", "@TrucoBot ")
        ana.locator("#text").dispatch_event("input")
        expect(ana.locator(".inline-result")).to_have_count(2)
        ana.fill("#text", "")
        ana.locator("#text").dispatch_event("input")
        expect(ana.locator("#inline-panel")).to_be_hidden()

        # Beto's private chat starts with INICIAR, like Telegram.
        beto.click("#back")
        beto.locator(".chat-item", has_text="bot").click()
        beto.click("#start-btn")
        expect(beto.locator(".msg .text").last).to_have_text("Olá! payload=-")
        beto.fill("#text", "oi")
        beto.press("#text", "Enter")
        expect(beto.locator(".msg .text").last).to_have_text("eco: oi")
        shot(beto, "sandbox-echo-phone.png")

        # A t.me deep link to the bot opens the private chat with /start payload.
        ana.locator(".chat-item", has_text="Truco da firma").click()
        ana.locator(".msg.from-bot").first.get_by_role("button", name="Abrir o privado").click()
        expect(ana.locator("#chat-title")).to_have_text("Truco")
        expect(ana.locator(".msg .text").last).to_have_text("Olá! payload=mesa")

        # One click switches identity.
        ana.get_by_role("button", name="Caio", exact=True).click()
        expect(ana.locator("#chat-title")).to_have_text("Truco")
        expect(ana.locator("#start-btn")).to_be_visible()
        assert errors == []
    finally:
        assert sandbox.stop() == 0
