"""The marcador (engine/marcador.py): a real-deck match's score by the variant's rules."""

from __future__ import annotations

import pytest

from engine import HandKind
from engine.marcador import Marcador, site_config, warning


def test_paulista_values_score_and_the_target() -> None:
    p = Marcador()
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
    assert Marcador("mineiro").values() == (2, 4, 8, 10, 12)
    assert Marcador("Truco Mineiro", ladder=(4, 6, 10, 12)).values() == (2, 4, 6, 10, 12)
    with pytest.raises(ValueError, match="escada"):
        Marcador("paulista", ladder=(4, 6, 10, 12))
    with pytest.raises(ValueError, match="não pode valer 1"):
        Marcador("mineiro").add(0, 1)


@pytest.mark.parametrize(
    ("variant", "special", "plain", "at"),
    [("paulista", 3, 1, 11), ("trem-bao", 3, 1, 11), ("mineiro", 4, 2, 10)],
)
def test_mao_de_onze_or_dez_then_the_iron_hand(variant, special, plain, at) -> None:
    p = Marcador(variant)
    while p.score[0] < at:
        p = p.add(0, plain)
    assert p.score == (at, 0) and p.kind == HandKind.SPECIAL
    assert p.values() == p.values(1) == (plain, special) and p.values(0) == (special,)
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
    p = Marcador(target=6)
    for _ in range(5):
        p = p.add(1, 1)
    assert p.kind == HandKind.SPECIAL and p.threshold == 5
    with pytest.raises(ValueError, match="6 a 30"):
        Marcador(target=31)


def test_names_round_trip_and_cleaning() -> None:
    p = Marcador("mineiro", target=15, names=("  Time   do Zé ", "")).add(0, 4)
    assert p.names == ("Time do Zé", "Eles")
    assert p.renamed(1, "x" * 80).names[1] == "x" * 24
    assert Marcador.from_json(p.to_json()) == p
    for bad in ({}, {"variant": "paulista"}, {**p.to_json(), "hands": [[0, 5]]}):
        with pytest.raises(ValueError):
            Marcador.from_json(bad)
    assert p.restarted().score == (0, 0) and p.restarted().names == p.names


def test_site_config_is_what_marcador_says() -> None:
    config = site_config()
    for v in config["variants"]:
        assert v["special_values"]["team"] == [v["special_value"]]
        for ladder in v["ladders"]:
            lad = tuple(ladder["ladder"])
            p = Marcador(v["name"], ladder=lad if lad != tuple(v["ladders"][0]["ladder"]) else None)
            assert tuple(ladder["normal"]) == p.values()
        for target in range(v["min_target"], 31):
            assert v["thresholds"][str(target)] == Marcador(v["name"], target=target).threshold


def _reach(p: Marcador, team: int, at: int) -> Marcador:
    while p.score[team] < at:
        p = p.add(team, p.ruleset.hand_value)
    return p


@pytest.mark.parametrize(
    ("variant", "target", "plain", "special"),
    [
        ("paulista", 12, 1, 3),
        ("paulista", 6, 1, 3),
        ("mineiro", 12, 2, 4),
        ("mineiro", 6, 2, 4),
        ("trem-bao", 12, 1, 3),
        ("trem-bao", 15, 1, 3),
    ],
)
def test_each_team_is_offered_only_the_scores_the_special_hand_can_give(
    variant, target, plain, special
) -> None:
    """11 × 2 in paulista: the team at 11 plays and wins 3, or runs and the other team scores 1,
    so it never scores 1 itself (nor 6: no truco); the other team scores 1 or 3 (R7)."""
    p = _reach(Marcador(variant, target=target), 1, 2)
    p = _reach(p, 0, p.threshold)
    assert p.kind == HandKind.SPECIAL and p.score == (target - plain, 2)
    assert p.values(0) == (special,)
    assert p.values(1) == (plain, special)
    with pytest.raises(ValueError, match=f"não pode valer {plain}"):
        p.add(0, plain)
    for team, points in ((0, special), (1, plain), (1, special)):
        p.add(team, points)  # every score the rules can produce is accepted
    assert p.add(0, special).winner == 0
    assert p.add(1, plain).score == (target - plain, 2 + plain)
    # the same for the other team when it is the one at the threshold
    q = _reach(Marcador(variant, target=target), 1, p.threshold)
    assert q.values(1) == (special,) and q.values(0) == (plain, special)


@pytest.mark.parametrize(("variant", "plain"), [("paulista", 1), ("mineiro", 2), ("trem-bao", 1)])
@pytest.mark.parametrize("target", [6, 12])
def test_the_iron_hand_offers_the_plain_value_to_both(variant, plain, target) -> None:
    p = Marcador(variant, target=target)
    p = _reach(_reach(p, 0, p.threshold), 1, p.threshold)
    assert p.kind == HandKind.IRON
    assert p.values(0) == p.values(1) == (plain,)
    with pytest.raises(ValueError):
        p.add(0, plain + 2)
    assert p.add(1, plain).winner == 1


@pytest.mark.parametrize(
    ("variant", "ladder", "normal"),
    [
        ("paulista", None, (1, 3, 6, 9, 12)),
        ("trem-bao", None, (1, 3, 6, 9, 12)),
        ("mineiro", None, (2, 4, 8, 10, 12)),
        ("mineiro", (4, 6, 10, 12), (2, 4, 6, 10, 12)),
    ],
)
def test_a_plain_hand_offers_the_plain_value_and_the_ladder_to_both(
    variant, ladder, normal
) -> None:
    p = Marcador(variant, ladder=ladder, target=6)
    assert p.values(0) == p.values(1) == p.values() == normal
    p = p.add(1, normal[-1])  # doze to 6 points shows 6 (R9)
    assert p.score == (0, 6) and p.winner == 1 and p.values(0) == ()


def test_a_score_stored_with_an_old_impossible_hand_is_still_read() -> None:
    old = {"variant": "paulista", "target": 12, "ladder": None, "names": ["A", "B"]}
    p = Marcador.from_json({**old, "hands": [[0, 9], [0, 1], [0, 1], [0, 1]]})
    assert p.score == (12, 0) and p.winner == 0


def test_gauderio_counts_hands_envido_and_flor_to_24() -> None:
    p = Marcador("gauderio", target=24)
    assert p.values(0) == (1, 2, 3, 4) and p.kind.name == "NORMAL"
    assert p.points_values("envido") == (1, 2, 3, 4, 5, 7, 24)  # the falta at 0 × 0 is 24
    assert p.points_values("flor") == (3, 6, 9, 12)
    p = p.add(0, 4).add(1, 3, "flor").add(0, 7, "envido").add(1, 2)
    assert p.score == (11, 5)
    assert p.points_values("envido")[-1] == 13  # the falta: what the leader still needs
    with pytest.raises(ValueError):
        p.add(0, 6, "envido")  # no envido sequence pays 6
    with pytest.raises(ValueError):
        p.add(0, 5)  # a hand is worth at most 4 (vale-quatro)
    p = p.add(1, 13, "envido")  # a falta won by the team behind still caps at the target
    assert p.score == (11, 18)
    p = p.add(1, 7, "envido")
    assert p.score == (11, 24) and p.winner == 1
    assert p.points_values("envido") == () and p.values() == ()
    again = Marcador.from_json({**p.to_json(), "hands": [[0, 7, "envido"], [1, 3, "flor"]]})
    assert again.score == (7, 3)
    assert Marcador("paulista").points_values("envido") == ()
    (g,) = [v for v in site_config()["variants"] if v["name"] == "gauderio"]
    assert g["envido_values"] == [1, 2, 3, 4, 5, 7] and g["flor_values"] == [3, 6, 9, 12]
    assert g["default_target"] == 24 and g["min_target"] == 12
