"""Truco gaudério (R13): card strength, envido points, worths, and random play that never
breaks the engine (legal actions apply, defaults are legal, snapshots round-trip)."""

from __future__ import annotations

import random

import pytest

from engine import Match, Phase, TableOptions, get_ruleset
from engine import envido as E
from engine.actions import Act
from engine.cards import parse_cards


def test_strength_order_r13_1() -> None:
    rs = get_ruleset("gauderio")
    groups = [" ".join(sorted(c.code for c in g)) for g in rs.card_order()]
    assert groups[:7] == ["AS", "AC", "7S", "7D", "3C 3D 3H 3S", "2C 2D 2H 2S", "AD AH"]
    assert groups[-4:] == ["7C 7H", "6C 6D 6H 6S", "5C 5D 5H 5S", "4C 4D 4H 4S"]


@pytest.mark.parametrize(
    ("cards", "points"),
    [("7S 6S 3D", 33), ("KC QC 5D", 20), ("7H 5D 3C", 7), ("4H 5H 6H", 31), ("KC QH JS", 0)],
)
def test_envido_points_r13_3(cards: str, points: int) -> None:
    assert E.envido_points(parse_cards(cards)) == points


def test_flor_points_r13_4() -> None:
    assert E.has_flor(parse_cards("4H 5H 6H")) and not E.has_flor(parse_cards("4H 5H 6D"))
    assert E.flor_points(parse_cards("7H 6H 5H")) == 38


def test_worth_table_is_r13_3s() -> None:
    f = "falta"
    table = {
        " ".join(c.split("-")[0] for c in seq): (acc, dec) for seq, acc, dec in E.worth_table()
    }
    assert table == {
        "envido": (2, 1),
        "envido envido": (4, 2),
        "envido real": (5, 2),
        "envido envido real": (7, 4),
        "real": (3, 1),
        "falta": (f, 1),
        "envido falta": (f, 2),
        "envido envido falta": (f, 4),
        "real falta": (f, 3),
        "envido real falta": (f, 5),
        "envido envido real falta": (f, 7),
    }


def test_default_targets_and_option_range() -> None:
    rs = get_ruleset("gaúcho")
    assert (rs.default_target_for(4), rs.default_target_for(2)) == (24, 18)
    with pytest.raises(ValueError):
        TableOptions(target=11).validated(rs)
    assert TableOptions(target=30).validated(rs).target == 30
    assert not TableOptions(covered_cards=True).validated(rs).covered_cards


@pytest.mark.parametrize("players", [2, 4])
def test_random_matches_stay_legal(players: int) -> None:
    rng = random.Random(players)
    seen: set[Act] = set()
    flor_hands = 0
    for seed in range(40):
        rs = get_ruleset("gauderio")
        m = Match(rs, TableOptions(players=players, target=rs.default_target_for(players)), seed)
        while not m.is_terminal():
            if m.phase == Phase.HAND_OVER:
                m.deal()
                continue
            if m.flor:
                flor_hands += 1
            seats = m.to_act()
            assert seats, m.phase
            seat = rng.choice(seats)
            legal = m.legal_actions(seat)
            assert m.default_action(seat) in legal
            if m.phase == Phase.ENVIDO:
                assert m.default_action(seat).act == Act.NAO_QUERO  # R10 via R13.3
            action = rng.choice(legal)
            seen.add(action.act)
            m.apply(seat, action)
            again = Match.from_json(m.to_json())
            assert again.to_json() == m.to_json()
            assert again.legal_actions(seat) == m.legal_actions(seat)
            assert m.score[0] <= m.options.target and m.score[1] <= m.options.target
        replayed = Match.replay(m.ruleset, m.options, seed, m.log)
        assert replayed.score == m.score
    assert {Act.ENVIDO, Act.REAL_ENVIDO, Act.FALTA_ENVIDO, Act.QUERO, Act.NAO_QUERO} <= seen
    assert Act.COVER not in seen and flor_hands


def test_a_flor_is_no_seats_action() -> None:
    m = Match.from_hand(
        "gauderio", TableOptions(), score=(0, 0), dealer=1,
        hands=[parse_cards("AS 3C QD"), parse_cards("4H 5H 6H")],
    )  # fmt: skip
    assert m.flor == ()
    m.apply(0, m.legal_actions(0)[0])
    assert m.flor == (1,) and m.hand_log[-1][1].act == Act.FLOR
    assert all(a.act != Act.FLOR for a in m.legal_actions(1))


def _accepted_2x2() -> Match:
    m = Match.from_hand(
        "gauderio", TableOptions(players=4, target=24), score=(0, 0), dealer=3,
        hands=[parse_cards(h) for h in ("7H 5D 3C", "7S 4S KD", "6C 5C JS", "6D 5H 2H")],
    )  # fmt: skip
    m.apply(0, m.legal_actions(0)[0])  # seat 0 plays
    m.apply(1, next(a for a in m.legal_actions(1) if a.act == Act.ENVIDO))
    m.apply(2, next(a for a in m.legal_actions(2) if a.act == Act.QUERO))
    return m


def test_views_show_the_winning_points_at_once_and_the_proof_at_the_end() -> None:
    m = _accepted_2x2()
    # 31 (seat 2: 6C 5C) against 31 (seat 1: 7S 4S): the mão's team (seat 0) wins
    envidos = [m.view(s).envido for s in range(4)]
    assert all(e == envidos[0] for e in envidos)  # public
    e = envidos[0]
    assert e is not None
    assert (e.state, e.winner, e.worth, e.winner_seat, e.winner_points) == ("accepted", 0, 2, 2, 31)
    assert e.proof is None  # shown only when the hand ends
    assert [m.view(s).envido_points for s in range(4)] == [7, 31, 31, 27]
    while m.phase < Phase.HAND_OVER:
        seat = m.to_act()[0]
        m.apply(seat, m.default_action(seat) or m.legal_actions(seat)[0])
    proof = m.view(1).envido
    assert proof is not None and proof.proof == parse_cards("6C 5C")


def test_a_declined_envido_shows_no_points() -> None:
    m = Match.from_hand(
        "gauderio", TableOptions(), score=(0, 0), dealer=1,
        hands=[parse_cards("7S 6S 3D"), parse_cards("7D 5D AC")],
    )  # fmt: skip
    m.apply(0, next(a for a in m.legal_actions(0) if a.act == Act.REAL_ENVIDO))
    pending = m.view(1).envido
    assert pending is not None and (pending.accept_value, pending.decline_value) == (3, 1)
    assert pending.raises == ("falta-envido",)
    assert m.default_action(1) == next(a for a in m.legal_actions(1) if a.act == Act.NAO_QUERO)
    m.apply(1, m.default_action(1))  # timeout: declined (R10, R13.3)
    for seat in (0, 1):
        e = m.view(seat).envido
        assert e is not None and e.winner == 0 and e.worth == 1
        assert e.winner_points is None and e.winner_seat is None and e.proof is None
        assert "33" not in str(m.view(1 - seat).to_json()["envido"])


def test_flor_is_announced_at_once_and_its_cards_shown_at_the_end() -> None:
    m = Match.from_hand(
        "gauderio", TableOptions(), score=(0, 0), dealer=1,
        hands=[parse_cards("AS 3C QD"), parse_cards("4H 5H 6H")],
    )  # fmt: skip
    m.apply(0, m.legal_actions(0)[0])
    v = m.view(0)
    assert v.flor == (1,) and v.flor_cards == () and v.history[-1] == (1, m.hand_log[-1][1])
    while m.phase < Phase.HAND_OVER:
        seat = m.to_act()[0]
        m.apply(seat, m.legal_actions(seat)[0])
    assert m.view(0).flor_cards == ((1, parse_cards("4H 5H 6H")),)


def test_other_variants_views_have_no_points_game() -> None:
    m = Match("paulista", TableOptions(), 1)
    v = m.view(0)
    assert (v.envido, v.envido_points, v.flor, v.flor_cards) == (None, None, (), ())
    assert v.to_json()["envido"] is None and v.to_json()["flor"] == []


@pytest.mark.parametrize(
    ("players", "levels"),
    [
        (2, ("facil", "medio")),
        (4, ("medio", "facil")),
        (2, ("dificil", "tight")),
        (4, ("dificil", "probe")),
    ],
)
def test_robots_play_gauderio_legally(players: int, levels: tuple[str, str]) -> None:
    from engine.robots import get_robot
    from engine.robots.sparring import get_sparring
    from engine.turns import robot_turn

    def robot(level: str, seed: int) -> object:
        if level in ("facil", "medio", "dificil"):
            return get_robot(level, seed=seed, playouts=24)
        return get_sparring(level, seed=seed)

    rs = get_ruleset("gauderio")
    m = Match(rs, TableOptions(players=players, target=12), 11)
    names = [levels[s % 2] for s in range(players)]
    robots = [robot(names[s], s) for s in range(players)]
    envidos = 0
    while not m.is_terminal() and m.hand_number < 6:
        if m.phase == Phase.HAND_OVER:
            m.deal()
            continue
        turn = robot_turn(m, names)
        assert turn is not None
        move = turn.ready(robots[turn.seat])
        if move is None:
            move = robots[turn.seat].choose(turn.view)  # type: ignore[attr-defined]
        assert move in m.legal_actions(turn.seat) or move in m.legal_signals(turn.seat)
        envidos += move.act in (Act.ENVIDO, Act.REAL_ENVIDO, Act.FALTA_ENVIDO)
        m.apply(turn.seat, move)


def test_an_envido_is_answered_in_play_order_from_its_caller() -> None:
    from engine.turns import first_to_ask

    m = Match.from_hand(
        "gauderio", TableOptions(players=4, target=24), score=(0, 0), dealer=0,
        hands=[parse_cards(h) for h in ("7H 5D 3C", "7S 4S KD", "6C 5C JS", "6D 5H 2H")],
    )  # fmt: skip
    # seat 1 is the mão; it plays, then seat 2 calls envido: seat 3 answers first, then 1
    m.apply(1, m.legal_actions(1)[0])
    m.apply(2, next(a for a in m.legal_actions(2) if a.act == Act.ENVIDO))
    assert m.to_act() == (1, 3) and first_to_ask(m) == 3
