"""Accessibility: axe-core on every page, on a phone and a desktop, in light and dark mode.

axe-core (Deque's engine, MPL-2.0) is vendored as the one minified file of its npm package in
``tests/site/vendor/axe.min.js`` so that the test runs offline and the same on every machine.
A page passes when axe finds no violation of impact "serious" or "critical"; the game and the
tutorial are also checked mid-play (cards in hand, robots' cards, a lesson's table), and the
rule that a control's name contains its visible text (WCAG 2.5.3, off by default) is on.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.site.test_site_browser import PAGES, Watch

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api")

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text()
SIZES = {"celular": (390, 844), "computador": (1280, 900), "zoom200": (195, 422)}
"""zoom200: the phone at 200% zoom, a 195 px wide page (not "mobile": see lesson_fit.VIEWPORTS)."""
SCHEMES = {"light": "default", "dark": "slate"}
RUN = """async () => {
  // colours mid-transition (a button just focused fades to its focus colour) are not what
  // anyone reads: let the page's transitions end first (a pulsing hint ends within 3 s).
  // An endless animation never ends: waiting for it only cost the 4 s below on every page
  const ending = document.getAnimations().filter(
    a => a.effect === null || a.effect.getComputedTiming().endTime !== Infinity);
  const settled = Promise.all(ending.map(a => a.finished.catch(() => null)));
  await Promise.race([settled, new Promise(r => setTimeout(r, 4000))]);
  // a rule whose every check is at most "moderate" can never give what is kept below:
  // running it was a tenth of axe's time, spent on results thrown away
  const rank = {minor: 1, moderate: 2, serious: 3, critical: 4};
  const worst = rule => Math.max(rank[rule.impact] || 4, ...[...rule.any, ...rule.all, ...rule.none]
    .map(check => rank[axe._audit.data.checks[check.id || check].impact] || 4));
  const mild = Object.fromEntries(
    axe._audit.rules.filter(rule => worst(rule) < 3).map(rule => [rule.id, {enabled: false}]));
  const result = await axe.run(document, {
    resultTypes: ['violations'],
    rules: {...mild, 'label-content-name-mismatch': {enabled: true}},
  });
  return result.violations
    .filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).slice(0, 5).join(' | '));
}"""


def serious(page) -> list[str]:
    """The serious and critical violations axe finds on the page as it is now."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(content=AXE)
    return page.evaluate(RUN)


def context_for(browser, watch: Watch, size: str, scheme: str):
    width, height = SIZES[size]
    context = browser.new_context(
        viewport={"width": width, "height": height},
        color_scheme=scheme,
        is_mobile=size == "celular",
        has_touch=size != "computador",
    )
    # the robots play without pausing
    context.add_init_script("localStorage.setItem('truco-jogo-ritmo', '0')")
    watch.attach(context)
    return context


COMBOS = [(size, scheme) for size in SIZES for scheme in SCHEMES]


@pytest.mark.parametrize(("size", "scheme"), COMBOS)
def test_every_page_has_no_serious_axe_violation(browser, base_url, size, scheme) -> None:
    watch = Watch(base_url)
    context = context_for(browser, watch, size, scheme)
    page = watch.page(context)
    found = {}
    for name in [*PAGES, "marcador/", "pagina-que-nao-existe/"]:
        page.goto(base_url + "/" + name)
        assert page.get_attribute("body", "data-md-color-scheme") == SCHEMES[scheme]
        assert page.get_attribute("html", "lang") == "pt-BR"
        if name == "tutorial/":
            page.wait_for_selector("[data-tutorial][data-tutorial-pronto]")
        problems = serious(page)
        if problems:
            found[name] = problems
    assert found == {}
    watch.errors = [e for e in watch.errors if "404" not in e]  # the browser logs the 404 itself
    watch.check()
    context.close()


@pytest.mark.parametrize(("size", "scheme"), COMBOS)
def test_the_game_and_a_lesson_in_play_have_no_serious_axe_violation(
    browser, base_url, size, scheme
) -> None:
    watch = Watch(base_url)
    context = context_for(browser, watch, size, scheme)
    page = watch.page(context)
    found = {}
    # a 2×2 match: the person's cards, the robots' hidden cards, the calls
    page.goto(base_url + "/jogar/")
    page.check('[data-jogo] input[name=players][value="4"]')
    page.click("[data-jogo-comecar]")
    page.wait_for_selector('[data-jogo][data-jogo-fase="jogo"]', timeout=60_000)
    page.wait_for_function(
        "!['robot', null].includes(document.querySelector('[data-jogo]').getAttribute('data-jogo-espera'))",
        timeout=20_000,
    )
    assert page.query_selector("[data-jogo] .jogo__mao button[data-acao]")
    found["jogar/"] = serious(page)
    page.click("[data-jogo] .jogo__mao button[data-acao]")
    page.wait_for_function(
        "!['robot', null].includes(document.querySelector('[data-jogo]').getAttribute('data-jogo-espera'))",
        timeout=20_000,
    )
    page.click("[data-jogo] .jogo__log > summary")  # the moves of this hand so far
    found["jogar/ lances"] = serious(page)
    # a lesson's table, before and after the learner's first move
    page.goto(base_url + "/tutorial/")
    page.wait_for_selector("[data-tutorial][data-tutorial-pronto] [data-tutorial-menu]")
    page.click("[data-tutorial] [data-tutorial-escolher]")
    page.wait_for_selector("[data-tutorial] .tut__mao button")
    found["tutorial/ início"] = serious(page)
    page.click("[data-tutorial] .tut__mao button:not([disabled])")
    found["tutorial/ jogada"] = serious(page)
    page.click("[data-tutorial] [data-tutorial-voltar]")
    page.click("[data-tutorial] .tut__mao button:not([disabled]) >> nth=-1")  # refused: a hint
    found["tutorial/ recusa"] = serious(page)
    # the marcador with hands, its list of hands and the table's settings open
    page.goto(base_url + "/marcador/")
    for _ in range(2):
        page.click('[data-marcador] [data-marcador-time="0"] [data-ponto]')
    page.click("[data-marcador] [data-mesa]")
    found["marcador/ mesa"] = serious(page)
    assert {k: v for k, v in found.items() if v} == {}
    watch.check()
    context.close()
