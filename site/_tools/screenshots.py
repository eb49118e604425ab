"""The pictures of "Como jogar no Telegram", taken from the sandbox: ``make screenshots``.

Starts the local sandbox (the real bot against the fake Telegram, ``python -m bot.sandbox``)
on a free port with a fresh data folder, plays the start of a 2×2 table as Ana in chromium
(three robots fill the table) and saves, in ``site/assets/telegram/``:

- ``mesa-aberta.png``     the lobby after ``/truco paulista 2x2``;
- ``mao-no-privado.png``  Ana's hand in her private chat, when it is her turn;
- ``mesa-no-grupo.png``   the table message in the group once cards are on the table.

So the pictures always show what the bot says today. ``--out DIR`` writes elsewhere. The bot
writes emoji (🃏, 🤖): without an emoji font (Debian: ``fonts-noto-color-emoji``) chromium draws
empty boxes, so the command refuses to run without one.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

OUT = ROOT / "site" / "assets" / "telegram"
VIEWPORT = {"width": 1100, "height": 860}
GROUP_NAME = "Truco da firma"
PRIVATE_CHAT = ".chat-item:has(.bot-tag)"


def _emoji_font() -> bool:
    """Whether fontconfig knows a colour emoji font (chromium draws boxes without one)."""
    try:
        fonts = subprocess.run(["fc-list"], capture_output=True, text=True, check=False).stdout
    except OSError:
        return True  # no fontconfig to ask: let chromium try
    return "emoji" in fonts.lower()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running_sandbox(data: Path) -> Iterator[str]:
    """The sandbox on a free port with its data in ``data``; yields its address."""
    data.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log_path = data / "sandbox.log"
    with log_path.open("w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "bot.sandbox", "--port", str(port), "--data", str(data)],
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            # a fixed deal, and robots slow enough for the cards to be seen on the table
            env={
                **os.environ,
                "PYTHONUNBUFFERED": "1",
                "TRUCO_SEED": "12",
                "TRUCO_ROBOT_DELAY": "2",
            },
        )
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    with urllib.request.urlopen(url + "/api/state", timeout=1):
                        break
                except OSError:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError(
                            f"a sandbox não subiu:\n{log_path.read_text()}"
                        ) from None
                    time.sleep(0.2)
            yield url
        finally:
            proc.terminate()
            proc.wait(timeout=30)


def _open_private(page: Any) -> None:
    """Ana's private chat with the bot, started (INICIAR) if it never was."""
    from playwright.sync_api import expect

    page.click(PRIVATE_CHAT)
    expect(page.locator("#chat-title")).to_have_text("Truco")
    if page.locator("#start-btn").is_visible():
        page.click("#start-btn")
    expect(page.locator(".msg.from-bot").first).to_be_visible(timeout=15_000)


def _no_alert(page: Any) -> None:
    """Stop with the bot's words when a press was refused (an alert), not 30 s later."""
    alert = page.locator("#alert")
    if alert.is_visible():
        raise AssertionError(f"the bot refused a press: {page.inner_text('#alert-text')!r}")


def _press(page: Any, button: Any) -> None:
    """Press a button and wait for the bot's answer to it (the page's spinner goes away):
    the lobby's text can change before the answer comes, and the next press must not
    race it."""
    from playwright.sync_api import expect

    button.click()
    expect(page.locator(".kb-btn.loading")).to_have_count(0, timeout=20_000)
    _no_alert(page)


def take(out: Path, url: str, browser: Any) -> list[Path]:
    """Play the start of a table in the sandbox at ``url`` and save the three pictures."""
    from playwright.sync_api import expect

    page = browser.new_page(viewport=VIEWPORT)
    page.goto(url + "/?as=Ana")
    expect(page.locator("#menu-btn")).to_be_visible(timeout=30_000)  # the bot is up
    _open_private(page)  # the bot sends hands only to those who started it
    page.locator(".chat-item", has_text=GROUP_NAME).click()

    page.fill("#text", "/truco paulista 2x2")
    page.press("#text", "Enter")
    lobby = page.locator(".msg.from-bot", has_text="Mesa de Truco paulista").last
    expect(lobby).to_be_visible(timeout=20_000)
    saved = [out / "mesa-aberta.png"]
    page.screenshot(path=str(saved[-1]))

    for _ in range(3):
        before = lobby.inner_text()
        _press(page, lobby.get_by_role("button", name="+ Robô médio"))
        expect(lobby).not_to_have_text(before, timeout=10_000)
    _press(page, lobby.get_by_role("button", name="Começar"))
    expect(page.locator(".msg.from-bot", has_text="Mão 1").last).to_be_visible(timeout=20_000)

    # Ana's turn: her hand in private shows only the moves she may make
    _open_private(page)
    hand = page.locator(".msg.from-bot", has_text="Sua mão").filter(has=page.locator(".kb-btn"))
    expect(hand.last).to_be_visible(timeout=60_000)
    saved.append(out / "mao-no-privado.png")
    page.screenshot(path=str(saved[-1]))

    _press(page, hand.last.locator(".kb-btn").first)
    page.locator(".chat-item", has_text=GROUP_NAME).click()
    table = page.locator(".msg.from-bot", has_text="Na mesa").last
    expect(table).to_be_visible(timeout=20_000)
    saved.append(out / "mesa-no-grupo.png")
    page.screenshot(path=str(saved[-1]))
    page.close()
    return saved


def main(argv: list[str] | None = None) -> int:
    """``make screenshots``: refresh the pictures of the Telegram guide."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="pasta das imagens")
    args = parser.parse_args(argv)
    if not _emoji_font():
        print("sem fonte de emoji: instale fonts-noto-color-emoji", file=sys.stderr)
        return 1
    from tests.browsers import find, launch

    found = find()
    if found.missing:
        print(found.missing, file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as data, running_sandbox(Path(data)) as url:
        browsers = launch(found)
        browser = next(browsers)
        try:
            for path in take(args.out, url, browser):
                print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
        finally:
            browsers.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
