"""The rulebook site: `mkdocs build --strict` works, and every generated table says what the engine says.

The site is built once into a temporary folder (nothing in the work tree changes); the tables are
read back from the HTML by their ``data-truco`` attributes and compared with the engine's rulesets.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from engine import RULESETS, Card, Match, Rank, Suit, TableOptions
from engine.match import hand_outcome
from engine.rulesets import ALL_RULESETS, MAX_TARGET, MAX_TIMER, MIN_TARGET, MIN_TIMER
from engine.scenario import replay
from engine.tutorial import build_trace
from tests import ROOT
from tests.site.helpers import build_site

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class Node:
    """A minimal DOM node: enough to walk tables and read attributes and text."""

    def __init__(self, tag: str, attrs: dict[str, str | None]) -> None:
        self.tag = tag
        self.attrs = attrs
        self.children: list[Node | str] = []

    def iter(self):
        yield self
        for c in self.children:
            if isinstance(c, Node):
                yield from c.iter()

    def find_all(self, tag: str | None = None, **attrs: str | None):
        for n in self.iter():
            if tag is not None and n.tag != tag:
                continue
            if all(
                (k.replace("_", "-") in n.attrs)
                and (v is None or n.attrs[k.replace("_", "-")] == v)
                for k, v in attrs.items()
            ):
                yield n

    @property
    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text for c in self.children)

    def cards(self) -> list[str]:
        """Codes of the cards drawn inside this node."""
        return [n.attrs["data-card"] or "" for n in self.find_all(data_card=None) if n is not self]


class TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs))
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag, attrs):
        self.stack[-1].children.append(Node(tag, dict(attrs)))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        self.stack[-1].children.append(data)


def parse(path: Path) -> Node:
    builder = TreeBuilder()
    builder.feed(path.read_text(encoding="utf-8"))
    return builder.root


def page(site: Path, name: str) -> Node:
    return parse(site / name / "index.html")


def tables(site: Path, name: str, kind: str) -> list[Node]:
    found = list(page(site, name).find_all("table", data_truco=kind))
    assert found, f"no {kind} table on {name}"
    return found


def field(row: Node, name: str) -> Node:
    return next(row.find_all("td", data_field=name))


def value(row: Node, name: str) -> str:
    return field(row, name).attrs["data-value"] or ""


def body_rows(table: Node) -> list[Node]:
    tbody = next(table.find_all("tbody"))
    return list(tbody.find_all("tr"))


# ------------------------------------------------------------------ the build itself


def test_every_page_of_the_issue_is_built(site: Path) -> None:
    expected = [
        "como-jogar", "tutorial", "cartas", "truco", "cangou", "carta-coberta", "mao-de-onze",
        "mao-de-ferro", "variantes", "regras-da-casa", "tempo", "glossario", "telegram", "robos",
        "desenvolvedores", "sinais",
    ]  # fmt: skip
    assert (site / "index.html").exists()
    for name in expected:
        assert (site / name / "index.html").exists(), name
    assert not (site / "_hooks").exists(), "hooks must not be published"
    for html_file in site.rglob("*.html"):
        assert "{{ truco." not in html_file.read_text(encoding="utf-8"), html_file


def test_portuguese_language_and_search(site: Path) -> None:
    index = (site / "index.html").read_text(encoding="utf-8")
    assert '<html lang="pt-BR"' in index  # Brazilian Portuguese, not European
    assert "Buscar" in index
    config = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))[
        "config"
    ]
    assert config["lang"] == ["pt"]
    assert (site / "assets" / "javascripts" / "lunr" / "min" / "lunr.pt.min.js").exists()


def test_the_home_page_says_what_truco_is_and_where_to_start(site: Path) -> None:
    home = parse(site / "index.html")
    article = next(home.find_all("article"))
    first = next(article.find_all("p"))
    assert first.text.startswith("Truco é um jogo de cartas")
    start = next(article.find_all("a", data_comece_aqui=None))
    assert start.attrs["href"] == "como-jogar/" and "md-button--primary" in (
        start.attrs["class"] or ""
    )
    # the footer's "Próximo" goes on to Como jogar
    nexts = [
        a.attrs["href"]
        for a in home.find_all("a")
        if "md-footer__link--next" in (a.attrs.get("class") or "")
    ]
    assert nexts == ["como-jogar/"]


def test_every_table_header_cell_says_what_its_column_is(site: Path) -> None:
    """An empty first ``<th>`` leaves a screen reader with a nameless column."""
    for html_file in site.rglob("*.html"):
        for th in parse(html_file).find_all("th"):
            assert th.text.strip(), html_file


def test_no_url_to_another_host(site: Path) -> None:
    """Every src/href is relative or points at the site's own address: no fonts, CDN or trackers."""
    import yaml  # mkdocs depends on PyYAML

    class Env(yaml.SafeLoader):
        pass

    Env.add_constructor("!ENV", lambda loader, node: loader.construct_sequence(node)[-1])
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Env)
    own = urlsplit(config["site_url"]).netloc
    assert config["theme"]["font"] is False
    pages = list(site.rglob("*.html"))
    assert len(pages) >= 16
    for html_file in pages:
        for node in parse(html_file).iter():
            for attr in ("src", "href"):
                url = node.attrs.get(attr) or ""
                if url.startswith(("http:", "https:", "//")):
                    assert urlsplit(url).netloc == own, f"{html_file}: {url}"
    for asset in ("truco.js", "truco.css"):
        text = (site / "assets" / asset).read_text(encoding="utf-8")
        # the only URL allowed is the SVG namespace of the drawn Spanish suits (never fetched)
        assert set(re.findall(r"https?://[^\s'\")]+", text)) <= {"http://www.w3.org/2000/svg"}


def test_dark_light_toggle_and_mobile_viewport(site: Path) -> None:
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'data-md-color-scheme="slate"' in index  # the second palette of the toggle
    assert "Mudar para o modo escuro" in index
    assert 'name="viewport" content="width=device-width,initial-scale=1"' in index


# ------------------------------------------------------------------ generated tables


def test_vira_table_matches_the_engine_for_every_vira(site: Path) -> None:
    (table,) = tables(site, "cartas", "vira")
    rs = RULESETS["paulista"]
    rows = body_rows(table)
    assert [r.attrs["data-vira"] for r in rows] == [r.code for r in Rank]
    for row in rows:
        for suit in Suit:  # the vira's suit never matters
            vira = Card.of(
                Rank[next(r.name for r in Rank if r.code == row.attrs["data-vira"])], suit
            )
            manilhas = rs.manilhas_for(vira)
            assert field(row, "manilhas").cards() == [c.code for c in manilhas]
            order = rs.card_order(vira)
            common = [g[0].rank.code for g in order if g[0] not in manilhas]
            assert value(row, "comuns").split() == common


@pytest.mark.parametrize("variant", ["mineiro", "trem-bao"])
def test_card_order_of_fixed_variants_matches_the_engine(site: Path, variant: str) -> None:
    (table,) = [t for t in tables(site, "cartas", "order") if t.attrs["data-variant"] == variant]
    rs = RULESETS[variant]
    shown = [field(r, "cartas").cards() for r in body_rows(table)]
    assert shown == [[c.code for c in group] for group in rs.card_order(None)]
    assert sum(len(g) for g in shown) == len(rs.deck)


def test_ladders_match_accept_and_run_values(site: Path) -> None:
    found = {}
    for table in tables(site, "truco", "ladder"):
        rs = RULESETS[table.attrs["data-variant"]]
        ladder = tuple(int(v) for v in table.attrs["data-ladder"].split("-"))
        rows = {int(r.attrs["data-step"]): r for r in body_rows(table)}
        assert int(value(rows[-1], "accept")) == rs.hand_value
        for step, accepted in enumerate(ladder):
            assert int(value(rows[step], "accept")) == accepted
            assert int(value(rows[step], "run")) == rs.run_value(ladder, step)
        assert len(rows) == len(ladder) + 1
        found.setdefault(rs.name, []).append(ladder)
    for rs in RULESETS.values():
        assert found[rs.name] == list(rs.ladder_options)
    # the house ladder of docs-dev/RULES.md R2/R6: 4-6-10-12, running from seis pays 4
    assert (4, 6, 10, 12) in found["mineiro"]


def test_cangou_rows_are_what_the_engine_decides(site: Path) -> None:
    (table,) = tables(site, "cangou", "cangou")
    rs = RULESETS["paulista"]
    strength = rs.strength_table(Card.parse("4D"))
    seen = set()
    for row in body_rows(table):
        rounds: list[int | None] = []
        for i in (1, 2, 3):
            cell = field(row, f"r{i}")
            cards = cell.cards()
            if not cards:
                assert value(row, f"r{i}") == "-"
                continue
            us, them = (strength[Card.parse(c)] for c in cards)
            result = None if us == them else (0 if us > them else 1)
            assert value(row, f"r{i}") == ("tie" if result is None else str(result))
            rounds.append(result)
        done, winner = hand_outcome(tuple(rounds))
        assert done
        assert value(row, "winner") == ("none" if winner is None else str(winner))
        seen.add(tuple(rounds))
    # every situation of the R4 table appears
    assert {(None, 0), (None, None, 0), (0, None), (0, 1, None), (None, None, None)} <= seen


def test_special_hands_match_the_rulesets(site: Path) -> None:
    (table,) = tables(site, "mao-de-onze", "special")
    rows = {r.attrs["data-variant"]: r for r in body_rows(table)}
    assert set(rows) == set(RULESETS)
    for rs in RULESETS.values():
        row = rows[rs.name]
        threshold = rs.threshold(rs.default_target)
        assert int(value(row, "threshold")) == threshold
        assert int(value(row, "play")) == rs.special_hand_value
        assert int(value(row, "run")) == rs.hand_value
        assert value(row, "name") == rs.special_hand
    # the iron hand page has its own table, not a copy of the mão de onze one
    assert not list(page(site, "mao-de-ferro").find_all("table", data_truco="special"))
    (iron,) = tables(site, "mao-de-ferro", "iron")
    rows = {r.attrs["data-variant"]: r for r in body_rows(iron)}
    for rs in RULESETS.values():
        threshold = rs.threshold(rs.default_target)
        assert int(value(rows[rs.name], "iron")) == threshold
        assert int(value(rows[rs.name], "iron_value")) == rs.hand_value
    # and the engine really plays it that way: run11 gives the other team the plain hand value
    for rs in RULESETS.values():
        threshold = rs.threshold(rs.default_target)
        hands = [tuple(rs.deck[i : i + 3]) for i in (0, 3)]
        vira = rs.deck[6] if rs.uses_vira else None
        m = Match.from_hand(rs, None, score=(threshold, 0), dealer=1, hands=hands, vira=vira)
        m.apply(0, m.legal_actions(0)[1])  # run11
        assert m.points == (0, rs.hand_value)


def test_variant_comparison_matches_the_rulesets(site: Path) -> None:
    (table,) = tables(site, "variantes", "variants")
    rows = {r.attrs["data-row"]: r for r in body_rows(table)}
    for rs in RULESETS.values():
        assert int(value(rows["deck"], rs.name)) == len(rs.deck)
        assert int(value(rows["vira"], rs.name)) == int(rs.uses_vira)
        assert int(value(rows["hand_value"], rs.name)) == rs.hand_value
        assert value(rows["ladder"], rs.name) == "-".join(map(str, rs.ladder))
        options = value(rows["ladder_options"], rs.name).split()
        assert options == ["-".join(map(str, lo)) for lo in rs.ladder_options]
        assert int(value(rows["special"], rs.name)) == rs.special_hand_value
        assert int(value(rows["target"], rs.name)) == rs.default_target
        timer = rs.fixed_timer if rs.fixed_timer is not None else TableOptions().timer
        assert int(value(rows["timer"], rs.name)) == timer
        assert int(value(rows["partner"], rs.name)) == int(rs.partner_cards_when_answering)
        if not rs.uses_vira:
            assert field(rows["manilhas"], rs.name).cards() == [
                c.code for c in rs.manilhas_for(None)
            ]


def test_table_options_match_the_defaults(site: Path) -> None:
    (table,) = tables(site, "regras-da-casa", "options")
    rows = {r.attrs["data-option"]: r for r in body_rows(table)}
    d = TableOptions()
    assert value(rows["target"], "range") == f"{MIN_TARGET}-{MAX_TARGET}"
    assert int(value(rows["target"], "default")) == d.target
    assert int(value(rows["players"], "default")) == d.players
    assert int(value(rows["covered_cards"], "default")) == int(d.covered_cards)
    assert int(value(rows["timer"], "default")) == d.timer
    assert value(rows["timer"], "range") == f"{MIN_TIMER}-{MAX_TIMER}"
    assert f"de {MIN_TIMER} a {MAX_TIMER} segundos" in field(rows["timer"], "range").text
    assert value(rows["ladder"], "default") == "-".join(map(str, RULESETS["mineiro"].ladder))
    assert int(value(rows["sinais"], "default")) == int(d.sinais)
    assert int(value(rows["catch_percent"], "default")) == d.catch_percent


def test_timeout_example_is_the_engine_default_action(site: Path) -> None:
    (p,) = page(site, "tempo").find_all("p", data_truco="timeout")
    shown_hand = p.cards()[:3]
    m = Match.from_hand(
        "trem-bao", None, score=(0, 0), dealer=1,
        hands=[tuple(Card.parse(c) for c in shown_hand), tuple(Card.parse(c) for c in ("KC", "2H", "AH"))],
    )  # fmt: skip
    action = m.default_action(0)
    assert action is not None and action.card is not None
    assert p.attrs["data-card"] == action.card.code == p.cards()[-1]


def test_tutorial_trace_is_the_engine_replay(site: Path) -> None:
    root = page(site, "tutorial")
    (container,) = root.find_all("div", data_tutorial=None)
    trace = json.loads(container.attrs["data-tutorial-trace"] or "")
    expected = build_trace()
    for lesson in trace["lessons"]:
        for hand in lesson["hands"]:
            assert hand.pop("call_names") == list(ALL_RULESETS[hand["variant"]].call_names)
    assert trace == expected


def test_developer_page_example_replays_as_shown(site: Path) -> None:
    text = (ROOT / "site" / "desenvolvedores.md").read_text(encoding="utf-8")
    scenario = json.loads(re.search(r"```json\n(.*?)```", text, re.S).group(1))
    shown = re.search(r"\$ truco replay \S+\n(\{.*\})\n", text).group(1)
    assert replay(scenario) == json.loads(shown)


def test_robots_page_without_results_says_not_measured(tmp_path) -> None:
    out = tmp_path / "site"
    result = build_site(out, TRUCO_ARENA_RESULTS=str(tmp_path / "missing.json"))
    assert result.returncode == 0, result.stderr
    (box,) = page(out, "robos").find_all(data_truco="robots")
    assert box.attrs["data-measured"] == "0"
    assert "ainda sem medições" in box.text


def arena_run(
    a: str, b: str, rate: float, wilson: list[float], p95: float, variant: str = "paulista"
) -> dict:
    """One run as `truco arena --save` writes it (docs-dev/arena-protocol.md)."""

    def side(spec: str, r: float, w: list[float], t: float) -> dict:
        return {
            "side": spec, "wins": r * 2000, "win_rate": r, "wilson95": w, "points_per_hand": 1.2,
            "decision_ms": {"p50": t / 4, "p95": t, "decisions": 39000}, "forfeits": 0,
        }  # fmt: skip

    return {
        "command": f"truco arena {a} {b} --matches 2000 --variant {variant} --players 2 --seed 1",
        "date": "2026-11-29T11:05:50+00:00",
        "machine": {"platform": "Linux", "processor": "x86_64", "cpus": 2, "python": "3.11.7"},
        "variant": variant, "players": 2, "target": 12, "seed": 1, "budget_ms": None,
        "sides": [a, b], "matches": 2000, "hands": 9500, "seconds": 1200.0,
        "results": [side(a, rate, wilson, p95), side(b, 1 - rate, [1 - wilson[1], 1 - wilson[0]], 3.0)],
    }  # fmt: skip


def test_robots_table_shows_the_arena_numbers(tmp_path) -> None:
    runs = [
        arena_run("robot:dificil", "robot:medio", 0.6125, [0.5911, 0.6335], 212.0),
        arena_run("robot:medio", "random", 0.955, [0.9451, 0.9632], 2.5),
        arena_run("robot:facil", "robot:tight", 0.48, [0.4581, 0.5019], 1.0),
        arena_run("robot:medio", "robot:facil", 0.7, [0.63, 0.76], 2.0, variant="gauderio"),
        arena_run("robot:medio", "robot:probe", 0.43, [0.408, 0.451], 1.1),
    ]
    runs[1]["load_average"] = {"start": [10.88, 11.9, 10.7], "end": [8.2, 9.0, 9.9]}
    for side, cpu in zip(
        runs[0]["results"], ({"p50": 40.5, "p95": 96.1}, {"p50": 0.4, "p95": 0.5}), strict=True
    ):
        side["decision_cpu_ms"] = cpu
    path = tmp_path / "arena.json"
    path.write_text(json.dumps(runs), encoding="utf-8")
    out = tmp_path / "site"
    result = build_site(out, TRUCO_ARENA_RESULTS=str(path))
    assert result.returncode == 0, result.stderr
    (table,) = page(out, "robos").find_all("table", data_truco="robots")
    rows = body_rows(table)
    assert len(rows) == len(runs)
    for row, run in zip(rows, runs, strict=True):
        assert value(row, "sides").split() == run["sides"]
        assert int(row.attrs["data-matches"] or "") == run["matches"]
        assert int(row.attrs["data-players"] or "") == run["players"]
        shown = [float(x) for x in value(row, "win_a").split()]
        side = run["results"][0]
        assert shown == [side["win_rate"], *side["wilson95"]]
    assert "61,3%" in rows[0].text and "robô difícil × robô médio" in rows[0].text
    assert "29/11/2026" in rows[0].text
    # learners get no milliseconds; the developers' page has the times and the commands
    assert "ms" not in table.text and "p95" not in table.text
    # the same runs in words: a side clearly ahead only when its whole margin is
    (verdict,) = page(out, "robos").find_all("ul", data_truco="robots-verdict")
    said = {li.attrs["data-level"]: li.text for li in verdict.find_all("li")}
    assert set(said) == {"facil", "medio", "dificil"}
    assert "ganha com folga de robô médio" in said["dificil"]
    assert "perde com folga de robô difícil" in said["medio"]
    assert "ganha com folga de aleatório" in said["medio"]
    assert "sem diferença clara contra treino: fechado" in said["facil"]
    # the best response's margin: what the probe wins from médio, not what médio wins
    assert "a melhor resposta a ele (treino: sonda do médio) ganha 57,0%" in said["medio"]
    assert "(margem de 54,9% a 59,2%)" in said["medio"]
    assert "melhor resposta" not in said["dificil"] + said["facil"]
    # each variant has its own sentence: médio beats fácil at gaudério, not at paulista
    by_variant = {
        (s.attrs["data-level"], span.attrs["data-variant"]): span.text
        for s in verdict.find_all("li")
        for span in s.find_all("span")
    }
    assert "ganha com folga de robô fácil" in by_variant["medio", "gauderio"]
    assert "Truco gaudério" in by_variant["medio", "gauderio"]
    assert "fácil" not in by_variant["medio", "paulista"]
    assert "perde com folga de robô médio" in by_variant["facil", "gauderio"]
    assert "folga" not in by_variant["facil", "paulista"]
    assert "Truco gaudério" in rows[3].text
    (dev,) = page(out, "desenvolvedores").find_all("table", data_truco="robots-dev")
    dev_rows = body_rows(dev)
    assert [field(r, "command").text for r in dev_rows] == [run["command"] for run in runs]
    assert value(dev_rows[0], "ms").split() == ["53.0", "212.0", "0.75", "3.0"]
    # the decision's CPU time when the run recorded it (a shared machine inflates the clock)
    assert value(dev_rows[0], "cpu_ms").split() == ["40.5", "96.1", "0.4", "0.5"]
    assert "40,5 · 96,1 / 0,4 · 0,5" in field(dev_rows[0], "cpu_ms").text
    assert field(dev_rows[1], "cpu_ms").text == "—"
    # how busy the machine was shows with the run that recorded it
    assert "carga 10,9 → 8,2" in dev_rows[1].text and "carga" not in dev_rows[0].text


def test_robots_table_refuses_a_file_it_cannot_read(tmp_path) -> None:
    path = tmp_path / "arena.json"
    path.write_text(json.dumps([{"variant": "paulista"}]), encoding="utf-8")
    result = build_site(tmp_path / "site", TRUCO_ARENA_RESULTS=str(path))
    assert result.returncode != 0
    assert "fora do formato esperado" in result.stderr


def test_a_tutorial_step_that_is_not_legal_breaks_the_build(tmp_path) -> None:
    """The real hook, fed a broken script, must stop the build (the script is swapped by env)."""
    script = json.loads((ROOT / "engine" / "data" / "tutorial.json").read_text(encoding="utf-8"))
    script["lessons"][0]["hands"][0]["actions"][0]["act"] = "cover"  # no covered card in round 1
    bad = tmp_path / "tutorial.json"
    bad.write_text(json.dumps(script), encoding="utf-8")
    result = build_site(tmp_path / "site", TRUCO_TUTORIAL_SCRIPT=str(bad))
    assert result.returncode != 0
    assert "cover_not_allowed" in result.stderr


# ------------------------------------------------------------------ sinais (R12)


def test_sinais_table_is_the_engines(site: Path) -> None:
    from engine.sinais import SINAIS

    (table,) = tables(site, "sinais", "sinais")
    rows = body_rows(table)
    assert [r.attrs["data-sinal"] for r in rows] == [info.code for info in SINAIS]
    fixed = RULESETS["mineiro"].manilhas
    assert fixed is not None
    for row, info in zip(rows, SINAIS, strict=True):
        assert value(row, "emoji") == info.emoji
        assert value(row, "name") == info.name and value(row, "face") == info.face
        named = value(row, "fixed").split()
        # the cards shown for mineiro/Trem Bão are exactly the ones the signal names
        for variant in ("mineiro", "trem-bao"):
            deck = RULESETS[variant].deck
            expected = [c.code for c in deck if info.matches(c, fixed)]
            assert set(expected) <= set(named) and set(named) <= {
                c.code for c in RULESETS["mineiro"].deck
            }
        if info.manilha is not None:
            assert value(row, "paulista") == info.manilha.code


def test_sinais_page_states_the_default_catch_chance(site: Path) -> None:
    p = page(site, "sinais")
    (each,) = p.find_all("span", data_truco="catch")
    (escape,) = p.find_all("span", data_truco="escape")
    chance = TableOptions().catch_percent
    assert int(each.attrs["data-value"] or 0) == chance
    assert float(escape.attrs["data-value"] or 0) == pytest.approx(
        (1 - chance / 100) ** 2, abs=1e-4
    )


# ------------------------------------------------------------------ address, 404, search


def test_site_url_is_the_public_address_and_configurable(site: Path, tmp_path) -> None:
    """Canonical links and the sitemap name the public address, never 127.0.0.1; TRUCO_SITE_URL sets it."""
    from bot.config import DEFAULT_RULEBOOK_URL

    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    assert "127.0.0.1" not in sitemap and "localhost" not in sitemap
    assert f"<loc>{DEFAULT_RULEBOOK_URL}cangou/</loc>" in sitemap
    canonical = next(
        n for n in page(site, "cangou").find_all("link") if n.attrs.get("rel") == "canonical"
    )
    assert canonical.attrs["href"] == DEFAULT_RULEBOOK_URL + "cangou/"
    out = tmp_path / "elsewhere"
    result = build_site(out, TRUCO_SITE_URL="https://truco.example.org/livro/")
    assert result.returncode == 0, result.stderr
    assert "<loc>https://truco.example.org/livro/cangou/</loc>" in (out / "sitemap.xml").read_text(
        encoding="utf-8"
    )


def test_404_page_is_portuguese_with_ways_back(site: Path) -> None:
    root = parse(site / "404.html")
    (title,) = root.find_all("h1", data_truco="404")
    assert title.text == "Página não encontrada"
    text = (site / "404.html").read_text(encoding="utf-8")
    assert "Not found" not in text
    links = [
        n.attrs.get("href")
        for n in root.find_all("a")
        if "md-button" in (n.attrs.get("class") or "")
    ]
    assert "/regras/" in links and "/regras/tutorial/" in links


def test_search_folds_accents_leaves_developers_out_and_puts_definitions_first(
    site: Path,
) -> None:
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    boosts = {d["location"]: d.get("boost", 1) for d in index["docs"]}
    # learners searching the rules never meet the developers' page
    assert not any(loc.startswith("desenvolvedores/") for loc in boosts)
    # the one-sheet summary repeats every word of the rules: it must not outrank them
    assert boosts["resumo/"] < 1
    # the glossary defines the words the other pages use
    assert boosts["glossario/"] > 1
    assert all(b == 1 for loc, b in boosts.items() if not loc.startswith(("glossario/", "resumo/")))
    worker_pt = (site / "assets/javascripts/lunr/min/lunr.pt.min.js").read_text(encoding="utf-8")
    assert worker_pt.count('registerFunction(dobra, "trucoDobra")') == 1


def test_search_results_read_tables_and_cards_as_words(site: Path) -> None:
    """Cells and cards apart, each card once (its traditional face), no deck switch."""
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    texts = {d["location"]: d["text"] for d in index["docs"]}
    everything = " ".join(texts.values())
    assert "Espanhol (bastos" not in everything and "Tradicional ♣♥♠♦" not in everything
    assert not re.search(r"[♣♥♠♦]\w", everything), re.search(r".{20}[♣♥♠♦]\w.{20}", everything)
    mineiro = texts["cartas/#mineiro-manilhas-fixas"]
    assert "Tipo 1 4♣ zap 2 7♥ copas 3 A♠ espadilha" in mineiro
    assert "3♣ 3♥ 3♠ 3♦ comum" in mineiro
    # the page a person sees is the same: the cards still carry both faces
    page = (site / "cartas" / "index.html").read_text(encoding="utf-8")
    assert 'class="carta__esp" data-search-exclude' in page


# ------------------------------------------------------------------ summary, commented hand


def test_ladders_summary_is_every_ruleset_ladder(site: Path) -> None:
    (table,) = tables(site, "resumo", "ladders")
    rows = body_rows(table)
    # one column pair per distinct ladder: Trem Bão shares the paulista one
    assert {rs.ladder for rs in RULESETS.values()} == {
        RULESETS["paulista"].ladder,
        RULESETS["mineiro"].ladder,
    }
    for name in ("paulista", "mineiro"):
        rs = RULESETS[name]
        assert [int(value(r, f"accept-{name}")) for r in rows] == list(rs.ladder)
        assert [int(value(r, f"run-{name}")) for r in rows] == [
            rs.run_value(rs.ladder, i) for i in range(len(rs.ladder))
        ]


def test_commented_hand_is_the_engine_replay(site: Path) -> None:
    from engine.tutorial import load_lessons

    (box,) = page(site, "mao-comentada").find_all("div", data_truco="comentada")
    (hand,) = load_lessons(ROOT / "engine" / "data" / "comentada.json").lessons[0].hands
    assert replay(dict(hand.scenario))["error"] is None
    assert box.attrs["data-points"] == " ".join(map(str, hand.result["points"]))
    items = list(box.find_all("li"))
    assert len(items) == len(hand.steps)
    for li, step in zip(items, hand.steps, strict=True):
        assert step.narration in li.text and step.explanation in li.text
    # all four hands are shown at the deal, as dealt
    shown = box.cards()
    for cards in hand.scenario["hands"]:
        assert set(cards) <= set(shown)
