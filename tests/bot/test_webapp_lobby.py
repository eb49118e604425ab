"""The Mini App around the match, in a real browser: the end with its Revanche, the
lobby (who sits, Entrar, Começar), Telegram's MainButton and BackButton, and a page in the
background counting as closed (the turn's ping comes as if the app were not open)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.telegram.callbacks import parse_lobby
from bot.telegram.publish.hands import people_in_app
from tests.bot.harness import buttons, moves, paulista_hand, seat_match
from tests.bot.test_webapp_browser import GROUP, World, open_app

pytestmark = pytest.mark.browser

TELEGRAM = """
window.__tg = [];
window.TelegramWebviewProxy = {
  postEvent: function (type, data) { window.__tg.push([type, JSON.parse(data)]); }
};
"""
"""Telegram's phone apps: the page posts its events to this proxy (and gets Telegram's
through ``window.Telegram.WebView.receiveEvent``)."""
HIDE = """() => {
  Object.defineProperty(document, "visibilityState", {value: "hidden", configurable: true});
  document.dispatchEvent(new Event("visibilitychange"));
}"""
SHOW = """() => {
  Object.defineProperty(document, "visibilityState", {value: "visible", configurable: true});
  document.dispatchEvent(new Event("visibilitychange"));
}"""
MINIMISED = """v => window.Telegram.WebView.receiveEvent("visibility_changed", {is_visible: v})"""
"""Telegram minimises a Mini App (or brings it back) without the page being hidden."""


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    w = World(tmp_path)
    try:
        yield w
    finally:
        w.stop()


def told(page: Any, event: str) -> list[Any]:
    """What the page posted to Telegram as ``event``, oldest first."""
    return list(page.evaluate("t => window.__tg.filter(e => e[0] === t).map(e => e[1])", event))


def telegram_sends(page: Any, event: str) -> None:
    page.evaluate("t => window.Telegram.WebView.receiveEvent(t, null)", event)


def test_the_end_offers_revanche_and_its_lobby_in_the_app(world: World, browser: Any) -> None:
    from playwright.sync_api import expect

    ana, beto, _ = world.people()
    gid = world.run(seat_match(world.h, GROUP, [ana, beto], paulista_hand((10, 0))))
    in_telegram = browser.new_context(viewport={"width": 390, "height": 800})
    in_telegram.add_init_script(TELEGRAM)
    plain = browser.new_context(viewport={"width": 390, "height": 800})
    pa = open_app(in_telegram, world.launch(ana, gid))
    pb = open_app(plain, world.launch(beto, gid))
    expect(pa.locator("#hand button[data-card]")).to_have_count(3)
    assert told(pa, "web_app_setup_main_button") == []  # nothing to offer mid-match

    # Ana trucos at 10 × 0, Beto accepts, Ana takes two rounds: 12 × 0, the match is over
    pa.locator('button.act[data-act="truco"]').click()
    pb.locator('button.act[data-act="accept"]').click()
    for page, card in ((pa, "3C"), (pb, "2S"), (pa, "KH"), (pb, "QD")):
        expect(page.locator(f'#hand button[data-card="{card}"]:enabled')).to_be_visible()
        page.locator(f'#hand button[data-card="{card}"]').click()
    for page in (pa, pb):
        expect(page.locator("#result")).to_be_visible()
        expect(page.locator("#result-text")).to_contain_text("12 × 0")
        expect(page.locator("button.rematch")).to_have_text("🔁 Revanche")
    main = told(pa, "web_app_setup_main_button")[-1]
    assert main["is_visible"] and main["text"] == "🔁 Revanche"

    # Telegram's MainButton asks for the Revanche: Ana's page opens its lobby, Beto's
    # follows it there, where he confirms his seat with Entrar
    telegram_sends(pa, "main_button_pressed")
    for page in (pa, pb):
        expect(page.locator("#lobby")).to_be_visible()
        expect(page.locator("#lobby-text")).to_contain_text("falta confirmar com Entrar: Beto")
        # his chair on the felt says so too; Ana's, confirmed, does not
        expect(page.locator("#felt .seat--late")).to_have_count(1)
        late = page.locator("#felt .seat--late")
        expect(late.locator(".name")).to_contain_text("Beto")
        expect(late.locator(".late")).to_have_text("⏳ falta confirmar")
    assert told(pa, "web_app_setup_back_button")[-1] == {"is_visible": True}
    assert pa.locator('button.lobby[data-command="join"]').count() == 0  # she is confirmed
    expect(pa.locator('button.lobby[data-command="start"]')).to_have_text("Começar")
    assert told(pa, "web_app_setup_main_button")[-1]["text"] == "Começar"
    pb.locator('button.lobby[data-command="join"]').click()
    # everyone confirmed: the Revanche is dealt, on both pages, live
    for page in (pa, pb):
        expect(page.locator("#hand button[data-card]")).to_have_count(3)
        expect(page.locator("#lobby")).to_be_hidden()
    assert told(pa, "web_app_setup_main_button")[-1] == {"is_visible": False}
    # the group heard the end as it hears it when the match is played from the chat
    world.run(
        world.h.wait(lambda: any("Fim de jogo" in m["text"] for m in world.h.bot_messages(GROUP)))
    )

    # BackButton: back to the match the Revanche came from, which stays there
    telegram_sends(pa, "back_button_pressed")
    expect(pa.locator("#result-text")).to_contain_text("12 × 0")
    expect(pa.locator("#lobby")).to_be_hidden()
    assert told(pa, "web_app_setup_back_button")[-1] == {"is_visible": False}
    assert pa.errors == [] and pb.errors == []
    in_telegram.close()
    plain.close()


def test_a_lobby_opened_in_the_group_is_joined_and_started_in_the_app(
    world: World, browser: Any
) -> None:
    from playwright.sync_api import expect

    ana, beto, _ = world.people()
    for u in (ana, beto):
        world.run(world.server.user_sends(u, u, "/start"))
    world.run(world.server.user_sends(ana, GROUP, "/truco paulista 1x1"))
    lobby = world.run(world.h.wait(lambda: world.h.table(GROUP)))
    gid = parse_lobby(buttons(lobby)[0]["callback_data"])[0]
    context = browser.new_context(viewport={"width": 390, "height": 800})
    pa = open_app(context, world.launch(ana, gid))
    pb = open_app(context, world.launch(beto, gid))
    expect(pa.locator("#lobby-text")).to_contain_text("Ana")
    expect(pb.locator("#status")).to_contain_text("ainda não começou")
    assert pb.locator('button.lobby[data-command="start"]').count() == 0  # not his table
    pb.locator('button.lobby[data-command="join"]').click()
    expect(pa.locator("#lobby-text")).to_contain_text("Beto")  # live on the opener's page
    expect(pb.locator('button.lobby[data-command="leave"]')).to_have_text("Sair")
    pa.locator('button.lobby[data-command="start"]').click()
    for page in (pa, pb):
        expect(page.locator("#hand button[data-card]")).to_have_count(3)
    # the group's table follows, as after its own buttons
    world.run(world.h.wait(lambda: "Beto" in (world.h.table_message(GROUP) or {}).get("text", "")))
    assert pa.errors == [] and pb.errors == []
    context.close()


@pytest.mark.parametrize("how", ["page", "telegram"])
def test_a_page_in_the_background_does_not_count_as_open(
    world: World, browser: Any, how: str
) -> None:
    """``page``: the browser hides the page; ``telegram``: Telegram minimises the app and
    says so (``visibility_changed``) while the page itself stays visible."""
    from playwright.sync_api import expect

    ana, beto, _ = world.people()
    gid = world.table([ana, beto])
    context = browser.new_context(viewport={"width": 390, "height": 800})
    pa = open_app(context, world.launch(ana, gid))
    pb = open_app(context, world.launch(beto, gid))
    expect(pb.locator("#hand button[data-card]")).to_have_count(3)
    hide, show = (HIDE, SHOW) if how == "page" else (MINIMISED, MINIMISED)

    def pointed(user: int) -> bool:
        mine = world.h.bot_messages(user)
        return bool(mine) and "no app" in mine[-1].get("text", "")

    def rung(before: set[int]) -> Any:
        """A new hand message with Beto's moves since ``before``: his phone rang."""
        new = [m for m in world.h.bot_messages(beto) if m["message_id"] not in before]
        return next((m for m in new if moves(m)), None)

    # his turn begins while the app is in front of him: no ring, the message points there
    before = {m["message_id"] for m in world.h.bot_messages(beto)}
    pa.locator('#hand button[data-card="3C"]').click()
    world.run(world.h.wait(lambda: pointed(beto)))
    assert rung(before) is None
    pb.locator('#hand button[data-card="2S"]').click()

    # in the background: his next turn rings as if the app were closed, a new hand
    # message with his moves
    expect(pa.locator('#hand button[data-card="KH"]:enabled')).to_be_visible()
    pb.evaluate(hide, False)
    expect(pb.locator("body")).to_have_attribute("data-hidden", "true")
    world.run(world.h.wait(lambda: beto not in people_in_app(world.h.app, gid)))
    before = {m["message_id"] for m in world.h.bot_messages(beto)}
    pa.locator('#hand button[data-card="KH"]').click()
    assert world.run(world.h.wait(lambda: rung(before)))

    # back in front: the page catches up, counts as open again and plays
    pb.evaluate(show, True)
    expect(pb.locator('.played[data-seat="0"] [data-card="KH"]')).to_be_visible()
    world.run(world.h.wait(lambda: beto in people_in_app(world.h.app, gid)))
    pb.locator('#hand button[data-card="QD"]').click()
    world.run(world.h.wait(lambda: pointed(beto)))
    assert pa.errors == [] and pb.errors == []
    context.close()
