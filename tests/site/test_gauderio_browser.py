""" "Jogar agora" at a gaudério table in a real browser: the setup form offers it with its
own options, the Spanish deck is the default look, the envido buttons are the engine's
legal actions, and flor and envido are announced on the table."""

from __future__ import annotations

import json

import pytest

from engine import Match
from engine.browser import Setup, Table
from engine.cards import parse_cards
from tests.browsers import shot
from tests.site.test_jogo_browser import GAME, Page, play_to_the_end, saved_table

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api")


def test_a_gauderio_match_from_the_form_with_envido_buttons(browser, base_url) -> None:
    p = Page(browser, base_url)
    p.page.goto(base_url + "/jogar/")
    p.page.check(f'{GAME} input[name=variant][value="gauderio"]')
    form = f"{GAME} [data-jogo-form]"
    # gaudério's own table: no carta coberta, flor on, 18 points in 1×1 and 24 in 2×2
    assert p.page.locator(f'{form} [name="covered_cards"]').count() == 0
    assert p.page.is_checked(f'{form} [name="flor"]')
    p.page.check(f'{GAME} input[name=players][value="2"]')
    assert p.page.input_value(f'{form} [name="target"]') == "18"
    p.page.check(f'{GAME} input[name=players][value="4"]')
    assert p.page.input_value(f'{form} [name="target"]') == "24"
    p.page.check(f'{GAME} input[name=players][value="2"]')
    p.page.check(f'{GAME} input[name=level][value="medio"]')
    p.page.click("[data-jogo-comecar]")
    p.page.wait_for_selector(f'{GAME}[data-jogo-fase="jogo"]', timeout=60_000)
    # the Spanish deck is the default look at a gaudério table (the person chose none)
    assert p.page.get_attribute("html", "data-baralho") == "espanhol"
    p.wait_for_person()
    st = json.loads(p.table().state())
    assert st["variant"] == "gauderio" and st["target"] == 18
    shot(p.page, "jogo-gauderio-inicio.png", full_page=True)
    result = play_to_the_end(p, seed=7)
    assert result["decisions"] > 3
    end = json.loads(p.table().state())
    assert end["score"][end["match_winner"]] == 18
    p.check()
    p.close()


def test_envido_and_flor_are_announced_on_the_table(browser, base_url) -> None:
    p = Page(browser, base_url)
    setup = Setup(variant="gauderio").validated()

    def positioned(hands: str) -> Table:
        match = Match.from_hand(
            "gauderio",
            setup.options(),
            score=(0, 0),
            dealer=1,
            hands=[parse_cards(h) for h in hands.split("|")],
        )
        return Table(setup, match, 1)

    p.page.goto(base_url + "/jogar/")
    envido = positioned("7S 6S 3D|KC QC 5D")
    p.page.evaluate("s => localStorage.setItem('truco-jogo-partida', s)", saved_table(envido))
    p.page.reload()
    p.page.wait_for_selector(f'{GAME}[data-jogo-fase="jogo"]', timeout=60_000)
    assert {"envido", "real-envido", "falta-envido", "truco"} <= p.buttons()
    labels = p.page.inner_text(f"{GAME} .jogo__botoes")
    assert "Envido!" in labels and "Falta envido!" in labels
    p.click(f'{GAME} button[data-acao="envido"]')
    p.wait_for_person()
    st = json.loads(p.table().state())
    if st["envido"]["state"] == "pending":  # the robot raised: answer it from the page
        assert {"quero", "nao-quero"} <= p.buttons()
        p.click(f'{GAME} button[data-acao="quero"]')
        p.wait_for_person()
        st = json.loads(p.table().state())
    said = p.page.inner_text("[data-jogo-pontos]")
    assert said.startswith("Envido (") and said == st["envido_text"]
    shot(p.page, "jogo-gauderio-envido.png", full_page=True)

    flor = positioned("7D 6D 5D|KC QC 4S")
    p.page.evaluate("s => localStorage.setItem('truco-jogo-partida', s)", saved_table(flor))
    p.page.reload()
    p.page.wait_for_selector(f'{GAME}[data-jogo-fase="jogo"]', timeout=60_000)
    assert not {"envido", "real-envido", "falta-envido"} & p.buttons()
    p.click(f'{GAME} button[data-acao="play 7D"]')
    assert "Você: Flor!" in p.page.inner_text("[data-jogo-pontos]")
    shot(p.page, "jogo-gauderio-flor.png", full_page=True)
    p.check()
    p.close()


def test_the_marcador_counts_a_gauderio_match(browser, base_url) -> None:
    from engine.marcador import Marcador

    p = Page(
        browser, base_url, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = p.page
    page.goto(base_url + "/marcador/")
    marcador = "[data-marcador]"
    page.wait_for_selector(f"{marcador} [data-ponto]")
    page.click(f"{marcador} [data-mesa]")
    page.check(f'{marcador} input[name=variant][value="gauderio"]')
    assert "até 24" in page.inner_text(f"{marcador} .marcador__regra")
    expected = Marcador("gauderio", target=24)

    def buttons(team: int, kind: str | None = None) -> list[int]:
        which = f'[data-tipo="{kind}"]' if kind else ":not([data-tipo])"
        return [
            int(x)
            for x in page.eval_on_selector_all(
                f'{marcador} [data-marcador-time="{team}"] [data-ponto]{which}',
                "els => els.map(e => e.dataset.ponto)",
            )
        ]

    assert buttons(0) == list(expected.values(0)) == [1, 2, 3, 4]
    assert buttons(1, "envido") == list(expected.points_values("envido"))
    assert buttons(1, "flor") == list(expected.points_values("flor"))
    for team, points, kind in [(0, 4, None), (1, 3, "flor"), (0, 7, "envido"), (1, 2, None)]:
        which = f'[data-tipo="{kind}"]' if kind else ":not([data-tipo])"
        page.tap(f'{marcador} [data-marcador-time="{team}"] [data-ponto="{points}"]{which}')
        expected = expected.add(team, points, kind or "mao")
    assert page.get_attribute(marcador, "data-marcador-placar") == "11-5"
    # the falta envido follows the score: what the leader still needs
    assert buttons(1, "envido") == list(expected.points_values("envido"))
    assert 13 in buttons(1, "envido")
    page.tap(f'{marcador} [data-marcador-time="1"] [data-ponto="13"][data-tipo="envido"]')
    page.tap(f'{marcador} [data-marcador-time="1"] [data-ponto="7"][data-tipo="envido"]')
    assert page.get_attribute(marcador, "data-marcador-placar") == "11-24"
    assert buttons(0) == buttons(0, "envido") == []
    shot(page, "marcador-gauderio.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate(
        "window.innerWidth"
    )
    p.check()
    p.close()
