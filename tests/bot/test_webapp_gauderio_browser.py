"""Truco gaudério's points game in the Mini App in a real browser (headless chromium): the
envido buttons are there exactly when the engine allows them, in the app's own look, and
the answers come back on the other page."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Match, TableOptions
from engine.cards import parse_cards
from tests.bot.harness import seat_match, strip_tags
from tests.bot.test_webapp_browser import GROUP, World, open_app, world  # noqa: F401
from tests.browsers import shot

pytestmark = pytest.mark.browser


def acts(page: Any) -> list[str]:
    return sorted(page.locator("button.act").evaluate_all("e => e.map(x => x.dataset.act)"))


def test_envido_quero_from_the_app(world: World, browser: Any) -> None:  # noqa: F811
    from playwright.sync_api import expect

    ana, beto, _ = world.people()
    match = Match.from_hand(
        "gauderio",
        TableOptions(players=2, target=18),
        score=(0, 0),
        dealer=1,
        hands=[parse_cards("7S 6S 3D"), parse_cards("5C 4C KH")],
    )
    gid = world.run(seat_match(world.h, GROUP, [ana, beto], match))
    context = browser.new_context(viewport={"width": 390, "height": 800})
    pa = open_app(context, world.launch(ana, gid))
    pb = open_app(context, world.launch(beto, gid))
    # Ana, the mão, before her card: truco and the three envido calls
    expect(pa.locator('button.act[data-act="envido"]')).to_be_visible()
    assert acts(pa) == ["envido", "falta_envido", "real_envido", "truco"]
    assert pa.locator("html").get_attribute("data-baralho") == "espanhol"
    assert acts(pb) == []
    expect(pa.locator("#kind")).to_have_text("Seus pontos de envido: 33")
    shot(pa, "webapp-gauderio-envido.png")
    pa.locator('button.act[data-act="envido"]').click()
    # Beto answers it: quero, não quero, or a raise the engine allows after envido
    expect(pb.locator('button.act[data-act="quero"]')).to_be_visible()
    assert acts(pb) == ["envido", "falta_envido", "nao_quero", "quero", "real_envido"]
    assert pb.locator("#hand button[data-card]:enabled").count() == 0
    # the banner tells what the envido is worth (no points of anybody while it waits)
    expect(pb.locator("#kind")).to_contain_text("vale 2 se quiser, 1 se não quiser")
    pb.locator('button.act[data-act="quero"]').click()
    # settled: Ana plays on, with truco and no envido call left
    expect(pa.locator('button.act[data-act="truco"]')).to_be_visible()
    assert acts(pa) == ["truco"]
    expect(pb.locator("#kind")).to_contain_text("33 pontos de Ana")
    said = world.run(
        world.h.wait(
            lambda: (
                [
                    strip_tags(m.get("text", ""))
                    for m in world.h.bot_messages(GROUP)
                    if "Envido para" in m.get("text", "")
                ]
                or None
            )
        )
    )
    assert "33 pontos de Ana" in said[0]
    assert pa.errors == [] and pb.errors == []
    context.close()
