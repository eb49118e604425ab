"""The gaudério page (R13): every table on it is what the engine says, read back from the HTML."""

from __future__ import annotations

from pathlib import Path

from engine.cards import parse_cards
from engine.envido import (
    FLOR_WORTH,
    envido_cards,
    envido_points,
    falta_value,
    flor_points,
    has_flor,
    worth_table,
)
from engine.rulesets import ALL_RULESETS, MAX_TARGET
from tests.site.test_site import body_rows, page, tables, value

GAUDERIO = ALL_RULESETS["gauderio"]


def test_card_order_is_the_engines_with_the_southern_names(site: Path) -> None:
    (table,) = tables(site, "gauderio", "gauderio-order")
    rows = body_rows(table)
    assert [value(r, "cartas").split() for r in rows] == [
        [c.code for c in g] for g in GAUDERIO.card_order(None)
    ]
    names = {value(r, "nome"): r for r in rows}
    # the four top cards one by one, in R13.1's order, then the false aces and sevens
    assert [value(r, "nome") for r in rows[:4]] == ["AS", "AC", "7S", "7D"]
    assert "espadão" in rows[0].text and "bastião" in rows[1].text
    assert sorted(value(names["A"], "cartas").split()) == ["AD", "AH"]
    assert "ases falsos" in names["A"].text
    assert sorted(value(names["7"], "cartas").split()) == ["7C", "7H"]
    assert "setes falsos" in names["7"].text


def test_ladder_is_two_three_four_with_run_values(site: Path) -> None:
    (table,) = tables(site, "gauderio", "gauderio-ladder")
    rows = {int(r.attrs["data-step"]): r for r in body_rows(table)}
    assert int(value(rows[-1], "accept")) == GAUDERIO.hand_value == 1
    assert [int(value(rows[s], "accept")) for s in range(3)] == [2, 3, 4]
    assert [int(value(rows[s], "run")) for s in range(3)] == [1, 2, 3]
    assert [next(rows[s].find_all("td")).text for s in range(3)] == [
        "Truco",
        "Retruco",
        "Vale-quatro",
    ]


def test_envido_table_is_r13_3_whole(site: Path) -> None:
    (table,) = tables(site, "gauderio", "gauderio-envido")
    shown = [
        (tuple(value(r, "calls").split()), value(r, "accepted"), int(value(r, "declined")))
        for r in body_rows(table)
    ]
    assert shown == [(calls, str(a), d) for calls, a, d in worth_table()]
    by_calls = {" ".join(c): (a, d) for c, a, d in shown}
    # R13.3's own figures, written out so a wrong engine table cannot pass
    assert by_calls["envido"] == ("2", 1)
    assert by_calls["envido envido real-envido"] == ("7", 4)
    assert by_calls["envido real-envido"] == ("5", 2)
    assert by_calls["real-envido"] == ("3", 1)
    assert by_calls["falta-envido"] == ("falta", 1)
    assert by_calls["envido envido real-envido falta-envido"] == ("falta", 7)
    assert len(shown) == 11


def test_points_and_flor_examples_are_computed_by_the_engine(site: Path) -> None:
    (points,) = tables(site, "gauderio", "gauderio-points")
    for row in body_rows(points):
        hand = parse_cards(value(row, "hand"))
        assert int(value(row, "points")) == envido_points(hand)
        assert value(row, "proof").split() == [c.code for c in envido_cards(hand)]
    assert {value(r, "hand"): int(value(r, "points")) for r in body_rows(points)}["7S 6S 3D"] == 33
    (flor,) = tables(site, "gauderio", "gauderio-flor")
    for row in body_rows(flor):
        hand = parse_cards(value(row, "hand"))
        assert has_flor(hand)
        assert int(value(row, "points")) == flor_points(hand)
        assert int(value(row, "worth")) == FLOR_WORTH == 3


def test_ties_end_with_the_mao_when_all_three_tie(site: Path) -> None:
    (table,) = tables(site, "gauderio", "gauderio-ties")
    outcomes = [
        ([value(r, f"r{i}") for i in (1, 2, 3)], value(r, "winner")) for r in body_rows(table)
    ]
    assert (["tie", "tie", "tie"], "0") in outcomes  # Nós are the mão
    assert (["tie", "1", "-"], "1") in outcomes
    assert (["1", "tie", "-"], "1") in outcomes


def test_targets_and_falta_example(site: Path) -> None:
    root = page(site, "gauderio")

    def inline(kind: str) -> int:
        (node,) = root.find_all("span", data_truco=kind)
        return int(node.attrs["data-value"] or "")

    assert inline("gauderio-target") == 24 == GAUDERIO.default_target_for(4)
    assert inline("gauderio-target_1x1") == 18 == GAUDERIO.default_target_for(2)
    assert inline("gauderio-min_target") == GAUDERIO.min_target
    assert inline("gauderio-max_target") == MAX_TARGET
    assert inline("gauderio-falta") == falta_value((20, 15), 24) == 4


def test_page_says_which_gaucho_trucos_are_not_played_and_is_linked(site: Path) -> None:
    text = page(site, "gauderio").text
    for other in ("truco de amostra", "testa", "carancho"):
        assert other in text
    for linking in ("variantes", "outros-trucos"):
        hrefs = [a.attrs.get("href") or "" for a in page(site, linking).find_all("a")]
        assert any(h.rstrip("/").endswith("gauderio") for h in hrefs), linking


def test_robots_page_names_gauderio_only_once_measured(tmp_path, monkeypatch) -> None:
    import importlib.util
    import json

    from tests import ROOT
    from tests.site.test_site import arena_run

    spec = importlib.util.spec_from_file_location("truco_hook", ROOT / "site/_hooks/truco.py")
    assert spec is not None and spec.loader is not None
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    path = tmp_path / "arena.json"
    monkeypatch.setenv("TRUCO_ARENA_RESULTS", str(path))
    runs = [arena_run("robot:medio", "robot:facil", 0.7, [0.68, 0.72], 3.0)]
    path.write_text(json.dumps(runs), encoding="utf-8")
    assert hook.robots_gauderio() == ""  # no gaudério run: not a word
    gaucho = arena_run("robot:dificil", "robot:medio", 0.6125, [0.5911, 0.6335], 9.0)
    gaucho["variant"] = "gauderio"
    path.write_text(json.dumps([*runs, gaucho]), encoding="utf-8")
    said = hook.robots_gauderio()
    assert 'data-runs="1"' in said and "robô difícil × robô médio" in said
    assert "61,3%" in said and "59,1% a 63,3%" in said and "gaudério" in said
    assert "Truco gaudério" in hook.robots()  # the measured table names the variant
