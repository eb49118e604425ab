"""Every screen at every size: axe-core in light and dark mode, and the page's width.

axe-core (Deque's engine, MPL-2.0) is vendored as the one minified file of its npm package in
``tests/site/vendor/axe.min.js`` so that the test runs offline and the same on every machine.
A page passes when axe finds no violation of impact "serious" or "critical"; the game and the
tutorial are also checked mid-play (cards in hand, robots' cards, a lesson's table), and the
rule that a control's name contains its visible text (WCAG 2.5.3, off by default) is on.

What each reading proves, so that each screen is opened once per size (docs-dev/site-log.md,
2026-12-07):

- **every rule in light mode, at each size**: names, roles, landmarks, target sizes, scrolling
  regions and colours all depend on the layout (at 200% zoom a name once ran off the green
  table onto the page's background);
- **the colours in dark mode, on a phone and a desktop**: the site's and Material's dark CSS
  only sets colours, so dark mode changes the colours of the pairs (text, background) that the
  layout makes, not the pairs. The phone holds the content's pairs and the 200% zoom is the
  phone's layout squeezed; the desktop adds its sidebars. Each screen is switched once, with
  the palette's own radio and the system's preference along: the next screen opens in the
  scheme the last one ended in, as Material keeps a person's choice. Every rule is also read
  on the palette toggle in dark mode, the one part of a page that the scheme shows
  differently;
- **the width**: no screen wider than the window at any size (at 200% zoom, 195 px), and on
  a phone every table of the content fits or scrolls in its own box, and the tables that a
  learner compares at a glance fit whole.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browsers import shot
from tests.site.test_site_browser import PAGES, Watch

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api")

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text()
SIZES = {"celular": (390, 844), "computador": (1280, 900), "zoom200": (195, 422)}
"""zoom200: the phone at 200% zoom, a 195 px wide page (not "mobile": see lesson_fit.VIEWPORTS)."""
DARK_SIZES = ("celular", "computador")
"""The sizes whose dark mode is read (the module's docstring says why not the zoom)."""
SCHEMES = {"light": "default", "dark": "slate"}
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
"""The rules of axe 4.14 that read the colours drawn (``color-contrast-enhanced`` too, but it
is AAA and off): the only ones whose outcome a scheme can change."""
RUN = """async (colours) => {
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
  const every = {resultTypes: ['violations'],
                 rules: {...mild, 'label-content-name-mismatch': {enabled: true}}};
  let violations = [];
  if (colours === null) {
    violations = (await axe.run(document, every)).violations;
  } else {
    const only = {resultTypes: ['violations'], runOnly: {type: 'rule', values: colours}};
    violations = (await axe.run(document, only)).violations;
    const toggle = {include: [['[data-md-component=palette]']]};
    violations.push(...(await axe.run(toggle, every)).violations);
  }
  return violations
    .filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).slice(0, 5).join(' | '));
}"""
SWITCHED = """(scheme) => document.body.getAttribute('data-md-color-scheme') === scheme
  && !document.body.hasAttribute('data-md-color-switching')"""
"""Material marks the body while it swaps the palette (transitions off), then unmarks it."""


def serious(page, colours: list[str] | None = None) -> list[str]:
    """The serious and critical violations axe finds on the page as it is now: of every rule,
    or of the ``colours`` rules on the page and every rule on the palette toggle."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(content=AXE)
    return page.evaluate(RUN, colours)


def scheme_to(page, scheme: str) -> None:
    """Switch the page to ``scheme`` as a person would, with the system's preference along:
    the palette's radio (Material keeps the choice for the next page, which then loads in
    it), and waits until Material has drawn it."""
    page.emulate_media(color_scheme=scheme)
    page.eval_on_selector(
        f'input[name=__palette][data-md-color-scheme="{SCHEMES[scheme]}"]', "i => i.click()"
    )
    page.wait_for_function(SWITCHED, arg=SCHEMES[scheme])


def both_schemes(page, size: str) -> dict[str, list[str]]:
    """The page as it is now read in the scheme it is in, then switched to the other one and
    read again (light: every rule; dark: the colours and the toggle), at the sizes whose dark
    mode is read; only in light mode at the others. Empty lists when all is well."""
    shown = page.get_attribute("body", "data-md-color-scheme")
    scheme = next(name for name, value in SCHEMES.items() if value == shown)
    if size not in DARK_SIZES:
        assert scheme == "light", "a size read only in light mode opened in dark mode"
        return {"light": serious(page)}
    found = {}
    for now in (scheme, "dark" if scheme == "light" else "light"):
        if now != scheme:
            scheme_to(page, now)
        found[now] = serious(page, COLOUR_RULES if now == "dark" else None)
    return found


WIDTH = """() => ({
  page: document.documentElement.scrollWidth, width: innerWidth,
  tables: [...document.querySelectorAll('.md-content table')].map(t => {
    const box = t.closest('.md-typeset__scrollwrap');
    return {
      fits: !!box && t.getBoundingClientRect().width <= box.clientWidth + 1,
      scrolls: !!box && getComputedStyle(t.parentElement).overflowX === 'auto',
    };
  }),
})"""
COMPARED = ("mao-de-onze/", "mao-de-ferro/", "cangou/", "robos/", "variantes/")
"""The pages whose tables a learner compares at a glance: on a phone they fit whole."""


def width_problems(page, name: str, size: str) -> list[str]:
    """What is too wide on the screen as it is now: the page itself, or (on a phone) a table
    that neither fits nor scrolls in its box, or one of ``COMPARED`` that does not fit."""
    seen = page.evaluate(WIDTH)
    found = []
    if seen["page"] > seen["width"]:
        found.append(f"the page is {seen['page']} px wide in a {seen['width']} px window")
    if size == "celular":
        for n, table in enumerate(seen["tables"]):
            if not (table["fits"] or table["scrolls"]):
                found.append(f"table {n + 1} neither fits nor scrolls")
            elif name in COMPARED and not table["fits"]:
                found.append(f"table {n + 1} does not fit whole")
    return found


def context_for(browser, watch: Watch, size: str):
    width, height = SIZES[size]
    context = browser.new_context(
        viewport={"width": width, "height": height},
        color_scheme="light",
        is_mobile=size == "celular",
        has_touch=size != "computador",
    )
    # the robots play without pausing
    context.add_init_script("localStorage.setItem('truco-jogo-ritmo', '0')")
    watch.attach(context)
    return context


def problems_of(found: dict[str, dict[str, list[str]]]) -> dict[str, list[str]]:
    """What axe found, by screen and scheme, without the screens it found nothing on."""
    return {f"{name} {scheme}": v for name, by in found.items() for scheme, v in by.items() if v}


SCREENS = [*PAGES, "marcador/", "pagina-que-nao-existe/"]
PARTS = 3
"""Each size's screens are read in this many tests, so that ``pytest -n`` spreads them over
the workers (one test of all 27 screens took over a minute on a loaded machine)."""


@pytest.mark.long
@pytest.mark.parametrize("part", range(PARTS), ids=lambda part: f"{part + 1}of{PARTS}")
@pytest.mark.parametrize("size", SIZES)
def test_every_page_passes_axe_and_fits_the_screen(browser, base_url, size, part) -> None:
    watch = Watch(base_url)
    context = context_for(browser, watch, size)
    page = watch.page(context)
    found, wide = {}, {}
    for name in SCREENS[part::PARTS]:
        page.goto(base_url + "/" + name)
        assert page.get_attribute("html", "lang") == "pt-BR"
        if name == "tutorial/":
            page.wait_for_selector("[data-tutorial][data-tutorial-pronto]")
        if problems := width_problems(page, name, size):
            wide[name] = problems
        found[name] = both_schemes(page, size)
        if name == "desenvolvedores/" and size == "celular":
            shot(page, "site-desenvolvedores-celular.png", full_page=True)
    assert problems_of(found) == {}
    assert wide == {}
    watch.errors = [e for e in watch.errors if "404" not in e]  # the browser logs the 404 itself
    watch.check()
    context.close()


def test_a_page_loaded_in_dark_mode_is_the_page_switched_to_it(browser, base_url) -> None:
    """The dark mode the test above reaches by switching is the one a page opens in when the
    system prefers dark: the same scheme on the body, the same toggle shown."""
    watch = Watch(base_url)
    dark = browser.new_context(color_scheme="dark")
    light = browser.new_context(color_scheme="light")
    for context in (dark, light):
        watch.attach(context)
    opened, switched = watch.page(dark), watch.page(light)
    opened.goto(base_url + "/truco/")
    switched.goto(base_url + "/truco/")
    scheme_to(switched, "dark")
    shown = "[...document.querySelectorAll('[data-md-component=palette] label:not([hidden])')].map(l => l.title)"
    for page in (opened, switched):
        assert page.get_attribute("body", "data-md-color-scheme") == SCHEMES["dark"]
        assert page.evaluate(shown) == ["Mudar para o modo claro"]
        assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    watch.check()
    dark.close()
    light.close()


@pytest.mark.long
@pytest.mark.parametrize("size", SIZES)
def test_the_game_and_a_lesson_in_play_have_no_serious_axe_violation(
    browser, base_url, size
) -> None:
    watch = Watch(base_url)
    context = context_for(browser, watch, size)
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
    found["jogar/"] = both_schemes(page, size)
    page.click("[data-jogo] .jogo__mao button[data-acao]")
    page.wait_for_function(
        "!['robot', null].includes(document.querySelector('[data-jogo]').getAttribute('data-jogo-espera'))",
        timeout=20_000,
    )
    page.click("[data-jogo] .jogo__log > summary")  # the moves of this hand so far
    found["jogar/ lances"] = both_schemes(page, size)
    # a lesson's table, before and after the learner's first move
    page.goto(base_url + "/tutorial/")
    page.wait_for_selector("[data-tutorial][data-tutorial-pronto] [data-tutorial-menu]")
    page.click("[data-tutorial] [data-tutorial-escolher]")
    page.wait_for_selector("[data-tutorial] .tut__mao button")
    found["tutorial/ início"] = both_schemes(page, size)
    page.click("[data-tutorial] .tut__mao button:not([disabled])")
    found["tutorial/ jogada"] = both_schemes(page, size)
    page.click("[data-tutorial] [data-tutorial-voltar]")
    page.click("[data-tutorial] .tut__mao button:not([disabled]) >> nth=-1")  # refused: a hint
    found["tutorial/ recusa"] = both_schemes(page, size)
    # the marcador with hands, its list of hands and the table's settings open
    page.goto(base_url + "/marcador/")
    for _ in range(2):
        page.click('[data-marcador] [data-marcador-time="0"] [data-ponto]')
    page.click("[data-marcador] [data-mesa]")
    found["marcador/ mesa"] = both_schemes(page, size)
    assert problems_of(found) == {}
    watch.check()
    context.close()
