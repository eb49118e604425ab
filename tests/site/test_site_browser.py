"""The built site in a real browser: Debian's chromium driven by Playwright, served on 127.0.0.1.

Clicks through every lesson of the tutorial on a phone (and the basics on a desktop, reached by
Material's instant navigation), checks that progress survives a reload, that searches typed
without accents find the right page first, that the 404 page is Portuguese, that the Spanish
deck style is applied everywhere, the dark/light toggle, that no console error happens and
that no request leaves 127.0.0.1 (no page scrolls sideways: ``test_axe_browser.py``).
Screenshots go to artifacts/.
"""

from __future__ import annotations

import re

import pytest

from engine.tutorial import build_trace
from tests.browsers import shot as save_shot
from tests.site.helpers import PREFIX

PAGES = [
    "", "como-jogar/", "roda/", "tutorial/", "dicas/", "perguntas/", "cartas/", "truco/",
    "cangou/", "carta-coberta/", "mao-de-onze/", "mao-de-ferro/", "variantes/",
    "regras-da-casa/", "tempo/", "glossario/", "outros-trucos/", "telegram/", "robos/",
    "desenvolvedores/", "sinais/", "jogar/", "mao-comentada/", "resumo/", "gauderio/",
]  # fmt: skip

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api")


class Watch:
    """Console errors, page errors and every request that tried to leave 127.0.0.1."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.errors: list[str] = []
        self.outside: list[str] = []

    def attach(self, context) -> None:
        # the pattern is matched in Playwright's driver: only a request that would leave comes
        # back to Python (a handler called for every request cost ~0.25 s of CPU a page)
        def outside(route) -> None:
            self.outside.append(route.request.url)
            route.abort()

        inside = re.escape(self.base + "/")
        context.route(re.compile(f"^(?!{inside}|data:)"), outside)

    def page(self, context):
        page = context.new_page()
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        return page

    def check(self) -> None:
        assert self.errors == []
        assert self.outside == []


def shot(page, name: str) -> None:
    save_shot(page, f"site-{name}.png", full_page=True)


def step_attr(page) -> str:
    return page.get_attribute("[data-tutorial]", "data-tutorial-passo") or ""


def say(text: dict, style: str = "tradicional") -> str:
    return text[style]


def play_learner_step(page, action: str, tap: bool = False) -> None:
    press = page.tap if tap else page.click
    if action.startswith("cover "):
        press('[data-tutorial] .tut [data-acao="cobrir"]')
        action = action  # the card buttons now cover
    press(f'[data-tutorial] .tut [data-acao="{action}"]')


ONE_SCREEN = """(next) => {
  const box = document.querySelector('[data-tutorial] .tut');
  const top = document.querySelector('.md-header').getBoundingClientRect().bottom;
  const seen = (sel) => {
    const e = box.querySelector(sel);
    if (!e) return sel + ' missing';
    const r = e.getBoundingClientRect();
    return r.top >= top - 1 && r.bottom <= innerHeight + 1 ? '' : sel + ' at ' + [r.top, r.bottom];
  };
  const text = box.querySelector('.tut__texto');
  return [seen('.tut__mesa'), seen('.tut__texto'), seen(next),
          text.scrollHeight <= text.clientHeight + 1 ? '' : 'text scrolls ' + text.scrollHeight + '>' + text.clientHeight]
    .filter(Boolean);
}"""
"""What is not in sight on the screen: the table, the whole explanation, the next thing to press."""


def off_screen(page, lesson: dict, h: int, f: int) -> list[str]:
    """At step f of hand h, what the learner would have to scroll to (nothing, on a phone)."""
    steps = lesson["hands"][h]["steps"]
    if f < len(steps) and steps[f]["prompt"]:
        action = steps[f]["action"]
        press = '[data-acao="cobrir"]' if action.startswith("cover ") else f'[data-acao="{action}"]'
    elif f < len(steps) or h < len(lesson["hands"]) - 1:
        press = "[data-tutorial-seguir]"
    else:
        press = "[data-tutorial-escolher], [data-tutorial-menu-abrir]"
    return page.evaluate(ONE_SCREEN, press)


def play_lesson(
    page, lesson: dict, *, tap: bool = False, one_screen: list[str] | None = None
) -> list[float]:
    """Click through every step of one lesson from its start; returns the box heights seen.

    With ``one_screen`` (a list), every step's :func:`off_screen` findings are added to it."""
    press = page.tap if tap else page.click
    heights = []
    for h, hand in enumerate(lesson["hands"]):
        assert say(hand["title"]) in page.inner_text("[data-tutorial] .tut__mesa")
        for f, step in enumerate(hand["steps"]):
            assert step_attr(page) == f"{h}.{f}"
            heights.append(
                page.evaluate("document.querySelector('[data-tutorial] .tut').offsetHeight")
            )
            if one_screen is not None:
                one_screen += [
                    f"{lesson['id']} {h}.{f} {x}" for x in off_screen(page, lesson, h, f)
                ]
            if step["prompt"]:
                assert say(step["prompt"]) in page.inner_text("[data-tutorial-pedido]")
                play_learner_step(page, step["action"], tap)
            else:
                assert not page.query_selector("[data-tutorial-pedido]")
                press("[data-tutorial] [data-tutorial-seguir]")
            assert step_attr(page) == f"{h}.{f + 1}"
            text = page.inner_text("[data-tutorial] .tut__texto")
            assert say(step["explanation"]) in text
            assert say(step["narration"]) in text
            # the signals received or caught stay in sight for the rest of the hand
            others = [e for e in step["view"]["history"] if e[0] != lesson["seat"]]
            if any(a.startswith("signal ") for _seat, a in others):
                assert "Sinais:" in page.inner_text("[data-tutorial-sinais]")
            score = step["view"]["score"]
            assert f"Nós {score[0]} × {score[1]} Eles" in page.inner_text(
                "[data-tutorial] .tut__topo"
            )
        if one_screen is not None:
            n = len(hand["steps"])
            one_screen += [f"{lesson['id']} {h}.{n} {x}" for x in off_screen(page, lesson, h, n)]
        if h < len(lesson["hands"]) - 1:
            press("[data-tutorial] [data-tutorial-seguir]")
    heights.append(page.evaluate("document.querySelector('[data-tutorial] .tut').offsetHeight"))
    assert page.get_attribute("[data-tutorial]", "data-tutorial-fim") == ""
    assert "Lição concluída" in page.inner_text("[data-tutorial] .tut__texto")
    return heights


def open_lesson(page, lesson_id: str, tap: bool = False) -> None:
    (page.tap if tap else page.click)(f'[data-tutorial] [data-tutorial-escolher="{lesson_id}"]')
    assert page.get_attribute("[data-tutorial]", "data-tutorial-licao") == lesson_id


def test_tutorial_basics_click_through_on_a_desktop(browser, base_url) -> None:
    watch = Watch(base_url)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    watch.attach(context)
    page = watch.page(context)
    # Material follows a click in place only once it holds the sitemap; a click before that
    # loads the page like a plain link (CI saw that once), so the test waits for the sitemap
    with page.expect_response(lambda r: r.url.endswith("/sitemap.xml")):
        page.goto(base_url + "/")
    # instant navigation: the player must start on a page swapped in by Material, not loaded
    page.evaluate("window.__sameDocument = true")
    page.click('.md-nav a[href$="tutorial/"]')
    page.wait_for_selector("[data-tutorial][data-tutorial-pronto] [data-tutorial-menu]")
    assert page.evaluate("window.__sameDocument === true"), "the page was reloaded"
    assert page.url.endswith("/tutorial/")
    course = build_trace()
    menu = page.inner_text("[data-tutorial-menu]")
    for lesson in course["lessons"]:
        assert say(lesson["title"]) in menu
    basics = course["lessons"][0]
    open_lesson(page, basics["id"])
    assert step_attr(page) == "0.0"

    # a wrong move is refused with a hint and does not advance
    first = basics["hands"][0]["steps"][0]
    wrong = next(a for a in basics["hands"][0]["start"]["legal"] if a != first["action"])
    play_learner_step(page, wrong)
    assert step_attr(page) == "0.0"
    assert page.is_visible("[data-tutorial] [role=alert]")
    assert page.is_visible(f'[data-tutorial] .tut--dica[data-acao="{first["action"]}"]')
    # the instruction and the refusal do not look alike
    colors = page.evaluate(
        "[...document.querySelectorAll('.tut__pedido, .tut__erro')].map(e => getComputedStyle(e).borderLeftColor)"
    )
    assert len(set(colors)) == 2
    # a disabled Voltar looks disabled
    assert (
        page.evaluate("getComputedStyle(document.querySelector('[data-tutorial-voltar]')).opacity")
        < "0.5"
    )

    play_lesson(page, basics)
    shot(page, "tutorial-fim")
    # back, then restart, then the menu marks the lesson done
    last = basics["hands"][-1]
    page.click("[data-tutorial] [data-tutorial-voltar]")
    assert step_attr(page) == f"{len(basics['hands']) - 1}.{len(last['steps']) - 1}"
    page.click("[data-tutorial] [data-tutorial-recomecar]")
    assert step_attr(page) == "0.0"
    page.click("[data-tutorial] [data-tutorial-menu-abrir]")
    assert "concluída" in page.inner_text(f'[data-tutorial-escolher="{basics["id"]}"]')
    watch.check()
    context.close()


def phone(browser, watch: Watch):
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    watch.attach(context)
    return context, watch.page(context)


@pytest.mark.long
def test_every_lesson_clicked_through_on_a_phone_and_progress_survives_a_reload(
    browser, base_url
) -> None:
    watch = Watch(base_url)
    context, page = phone(browser, watch)
    page.goto(base_url + "/tutorial/")
    page.wait_for_selector("[data-tutorial][data-tutorial-pronto] [data-tutorial-menu]")
    width = page.evaluate("window.innerWidth")
    course = build_trace()
    off: list[str] = []  # what was out of sight at some step (nothing: each step is one screen)
    for n, lesson in enumerate(course["lessons"]):
        open_lesson(page, lesson["id"], tap=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        for box in page.query_selector_all("[data-tutorial] .tut__mao button"):
            b = box.bounding_box()
            assert b is not None and b["x"] >= 0 and b["x"] + b["width"] <= width
            assert b["height"] >= 40  # a finger-sized target
        if n == 0:
            # leave mid-lesson and come back: the same step, then finish it
            page.tap(f'[data-tutorial] [data-acao="{lesson["hands"][0]["steps"][0]["action"]}"]')
            page.reload()
            page.wait_for_selector("[data-tutorial][data-tutorial-pronto] .tut__mao")
            assert page.get_attribute("[data-tutorial]", "data-tutorial-licao") == lesson["id"]
            assert step_attr(page) == "0.1"
            page.tap("[data-tutorial] [data-tutorial-recomecar]")
            page.tap("[data-tutorial] [data-tutorial-menu-abrir]")
            open_lesson(page, lesson["id"], tap=True)
        heights = play_lesson(page, lesson, tap=True, one_screen=off)
        # the box keeps one height for the whole lesson: nothing jumps under the learner's finger
        assert max(heights) - min(heights) <= 2, (lesson["id"], heights)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        if n == 0:
            shot(page, "tutorial-celular")
        if n == len(course["lessons"]) - 1:
            # the learner's next step is the site's own game
            assert page.query_selector('[data-tutorial] .tut__texto a[href$="/jogar/"]')
        page.tap("[data-tutorial] [data-tutorial-menu-abrir]")
    # at 390×844 the table, the explanation and the next thing to press are on one screen
    assert off == []
    page.reload()
    page.wait_for_selector("[data-tutorial] [data-tutorial-menu]")
    for lesson in course["lessons"]:
        assert "concluída" in page.inner_text(f'[data-tutorial-escolher="{lesson["id"]}"]')
    watch.check()
    context.close()


@pytest.mark.long
def search(page, text: str) -> list[str]:
    """Put a query in Material's search box; the result addresses in the site, best first.

    The box is emptied first and the query pasted whole, so the count waited for is the answer
    to this query, never to a part of it typed on the way ("p" before "pé")."""
    page.fill("input.md-search__input", "")
    page.wait_for_function(
        "!/encontrad/.test(document.querySelector('.md-search-result__meta')?.textContent || '')"
    )
    page.fill("input.md-search__input", text)
    page.press("input.md-search__input", "End")  # Material searches on a key going up
    page.wait_for_function(
        """(q) => { const m = document.querySelector('.md-search-result__meta');
                    return document.querySelector('.md-search__input').value === q && m &&
                           /encontrad/.test(m.textContent) }""",
        arg=text,
    )
    page.wait_for_timeout(150)  # the list renders right after the count
    paths = page.eval_on_selector_all(
        ".md-search-result__item > a", "els => els.map(e => new URL(e.href).pathname)"
    )
    return [path.removeprefix(PREFIX) for path in paths]


def test_searches_typed_without_accents_find_the_right_page_first(browser, base_url) -> None:
    watch = Watch(base_url)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    watch.attach(context)
    page = watch.page(context)
    page.goto(base_url + "/")
    page.keyboard.press("/")
    expected = {
        "mao de onze": "/mao-de-onze/",
        "mão de onze": "/mao-de-onze/",
        "mao de ferro": "/mao-de-ferro/",
        "mao": "/mao-de-onze/",
        "tres": "/",
        "cangou": "/cangou/",
    }
    for query, first in expected.items():
        found = search(page, query)
        assert found and found[0] == first, (query, found[:4])
        # the best page does not say "Ausente: mao" for a word it has with an accent
        missing = page.eval_on_selector_all(
            ".md-search-result__list > li:first-child del", "els => els.map(e => e.textContent)"
        )
        assert not {"mao", "tres"} & set(missing), (query, missing)
    # "desce" finds the rules, not only the Telegram page
    found = search(page, "desce")
    assert "/truco/" in found
    # the developers' page is not in learners' results at all
    for query in ("replay", "mao de onze", "mao de ferro", "motor"):
        assert "/desenvolvedores/" not in search(page, query), query
    # a short word is searched whole ("pé" is not every word starting with "pe"), a stop word
    # is no search at all ("de" is not "dez" nor "desligar"), and "ás" is still the ace
    found = search(page, "pé")
    assert found and found[0] == "/glossario/"
    assert page.eval_on_selector_all(
        ".md-search-result mark", "els => els.every(e => /^\\W*p[eé]\\W*$/i.test(e.textContent))"
    )
    assert search(page, "de") == []
    assert "/cartas/" in search(page, "ás") or "/glossario/" in search(page, "ás")
    # the page that defines a word comes among the first
    assert "/glossario/" in search(page, "correr")[:3]
    shot(page, "busca-sem-acento")
    watch.check()
    context.close()


def test_404_page_is_portuguese_with_a_way_back(browser, base_url) -> None:
    watch = Watch(base_url)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    watch.attach(context)
    page = watch.page(context)
    response = page.goto(base_url + "/regra-que-nao-existe/")
    assert response is not None and response.status == 404
    assert page.inner_text("h1") == "Página não encontrada"
    assert "Not found" not in page.content()
    page.click("text=Voltar ao início")
    page.wait_for_selector("h1:has-text('livro de regras')")
    assert page.url == base_url + "/"
    watch.errors = [e for e in watch.errors if "404" not in e]  # the browser logs the 404 itself
    watch.check()
    context.close()


@pytest.mark.long
def test_deck_style_toggle_is_remembered_and_applied_everywhere(browser, base_url) -> None:
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
    # the vira table: the vira and the common cards follow the style too
    row = page.inner_text('table[data-truco="vira"] tr[data-vira="J"]')
    assert row.split()[0] == "11" and "Q" not in row and "K" not in row
    shot(page, "cartas-espanhol")
    page.reload()
    assert page.get_attribute("html", "data-baralho") == "espanhol"
    # no traditional suit symbol is visible on any page (but the style switch's own label)
    visible_symbols = """() => {
      const found = [];
      const walk = document.createTreeWalker(document.querySelector('.md-content'), NodeFilter.SHOW_TEXT);
      while (walk.nextNode()) {
        const n = walk.currentNode, el = n.parentElement;
        if (/[♣♥♠♦]/.test(n.textContent) && el.offsetParent !== null && !el.closest('[data-baralho-escolha]'))
          found.push(n.textContent.trim());
      }
      return found;
    }"""
    for name in PAGES:
        page.goto(base_url + "/" + name)
        assert page.evaluate(visible_symbols) == [], name
    # the tutorial's texts name the cards as the Spanish deck does
    basics = build_trace()["lessons"][0]
    page.goto(base_url + "/tutorial/")
    open_lesson(page, basics["id"])
    assert say(basics["hands"][0]["steps"][0]["prompt"], "espanhol") in page.inner_text(
        "[data-tutorial-pedido]"
    )
    assert page.evaluate(visible_symbols) == []
    # the header button switches back, on any page
    page.click("[data-baralho-alternar]")
    assert page.get_attribute("html", "data-baralho") == "tradicional"
    assert say(basics["hands"][0]["steps"][0]["prompt"]) in page.inner_text(
        "[data-tutorial-pedido]"
    )
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


def test_printable_summary_prints_on_one_sheet_without_the_site_around_it(
    browser, base_url
) -> None:
    watch = Watch(base_url)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    watch.attach(context)
    page = watch.page(context)
    page.goto(base_url + "/resumo/")
    assert page.is_visible("[data-imprimir]")
    page.emulate_media(media="print")
    for hidden in (".md-header", ".md-sidebar--primary", ".md-footer", "[data-imprimir]"):
        assert not page.is_visible(hidden), hidden
    assert page.is_visible('table[data-truco="ladders"]')
    pdf = page.pdf(format="A4", print_background=True)
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1
    watch.check()
    context.close()
