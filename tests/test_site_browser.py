"""The built site in a real browser: Debian's chromium driven by Playwright, served on 127.0.0.1.

Clicks through every step of the tutorial (reaching it by Material's instant navigation), checks
the deck toggle is remembered, the dark/light toggle, a rules page on a phone, that no console
error happens and that no request leaves 127.0.0.1. Screenshots go to artifacts/.
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser import launch, require_chromium
from browser import shot as save_shot

from engine.tutorial import build_trace

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.browser
require_chromium()

sync_api = pytest.importorskip("playwright.sync_api")


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # keep test output clean
        pass


@pytest.fixture(scope="module")
def base_url(tmp_path_factory) -> Iterator[str]:
    from test_site import build_site

    out = tmp_path_factory.mktemp("browser-site")
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(out))
    )
    base = f"http://127.0.0.1:{server.server_port}"
    # instant navigation follows the sitemap, whose addresses come from site_url
    result = build_site(out, TRUCO_SITE_URL=base + "/")
    assert result.returncode == 0, result.stderr
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield base
    server.shutdown()
    server.server_close()


class Watch:
    """Console errors, page errors and every request that tried to leave 127.0.0.1."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.errors: list[str] = []
        self.outside: list[str] = []

    def attach(self, context) -> None:
        def route(route) -> None:
            url = route.request.url
            if url.startswith(self.base + "/") or url.startswith("data:"):
                route.continue_()
            else:
                self.outside.append(url)
                route.abort()

        context.route("**/*", route)

    def page(self, context):
        page = context.new_page()
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        return page

    def check(self) -> None:
        assert self.errors == []
        assert self.outside == []


@pytest.fixture(scope="module")
def browser():
    yield from launch()


def shot(page, name: str) -> None:
    save_shot(page, f"site-{name}.png", full_page=True)


def step_attr(page) -> str:
    return page.get_attribute("[data-tutorial]", "data-tutorial-passo") or ""


def play_learner_step(page, action: str) -> None:
    if action.startswith("cover "):
        page.click('[data-tutorial] [data-acao="cobrir"]')
    page.click(f'[data-tutorial] [data-acao="{action}"]')


def test_tutorial_click_through_every_step(browser, base_url) -> None:
    watch = Watch(base_url)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    watch.attach(context)
    page = watch.page(context)
    page.goto(base_url + "/")
    # instant navigation: the player must start on a page swapped in by Material, not loaded
    page.evaluate("window.__sameDocument = true")
    page.click('.md-nav a[href$="tutorial/"]')
    page.wait_for_selector("[data-tutorial][data-tutorial-pronto] .tut__mao")
    assert page.evaluate("window.__sameDocument === true"), "the page was reloaded"
    assert page.url.endswith("/tutorial/")
    assert step_attr(page) == "0.0"
    trace = build_trace()

    # a wrong move is refused with a hint and does not advance
    first = trace["hands"][0]["steps"][0]
    wrong = next(a for a in trace["hands"][0]["start"]["legal"] if a != first["action"])
    play_learner_step(page, wrong)
    assert step_attr(page) == "0.0"
    assert page.is_visible("[data-tutorial] [role=alert]")
    assert page.is_visible(f'[data-tutorial] .tut--dica[data-acao="{first["action"]}"]')

    clicks = 0
    for h, hand in enumerate(trace["hands"]):
        assert hand["title"] in page.inner_text("[data-tutorial] .tut__topo")
        for f, step in enumerate(hand["steps"]):
            assert step_attr(page) == f"{h}.{f}"
            if step["prompt"]:
                assert step["prompt"] in page.inner_text("[data-tutorial-pedido]")
                play_learner_step(page, step["action"])
            else:
                page.click("[data-tutorial] [data-tutorial-seguir]")
            clicks += 1
            assert step_attr(page) == f"{h}.{f + 1}"
            text = page.inner_text("[data-tutorial] .tut__texto")
            assert step["explanation"] in text
            assert step["narration"] in text
            score = step["view"]["score"]
            assert f"Nós {score[0]} × {score[1]} Eles" in page.inner_text(
                "[data-tutorial] .tut__topo"
            )
            if (h, f) == (2, 2):
                shot(page, "tutorial-carta-coberta")
        if h < len(trace["hands"]) - 1:
            page.click("[data-tutorial] [data-tutorial-seguir]")
    assert clicks == sum(len(hand["steps"]) for hand in trace["hands"])
    assert page.get_attribute("[data-tutorial]", "data-tutorial-fim") == ""
    assert "Fim do treino" in page.inner_text("[data-tutorial] .tut__texto")
    shot(page, "tutorial-fim")

    # back, then restart
    last = trace["hands"][-1]
    page.click("[data-tutorial] [data-tutorial-voltar]")
    assert step_attr(page) == f"{len(trace['hands']) - 1}.{len(last['steps']) - 1}"
    page.click("[data-tutorial] [data-tutorial-recomecar]")
    assert step_attr(page) == "0.0"
    watch.check()
    context.close()


def test_deck_style_toggle_is_remembered(browser, base_url) -> None:
    watch = Watch(base_url)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    watch.attach(context)
    page = watch.page(context)
    page.goto(base_url + "/cartas/")
    assert page.get_attribute("html", "data-baralho") == "tradicional"
    assert page.is_visible('[data-card="QH"] .carta__trad')
    page.click('[data-baralho-escolha] [data-baralho="espanhol"]')
    assert page.get_attribute("html", "data-baralho") == "espanhol"
    assert page.is_visible('[data-card="QH"] .carta__esp')
    assert not page.is_visible('[data-card="QH"] .carta__trad')
    assert page.inner_text('table[data-truco="order"] [data-card="KC"] .carta__esp').strip() == "12"
    shot(page, "cartas-espanhol")
    page.reload()
    assert page.get_attribute("html", "data-baralho") == "espanhol"
    # the header button switches back, on any page
    page.click("[data-baralho-alternar]")
    assert page.get_attribute("html", "data-baralho") == "tradicional"
    page.goto(base_url + "/")
    assert page.get_attribute("html", "data-baralho") == "tradicional"
    watch.check()
    context.close()


def test_dark_light_toggle(browser, base_url) -> None:
    watch = Watch(base_url)
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="light")
    watch.attach(context)
    page = watch.page(context)
    page.goto(base_url + "/truco/")
    assert page.get_attribute("body", "data-md-color-scheme") == "default"
    page.click('label[title="Mudar para o modo escuro"]')
    assert page.get_attribute("body", "data-md-color-scheme") == "slate"
    shot(page, "truco-escuro")
    watch.check()
    context.close()


def test_rules_page_and_tutorial_on_a_phone(browser, base_url) -> None:
    watch = Watch(base_url)
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    watch.attach(context)
    page = watch.page(context)
    page.goto(base_url + "/cangou/")
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.is_visible('label.md-header__button[for="__drawer"]')  # the mobile menu button
    assert page.is_visible('table[data-truco="cangou"]')
    shot(page, "cangou-celular")

    page.goto(base_url + "/tutorial/")
    page.wait_for_selector("[data-tutorial][data-tutorial-pronto] .tut__mao")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for box in page.query_selector_all("[data-tutorial] .tut__mao button"):
        b = box.bounding_box()
        assert b is not None and b["x"] >= 0 and b["x"] + b["width"] <= width
        assert b["height"] >= 40  # a finger-sized target
    first = build_trace()["hands"][0]["steps"][0]["action"]
    page.tap(f'[data-tutorial] [data-acao="{first}"]')
    assert step_attr(page) == "0.1"
    shot(page, "tutorial-celular")
    watch.check()
    context.close()
