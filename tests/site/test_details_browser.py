"""The smaller things a learner on a phone meets, each held in a real browser.

The marcador's board (+N, Desfazer) in sight when the page opens and a finger-sized "Mudar a
mesa"; the lists behind "Lances desta mão" and "Mãos (n)" opened by buttons, not drawn as notes;
names around the table at 12 px or more; the lesson bar's title whole; the manilha label under
the card, clear of its suit; no back-to-top pill over a game. (No page wider than a phone, at
390 px or at 200% zoom: ``test_axe_browser.py``, which opens every screen at each size.)
"""

from __future__ import annotations

import json

import pytest

from tests.site.lesson_fit import VIEWPORTS
from tests.site.test_site_browser import Watch

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api")

AS_BUTTON = """(sel) => {
  const s = document.querySelector(sel);
  const style = getComputedStyle(s), icon = getComputedStyle(s, '::before');
  return {height: s.getBoundingClientRect().height, border: parseFloat(style.borderTopWidth),
          background: style.backgroundColor, icon: icon.display};
}"""


def as_button(page, selector: str) -> None:
    seen = page.evaluate(AS_BUTTON, selector)
    assert seen["height"] >= 44, seen
    assert seen["border"] > 0, seen
    assert seen["background"] in ("rgba(0, 0, 0, 0)", "transparent"), seen
    assert seen["icon"] == "none", seen  # no note's pencil


def phone(browser, watch: Watch, size: str = "390x844"):
    context = browser.new_context(**VIEWPORTS[size])
    context.add_init_script("localStorage.setItem('truco-jogo-ritmo', '0')")
    watch.attach(context)
    return context, watch.page(context)


def test_marcador_board_in_sight_and_its_buttons(browser, base_url) -> None:
    watch = Watch(base_url)
    context, page = phone(browser, watch)
    page.goto(base_url + "/marcador/")
    page.wait_for_selector("[data-marcador] [data-ponto]")
    page.tap('[data-marcador-time="0"] [data-ponto="3"]')
    page.evaluate("scrollTo(0, 0)")
    below = page.evaluate(
        """() => [...document.querySelectorAll('[data-ponto], [data-desfazer], [data-nova-partida]')]
             .filter(b => b.getBoundingClientRect().bottom > innerHeight).map(b => b.outerHTML)"""
    )
    assert below == []
    mesa = page.locator("[data-mesa]").bounding_box()
    assert mesa is not None and mesa["height"] >= 44 and mesa["width"] >= 44
    as_button(page, ".marcador__log > summary")
    assert page.evaluate("getComputedStyle(document.querySelector('.md-top')).display") == "none"
    watch.check()
    context.close()


def test_jogar_agora_names_log_button_and_no_pill(browser, base_url) -> None:
    watch = Watch(base_url)
    context, page = phone(browser, watch)
    page.goto(base_url + "/jogar/")
    page.check('[data-jogo] input[name=players][value="4"]')
    page.click("[data-jogo-comecar]")
    page.wait_for_selector('[data-jogo][data-jogo-fase="jogo"]', timeout=60_000)
    page.wait_for_function(
        "!['robot', null].includes(document.querySelector('[data-jogo]').getAttribute('data-jogo-espera'))",
        timeout=20_000,
    )
    page.click("[data-jogo] .jogo__mao button[data-acao]")
    page.wait_for_selector(".jogo__log > summary", timeout=20_000)  # the moves of the hand
    # the table is redrawn as the robots play: read the sizes once a drawing has them all
    sizes = page.wait_for_function(
        """() => {
            const s = [...document.querySelectorAll('.jogo__nome, .jogo__nome small')]
                .map(e => parseFloat(getComputedStyle(e).fontSize));
            return s.length && s.every(x => !Number.isNaN(x)) ? s : null;
        }""",
        timeout=20_000,
    ).json_value()
    assert sizes and min(sizes) >= 12, sizes
    as_button(page, ".jogo__log > summary")
    # the pill Material shows on scrolling up would cover the score line
    page.evaluate("scrollTo(0, 600)")
    page.evaluate("scrollTo(0, 300)")
    assert page.evaluate("getComputedStyle(document.querySelector('.md-top')).display") == "none"
    watch.check()
    context.close()


def test_lesson_bar_title_whole_and_manilha_label_under_the_card(browser, base_url) -> None:
    watch = Watch(base_url)
    context, page = phone(browser, watch, "360x640")
    progress = {"v": 2, "atual": "dupla", "passos": {"dupla": "1.4"}, "feitas": {}}
    context.add_init_script(
        f"localStorage.getItem('truco-tutorial') || "
        f"localStorage.setItem('truco-tutorial', '{json.dumps(progress)}')"
    )
    page.goto(base_url + "/tutorial/")
    page.wait_for_selector("[data-tutorial] .tut__topo")
    title = page.evaluate(
        """() => { const t = document.querySelector('.tut__topo > span');
                   return [t.scrollWidth, t.clientWidth, t.textContent]; }"""
    )
    assert title[0] <= title[1] and title[2].startswith("Em dupla, com um parceiro robô"), title
    # a step with a manilha in the learner's hand (Em dupla, hand 1, step 6)
    page.evaluate(
        """() => localStorage.setItem('truco-tutorial', JSON.stringify(
             {v: 2, atual: 'dupla', passos: {dupla: '0.6'}, feitas: {}}))"""
    )
    page.reload()
    page.wait_for_selector("[data-tutorial] .tut__manilha")
    label = page.evaluate(
        """() => { const c = document.querySelector('.tut__manilha');
                   return [parseFloat(getComputedStyle(c, '::after').top), c.offsetHeight]; }"""
    )
    assert label[0] >= 0.9 * label[1], label  # under the card, not over its suit
    watch.check()
    context.close()
