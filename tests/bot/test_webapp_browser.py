"""The Mini App in a real browser (headless chromium via Playwright), against the real bot
and the fake Telegram over real HTTP: the pages are opened exactly as Telegram opens them,
with launch data signed by the fake for each person in the URL fragment."""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bot.ops.metrics import Metrics
from bot.ops.webserver import BotServer
from bot.sandbox.fakeapi import FakeTelegram
from bot.sandbox.runner import free_port
from bot.telegram.context import runtime_of
from tests.bot.harness import (
    TOKEN,
    FakeClock,
    Harness,
    database_url,
    paulista_hand,
    seat_match,
    strip_tags,
)
from tests.browsers import shot

pytestmark = pytest.mark.browser
T = TypeVar("T")
GROUP = -100_888
ANA_CARDS = ("3C", "KH", "5D")
BETO_CARDS = ("2S", "QD", "7C")


class World:
    """The fake Telegram, the bot and its HTTP port, on an event loop of their own (the
    test's thread drives Playwright's synchronous API)."""

    def __init__(self, tmp_path: Path) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        port = free_port()
        self.base = f"http://127.0.0.1:{port}/app/"
        self.server = FakeTelegram(token=TOKEN, bot_username="TrucoBot")
        self.run(self.server.start(host="127.0.0.1", port=0))
        env = {"TELEGRAM_WEBAPP_URL": self.base, "TELEGRAM_WEBAPP_NAME": "mesa"}
        self.h = Harness(self.server, database_url(tmp_path), FakeClock(), **env)
        self.run(self.h.start())
        self.front = BotServer(self.h.app, runtime_of(self.h.app).db, Metrics())
        self.run(self.front.start("127.0.0.1", port))

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 60) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def stop(self) -> None:
        self.run(self.front.stop())
        self.run(self.h.stop())
        self.run(self.server.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)

    def people(self) -> tuple[int, int, int]:
        s = self.server
        ana, beto, caio = s.add_user("Ana"), s.add_user("Beto"), s.add_user("Caio", "en")
        s.add_group("Truco", admins=[ana], members=[ana, beto, caio], chat_id=GROUP)
        return ana, beto, caio

    def table(self, people: list[int]) -> int:
        return self.run(seat_match(self.h, GROUP, people, paulista_hand()))

    def launch(self, user: int, game: int, **kw: Any) -> str:
        return self.server.web_app_launch(user, self.base, f"g{game}", **kw)


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    w = World(tmp_path)
    try:
        yield w
    finally:
        w.stop()


def open_app(browser: Any, url: str, responses: list[str] | None = None) -> Any:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    if responses is not None:

        def keep(r: Any) -> None:
            if "/api/" in r.url and "/api/events" not in r.url:
                responses.append(r.text())

        page.on("response", keep)
    page.goto(url)
    return page


def hand_codes(page: Any) -> list[str]:
    return page.locator("#hand button[data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )


def streamed(page: Any) -> str:
    """Everything the page's live stream delivered so far (kept by the test's hook)."""
    return str(page.evaluate("window.__streamed.join('\\n')"))


STREAM_TAP = """
(() => {
  window.__streamed = [];
  const orig = window.fetch;
  window.fetch = async (...args) => {
    const res = await orig(...args);
    if (String(args[0]).includes("api/events") && res.body) {
      const [a, b] = res.body.tee();
      const reader = b.getReader();
      const dec = new TextDecoder();
      (async () => { for (;;) { const c = await reader.read(); if (c.done) break;
        window.__streamed.push(dec.decode(c.value)); } })();
      return new Response(a, { status: res.status, headers: res.headers });
    }
    return res;
  };
})();
"""


def test_each_sees_own_cards_and_a_tap_reaches_the_other_page(world: World, browser: Any) -> None:
    from playwright.sync_api import expect

    ana, beto, caio = world.people()
    gid = world.table([ana, beto])
    ana_seen: list[str] = []
    beto_seen: list[str] = []
    context = browser.new_context(viewport={"width": 390, "height": 800})
    context.add_init_script(STREAM_TAP)
    pa = open_app(context, world.launch(ana, gid), ana_seen)
    pb = open_app(context, world.launch(beto, gid), beto_seen)
    expect(pa.locator("#hand button[data-card]")).to_have_count(3)
    expect(pb.locator("#hand button[data-card]")).to_have_count(3)
    assert hand_codes(pa) == list(ANA_CARDS)
    assert hand_codes(pb) == list(BETO_CARDS)
    expect(pa.locator('#hand button[data-card="3C"]')).to_have_accessible_name("três de paus")
    expect(pa.locator("#status")).to_contain_text("Sua vez")
    expect(pb.locator("#status")).to_contain_text("Vez de Ana")
    # the turn's countdown in the words the group's table uses for it
    expect(pa.locator("#clock")).to_have_text(re.compile(r"^⏱ [0-9]+ s$"))
    expect(pa.locator("#info .carta--manilha").first).to_be_visible()
    shot(pa, "webapp-ana.png")

    # her tap reaches Beto's page live (how fast is measured by `truco bot-bench --clients
    # miniapp`, "toque → outras páginas", not asserted here: a loaded machine took 1.2 s)
    pa.locator('#hand button[data-card="3C"]').click()
    expect(pb.locator('.played[data-seat="0"] [data-card="3C"]')).to_be_visible(timeout=10_000)
    expect(pa.locator("#hand button[data-card]")).to_have_count(2)
    expect(pb.locator("#status")).to_contain_text("Sua vez")

    # no page ever held the other's cards (but the one played): not in the DOM, not in a
    # response, not in its live stream
    for page, seen, others in ((pa, ana_seen, BETO_CARDS), (pb, beto_seen, ANA_CARDS[1:])):
        html = page.content()
        everything = "\n".join(seen) + streamed(page)
        assert streamed(page)
        for code in others:
            assert f'data-card="{code}"' not in html
            assert f'"{code}"' not in everything, code
    # Ana's private hand message points to the app while it is open
    world.run(
        world.h.wait(lambda: any("no app" in m.get("text", "") for m in world.h.bot_messages(ana)))
    )

    # a stranger gets the public table only; a forged launch gets 401 and nothing else
    pc = open_app(context, world.launch(caio, gid))
    expect(pc.locator("#status")).to_contain_text("public table")
    expect(pc.locator('.played[data-seat="0"] [data-card="3C"]')).to_be_visible()
    assert pc.locator("#hand button").count() == 0
    for code in ANA_CARDS[1:] + BETO_CARDS:
        assert f'data-card="{code}"' not in pc.content()
    forged = world.launch(ana, gid).replace("Ana", "Bia")
    pf = open_app(context, forged)
    expect(pf.locator("body")).to_have_attribute("data-refused", "401")
    expect(pf.locator("#conn")).to_contain_text("Abra a mesa de novo")
    old = world.launch(ana, gid, auth_date=runtime_of(world.h.app).rules.clock() - 7200)
    po = open_app(context, old)
    expect(po.locator("body")).to_have_attribute("data-refused", "401")
    for page in (pa, pb, pc, pf, po):
        assert page.errors == []
    context.close()


def test_truco_raise_and_run_from_the_app(world: World, browser: Any) -> None:
    from playwright.sync_api import expect

    ana, beto, _ = world.people()
    gid = world.table([ana, beto])
    context = browser.new_context(viewport={"width": 390, "height": 800})
    pa = open_app(context, world.launch(ana, gid))
    pb = open_app(context, world.launch(beto, gid))
    expect(pa.locator('button.act[data-act="truco"]')).to_be_visible()
    pa.locator('button.act[data-act="truco"]').click()
    # Beto answers: Desce, Corro or Seis, exactly what the engine allows him now
    expect(pb.locator("button.act")).to_have_count(3)
    assert sorted(pb.locator("button.act").evaluate_all("e => e.map(x => x.dataset.act)")) == [
        "accept",
        "raise",
        "run",
    ]
    assert pb.locator("#hand button[data-card]:enabled").count() == 0
    assert pa.locator("button.act").count() == 0
    shot(pb, "webapp-beto-answers.png")
    version = int(pb.locator("body").get_attribute("data-version"))
    pb.locator('button.act[data-act="raise"]').click()
    expect(pa.locator('button.act[data-act="run"]')).to_be_visible()
    expect(pa.locator("#worth")).to_contain_text("6")
    pa.locator('button.act[data-act="run"]').click()
    # Ana ran from seis: Beto's team scores the truco, hand 2 is dealt on both pages
    expect(pb.locator("#closing")).to_be_visible()
    # the score in the teams' order, as the group's messages say it, on both pages
    for page in (pa, pb):
        expect(page.locator("#score")).to_have_text("Ana0 × 3Beto")
    shot(pb, "webapp-closing.png")

    # a tap made for a version that has passed changes nothing and says so
    answer = pb.evaluate(
        """async ([v, gid]) => {
          const init = new URLSearchParams(location.hash.slice(1)).get("tgWebAppData");
          const r = await fetch("api/move", {method: "POST",
            headers: {Authorization: "tma " + init, "Content-Type": "application/json"},
            body: JSON.stringify({table: "g" + gid, version: v, action: "accept"})});
          return [r.status, (await r.json()).error];
        }""",
        [version, gid],
    )
    assert answer == [409, "Essa jogada já passou."]

    # the group heard the calls as it hears them from the buttons
    said = world.run(
        world.h.wait(
            lambda: (
                [
                    strip_tags(m.get("text", ""))
                    for m in world.h.bot_messages(GROUP)
                    if "Truco" in m.get("text", "") or "Seis" in m.get("text", "")
                ]
                or None
            )
        )
    )
    assert said
    assert pa.errors == [] and pb.errors == []
    context.close()


def test_the_sandbox_opens_the_app_over_the_chat(tmp_path: Path, browser: Any) -> None:
    """``truco sandbox``: 🃏 Abrir a mesa on a table against robots opens the Mini App on a
    phone-sized panel, signed by the fake Telegram for the person using the page."""
    from playwright.sync_api import expect

    from tests.bot.test_sandbox_browser import PRIVATE_CHAT, Sandbox

    sandbox = Sandbox(tmp_path, None, env={"TRUCO_ROBOT_DELAY": "0.2"})
    try:
        page = browser.new_page(viewport={"width": 1100, "height": 860})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(sandbox.url + "/?as=Ana")
        expect(page.locator("#menu-btn")).to_be_visible(timeout=20_000)
        page.click(PRIVATE_CHAT)
        if page.locator("#start-btn").is_visible():
            page.click("#start-btn")
        page.fill("#text", "/truco")
        page.press("#text", "Enter")
        opener = page.locator(".kb-btn", has_text="Abrir a mesa").last
        expect(opener).to_be_visible(timeout=20_000)
        opener.click()
        panel = page.locator("#webapp")
        expect(panel).to_be_visible()
        box = panel.bounding_box()
        assert box is not None and box["width"] <= 390 and box["height"] <= 760
        app = page.frame_locator("#webapp-frame")
        cards = app.locator("#hand button[data-card]")
        expect(cards).to_have_count(3, timeout=20_000)
        expect(app.locator("#status")).to_contain_text("Sua vez", timeout=20_000)
        accept = app.locator('button.act[data-act="accept"]')
        if accept.count():  # the robot called truco before Ana's first card: Desce!
            accept.click()
        playable = app.locator("#hand button[data-card]:enabled").first
        expect(playable).to_be_visible(timeout=20_000)
        first = playable.get_attribute("data-card")
        # the card by its name: a live update may redraw the hand between reading and tapping
        app.locator(f'#hand button[data-card="{first}"]').click()
        expect(app.locator(f'.played [data-card="{first}"]').first).to_be_visible(timeout=20_000)
        shot(page, "webapp-sandbox.png")
        # Telegram's MainButton as its web version draws it: the app posts to its parent,
        # the sandbox shows the button under the app and sends the press back
        frame = page.query_selector("#webapp-frame").content_frame()
        assert page.locator("#webapp-main").is_hidden()  # mid-match: nothing to offer
        # what the app hears is written on its <body>, for a wait that needs no script of
        # the test's in the page (a polled string of script is refused by the app's CSP)
        frame.evaluate(
            """() => { const got = [];
                 addEventListener("message", e => {
                   got.push(JSON.parse(e.data).eventType);
                   document.body.dataset.got = got.join(" ");
                 });
                 parent.postMessage(JSON.stringify({eventType: "web_app_setup_main_button",
                   eventData: {is_visible: true, text: "🔁 Revanche"}}), "*"); }"""
        )
        expect(page.locator("#webapp-main")).to_have_text("🔁 Revanche")
        page.click("#webapp-main")
        pressed = re.compile(r"\bmain_button_pressed\b")
        expect(app.locator("body")).to_have_attribute("data-got", pressed, timeout=20_000)
        page.click("#webapp-close")
        expect(panel).to_be_hidden()
        assert errors == []
    finally:
        assert sandbox.stop() == 0
