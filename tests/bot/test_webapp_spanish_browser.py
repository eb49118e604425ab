"""The Mini App in a real browser for a person whose Telegram speaks Spanish: the page's
language tag, its labels and its buttons are Spanish."""

from __future__ import annotations

from typing import Any

import pytest

from tests.bot.test_webapp_browser import GROUP, World, open_app, world

pytestmark = pytest.mark.browser
__all__ = ["world"]  # the fixture, shared with the Mini App's browser tests


def test_an_es_ar_person_plays_in_a_spanish_page(world: World, browser: Any) -> None:
    from playwright.sync_api import expect

    s = world.server
    sofi, beto = s.add_user("Sofía", "es-AR"), s.add_user("Beto")
    s.add_group("Truco", admins=[sofi], members=[sofi, beto], chat_id=GROUP)
    gid = world.table([sofi, beto])
    context = browser.new_context(viewport={"width": 390, "height": 800})
    page = open_app(context, world.launch(sofi, gid))
    expect(page.locator("#hand button[data-card]")).to_have_count(3)
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.locator("#hand")).to_have_attribute("aria-label", "Tus cartas")
    expect(page.locator('#hand button[data-card="3C"]')).to_have_accessible_name("tres de tréboles")
    expect(page.locator("#status")).to_contain_text("Te toca")
    expect(page.locator("#info")).to_contain_text("Bazas")
    expect(page.locator("#actions")).to_contain_text("¡Truco!")
    other = open_app(context, world.launch(beto, gid))  # his page stays Portuguese
    expect(other.locator("#status")).to_contain_text("Vez de Sofía")
    expect(other.locator("html")).to_have_attribute("lang", "pt-BR")
    assert page.errors == [] and other.errors == []
    context.close()
