"""Focus follows the play, by keyboard alone: the tutorial, "Jogar agora" and the marcador.

After each action the page draws itself anew; focus must land on the next thing to do (the
cards or the calls on the learner's move, Continuar, Próxima mão, the same +N of the marcador),
never back at the top of the page, and what changed the situation is said once in a live region
that stays in the page (the tutorial's text, "Sua vez", the hand's result, the new score).
"""

from __future__ import annotations

import pytest

from engine.tutorial import build_trace
from tests.site.test_site_browser import Watch

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api")

ACTIVE = """(sel) => { const a = document.activeElement;
  return !!a && a !== document.body && a.matches(sel); }"""


def active(page, selector: str) -> bool:
    return page.evaluate(ACTIVE, selector)


def described(page) -> str:
    return page.evaluate("document.activeElement.outerHTML.slice(0, 160)")


def desktop(browser, watch: Watch):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script("localStorage.setItem('truco-jogo-ritmo', '0')")
    watch.attach(context)
    return context, watch.page(context)


def test_tutorial_focus_goes_to_the_next_thing_to_do(browser, base_url) -> None:
    watch = Watch(base_url)
    context, page = desktop(browser, watch)
    page.goto(base_url + "/tutorial/")
    page.wait_for_selector("[data-tutorial][data-tutorial-pronto] [data-tutorial-menu]")
    lesson = build_trace()["lessons"][0]
    hand = lesson["hands"][0]
    page.focus(f'[data-tutorial-escolher="{lesson["id"]}"]')
    page.keyboard.press("Enter")
    # the learner's move: focus on the cards, the first one of the row
    assert active(page, "[data-tutorial] .tut__mao button"), described(page)
    # a refused move: focus on the move the lesson hints at
    wrong = next(a for a in hand["start"]["legal"] if a != hand["steps"][0]["action"])
    page.focus(f'[data-tutorial] [data-acao="{wrong}"]')
    page.keyboard.press("Enter")
    assert active(page, f'.tut--dica[data-acao="{hand["steps"][0]["action"]}"]'), described(page)
    for f, step in enumerate(hand["steps"]):
        if step["prompt"]:
            assert active(
                page, "[data-tutorial] .tut__mao button, [data-tutorial] .tut__botoes button"
            )
            page.focus(f'[data-tutorial] [data-acao="{step["action"]}"]')
        else:
            assert active(page, "[data-tutorial] [data-tutorial-seguir]"), described(page)
        page.keyboard.press("Enter")
        assert page.get_attribute("[data-tutorial]", "data-tutorial-passo") == f"0.{f + 1}"
        said = page.inner_text("[data-tutorial-aviso]")
        assert step["explanation"]["tradicional"] in said
    # the hand and the lesson are over: the result is said, focus is on the next lesson
    assert "Fim da mão" in page.inner_text("[data-tutorial-aviso]")
    assert active(page, "[data-tutorial] .tut__nav [data-tutorial-escolher]"), described(page)
    # Voltar keeps focus on Voltar; Lições puts it on the lesson just left
    page.focus("[data-tutorial] [data-tutorial-voltar]")
    page.keyboard.press("Enter")
    assert active(page, "[data-tutorial-voltar]")
    page.focus("[data-tutorial] [data-tutorial-menu-abrir]")
    page.keyboard.press("Enter")
    assert active(page, f'[data-tutorial-escolher="{lesson["id"]}"]'), described(page)
    watch.check()
    context.close()


def test_jogar_agora_focus_follows_the_match_and_says_your_turn_and_the_result(
    browser, base_url
) -> None:
    watch = Watch(base_url)
    context, page = desktop(browser, watch)
    page.goto(base_url + "/jogar/")
    page.focus("[data-jogo-comecar]")
    page.keyboard.press("Enter")
    game = "[data-jogo]"
    page.wait_for_selector(f'{game}[data-jogo-fase="jogo"]', timeout=60_000)
    for _ in range(12):  # a hand has at most a few decisions of the person
        page.wait_for_function(
            "!['robot', null].includes(document.querySelector('[data-jogo]')"
            ".getAttribute('data-jogo-espera'))",
            timeout=20_000,
        )
        waiting = page.get_attribute(game, "data-jogo-espera")
        if waiting != "you":
            break
        # the person's move: focus on the first card, or on the calls when no card is legal
        assert active(page, ".jogo__mao button[data-acao], .jogo__botoes button"), described(page)
        said = page.inner_text("[data-jogo-aviso]")
        assert page.inner_text("[data-jogo-status]").split(" ⏱")[0] in said
        step = page.get_attribute(game, "data-jogo-passo")
        page.keyboard.press("Enter")
        page.wait_for_function(
            "(s) => document.querySelector('[data-jogo]').getAttribute('data-jogo-passo') !== s",
            arg=step,
        )
    assert page.get_attribute(game, "data-jogo-espera") in ("hand_over", "match_over")
    assert active(page, "[data-jogo-proxima], [data-jogo-revanche]"), described(page)
    result = page.inner_text("[data-jogo-resultado] p")
    assert result.split(".")[0] in page.inner_text("[data-jogo-aviso]")
    # the log opened by keyboard stays open, with focus on it, while the table is drawn again
    page.focus(".jogo__log > summary")
    page.keyboard.press("Enter")
    page.focus("[data-jogo-proxima]")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "!['robot', null, 'hand_over'].includes(document.querySelector('[data-jogo]')"
        ".getAttribute('data-jogo-espera'))",
        timeout=20_000,
    )
    assert active(page, ".jogo__mao button[data-acao], .jogo__botoes button"), described(page)
    watch.check()
    context.close()


def test_marcador_focus_stays_on_the_next_plus_n_and_the_score_is_said(browser, base_url) -> None:
    watch = Watch(base_url)
    context, page = desktop(browser, watch)
    page.goto(base_url + "/marcador/")
    page.wait_for_selector("[data-marcador] [data-ponto]")
    plus3 = '[data-marcador-time="0"] [data-ponto="3"]'
    page.focus(plus3)
    page.keyboard.press("Enter")
    assert active(page, plus3), described(page)
    assert page.inner_text("[data-marcador-falado]").startswith("Nós 3, Eles 0")
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")  # 12: the match is over, no +N left
    assert page.get_attribute("[data-marcador]", "data-marcador-placar") == "12-0"
    assert active(page, "[data-nova-partida]"), described(page)
    assert "Vitória" in page.inner_text("[data-marcador-falado]")
    page.focus("[data-desfazer]")
    page.keyboard.press("Enter")
    assert active(page, "[data-desfazer]")
    assert page.inner_text("[data-marcador-falado]").startswith("Nós 9, Eles 0")
    # "Mudar a mesa" opens the table's settings with focus on the chosen variant
    page.focus("[data-mesa]")
    page.keyboard.press("Enter")
    assert active(page, '[data-marcador-mesa] input[name="variant"]:checked'), described(page)
    watch.check()
    context.close()
