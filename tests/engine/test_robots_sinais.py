"""Robots and sinais (R12): they read their partner's and caught signals, and signal honestly."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import cycle

import pytest

from engine import Match, Phase, TableOptions
from engine import actions as A
from engine.actions import Act
from engine.cards import parse_cards
from engine.robots import Deaf, get_robot, robot_signal
from engine.robots.reading import Reading
from engine.robots.search import Dificil
from engine.robots.sense import read
from engine.robots.sinais import Clues, bluff_scale, choose_signal, sinal_of
from engine.sinais import PAULISTA_SINAIS, Sinal, truthful
from engine.tools.arena import Setup, Side, arena
from engine.tools.arena.protocol import RobotPlayer
from engine.tools.terminal import play


def answered_call(sinal: Sinal | None, *, signaller: int, catch: int = 25, seed: int = 1) -> Match:
    """2×2 paulista (seed 1): seat 0 calls truco at once; ``signaller`` signals first."""
    m = Match("paulista", TableOptions(players=4, catch_percent=catch), seed, dealer=3)
    if sinal is not None and signaller == 0:
        m.apply(0, A.SIGNAL[sinal])
    m.apply(0, A.TRUCO)
    if sinal is not None and signaller == 3:
        m.apply(3, A.SIGNAL[sinal])
    return m


@pytest.mark.parametrize(
    "robot", [get_robot("medio", seed=1), Dificil(1, playouts=120)], ids=["medio", "dificil"]
)
def test_the_partners_signal_changes_the_answer(robot: object) -> None:
    # seat 1 holds 2♣ 3♣ 7♦ under a Q♣ vira: two good cards and no manilha, a hand that
    # runs from a truco at once unless the partner holds the zap
    zap = answered_call(Sinal.ZAP, signaller=3, seed=13)
    nada = answered_call(Sinal.NADA, signaller=3, seed=13)
    assert zap.view(1).hand == nada.view(1).hand == tuple(parse_cards("2C 3C 7D"))
    # with the zap beside it the hand plays on (médio may even raise); with nothing it runs
    assert robot.choose(zap.view(1)) in (A.ACCEPT, A.RAISE)  # type: ignore[attr-defined]
    assert robot.choose(nada.view(1)) == A.RUN  # type: ignore[attr-defined]


def test_a_caught_signal_changes_the_answer_and_an_unseen_one_does_not() -> None:
    robot = get_robot("medio", seed=1)
    caught_zap = answered_call(Sinal.ZAP, signaller=0, catch=100)
    caught_nada = answered_call(Sinal.NADA, signaller=0, catch=100)
    assert robot.choose(caught_zap.view(1)) == A.RUN

    def chance(m: Match) -> float:
        return Reading(read(m.view(1)), random.Random(1), 2000).chance()

    # a caught "nada" before the truco makes the call look like a bluff, a caught zap the
    # opposite; médio weighs that against how rarely anyone calls without cards (in 2×2
    # it expects 80% of calls to win, so the nada lifts its chance by about a third)
    plain = answered_call(None, signaller=0)
    assert chance(caught_nada) > chance(plain) * 1.25
    assert chance(plain) > chance(caught_zap)
    unseen = [answered_call(s, signaller=0, catch=0) for s in (Sinal.ZAP, Sinal.NADA)]
    assert robot.choose(unseen[0].view(1)) == robot.choose(unseen[1].view(1))


def test_a_robot_that_ignores_signals_plays_as_if_none_were_made() -> None:
    deaf = Deaf(get_robot("medio", seed=1))
    plain = answered_call(None, signaller=3)
    for s in PAULISTA_SINAIS:
        assert deaf.choose(answered_call(s, signaller=3).view(1)) == deaf.choose(plain.view(1))
        assert deaf.signal(plain.view(3)) is None


def test_clues_weigh_deals_by_the_signal() -> None:
    m = answered_call(Sinal.ZAP, signaller=3)
    view = m.view(1)
    st = m.ruleset.strength_table(m.vira)
    clues = Clues.of(view, st)
    assert [(c.seat, c.sinal) for c in clues.clues] == [(3, Sinal.ZAP)]
    with_zap = [[], [], [], [st[m.manilhas()[0]], 0, 1]]
    without = [[], [], [], [9, 0, 1]]
    assert clues.weight(with_zap) > 10 * clues.weight(without)
    assert sinal_of([13, 2]) == Sinal.ZAP and sinal_of([9, 8]) == Sinal.TRES
    assert sinal_of([6, 5, 4]) == Sinal.NADA


@pytest.mark.parametrize("level", ["medio", "dificil"])
def test_robots_signal_honestly_once_per_news(level: str) -> None:
    sent = 0
    for seed in range(6):
        m = Match("mineiro", TableOptions(players=4), seed)
        robots = [get_robot(level, seed=s, budget_ms=5) for s in range(4)]
        while m.phase < Phase.HAND_OVER:
            seat = m.to_act()[0]
            view = m.view(seat)
            sign = robot_signal(robots[seat], view)
            if sign is not None:
                assert sign.sinal == truthful(view.hand, view.manilhas)
                assert view.partner_hand is None
                m.apply(seat, sign)
                sent += 1
                assert choose_signal(m.view(seat)) is None  # nothing new to tell
            m.apply(seat, robots[seat].choose(m.view(seat)))
    assert sent >= 6


def test_no_signals_in_1x1_and_bluffs_shrink_when_a_nada_may_be_seen() -> None:
    one = Match("paulista", TableOptions(players=2), 3)
    assert robot_signal(get_robot("medio", seed=1), one.view(one.turn)) is None
    m = Match("paulista", TableOptions(players=4, catch_percent=100), 1, dealer=3)
    assert bluff_scale(m.view(0)) == 1.0
    m.apply(0, A.SIGNAL[Sinal.NADA])
    assert bluff_scale(m.view(0)) == 0.0
    m2 = Match("paulista", TableOptions(players=4, catch_percent=25), 1, dealer=3)
    m2.apply(0, A.SIGNAL[Sinal.NADA])
    assert bluff_scale(m2.view(0)) == pytest.approx(0.75**2)


def _after_nada(seed: int, catch: int) -> Match:
    """2×2 paulista, every seat playing its first card until seat 0's second turn; then seat
    0 signals "nada" (the catches roll only now, so both tables share what came before)."""
    m = Match("paulista", TableOptions(players=4, catch_percent=catch), seed, dealer=3)
    while not (m.to_act()[0] == 0 and len(m.view(0).hand) == 2):
        seat = m.to_act()[0]
        m.apply(seat, next(a for a in m.view(seat).legal if a.card is not None))
    if A.TRUCO in m.view(0).legal and A.SIGNAL[Sinal.NADA] in m.view(0).legal_signals:
        m.apply(0, A.SIGNAL[Sinal.NADA])
    return m


def test_medio_drops_bluffs_after_a_nada_the_other_team_surely_saw() -> None:
    robot = get_robot("medio", seed=1)
    unseen_calls: set[int] = set()
    seen_calls: set[int] = set()
    for seed in range(200):
        unseen, seen = _after_nada(seed, 0), _after_nada(seed, 100)
        if not any(a.act is Act.SIGNAL for _, a in seen.view(0).history):
            continue
        if robot.choose(unseen.view(0)) == A.TRUCO:
            unseen_calls.add(seed)
        if robot.choose(seen.view(0)) == A.TRUCO:
            seen_calls.add(seed)
    # the same calls, less the bluffs: a bluff a watcher saw coming is a gift
    assert seen_calls < unseen_calls
    assert len(unseen_calls) >= 20


def test_the_terminal_game_sends_and_shows_signals() -> None:
    out: list[str] = []
    answers = cycle(["z", "1", "1", "2"])
    assert play("paulista", 4, 12, 5, "medio", read=lambda _: next(answers), write=out.append) == 0
    text = "\n".join(out)
    assert "Com sinais" in text and "[z] sinal" in text
    assert "Você fez o sinal de zap" in text
    assert "Parceiro fez sinal:" in text
    assert "fez um sinal" in text  # an opponent's signal the human did not catch
    off: list[str] = []
    assert (
        play("paulista", 4, 12, 5, "medio", lambda _: next(answers), off.append, sinais=False) == 0
    )
    assert "[z] sinal" not in "\n".join(off) and "sinal" not in "\n".join(off).lower()


def test_arena_sides_and_tables_with_and_without_sinais() -> None:
    deaf = Side.parse("robot:médio:sem-sinais")
    assert deaf.spec == "robot:medio:sem-sinais" and not deaf.sinais
    assert Side.parse("robot:medio").sinais
    with pytest.raises(ValueError):
        Side.parse("robot:medio:surdo")
    setup = Setup((Side.parse("robot:medio"), deaf), "paulista", 4, 6, 1, None, 5.0)
    run = arena(setup, 2, progress=False)
    assert run["errors"] == [] and run["matches"] == 2 and "sinais" not in run
    off = arena(replace(setup, sinais=False), 2, progress=False)
    assert off["sinais"] is False and off["errors"] == []


def test_a_sparring_side_without_sinais_is_deaf() -> None:
    # a sparring robot built on médio signals at a table with sinais, as médio does; with
    # the suffix it neither signals nor reads, like robot:medio:sem-sinais
    m = Match("paulista", TableOptions(players=4), 1, dealer=3)
    view = m.view(m.to_act()[0])
    assert view.legal_signals
    speaking = RobotPlayer(Side.parse("robot:policy-calls"), 1, None)
    deaf_side = Side.parse("robot:policy-calls:sem-sinais")
    deaf = RobotPlayer(deaf_side, 1, None)
    assert speaking.signal(view) is not None
    assert deaf_side.spec == "robot:policy-calls:sem-sinais" and not deaf_side.sinais
    assert deaf.signal(view) is None and isinstance(deaf.robot, Deaf)
    assert Side.parse("robot:tight").sinais


def test_robots_sign_from_the_gauderio_list() -> None:
    # R13.5: at a gaudério table the honest sign names its top cards by their own names
    m = Match.from_hand(
        "gauderio",
        TableOptions(players=4),
        score=(0, 0),
        dealer=3,
        hands=[parse_cards(h) for h in ("7S 6S 3D", "4C 5H KD", "AS 2C QH", "4H 5C JD")],
    )
    assert choose_signal(m.view(2)) == A.SIGNAL[Sinal.ESPADAO]
    assert choose_signal(m.view(0)) == A.SIGNAL[Sinal.SETE_ESPADAS]
    assert choose_signal(m.view(1)) == A.SIGNAL[Sinal.NADA]
