"""The marcador (engine/marcador.py): a real-deck match's score by the variant's rules."""

from __future__ import annotations

import pytest

from engine import HandKind
from engine.marcador import Placar, site_config, warning


def test_paulista_values_score_and_the_target() -> None:
    p = Placar()
    assert p.values() == (1, 3, 6, 9, 12)
    p = p.add(0, 3).add(1, 1).add(0, 6)
    assert p.score == (9, 1) and p.kind == HandKind.NORMAL and p.winner is None
    p = p.add(0, 3)  # 9 + 3 shows 12, never 13 (R9)
    assert p.score == (12, 1) and p.winner == 0
    assert p.values() == ()
    assert "Vitória de Nós" in warning(p)
    with pytest.raises(ValueError, match="acabou"):
        p.add(1, 1)
    assert p.undo().score == (9, 1) and p.undo().winner is None


def test_mineiro_and_its_house_ladder() -> None:
    assert Placar("mineiro").values() == (2, 4, 8, 10, 12)
    assert Placar("Truco Mineiro", ladder=(4, 6, 10, 12)).values() == (2, 4, 6, 10, 12)
    with pytest.raises(ValueError, match="escada"):
        Placar("paulista", ladder=(4, 6, 10, 12))
    with pytest.raises(ValueError, match="não pode valer 1"):
        Placar("mineiro").add(0, 1)


@pytest.mark.parametrize(
    ("variant", "special", "plain", "at"),
    [("paulista", 3, 1, 11), ("trem-bao", 3, 1, 11), ("mineiro", 4, 2, 10)],
)
def test_mao_de_onze_or_dez_then_the_iron_hand(variant, special, plain, at) -> None:
    p = Placar(variant)
    while p.score[0] < at:
        p = p.add(0, plain)
    assert p.score == (at, 0) and p.kind == HandKind.SPECIAL
    assert p.values() == (plain, special)
    w = warning(p)
    assert ("Mão de dez" if variant == "mineiro" else "Mão de onze") in w
    assert f"vale {special}" in w and f"{plain} para Eles" in w
    with pytest.raises(ValueError):
        p.add(1, 6)  # no truco in the mão de onze/dez
    while p.score[1] < at:
        p = p.add(1, plain)
    assert p.kind == HandKind.IRON and p.values() == (plain,)
    assert "Mão de ferro" in warning(p) and "às cegas" in warning(p)
    p = p.add(1, plain)
    assert p.winner == 1 and p.score == (at, 12)


def test_the_target_moves_the_threshold() -> None:
    p = Placar(target=6)
    for _ in range(5):
        p = p.add(1, 1)
    assert p.kind == HandKind.SPECIAL and p.threshold == 5
    with pytest.raises(ValueError, match="6 a 30"):
        Placar(target=31)


def test_names_round_trip_and_cleaning() -> None:
    p = Placar("mineiro", target=15, names=("  Time   do Zé ", "")).add(0, 4)
    assert p.names == ("Time do Zé", "Eles")
    assert p.renamed(1, "x" * 80).names[1] == "x" * 24
    assert Placar.from_json(p.to_json()) == p
    for bad in ({}, {"variant": "paulista"}, {**p.to_json(), "hands": [[0, 5]]}):
        with pytest.raises(ValueError):
            Placar.from_json(bad)
    assert p.restarted().score == (0, 0) and p.restarted().names == p.names


def test_site_config_is_what_placar_says() -> None:
    config = site_config()
    for v in config["variants"]:
        for ladder in v["ladders"]:
            lad = tuple(ladder["ladder"])
            p = Placar(v["name"], ladder=lad if lad != tuple(v["ladders"][0]["ladder"]) else None)
            assert tuple(ladder["normal"]) == p.values()
        for target in range(6, 31):
            assert v["thresholds"][str(target)] == Placar(v["name"], target=target).threshold
