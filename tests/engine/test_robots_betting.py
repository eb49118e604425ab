"""Robots' betting: the match's public bet counts, hand equity, reading calls, sparring, difícil's work."""

from __future__ import annotations

import random
import subprocess
import sys
from dataclasses import replace

import pytest

from engine import Match, Phase, TableOptions
from engine import actions as A
from engine.cards import Card, parse_cards
from engine.match import TeamBets
from engine.robots import Dificil, Medio, get_robot
from engine.robots.equity import key_of, level_map, table_for
from engine.robots.reading import Reading, Tendencies
from engine.robots.sense import read
from engine.robots.sparring import SPARRING, get_sparring
from engine.view import View


def scripted(hands: str, *, vira: str = "3D", dealer: int = 1, score=(0, 0)) -> Match:  # type: ignore[no-untyped-def]
    return Match.from_hand(
        "paulista",
        TableOptions(players=2, sinais=False),
        score=score,
        dealer=dealer,
        hands=[parse_cards(h) for h in hands.split("/")],
        vira=Card.parse(vira),
    )


# ------------------------------------------------------------ the bet counts


def test_views_count_each_teams_calls_accepts_raises_and_runs() -> None:
    m = Match("paulista", TableOptions(players=2, sinais=False), seed=3)
    assert m.view(0).bets == (TeamBets(), TeamBets())
    hand = 0
    # hand 1: truco, raised to seis, accepted; hand 2: truco, run
    while hand < 2:
        if m.phase == Phase.HAND_OVER:
            m.deal()
            hand += 1
            continue
        seat = m.to_act()[0]
        legal = m.legal_actions(seat)
        if hand == 0 and A.TRUCO in legal and m.stake == 1:
            m.apply(seat, A.TRUCO)
            m.apply(1 - seat, A.RAISE)
            m.apply(seat, A.ACCEPT)
            caller = seat
        elif hand == 1 and A.TRUCO in legal:
            m.apply(seat, A.TRUCO)
            m.apply(1 - seat, A.RUN)
            second = seat
        else:
            m.apply(seat, next(a for a in legal if a.act != A.TRUCO.act))
    bets = m.view(0).bets
    c, o = caller & 1, 1 - (caller & 1)
    assert bets[c].calls[0] >= 1 and bets[o].raised[0] == 1 and bets[c].accepted[1] == 1
    assert bets[o].calls[1] == 1
    assert bets[1 - (second & 1)].ran[0] == 1
    assert bets[0].hands == bets[1].hands == 2
    assert bets[0].faced == tuple(
        a + r + x for a, r, x in zip(bets[0].accepted, bets[0].raised, bets[0].ran, strict=True)
    )
    # the counts survive a snapshot and show in the protocol's JSON
    again = Match.from_json(m.to_json())
    assert again.view(1).bets == bets
    assert m.view(0).to_json()["bets"][c]["calls"][0] == bets[c].calls[0]


def test_a_partners_run_overridden_by_an_accept_is_no_run() -> None:
    m = Match.from_hand(
        "paulista",
        TableOptions(players=4, sinais=False),
        score=(0, 0),
        dealer=3,
        hands=[parse_cards(h) for h in ("3S 4D 5S", "4H 2H KC", "5C 5D 6H", "6C 6D 7S")],
        vira=Card.parse("7D"),
    )
    m.apply(0, A.TRUCO)
    m.apply(1, A.RUN)
    m.apply(3, A.ACCEPT)
    for seat, code in ((0, "3S"), (1, "4H"), (2, "5C"), (3, "6C")):
        m.apply(seat, A.PLAY[Card.parse(code)])
    for seat, code in ((0, "4D"), (1, "2H"), (2, "5D"), (3, "6D")):
        m.apply(seat, A.PLAY[Card.parse(code)])
    for seat, code in ((1, "KC"), (2, "6H"), (3, "7S"), (0, "5S")):
        m.apply(seat, A.PLAY[Card.parse(code)])
    assert m.phase == Phase.HAND_OVER
    assert m.bets[1].accepted == (1, 0, 0, 0) and m.bets[1].ran == (0, 0, 0, 0)
    # the call was played out: everybody saw whether the caller's hand was good
    won = int(m.hand_winner == 0)
    assert m.bets[0].shown == (1, 0, 0, 0) and m.bets[0].shown_won == (won, 0, 0, 0)
    assert m.bets[1].shown == (0, 0, 0, 0)


def test_a_run_shows_no_called_hand_and_old_snapshots_load_without_shown_counts() -> None:
    m = scripted("5D 6D 7S / KC QH JS", dealer=0)
    m.apply(1, A.TRUCO)
    m.apply(0, A.RUN)
    assert m.bets[1].calls == (1, 0, 0, 0) and m.bets[1].shown == (0, 0, 0, 0)
    data = m.to_json()
    for team in data["bets"]:
        del team["shown"], team["shown_won"]
    assert Match.from_json(data).bets == m.bets


# ------------------------------------------------------------------ equity


def test_equity_table_orders_hands_and_covers_every_deal() -> None:
    for variant in ("paulista", "mineiro", "trem-bao"):
        for players in (2, 4):
            t = table_for(variant, players)
            qs = sorted(t.quantile.values())
            assert 0 <= qs[0] < 0.05 and 0.95 < qs[-1] <= 1
    lv = level_map("paulista", Card.parse("3D"))  # manilhas are the 4s
    st = read(scripted("4C 4H 4S / 5D 6D 7S").view(0)).strength
    t = table_for("paulista", 2)
    lock = key_of(lv, [st[c] for c in parse_cards("4C 4H 4S")])
    trash = key_of(lv, [st[c] for c in parse_cards("5D 6D 7S")])
    assert t.equity_of(lock) > 0.97 and t.equity_of(trash) < 0.1
    assert t.quantile_of(lock) > 0.99 and t.quantile_of(trash) < 0.05


# ----------------------------------------------------------------- reading


def test_a_call_reads_as_a_better_hand_the_more_so_from_a_team_that_rarely_calls() -> None:
    m = scripted("5D 6D 7S / KC QH JS", dealer=0)
    m.apply(1, A.TRUCO)
    view = m.view(0)
    rare = Tendencies(call=0.9, accept=0.5, raise_=0.9, seats=1)
    assert rare.p_call(0.99, 0) > 0.75 > 0.2 > rare.p_call(0.5, 0)

    def caller_quantile(bets: tuple[TeamBets, TeamBets]) -> float:
        r = Reading(read(replace(view, bets=bets)), random.Random(1), 400)
        return sum(d.weight * d.quantile[1] for d in r.deals) / r.total()

    blind = Reading(read(view), random.Random(1), 400)
    flat = sum(d.quantile[1] for d in blind.deals) / len(blind.deals)
    quiet = (TeamBets(), TeamBets(hands=20, calls=(1, 0, 0, 0)))
    noisy = (TeamBets(), TeamBets(hands=20, calls=(16, 0, 0, 0)))
    assert caller_quantile(quiet) > caller_quantile(noisy) + 0.05
    assert caller_quantile(m.view(0).bets) > flat + 0.1


def test_a_call_from_a_team_whose_shown_calls_won_reads_stronger_than_from_a_bluffer() -> None:
    m = scripted("KC JH 6S / 4C 4H 5S", dealer=0)
    m.apply(1, A.TRUCO)
    view = m.view(0)

    def chance(shown: int, won: int) -> float:
        them = TeamBets(
            hands=12, calls=(shown, 0, 0, 0), shown=(shown, 0, 0, 0), shown_won=(won, 0, 0, 0)
        )
        return Reading(
            read(replace(view, bets=(TeamBets(hands=12), them))), random.Random(1), 400
        ).chance()

    honest, bluffer = chance(8, 8), chance(8, 2)
    assert bluffer > honest + 0.1
    assert (
        Tendencies.of(replace(view, bets=(TeamBets(), TeamBets(shown=(8, 0, 0, 0)))), 1).bluff > 0.5
    )


def test_medio_runs_from_a_re_raise_with_a_middling_hand_and_keeps_a_lock() -> None:
    # seat 0 calls truco, seat 1 raises to seis: a raise says "strong"
    middling = scripted("KC JH 6S / 4C 4H 5S", dealer=1)
    middling.apply(0, A.TRUCO)
    middling.apply(1, A.RAISE)
    assert Medio(0).choose(middling.view(0)) == A.RUN
    lock = scripted("4C 4H 4S / 5D 6D 7S", dealer=1)
    lock.apply(0, A.TRUCO)
    lock.apply(1, A.RAISE)
    assert Medio(0).choose(lock.view(0)) in (A.ACCEPT, A.RAISE)


def late_seis(hands: str) -> Match:
    """Seat 0 calls truco, seat 1 accepts and, on its own turn, calls seis."""
    m = scripted(hands, dealer=1)
    m.apply(0, A.TRUCO)
    m.apply(1, A.ACCEPT)
    m.apply(0, A.PLAY[m.hands[0][0]])
    m.apply(1, A.TRUCO)
    return m


def test_a_raise_after_an_accept_reads_as_a_made_hand_unless_the_teams_raises_lost() -> None:
    m = late_seis("3C 2H 6S / 4C 4H 5S")
    view = m.view(0)
    assert view.pending_step == 1

    def chance(them: TeamBets) -> float:
        bets = (TeamBets(hands=12, calls=(5, 0, 0, 0)), them)
        return Reading(read(replace(view, bets=bets)), random.Random(1), 400).chance()

    quiet = TeamBets(hands=12, calls=(3, 0, 0, 0), accepted=(4, 0, 0, 0))
    # the same counts, but the team's four raises were played out and all four lost
    lost = quiet._replace(calls=(3, 4, 0, 0), shown=(0, 4, 0, 0), shown_won=(0, 0, 0, 0))
    assert Tendencies.of_bets(quiet, 2).late_lose_ratio < 0.25
    assert (
        Tendencies.of_bets(lost, 2).late_lose_ratio
        > 3 * Tendencies.of_bets(quiet, 2).late_lose_ratio
    )
    assert chance(lost) > chance(quiet) + 0.1
    # a raise after an accept says more than the team's truco
    assert (
        Tendencies.of_bets(quiet, 2).late_lose_ratio < 0.5 * Tendencies.of_bets(quiet, 2).lose_ratio
    )


def test_medio_runs_from_a_raise_after_an_accept_unless_its_hand_is_made() -> None:
    # two threes: a good hand against a truco, not against a seis from who accepted it
    good = late_seis("3C 3H 6S / 4C 4H 5S")
    assert all(Medio(seed).choose(good.view(0)) == A.RUN for seed in range(5))
    made = late_seis("4C 4H 6S / 3C 2H 5S")
    assert Medio(0).choose(made.view(0)) in (A.ACCEPT, A.RAISE)


def test_a_raise_says_less_from_a_team_that_raises_often() -> None:
    # seat 0 calls truco, seat 1 raises to seis
    m = scripted("KC JH 6S / 4C 4H 5S", dealer=1)
    m.apply(0, A.TRUCO)
    m.apply(1, A.RAISE)
    view = m.view(0)
    rare = TeamBets(hands=12, calls=(3, 0, 0, 0), accepted=(4, 0, 0, 0), raised=(1, 0, 0, 0))
    often = TeamBets(hands=12, calls=(3, 5, 0, 0), accepted=(0, 0, 0, 0), raised=(5, 0, 0, 0))
    assert Tendencies.of_bets(often, 2).raise_floor > 2 * Tendencies.of_bets(rare, 2).raise_floor

    def chance(them: TeamBets) -> float:
        bets = (TeamBets(hands=12, calls=(5, 0, 0, 0)), them)
        return Reading(read(replace(view, bets=bets)), random.Random(1), 400).chance()

    assert chance(often) > chance(rare) + 0.03


# ---------------------------------------------------------------- sparring


@pytest.mark.parametrize("name", [s for s in SPARRING if not s.startswith("dificil-")])
def test_sparring_robots_play_legal_whole_matches(name: str) -> None:
    m = Match("paulista", TableOptions(players=4), seed=11)
    robots = [get_sparring(name, s) if s % 2 == 0 else Medio(s) for s in range(4)]
    while not m.is_terminal():
        if m.phase == Phase.HAND_OVER:
            m.deal()
        seat = m.to_act()[0]
        view = m.view(seat)
        action = robots[seat].choose(view)
        assert action in view.legal
        m.apply(seat, action)
    with pytest.raises(ValueError):
        get_sparring("mestre")


def test_the_valuer_raises_only_with_a_made_hand() -> None:
    from engine.robots.sparring import made_hand

    def after_first_round(hands: str) -> View:
        # seat 1 calls truco, seat 0 accepts and takes the first round with the 4H
        m = scripted(hands, dealer=0)
        m.apply(1, A.TRUCO)
        m.apply(0, A.ACCEPT)
        m.apply(1, A.PLAY[Card.parse("KC")])
        m.apply(0, A.PLAY[Card.parse("4H")])
        view = m.view(0)
        assert A.TRUCO in view.legal  # seis, on its own turn
        return view

    # vira 3D: the 4s are manilhas; seat 0 keeps the zap (4C), which nothing beats
    view = after_first_round("4C 4H 5S / KC QH JS")
    assert made_hand(read(view))
    assert get_sparring("valuer").choose(view) == A.TRUCO
    # a good but beatable card left: almost never a raise, whatever the seed
    view = after_first_round("4H 3C 5S / KC QH JS")
    assert not made_hand(read(view))
    assert sum(get_sparring("valuer", s).choose(view) == A.TRUCO for s in range(20)) <= 1


def test_styles_differ_where_they_should() -> None:
    weak = scripted("KC QH JS / 5D 6D 7S", dealer=0)
    weak.apply(1, A.TRUCO)
    view = weak.view(0)
    assert get_sparring("accepter").choose(view) == A.ACCEPT
    assert get_sparring("tight").choose(view) == A.RUN
    # an ace, a jack and a five (about 60% to win it played out): solid stays in the hand,
    # tight runs from it by some of its samples
    middling = scripted("AC JH 5S / 5D 6D 7D", dealer=0)
    middling.apply(1, A.TRUCO)
    view = middling.view(0)
    assert all(get_sparring("solid", s).choose(view) == A.ACCEPT for s in range(6))
    assert any(get_sparring("tight", s).choose(view) == A.RUN for s in range(6))


# ---------------------------------------------------- difícil's fixed work

LOAD = "import time\nend = time.time() + 60\nwhile time.time() < end: pass\n"


def dificil_decisions(robot: Dificil) -> list[str]:
    m = Match("paulista", TableOptions(players=2, sinais=False), seed=5)
    other = Medio(9)
    out = []
    while len(out) < 12 and not m.is_terminal():
        if m.phase == Phase.HAND_OVER:
            m.deal()
        seat = m.to_act()[0]
        view = m.view(seat)
        action = robot.choose(view) if seat == 0 else other.choose(view)
        if seat == 0 and len(view.legal) > 1:
            out.append(str(action))
        m.apply(seat, action)
    return out


def test_dificil_decides_the_same_on_a_loaded_and_an_idle_machine() -> None:
    # the arena's difícil: fixed work and no time cap
    idle = Dificil(4, playouts=40, budget_ms=None)
    first = dificil_decisions(idle)
    burners = [subprocess.Popen([sys.executable, "-c", LOAD]) for _ in range(4)]
    try:
        loaded = Dificil(4, playouts=40, budget_ms=None)
        second = dificil_decisions(loaded)
    finally:
        for p in burners:
            p.kill()
            p.wait()
    assert first == second
    assert idle.capped == loaded.capped == 0
    # a tiny cap is the only thing that may cut the work short
    hurried = Dificil(4, playouts=4000, budget_ms=1)
    dificil_decisions(hurried)
    assert hurried.capped > 0


def test_dificil_searches_its_2x2_bets_against_every_model_of_the_other_team(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from engine.robots import search
    from engine.robots.search import BETS, Answers

    models: list[Answers | None] = []
    plain = search.playout

    def spy(world, seat, action, rng, answers=None, learned=False):  # type: ignore[no-untyped-def]
        models.append(answers)
        return plain(world, seat, action, rng, answers, learned)

    monkeypatch.setattr(search, "playout", spy)
    dificil, medio = Dificil(3, playouts=16), Medio(3)
    bets = differ = 0
    for seed in range(12):
        m = Match("paulista", TableOptions(players=4, sinais=False), seed=seed)
        while m.phase < Phase.HAND_OVER:
            seat = m.to_act()[0]
            view = m.view(seat)
            models.clear()
            action = dificil.choose(view)
            if view.phase == Phase.ANSWER or A.TRUCO in view.legal:
                bets += 1
                choice = medio.choose(view)
                differ += action != choice and (action.act in BETS or choice.act in BETS)
                # every world is played out against médio's answers, the habit ones
                # and the card ones
                if models:
                    counts = {models.count(a) for a in Answers}
                    assert len(counts) == 1 and counts != {0}
                    assert None not in models
            m.apply(seat, action)
    # the search leaves médio's bet somewhere (a bet where médio played a card, or the
    # other way round)
    assert bets > 0 and differ > 0


def test_a_gain_within_the_noise_leaves_the_baseline_only_when_asked_to() -> None:
    from engine.robots.search import pick

    weights = [1.0] * 20
    zero = [0.0] * 20
    # mean 0.05, standard error about 0.23: positive, far inside one error
    noisy = [1.05 if i % 2 else -0.95 for i in range(20)]
    options = [A.RUN, A.ACCEPT]
    assert pick(options, [[zero, noisy]], weights) == A.RUN
    assert pick(options, [[zero, noisy]], weights, z=0.0) == A.ACCEPT
    # a mean below zero stays out however little noise is asked for
    assert pick(options, [[zero, [x - 0.1 for x in noisy]]], weights, z=0.0) == A.RUN


def test_a_robust_bet_must_gain_under_every_model_of_the_other_team() -> None:
    from engine.robots.search import pick, prune, prune_all

    weights = [1.0] * 20
    zero = [0.0] * 20
    gains = [0.3 + 0.01 * (i % 3) for i in range(20)]
    losses = [-0.3 + 0.01 * (i % 3) for i in range(20)]
    options = [A.RUN, A.ACCEPT, A.RAISE]
    # one model: the best clear gain is taken
    assert pick(options, [[zero, gains, losses]], weights) == A.ACCEPT
    # two models: a gain under one and a loss under the other leaves the baseline
    assert pick(options, [[zero, gains, losses], [zero, losses, gains]], weights) == A.RUN
    assert pick(options, [[zero, gains, losses], [zero, gains, gains]], weights) == A.ACCEPT
    # pruning: one model is ``prune``; with two, what either drops goes
    one = [[zero, losses, gains]]
    assert prune_all([0, 1, 2], one, weights) == prune([0, 1, 2], one[0], weights)
    two = [[zero, losses, gains], [zero, gains, losses]]
    assert prune_all([0, 1, 2], two, weights) == ([0], 0)
    assert prune_all([0, 1, 2], [[zero, gains, gains], [zero, gains, gains]], weights) == (
        [0, 1, 2],
        None,
    )


def test_get_robot_takes_dificils_work_and_cap() -> None:
    robot = get_robot("dificil", seed=1, playouts=30, budget_ms=500)
    assert isinstance(robot, Dificil) and robot.playouts == 30 and robot.budget_ms == 500


def test_dificil_stops_playing_out_the_options_clearly_worse_than_the_baseline() -> None:
    from engine.robots.search import prune

    weights = [1.0] * 20
    worse = [-0.2 + 0.01 * (i % 3) for i in range(20)]  # always below the baseline
    unclear = [0.05 if i % 2 else -0.05 for i in range(20)]
    better = [0.3 + 0.01 * (i % 3) for i in range(20)]
    zero = [0.0] * 20
    # the baseline (0) always stays; a clear loser goes, an unclear option stays
    assert prune([0, 1, 2], [zero, worse, unclear], weights) == ([0, 2], None)
    # nothing left beside the baseline: the baseline is taken now
    assert prune([0, 1], [zero, worse], weights) == ([0], 0)
    # one contender left, far above the baseline: taken now
    assert prune([0, 1, 3], [zero, worse, zero, better], weights) == ([0, 3], 3)
    # two contenders: the search goes on
    assert prune([0, 2, 3], [zero, zero, unclear, better], weights) == ([0, 2, 3], None)


def test_readings_draw_the_hidden_cards_as_random_sample_does() -> None:
    from engine.robots.reading import drawer

    for seed in range(40):
        for n in (1, 5, 21, 22, 27, 36, 40):
            for k in range(min(n, 10) + 1):
                pool = list(range(100, 100 + n))
                mine, theirs = random.Random(seed), random.Random(seed)
                draw = drawer(pool, k)
                assert [draw(mine.getrandbits) for _ in range(3)] == [
                    theirs.sample(pool, k) for _ in range(3)
                ]
                assert mine.random() == theirs.random()  # the streams stay in step


def test_a_2x2_reading_weighs_each_action_by_its_own_teams_habits(monkeypatch) -> None:
    # a partner's call and an opponent's answer in one hand: each is read with the habits
    # of the team that made it (a slip once read the whole hand with the last one's)
    import engine.robots.reading as reading

    seen: list[tuple[Tendencies, object, int]] = []
    factor = reading.event_likelihood

    def spy(t, act, q, step):
        seen.append((t, act, step))
        return factor(t, act, q, step)

    monkeypatch.setattr(reading, "event_likelihood", spy)
    checked = 0
    for seed in range(40):
        m = Match("paulista", TableOptions(players=4, sinais=False), seed=seed)
        robots = [get_robot("medio", seed=seed * 10 + s) for s in range(4)]
        while not m.is_terminal() and checked < 5:
            if m.phase == Phase.HAND_OVER:
                m.deal()
            seat = m.to_act()[0]
            view = m.view(seat)
            tend = (Tendencies.of(view, 0), Tendencies.of(view, 1))
            events = reading._events(view)
            if tend[0] != tend[1] and len({s & 1 for s, _a, _st in events}) == 2:
                reading._factor_memo.cache_clear()
                seen.clear()
                Reading(read(view), random.Random(seed), 24)
                own = {(act, step): tend[s & 1] for s, act, step in events}
                assert seen and all(own.get((act, step), t) == t for t, act, step in seen)
                checked += 1
            m.apply(seat, robots[seat].choose(view))
    assert checked == 5


def test_a_2x2_search_can_leave_out_raising_a_call_medio_runs_from(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from engine.robots import search

    m = Match.from_hand(
        "paulista",
        TableOptions(players=4, sinais=False),
        score=(0, 0),
        dealer=3,
        hands=[parse_cards(h) for h in ["4S 5D 6H ", " 3S 2H AC ", " 4D 5S 7C ", " KC QH JS"]],
        vira=Card.parse("7D"),
    )
    m.apply(0, A.PLAY[Card.parse("6H")])
    m.apply(1, A.TRUCO)
    view = m.view(0)
    assert view.phase == Phase.ANSWER and A.RAISE in view.legal
    tried: list[A.Action] = []
    plain = search.playout_models

    def spy(world, seat, action, *rest):  # type: ignore[no-untyped-def]
        tried.append(action)
        return plain(world, seat, action, *rest)

    monkeypatch.setattr(search, "playout_models", spy)
    raised = {}
    for flag in (True, False):
        tried.clear()
        robot = Dificil(3, playouts=30, raise_over_run=flag)
        # the weakest hand: médio runs, and the search starts from that
        assert Medio(3).choose(view) == A.RUN
        robot.choose(view)
        raised[flag] = A.RAISE in tried
    assert raised == {True: True, False: False}
