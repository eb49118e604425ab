""" "Jogar agora" in a real browser: Debian's chromium driven by Playwright, site on 127.0.0.1.

Whole matches are clicked through against médio (1×1 and 2×2) with the robots' pause set to
zero; at every decision the buttons on the page are exactly the engine's legal actions for
the person (read back from the snapshot the page keeps in local storage). A reload mid-hand
continues the same hand, the second visit works with the network off, and no request ever
leaves 127.0.0.1. Screenshots go to artifacts/.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from engine import Match
from engine.browser import Setup, Table
from tests.browsers import shot

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api")

GAME = "[data-jogo]"


def new_context(browser, **context_args):
    """A browser context for the play page, its robots playing without a pause."""
    context = browser.new_context(**{"viewport": {"width": 1100, "height": 1300}, **context_args})
    context.add_init_script("localStorage.setItem('truco-jogo-ritmo', '0')")
    return context


@pytest.fixture(scope="module")
def returning(browser):
    """One context for the tests that need no first visit of their own: after the first
    boot each page restores the engine's memory that the browser keeps (as a person's later
    visit does) instead of starting Python and importing the engine again, the biggest part
    of a boot. Each test opens its own page on it, with local storage emptied first; the
    boot itself, a first visit, a phone and going offline have tests with a context each."""
    context = new_context(browser)
    yield context
    context.close()


class Page:
    """One page on the play page's site, watching for errors and outside requests: in a
    context of its own, or in ``returning`` (then left open for the next test)."""

    def __init__(self, browser, base: str, returning=None, **context_args) -> None:
        self.base = base
        self.errors: list[str] = []
        self.outside: list[str] = []
        self.own = returning is None
        self.context = new_context(browser, **context_args) if self.own else returning
        # matched in Playwright's driver: only a request that would leave comes back to Python
        inside = re.escape(base + "/")
        self.context.unroute_all()  # the previous test's page, in ``returning``
        self.context.route(re.compile(f"^(?!{inside}|data:|blob:)"), self._route)
        self.page = self.context.new_page()
        if not self.own:
            # what an earlier test left (its match, its form) is not this test's to find
            self.page.goto(base + "/")
            self.page.evaluate("localStorage.clear()")
        self.page.on(
            "console",
            lambda m: self.errors.append(f"{m.text} {m.location}") if m.type == "error" else None,
        )
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _route(self, route) -> None:
        self.outside.append(route.request.url)
        route.abort()

    def attr(self, name: str) -> str:
        return self.page.get_attribute(GAME, name) or ""

    def step(self) -> int:
        return int(self.attr("data-jogo-passo") or 0)

    def click(self, selector: str) -> None:
        """Click and wait until the page has drawn the engine's answer."""
        before = self.step()
        self.page.click(selector)
        self.page.wait_for_function(
            f"+document.querySelector('{GAME}').getAttribute('data-jogo-passo') > {before}"
        )

    def wait_for_person(self) -> str:
        """Wait while the robots play; return what the table waits for then."""
        self.page.wait_for_function(
            f"!['robot', null].includes(document.querySelector('{GAME}').getAttribute('data-jogo-espera'))",
            timeout=20_000,
        )
        return self.attr("data-jogo-espera")

    def table(self) -> Table:
        """The table the page keeps in local storage, as the engine reads it back."""
        saved = self.page.evaluate("localStorage.getItem('truco-jogo-partida')")
        return Table.restore(json.loads(saved)["snapshot"])

    def buttons(self) -> set[str]:
        return set(
            self.page.eval_on_selector_all(
                f"{GAME} button[data-acao]:not([disabled])",
                "els => els.map(e => e.getAttribute('data-acao'))",
            )
        )

    def start(self, players: int = 2, variant: str = "paulista", level: str = "medio") -> None:
        self.page.goto(self.base + "/jogar/")
        self.page.check(f'{GAME} input[name=variant][value="{variant}"]')
        self.page.check(f'{GAME} input[name=players][value="{players}"]')
        self.page.check(f'{GAME} input[name=level][value="{level}"]')
        self.page.click("[data-jogo-comecar]")
        self.page.wait_for_selector(f'{GAME}[data-jogo-fase="jogo"]', timeout=60_000)

    def check(self) -> None:
        assert self.errors == [], "\n".join(self.errors)
        assert self.outside == []

    def close(self) -> None:
        if self.own:
            self.context.close()
        else:
            self.page.close()


def play_to_the_end(p: Page, seed: int) -> dict:
    """Click through a whole match; at every decision the buttons are the legal actions."""
    rng = random.Random(seed)
    decisions = 0
    for _ in range(400):
        waiting = p.wait_for_person()
        if waiting == "match_over":
            return {"decisions": decisions}
        if waiting == "hand_over":
            p.click("[data-jogo-proxima]")
            continue
        legal = {a["action"] for a in json.loads(p.table().state())["legal"]}
        assert p.buttons() == legal
        # cards in hand that may not be played now are drawn disabled
        p.click(f'{GAME} button[data-acao="{rng.choice(sorted(legal))}"]')
        decisions += 1
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("players", [2, 4])
def test_a_whole_match_against_medio_by_clicking(
    browser, base_url, returning, players: int
) -> None:
    p = Page(browser, base_url, returning)
    p.start(players=players)
    assert p.attr("data-jogo-pronto") == ""
    p.wait_for_person()
    shot(p.page, f"jogo-{players}-inicio.png", full_page=True)
    result = play_to_the_end(p, seed=players)
    assert result["decisions"] > 3
    table = json.loads(p.table().state())
    winner = table["match_winner"]
    assert table["score"][winner] == 12
    assert p.page.get_attribute("[data-jogo-fim]", "data-jogo-fim") == str(winner)
    assert p.page.get_attribute(".jogo__placar", "data-placar") == "-".join(
        map(str, table["score"])
    )
    shot(p.page, f"jogo-{players}-fim.png", full_page=True)
    # robots answered quickly (médio), measured inside the browser
    times = [float(x) for x in p.attr("data-jogo-robo-ms").split()]
    assert times and max(times) < 2000
    p.click("[data-jogo-revanche]")
    # a new match; its robots play at once, so its first hand may already be over when
    # the person's partner called truco and the others ran before the person's first move
    again = json.loads(p.table().state())
    assert again["match_winner"] is None and again["hand_number"] <= 2, again
    assert max(again["score"]) < 12, again
    p.check()
    p.close()


def test_a_reload_mid_hand_continues_the_same_hand(browser, base_url, returning) -> None:
    p = Page(browser, base_url, returning)
    p.start(players=4, variant="mineiro")
    p.wait_for_person()
    first = next(a for a in sorted(p.buttons()) if a.startswith("play"))
    p.click(f'{GAME} button[data-acao="{first}"]')
    p.wait_for_person()
    before = json.loads(p.table().state())
    hand = p.page.eval_on_selector_all(
        f"{GAME} .jogo__mao [data-card]", "els => els.map(e => e.dataset.card)"
    )
    p.page.reload()
    p.page.wait_for_selector(f'{GAME}[data-jogo-fase="jogo"]', timeout=60_000)
    after = json.loads(p.table().state())
    assert after["hand_number"] == before["hand_number"]
    assert after["table"] == before["table"] and after["score"] == before["score"]
    assert after["log"] == before["log"]
    assert (
        p.page.eval_on_selector_all(
            f"{GAME} .jogo__mao [data-card]", "els => els.map(e => e.dataset.card)"
        )
        == hand
    )
    assert "Truco mineiro · 2×2" in p.page.inner_text(".jogo__topo")
    p.check()
    p.close()


def saved_table(table: Table) -> str:
    return json.dumps({"snapshot": table.snapshot()})


def test_mao_de_onze_and_iron_hand_on_the_page(browser, base_url, returning) -> None:
    p = Page(browser, base_url, returning)
    setup = Setup(players=4).validated()
    onze = Table(setup, Match("paulista", setup.options(), 9, dealer=3, score=(11, 4)), 1)
    p.page.goto(base_url + "/jogar/")
    p.page.evaluate("s => localStorage.setItem('truco-jogo-partida', s)", saved_table(onze))
    p.page.reload()
    p.page.wait_for_selector(f'{GAME}[data-jogo-fase="jogo"]', timeout=60_000)
    assert p.buttons() == {"play11", "run11"}
    assert "Mão de onze" in p.page.inner_text(".jogo__aviso")
    partner = p.page.eval_on_selector_all(
        "[data-jogo-parceiro] [data-card]", "els => els.map(e => e.dataset.card)"
    )
    assert len(partner) == 3
    shot(p.page, "jogo-mao-de-onze.png", full_page=True)

    mineiro = Setup(variant="mineiro").validated()
    ferro = Table(mineiro, Match("mineiro", mineiro.options(), 4, dealer=1, score=(10, 10)), 1)
    p.page.evaluate("s => localStorage.setItem('truco-jogo-partida', s)", saved_table(ferro))
    p.page.reload()
    p.page.wait_for_selector(f'{GAME}[data-jogo-fase="jogo"]', timeout=60_000)
    assert p.buttons() == {"blind 0", "blind 1", "blind 2"}
    assert p.page.eval_on_selector_all(f"{GAME} .jogo__mao [data-card]", "els => els.length") == 0
    assert "Mão de ferro" in p.page.inner_text(".jogo__aviso")
    p.click(f'{GAME} button[data-acao="blind 2"]')
    shot(p.page, "jogo-mao-de-ferro.png", full_page=True)
    p.check()
    p.close()


def test_second_visit_plays_offline(browser, base_url) -> None:
    p = Page(browser, base_url)
    p.start(players=2, variant="trem-bao", level="facil")
    # the service worker has the page and the engine once it is active
    p.page.wait_for_function("navigator.serviceWorker.ready.then(r => !!r.active)", timeout=30_000)
    p.page.wait_for_function(
        """async () => { const names = await caches.keys();
            const c = names.find(n => /^truco-jogar-[0-9a-f]+$/.test(n));
            if (!c) return false;
            const keys = await (await caches.open(c)).keys();
            return keys.some(k => k.url.endsWith('.wasm')) && keys.some(k => /motor-.*zip$/.test(k.url)); }""",
        timeout=30_000,
    )
    p.context.set_offline(True)
    p.page.reload()
    p.page.wait_for_selector(f'{GAME}[data-jogo-fase="jogo"]', timeout=60_000)
    assert "Trem Bão" in p.page.inner_text(".jogo__topo")
    waiting = p.wait_for_person()
    assert waiting == "you"
    # Trem Bão: 30 s a decision, counting down on the page (R10)
    p.page.wait_for_function(
        "/⏱ (2[0-9]|30) s/.test(document.querySelector('[data-jogo-relogio]').textContent)"
    )
    p.click(f'{GAME} button[data-acao^="play"]')
    p.check()
    p.close()


@pytest.mark.long
def test_a_later_visit_restores_the_engine_and_deals_anew(browser, base_url) -> None:
    """The second visit starts from the engine's memory kept after the first, not from zero;
    the random state kept with it is not reused (the same deal on every visit)."""
    p = Page(browser, base_url)
    p.start(players=2, level="facil")
    first = json.loads(p.table().snapshot())
    assert json.loads(p.attr("data-jogo-motor-ms"))["restored"] is False
    p.page.wait_for_function(
        "caches.open('truco-motor-estado').then(c => c.keys()).then(k => k.length === 1)",
        timeout=30_000,
    )
    p.page.evaluate("localStorage.removeItem('truco-jogo-partida')")
    p.start(players=2, level="facil")
    assert json.loads(p.attr("data-jogo-motor-ms"))["restored"] is True
    assert json.loads(p.table().snapshot())["robot_seed"] != first["robot_seed"]
    assert p.wait_for_person() in {"you", "hand_over"}
    # a copy the runtime refuses: the worker boots from zero and keeps a good one again
    p.page.evaluate(
        """caches.open('truco-motor-estado').then(c => c.keys().then(keys =>
            Promise.all(keys.map(k => c.put(k, new Response(new Uint8Array(4096)))))))"""
    )
    p.page.reload()
    p.page.wait_for_selector(f'{GAME}[data-jogo-fase="jogo"]', timeout=60_000)
    assert json.loads(p.attr("data-jogo-motor-ms"))["restored"] is False
    assert p.wait_for_person() in {"you", "hand_over"}
    p.page.wait_for_function(
        """async () => { const c = await caches.open('truco-motor-estado');
            const keys = await c.keys();
            if (keys.length !== 1) return false;
            return (await (await c.match(keys[0])).arrayBuffer()).byteLength > 4096; }""",
        timeout=30_000,
    )
    p.check()
    p.close()


def test_the_play_page_on_a_phone(browser, base_url) -> None:
    p = Page(
        browser, base_url, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    p.start(players=4)
    p.wait_for_person()
    width = p.page.evaluate("window.innerWidth")
    assert p.page.evaluate("document.documentElement.scrollWidth") <= width
    for box in p.page.query_selector_all(f"{GAME} button[data-acao]"):
        b = box.bounding_box()
        assert b is not None and b["x"] >= 0 and b["x"] + b["width"] <= width
        assert b["height"] >= 40  # a finger-sized target
    shot(p.page, "jogo-celular.png", full_page=True)
    p.check()
    p.close()


def test_every_rule_page_links_to_the_game(browser, base_url, returning) -> None:
    p = Page(browser, base_url, returning)
    p.page.goto(base_url + "/truco/")
    p.page.click("a.jogar-agora")
    p.page.wait_for_selector(f"{GAME} [data-jogo-comecar]")
    assert p.page.url.endswith("/jogar/")
    p.check()
    p.close()


def test_marcador_scores_undoes_reaches_the_target_and_survives_a_reload(browser, base_url) -> None:
    from engine.marcador import Marcador

    p = Page(
        browser, base_url, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = p.page
    page.goto(base_url + "/marcador/")
    marcador = "[data-marcador]"
    page.wait_for_selector(f"{marcador} [data-ponto]")
    # mineiro with the house ladder, to 12
    page.click(f"{marcador} [data-mesa]")
    page.check(f'{marcador} input[name=variant][value="mineiro"]')
    page.check(f'{marcador} input[name=ladder][value="4-6-10-12"]')
    expected = Marcador("mineiro", ladder=(4, 6, 10, 12))

    def buttons(team: int) -> list[int]:
        return [
            int(x)
            for x in page.eval_on_selector_all(
                f'{marcador} [data-marcador-time="{team}"] [data-ponto]',
                "els => els.map(e => e.dataset.ponto)",
            )
        ]

    assert buttons(0) == buttons(1) == [2, 4, 6, 10, 12]
    page.fill(f'{marcador} [data-nome="1"]', "Time da Cida")
    page.press(f'{marcador} [data-nome="1"]', "Tab")
    expected = expected.renamed(1, "Time da Cida")
    for team, points in [(0, 6), (1, 2), (1, 10)]:
        page.tap(f'{marcador} [data-marcador-time="{team}"] [data-ponto="{points}"]')
        expected = expected.add(team, points)
    assert page.get_attribute(marcador, "data-marcador-placar") == "6-12"
    assert expected.score == (6, 12) and expected.winner == 1
    assert "Vitória de Time da Cida" in page.inner_text(f"{marcador} [data-marcador-aviso]")
    assert buttons(0) == []
    page.tap(f"{marcador} [data-desfazer]")
    expected = expected.undo()
    assert page.get_attribute(marcador, "data-marcador-placar") == "6-2"
    page.tap(f'{marcador} [data-marcador-time="0"] [data-ponto="4"]')
    expected = expected.add(0, 4)
    # 10 × 2: mão de dez, only its values
    assert page.get_attribute(marcador, "data-marcador-tipo") == "special"
    assert buttons(1) == list(expected.values(1)) == [2, 4]
    # the team at 10 plays and wins 4, or runs and the others score: never +2 for itself
    assert buttons(0) == list(expected.values(0)) == [4]
    assert "Mão de dez para Nós" in page.inner_text(f"{marcador} [data-marcador-aviso]")
    shot(page, "marcador-mao-de-dez.png", full_page=True)
    page.reload()
    page.wait_for_selector(f"{marcador} [data-ponto]")
    assert page.get_attribute(marcador, "data-marcador-placar") == "10-2"
    assert page.input_value(f'{marcador} [data-nome="1"]') == "Time da Cida"
    assert "Truco mineiro" in page.inner_text(f"{marcador} .marcador__regra")
    assert len(page.query_selector_all(f"{marcador} .marcador__log li")) == 3
    # and with no network, once the service worker holds the page
    page.wait_for_function("navigator.serviceWorker.ready.then(r => !!r.active)", timeout=30_000)
    p.context.set_offline(True)
    page.reload()
    page.wait_for_selector(f"{marcador} [data-ponto]")
    assert page.get_attribute(marcador, "data-marcador-placar") == "10-2"
    page.tap(f'{marcador} [data-marcador-time="1"] [data-ponto="2"]')
    assert page.get_attribute(marcador, "data-marcador-placar") == "10-4"
    assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate(
        "window.innerWidth"
    )


def test_a_signal_from_the_page(browser, base_url, returning) -> None:
    """R12 on the page: 👁️ Sinal opens the list, a signal costs no turn and the log says it."""
    p = Page(browser, base_url, returning)
    p.start(players=4)
    while p.wait_for_person() != "you" or not p.page.query_selector("[data-jogo-sinais]"):
        p.click(f"{GAME} button[data-acao]:not([disabled])")  # play on until the person may signal
    p.page.click("[data-jogo-sinais] > summary")
    p.click('[data-jogo-sinais] button[data-sinal="signal zap"]')
    assert p.page.query_selector("[data-jogo-sinais]") is None  # one per round
    assert "Você: 😉 sinal de zap para o parceiro." in (p.page.text_content(".jogo__log") or "")
    assert p.attr("data-jogo-espera") == "you" and p.buttons()
    assert any(a.act.code == "signal" for _, a in p.table().match.log)
    p.check()
    p.close()


def test_first_visit_hand_feedback_pace_and_a_new_table_that_asks(browser, base_url) -> None:
    """A first visit starts on fácil with the levels described; after a hand the page shows the
    cards the rules reveal and one line on why; the robots' pace is a choice; "Nova mesa" asks
    before throwing a match away."""
    p = Page(
        browser, base_url, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = p.page
    page.goto(base_url + "/jogar/")
    page.wait_for_selector(f"{GAME} [data-jogo-comecar]")
    assert page.is_checked(f'{GAME} input[name=level][value="facil"]')
    form = page.inner_text(f"{GAME} [data-jogo-form]")
    assert "bom para aprender" in form and "blefa na hora certa" in form
    page.click("[data-jogo-comecar]")
    page.wait_for_selector(f'{GAME}[data-jogo-fase="jogo"]', timeout=60_000)
    # on a phone the score and the opponents are in sight after the deal
    top = page.evaluate("document.querySelector('.jogo__placar').getBoundingClientRect().top")
    assert 0 <= top < page.evaluate("innerHeight")
    assert "fácil" in page.inner_text(f"{GAME} .jogo__titulo")
    rng = random.Random(7)
    while p.wait_for_person() != "hand_over":
        legal = sorted(p.buttons())
        p.click(f'{GAME} button[data-acao="{rng.choice(legal)}"]')
    table = p.table()
    result = table.match.hand_result()
    assert result is not None
    shown = page.inner_text(f"{GAME} [data-jogo-resultado]")
    state = json.loads(table.state())
    assert state["result"]["text"] in shown
    if not result.ran and result.winner is not None:
        assert state["result"]["why"] and state["result"]["why"] in shown
        # one row per round played, each card played face up is shown
        rows = page.query_selector_all(f"{GAME} [data-jogo-reveladas] tbody tr")
        assert len(rows) == len(result.rounds)
        faceup = [pl["card"]["code"] for r in state["past"] for pl in r if pl["card"]]
        drawn = page.eval_on_selector_all(
            f"{GAME} [data-jogo-reveladas] [data-card]", "els => els.map(e => e.dataset.card)"
        )
        assert sorted(drawn) == sorted(faceup)
    # the pace of the robots is a choice, remembered
    page.select_option(f"{GAME} [data-jogo-ritmo]", "1400")
    assert page.evaluate("localStorage.getItem('truco-jogo-ritmo')") == "1400"
    page.evaluate("localStorage.setItem('truco-jogo-ritmo', '0')")
    # Nova mesa asks; saying no keeps the match
    page.once("dialog", lambda d: d.dismiss())
    page.click(f"{GAME} [data-jogo-nova]")
    assert p.attr("data-jogo-fase") == "jogo"
    page.once("dialog", lambda d: d.accept())
    page.click(f"{GAME} [data-jogo-nova]")
    assert p.attr("data-jogo-fase") == "mesa"
    p.check()
    p.close()
