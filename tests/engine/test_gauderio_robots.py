"""Difícil's reading of gaudério's points game: the others' envido choices, the points a
showdown showed, the flors sung or not, and gaudério's whole-hand signals (R13.3-R13.5).
Every check reads a view only: the hidden cards never enter a robot's decision."""

from __future__ import annotations

import random

from engine import Match, Phase, TableOptions
from engine import envido as E
from engine.actions import Act
from engine.cards import parse_cards
from engine.robots.pontos import (
    envido_tells,
    points_move,
    tell_likelihood,
    weighted_chance,
    win_chance,
)
from engine.robots.search import sample_world, weighted_world
from engine.robots.sinais import Clue, Clues
from engine.sinais import Sinal


def _hand(players: int, hands: tuple[str, ...], flor: bool = True) -> Match:
    opts = TableOptions(players=players, target=18 if players == 2 else 24, flor=flor)
    return Match.from_hand(
        "gauderio", opts, score=(0, 0), dealer=players - 1, hands=[parse_cards(h) for h in hands]
    )


def _act(m: Match, seat: int, act: Act) -> None:
    m.apply(seat, next(a for a in m.legal_actions(seat) if a.act == act))


def test_calls_and_answers_are_likelier_with_more_points() -> None:
    for kind in ("call", "raise", "real-envido", "falta-envido", "quero"):
        assert tell_likelihood(kind, 33) > tell_likelihood(kind, 27) > tell_likelihood(kind, 7)
    for kind in ("pass", "nao-quero"):
        assert tell_likelihood(kind, 7) > tell_likelihood(kind, 27) > tell_likelihood(kind, 33)


def test_an_opponents_call_lowers_the_chance_to_win_the_envido() -> None:
    # seat 0 (the mão at 1×1, dealer 1) holds 27; the other seat's cards stay hidden
    quiet = _hand(2, ("7H 5D QH", "4C 5C JS"))
    before = weighted_chance(quiet.view(0), random.Random(1), 400)
    m = _hand(2, ("7H 5D QH", "4C 5C JS"))
    m.apply(0, next(a for a in m.legal_actions(0) if a.act == Act.PLAY))
    _act(m, 1, Act.REAL_ENVIDO)
    v = m.view(0)
    assert v.phase == Phase.ENVIDO and envido_tells(v) == {1: ["real-envido"]}
    after = weighted_chance(v, random.Random(1), 400)
    # 27 points: a hand the real envido was called with beats it more often than one drawn blind
    assert after < before - 0.1


def _called(call: Act, hand: str = "7H 5D QH") -> Match:
    """Seat 0 (27 points with the default hand) has played its first card; seat 1 calls."""
    m = _hand(2, (hand, "4C 5C JS"))
    m.apply(0, next(a for a in m.legal_actions(0) if a.act == Act.PLAY))
    _act(m, 1, call)
    return m


def test_medio_reads_the_size_of_the_call_it_answers() -> None:
    chances = []
    for call in (Act.ENVIDO, Act.REAL_ENVIDO, Act.FALTA_ENVIDO):
        v = _called(call, "5H 4H QS").view(0)  # 29 points
        blind = win_chance(v, random.Random(4), 400)
        read = win_chance(v, random.Random(4), 400, read_calls=True)
        assert read < blind  # whoever calls holds more than a hand drawn blind
        chances.append(read)
    # the larger the call, the stronger the hand behind it
    assert chances[0] > chances[1] + 0.1 and chances[1] > chances[2]


def test_medio_declines_a_falta_envido_on_27_points_it_used_to_accept() -> None:
    v = _called(Act.FALTA_ENVIDO).view(0)
    assert v.phase == Phase.ENVIDO and v.envido_points == 27
    for seed in range(3):
        # the rule of before (the sparring styles keep it) accepts against a blind draw
        assert points_move(v, random.Random(seed), "plain") is not None
        assert points_move(v, random.Random(seed), "plain").act == Act.QUERO
        move = points_move(v, random.Random(seed), "medio")
        assert move is not None and move.act == Act.NAO_QUERO
    # a plain envido on the same 27 points is still worth a quero
    plain = _called(Act.ENVIDO).view(0)
    move = points_move(plain, random.Random(0), "medio")
    assert move is not None and move.act in (Act.QUERO, Act.REAL_ENVIDO, Act.FALTA_ENVIDO)
    # with 33 points nothing beats the hand: the falta is accepted
    strong = _called(Act.FALTA_ENVIDO, "7S 6S QH").view(0)
    assert strong.envido_points == 33
    move = points_move(strong, random.Random(0), "medio")
    assert move is not None and move.act == Act.QUERO


def test_dificil_reads_the_size_of_the_call_it_answers() -> None:
    # the larger the call that opened the points game, the stronger the hand behind it
    chances = [
        weighted_chance(_called(call, "5H 4H QS").view(0), random.Random(4), 400)  # 29 points
        for call in (Act.ENVIDO, Act.REAL_ENVIDO, Act.FALTA_ENVIDO)
    ]
    assert chances[0] > chances[1] > chances[2]
    # so 27 points no longer hold a falta envido worth the match; 33 still do
    v = _called(Act.FALTA_ENVIDO).view(0)
    assert v.envido_points == 27
    for seed in range(3):
        move = points_move(v, random.Random(seed), "dificil")
        assert move is not None and move.act == Act.NAO_QUERO
    strong = _called(Act.FALTA_ENVIDO, "7S 6S QH").view(0)
    move = points_move(strong, random.Random(0), "dificil")
    assert move is not None and move.act == Act.QUERO


def test_a_first_card_played_without_calling_raises_the_chance() -> None:
    m = _hand(2, ("4C 5C JS", "7H 5D QH"))
    m.apply(0, next(a for a in m.legal_actions(0) if a.act == Act.PLAY))
    v = m.view(1)
    assert envido_tells(v) == {0: ["pass"]}
    blind = _hand(2, ("4C 5C JS", "7H 5D QH")).view(1)
    assert weighted_chance(v, random.Random(2), 400) > weighted_chance(blind, random.Random(2), 400)


def test_the_winner_of_a_showdown_holds_the_points_it_showed() -> None:
    # seat 1 wins the envido with 33 (7 and 6 of espadas); seat 0 searches afterwards
    m = _hand(2, ("4C 5D JH", "7S 6S KD"))
    _act(m, 0, Act.ENVIDO)
    _act(m, 1, Act.QUERO)
    v = m.view(0)
    assert v.envido is not None and v.envido.winner_points == 33
    rng = random.Random(3)
    for _ in range(20):
        world = sample_world(v, rng)
        assert E.envido_points(world.hands[1]) == 33
        assert set(world.hands[0]) == set(parse_cards("4C 5D JH"))


def test_a_seat_that_acted_without_a_sung_flor_holds_none() -> None:
    m = _hand(4, ("4C 5D JH", "7S 6D KD", "2C 3D QH", "AD 4H 5S"))
    dealer_next = m.to_act()[0]
    m.apply(dealer_next, next(a for a in m.legal_actions(dealer_next) if a.act == Act.PLAY))
    seat = m.to_act()[0]
    v = m.view(seat)
    rng = random.Random(4)
    for _ in range(30):
        world, weight = weighted_world(v, rng)
        assert weight >= 0
        assert not E.has_flor(world.hands[dealer_next])


def test_gauderio_whole_hand_signals_read_the_ace_high_hand() -> None:
    # an ace-high hand signals "nada" (no ace sign at a gaudério table): it must not be
    # read as impossible, and "tenho pontos" says 30 or more from the three dealt cards
    nada = Clue(2, Sinal.NADA, 0.9, 0, (), points_game=True)
    ace_high = [7, 3, 1]
    assert nada.likelihood(ace_high) > 0.5
    assert nada.likelihood([9, 3, 1]) < 0.1  # a 3 would have been signalled
    pontos = Clue(2, Sinal.PONTOS, 0.9, 0, (), points_game=True)
    assert pontos.likelihood([5, 4, 0], parse_cards("7C 6C 4D")) > 0.5  # 33
    assert pontos.likelihood([5, 4, 0], parse_cards("7C 6H 4D")) < 0.1  # 7
    assert Clues((pontos,)).top() >= pontos.likelihood([5, 4, 0], parse_cards("7C 6C 4D"))


def test_worlds_keep_the_table_s_flors_when_both_teams_sang_one() -> None:
    # seats 0 and 3 sing flor; team 1's is the best and took 6 points at 18 × 14 of 24:
    # a world where seat 3's drawn flor lost would end the match at the flors
    opts = TableOptions(players=4, target=24, flor=True)
    hands = [parse_cards(h) for h in ("3H JH 6H", "5D 4C KS", "7C 2C QS", "7S 6S 5S")]
    m = Match.from_hand("gauderio", opts, score=(18, 14), dealer=3, hands=hands)
    for seat in (0, 1, 2):
        m.apply(seat, next(a for a in m.legal_actions(seat) if a.act == Act.PLAY))
    _act(m, 3, Act.TRUCO)
    v = m.view(0)
    assert v.flor == (0, 3) and v.points == (0, 6)
    rng = random.Random(5)
    for _ in range(30):
        world, _ = weighted_world(v, rng)
        assert E.has_flor(world.hands[3] + tuple(c for s, c, _ in world.table if s == 3))
        assert world.score == v.score and world.phase == v.phase
