"""Truco gaudério's points game in the Mini App in a real browser (headless chromium): the
envido buttons are there exactly when the engine allows them, in the app's own look, the
answers come back on the other page, and the table's "Envido e flor" widget tells, on a
360 px phone, the envido waiting and its worths, who won it with how many points, the flor
sung, the match's target and, once the hand is over, the cards that proved the points."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Match, TableOptions
from engine.cards import parse_cards
from tests.bot.harness import seat_match, strip_tags
from tests.bot.test_webapp_browser import GROUP, World, open_app, world  # noqa: F401
from tests.browsers import shot

pytestmark = pytest.mark.browser
PHONE = {"width": 360, "height": 740}


def acts(page: Any) -> list[str]:
    return sorted(page.locator("button.act").evaluate_all("e => e.map(x => x.dataset.act)"))


def rows(page: Any, where: str = ".tantos__rows:not(.tantos__rows--last)") -> list[str]:
    """The widget's rows now, by kind (``own``, ``pending``, ``won``, ``flor``...)."""
    return page.locator(f"#tantos {where} > li").evaluate_all("e => e.map(x => x.dataset.kind)")


def fits_the_phone(page: Any) -> None:
    """Nothing wider than the phone, and every button a thumb presses at least 44 px."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    box = page.locator("#tantos").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    heights = page.locator("#actions button").evaluate_all(
        "e => e.map(x => x.getBoundingClientRect().height)"
    )
    assert heights and min(heights) >= 44


def play_out(pages: list[Any]) -> None:
    """Play the hand's cards (first legal card of whoever's turn it is) until the widget
    shows the hand just ended."""
    from playwright.sync_api import expect

    for _ in range(12):
        for p in pages:
            if p.locator("#tantos .tantos__last").count():
                return
            card = p.locator("#hand button[data-card]:enabled").first
            if card.count():
                version = p.evaluate("document.body.dataset.version")
                card.click()
                expect(p.locator("body")).not_to_have_attribute("data-version", version)
    raise AssertionError("the hand did not end")


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
    context = browser.new_context(viewport=PHONE)
    pa = open_app(context, world.launch(ana, gid))
    pb = open_app(context, world.launch(beto, gid))
    # Ana, the mão, before her card: truco and the three envido calls
    expect(pa.locator('button.act[data-act="envido"]')).to_be_visible()
    assert acts(pa) == ["envido", "falta_envido", "real_envido", "truco"]
    assert pa.locator("html").get_attribute("data-baralho") == "espanhol"
    assert acts(pb) == []
    # the widget: the match's target and her own envido points, big (Beto's never)
    expect(pa.locator("#tantos .tantos__title")).to_have_text("Envido e flor Partida até 18")
    expect(pa.locator('#tantos [data-kind="envido_own"]')).to_have_text("33Seus pontos de envido")
    assert pb.locator('#tantos [data-kind="envido_own"] .tantos__n').inner_text() == "29"
    assert pa.locator("#kind").is_hidden()  # no line of text lost above the table
    pa.locator('button.act[data-act="envido"]').click()
    # Beto answers it: quero, não quero, or a raise the engine allows after envido
    expect(pb.locator('button.act[data-act="quero"]')).to_be_visible()
    assert acts(pb) == ["envido", "falta_envido", "nao_quero", "quero", "real_envido"]
    assert pb.locator("#hand button[data-card]:enabled").count() == 0
    # the envido waiting, on both pages, with what each answer pays (nobody's points shown)
    for p in (pa, pb):
        pending = p.locator('#tantos [data-kind="envido_pending"]')
        expect(pending.locator(".tantos__text")).to_have_text("ENVIDO de Ana")
        expect(pending.locator('[data-answer="quero"]')).to_have_text("2se quiser")
        expect(pending.locator('[data-answer="nao_quero"]')).to_have_text("1se não quiser")
    fits_the_phone(pb)
    shot(pb, "webapp-gauderio-envido.png")
    pb.locator('button.act[data-act="quero"]').click()
    # settled: Ana plays on, with truco and no envido call left
    expect(pa.locator('button.act[data-act="truco"]')).to_be_visible()
    assert acts(pa) == ["truco"]
    won = pb.locator('#tantos [data-kind="envido_won"]')
    expect(won.locator(".tantos__n")).to_have_text("33")
    expect(won.locator(".tantos__text")).to_contain_text("Ana ganhou o envido: +2")
    assert won.locator(".carta").count() == 0  # the proof waits for the hand's end
    assert rows(pb) == ["envido_won"]  # round 1's own points are gone once the envido is settled
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
    # the hand ends: the next hand's widget keeps the cards that proved Ana's 33
    play_out([pa, pb])
    for p in (pa, pb):
        expect(p.locator("#tantos .tantos__last")).to_have_text("Mão 1: os pontos mostrados")
        proof = p.locator('#tantos .tantos__rows--last [data-kind="envido_proof"]')
        expect(proof.locator(".tantos__text")).to_have_text("🎯 Envido de Ana: 33 pontos")
        codes = proof.locator(".carta").evaluate_all("e => e.map(x => x.dataset.card)")
        assert sorted(codes) == ["6S", "7S"]
    shot(pa, "webapp-gauderio-proof.png")
    assert pa.errors == [] and pb.errors == []
    context.close()


def test_flor_in_spanish_on_a_phone(world: World, browser: Any) -> None:  # noqa: F811
    """A person from Montevideo: the widget in Spanish, the flor sung over Ana's envido,
    and its cards shown once the hand is over."""
    from playwright.sync_api import expect

    ana, _, _ = world.people()
    bruno = world.server.add_user("Bruno", "es")
    world.server.members[GROUP].add(bruno)
    match = Match.from_hand(
        "gauderio",
        TableOptions(players=2, target=18),
        score=(0, 0),
        dealer=1,
        hands=[parse_cards("7S 6S 3D"), parse_cards("5C 4C 6C")],
    )
    gid = world.run(seat_match(world.h, GROUP, [ana, bruno], match))
    context = browser.new_context(viewport=PHONE)
    pa = open_app(context, world.launch(ana, gid))
    pb = open_app(context, world.launch(bruno, gid))
    expect(pb.locator("#tantos .tantos__title")).to_have_text("Envido y flor Partido a 18")
    expect(pb.locator('#tantos [data-kind="envido_own"]')).to_have_text("31Tus tantos de envido")
    # the four top cards are the South's bravas, not manilhas (R13.1)
    expect(pb.locator("#info .info-manilhas")).to_contain_text("Bravas")
    assert (
        pb.locator("#info .info-manilhas .carta")
        .first.get_attribute("aria-label")
        .endswith(", brava")
    )
    expect(pa.locator('button.act[data-act="envido"]')).to_be_visible()
    pa.locator('button.act[data-act="envido"]').click()
    # Bruno's flor is sung by the engine at once: the envido is off, the flor pays 3
    expect(pb.locator('#tantos [data-kind="flor"]')).to_have_text("🌸 Flor de Bruno: +3")
    expect(pb.locator('#tantos [data-kind="envido_withdrawn"]')).to_have_text(
        "🌸 La flor anuló el envido"
    )
    expect(pa.locator('#tantos [data-kind="envido_withdrawn"]')).to_have_text(
        "🌸 A flor anulou o envido"
    )
    assert pb.locator('#tantos [data-kind="flor"] .carta').count() == 0  # not before the end
    assert rows(pb) == ["envido_withdrawn", "flor"]
    fits_the_phone(pa)
    shot(pb, "webapp-gauderio-flor-es.png")
    play_out([pa, pb])
    expect(pb.locator("#tantos .tantos__last")).to_have_text("Mano 1: los tantos mostrados")
    proof = pb.locator('#tantos .tantos__rows--last [data-kind="flor_proof"]')
    expect(proof.locator(".tantos__text")).to_have_text("🌸 Flor de Bruno")
    codes = proof.locator(".carta").evaluate_all("e => e.map(x => x.dataset.card)")
    assert sorted(codes) == ["4C", "5C", "6C"]
    assert pa.errors == [] and pb.errors == []
    context.close()
