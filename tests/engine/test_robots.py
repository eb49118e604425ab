"""Robots: legal-only play everywhere, no peeking, levels, and a few signature decisions."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from engine import Match, Phase, TableOptions, get_ruleset
from engine import actions as A
from engine.actions import Act, Action
from engine.cards import Card, parse_cards
from engine.match import HandKind, TeamBets
from engine.robots import LEVELS, Dificil, Facil, Medio, RandomRobot, get_robot, heuristic
from engine.robots.search import (
    ROBUST_MODELS_2X2,
    card_answer,
    habit_answer,
    playout,
    playout_models,
    sample_world,
    weighted_world,
)
from engine.robots.sense import Sense, match_values, read, win_chance
from engine.view import View

TABLES = [
    ("paulista", TableOptions(players=2)),
    ("paulista", TableOptions(players=4)),
    ("paulista", TableOptions(players=2, covered_cards=False, target=6)),
    ("mineiro", TableOptions(players=2)),
    ("mineiro", TableOptions(players=4, ladder=(4, 6, 10, 12))),
    ("trem-bao", TableOptions(players=2)),
    ("trem-bao", TableOptions(players=4)),
]


def random_states(variant: str, options: TableOptions, seed: int, count: int) -> list[Match]:
    """``count`` decision points reached by random play (with some high scores for onze/ferro)."""
    rng = random.Random(seed)
    states: list[Match] = []
    rs = get_ruleset(variant)
    while len(states) < count:
        target = options.target
        threshold = rs.threshold(target)
        score = rng.choice([(0, 0), (threshold, 3), (2, threshold), (threshold, threshold), (5, 7)])
        m = Match(rs, options, seed=rng.randrange(1 << 30), score=score, dealer=rng.randrange(4))
        while not m.is_terminal() and len(states) < count:
            if m.phase == Phase.HAND_OVER:
                m.deal()
                continue
            states.append(m.copy())
            seat = rng.choice(m.to_act())
            m.apply(seat, rng.choice(m.legal_actions(seat)))
    return states


@pytest.mark.parametrize(("variant", "options"), TABLES)
def test_robots_choose_only_legal_actions(variant: str, options: TableOptions) -> None:
    robots = [Facil(1), Medio(2), RandomRobot(3)]
    kinds: set[tuple[HandKind, Phase]] = set()
    for m in random_states(variant, options, seed=len(variant) * 7 + options.players, count=700):
        for seat in m.to_act():
            view = m.view(seat)
            kinds.add((view.kind, view.phase))
            for robot in robots:
                action = robot.choose(view)
                assert action in view.legal, (robot.level, action, view.legal)
    # the sample reached every kind of decision the engine asks for
    assert (HandKind.NORMAL, Phase.ANSWER) in kinds
    assert (HandKind.SPECIAL, Phase.DECIDE) in kinds
    assert (HandKind.IRON, Phase.PLAY) in kinds


@pytest.mark.parametrize(("variant", "options"), TABLES)
def test_dificil_chooses_only_legal_actions(variant: str, options: TableOptions) -> None:
    robot = Dificil(5, playouts=12)
    for m in random_states(variant, options, seed=99, count=40):
        seat = m.to_act()[-1]
        view = m.view(seat)
        assert robot.choose(view) in view.legal


@pytest.mark.parametrize(("variant", "options"), TABLES)
def test_sampled_worlds_agree_with_the_view(variant: str, options: TableOptions) -> None:
    rng = random.Random(4)
    for m in random_states(variant, options, seed=3, count=150):
        if m.kind == HandKind.IRON:
            continue
        seat = m.to_act()[0]
        view = m.view(seat)
        world = sample_world(view, rng)
        # the sampled world starts at this hand, so only the hand number differs
        assert replace(world.view(seat), hand_number=view.hand_number) == view


# ----------------------------------------------------------------- no peeking


def hidden_redeal(m: Match, seat: int, rng: random.Random) -> Match | None:
    """Another state with the same view for ``seat`` but other hidden cards (or None)."""
    view = m.view(seat)
    rs = m.ruleset
    hidden_seats = [
        s
        for s in range(m.players)
        if s != seat and not (s == view.partner and view.partner_hand is not None)
    ]
    # cards nobody at the table has seen: others' held cards and their covered cards
    hidden: list[tuple[int, int]] = []  # (seat, index in dealt)
    for s in hidden_seats:
        played = [a for ss, a in m.hand_log if ss == s and a.act in (Act.PLAY, Act.COVER)]
        for i, c in enumerate(m.dealt[s]):
            covered = any(a.act == Act.COVER and a.card == c for a in played)
            if c in m.hands[s] or covered:
                hidden.append((s, i))
    used = {c for h in m.dealt for c in h} | ({m.vira} if m.vira is not None else set())
    spare = [c for c in rs.deck if c not in used]
    pool = [m.dealt[s][i] for s, i in hidden] + spare
    rng.shuffle(pool)
    dealt = [list(h) for h in m.dealt]
    for (s, i), c in zip(hidden, pool, strict=False):
        dealt[s][i] = c
    if dealt == [list(h) for h in m.dealt]:
        return None
    other = Match.from_hand(
        rs,
        m.options,
        score=m.score,
        dealer=m.dealer,
        hands=[tuple(h) for h in dealt],
        vira=m.vira,
    )
    other.hand_number = m.hand_number
    other.bets = m.bets
    for s, a in m.hand_log:
        if a.card is not None:
            a = Action(a.act, Card(dealt[s][m.dealt[s].index(a.card)]))
        other.apply(s, a)
    return other


@pytest.mark.parametrize(("variant", "options"), TABLES)
def test_no_peeking_same_view_same_decision(variant: str, options: TableOptions) -> None:
    rng = random.Random(11)
    checked = 0
    for m in random_states(variant, options, seed=21, count=90):
        if m.kind == HandKind.IRON:
            continue  # blind play: nobody sees any card, covered by the legal-only test
        seat = m.to_act()[0]
        other = hidden_redeal(m, seat, rng)
        if other is None:
            continue
        assert other.hands != m.hands or other.dealt != m.dealt
        view = m.view(seat)
        assert other.view(seat) == view
        for robot in (Facil(8), Medio(8), RandomRobot(8), Dificil(8, playouts=10)):
            assert robot.choose(view) == robot.choose(other.view(seat)), robot.level
        checked += 1
    assert checked >= 30


def test_decisions_depend_on_seed_and_view_only() -> None:
    m = Match("paulista", TableOptions(players=4), seed=5)
    view = m.view(m.to_act()[0])
    # difícil with a fixed amount of work: a time budget could stop it at different points
    for robot in (get_robot("facil", seed=3), get_robot("medio", seed=3), Dificil(3, playouts=30)):
        first = robot.choose(view)
        for _ in range(3):
            assert robot.choose(view) == first


# ----------------------------------------------------------------- levels


def test_a_copy_carries_every_field_and_shares_no_list() -> None:
    m = Match("paulista", TableOptions(players=4), seed=5)
    seat = m.to_act()[0]
    m.apply(seat, m.legal_actions(seat)[0])
    c = m.copy()
    for name in Match.__slots__:
        assert getattr(c, name) == getattr(m, name), name
    assert all(
        getattr(c, name) is not getattr(m, name)
        for name in Match.__slots__
        if isinstance(getattr(m, name), list)
    )
    seat = c.to_act()[0]
    c.apply(seat, c.legal_actions(seat)[0])
    assert len(c.log) == len(m.log) + 1 and c.hands != m.hands


def test_the_robot_registry_and_its_examples() -> None:
    import doctest

    import engine.levels
    import engine.robots
    from engine.levels import ROBOT_LEVELS, get_level

    assert tuple(ROBOT_LEVELS) == LEVELS
    assert get_level(" Difícil ").searches and not get_level("MEDIO").searches
    for module in (engine.levels, engine.robots):
        failed, tried = doctest.testmod(module)
        assert tried > 0 and failed == 0, module.__name__


def test_get_robot_accepts_accented_names() -> None:
    assert LEVELS == ("facil", "medio", "dificil")
    assert get_robot("fácil", seed=1).level == "facil"
    assert get_robot("Médio", seed=1).level == "medio"
    assert get_robot("difícil", seed=1, budget_ms=50).level == "dificil"
    with pytest.raises(ValueError, match="nível de robô desconhecido"):
        get_robot("impossível")


# ----------------------------------------------------------- signature plays


def at_hand(
    variant: str,
    hands: str,
    *,
    vira: str | None = None,
    players: int = 2,
    score: tuple[int, int] = (0, 0),
    dealer: int = 1,
    actions: tuple[tuple[int, str], ...] = (),
) -> Match:
    """A match at a scripted point: hands as ``"4C 7H AS / 3D 2D KS"``."""
    cards = [parse_cards(h) for h in hands.split("/")]
    m = Match.from_hand(
        variant,
        TableOptions(players=players),
        score=score,
        dealer=dealer,
        hands=cards,
        vira=Card.parse(vira) if vira else None,
    )
    for seat, text in actions:
        m.apply(seat, Action.parse(text))
    return m


def medio_choice(m: Match, seat: int, seed: int = 0) -> Action:
    return Medio(seed).choose(m.view(seat))


def test_medio_takes_the_round_with_the_cheapest_winning_card() -> None:
    # vira 7D: manilhas are the queens; seat 1 is pé and answers a king
    m = at_hand("paulista", "KC 4D 5D / AS 3H 6S", vira="7D", actions=((0, "play KC"),))
    choice = medio_choice(m, 1)
    if choice == A.TRUCO:
        m.apply(1, A.TRUCO)
        m.apply(0, A.ACCEPT)
        choice = medio_choice(m, 1)
    assert choice == A.PLAY[Card.parse("AS")]


def test_medio_covers_a_card_once_the_round_is_safe() -> None:
    m = at_hand(
        "paulista",
        "5D 6D 7S / 3C KC QS / 5S 6S KH / AH 2S 4H",
        vira="JD",  # manilhas are the kings
        players=4,
        dealer=0,
        actions=(
            (1, "play 3C"),
            (2, "play 5S"),
            (3, "play AH"),
            (0, "play 5D"),  # the 3 takes round 1 for team 1; seat 1 leads round 2
            (1, "play KC"),  # the zap: nothing can beat it
            (2, "play 6S"),
        ),
    )
    choice = medio_choice(m, 3)
    if choice == A.TRUCO:
        m.apply(3, A.TRUCO)
        m.apply(0, A.ACCEPT)
        choice = medio_choice(m, 3)
    # the partner's zap holds the round: keep the 2, give the 4 away face down
    assert choice == A.COVER[Card.parse("4H")]


def test_medio_backs_its_partner_in_the_round_that_decides_after_a_tie() -> None:
    m = at_hand(
        "paulista",
        "4C JS QD / 7C AC 6S / KD 6D JD / KH 3H 4S",
        vira="4D",  # manilhas are the fives
        players=4,
        dealer=0,
        actions=(
            (1, "play 7C"),
            (2, "play KD"),
            (3, "play KH"),  # the kings tie round 1: round 2 decides (R4)
            (0, "play 4C"),
            (1, "play AC"),  # the partner's ace holds the round, but a 2 or a 3 beats it
            (2, "play 6D"),
        ),
    )
    choice = medio_choice(m, 3)
    if choice == A.TRUCO:
        m.apply(3, A.TRUCO)
        m.apply(0, A.ACCEPT)
        choice = medio_choice(m, 3)
    # seat 0 still plays: the 3 over the ace leaves it only a manilha to win the hand
    # (the tiers alone keep the 3 and give the 4 away)
    assert choice == A.PLAY[Card.parse("3H")]
    assert Medio(0, card_samples=0).choose(m.view(3)) == A.PLAY[Card.parse("4S")]


def test_medio_plays_mao_de_onze_with_strong_partner_and_runs_with_trash() -> None:
    strong = at_hand(
        "paulista",
        "7C 3H 2S / 4D 5D 6S / 7H 3S 2H / 5H 6H 4S",
        vira="6D",  # manilhas are the 7s
        players=4,
        score=(11, 4),
        dealer=3,
    )
    assert strong.phase == Phase.DECIDE
    assert Medio(0).choose(strong.view(0)) == A.PLAY11
    weak = at_hand(
        "paulista",
        "4D 5C 6S / 7C 3H 2S / 4C 5H 6C / 7H 3S 2H",
        vira="6D",
        players=4,
        score=(11, 10),
        dealer=3,
    )
    assert Medio(0).choose(weak.view(0)) == A.RUN11


def test_medio_makes_no_call_when_the_hand_decides_the_match_either_way() -> None:
    # both teams at 10 in mineiro-like pressure: a plain paulista hand at 11 x 11 is the iron hand,
    # so use a target of 12 with 10 x 10 in paulista: any hand worth >= 2 decides the match
    m = Match.from_hand(
        "paulista",
        TableOptions(players=2),
        score=(10, 10),
        dealer=1,
        hands=[parse_cards("4C 4H 4S"), parse_cards("5D 6D 7D")],
        vira=Card.parse("3D"),  # manilhas are the 4s: seat 0 holds the three best cards
    )
    m.apply(0, A.TRUCO)
    m.apply(1, A.ACCEPT)  # stake 3: whoever wins the hand reaches 12
    m.apply(0, A.PLAY[Card.parse("4C")])
    view = m.view(1)
    assert A.TRUCO in view.legal
    for seed in range(20):
        assert Medio(seed).choose(view) != A.TRUCO


def test_medio_accepts_with_a_lock_and_runs_with_nothing() -> None:
    strong = at_hand("paulista", "5D 6D 7S / 4C 4H 3S", vira="3D", actions=((0, "truco"),))
    assert Medio(0).choose(strong.view(1)) in (A.ACCEPT, A.RAISE)
    weak = at_hand("paulista", "4C 4H 3S / 5D 6D 7S", vira="3D", actions=((0, "truco"),))
    assert Medio(0).choose(weak.view(1)) == A.RUN


def test_difficil_reads_a_truco_call_as_a_strong_hand() -> None:
    m = at_hand("paulista", "5D 6D 7S / 4C 4H 3S", vira="3D", dealer=0, actions=((1, "truco"),))
    view = m.view(0)
    rng = random.Random(2)
    strength = get_ruleset("paulista").strength_table(view.vira)
    plain = weighted = total = 0.0
    for _ in range(200):
        world, weight = weighted_world(view, rng)
        power = sum(strength[c] for c in world.hands[1])
        plain += power / 200
        weighted += weight * power
        total += weight
    # worlds where the caller holds good cards count more than a blind deal would say
    assert weighted / total > plain + 2


def test_the_policy_reading_weighs_a_2x2_truco_by_how_often_the_policy_makes_it() -> None:
    from engine.robots.search import POLICY_FLOOR, policy_likelihood

    hands = "5D 6D 7S / 4C 4H 3S / 5C 6H 7H / KC QH JS"
    m = at_hand("paulista", hands, vira="3D", players=4, dealer=0, actions=((1, "truco"),))
    view = m.view(0)
    strength = get_ruleset("paulista").strength_table(view.vira)
    caller: dict[bool, float] = {}
    for by_policy in (False, True):
        rng = random.Random(2)  # the same deals both times: only the weights differ
        weighted = total = 0.0
        for _ in range(400):
            world, weight = weighted_world(view, rng, by_policy=by_policy)
            assert weight >= (POLICY_FLOOR if by_policy else 0.0)
            weighted += weight * sum(strength[c] for c in world.hands[1])
            total += weight
        caller[by_policy] = weighted / total
    # the trained 2x2 table hardly calls a first round on middling hands: the caller it
    # reads holds better cards than the one curve for every spot reads
    assert caller[True] > caller[False] + 0.3
    # a card is no bet: the policy holds no share for it, and reads nothing
    played = at_hand("paulista", hands, vira="3D", players=4, dealer=0, actions=((1, "play 4C"),))
    assert policy_likelihood(played.view(2), Action.parse("play 5C"), rng) is None


def test_the_card_reading_counts_less_a_world_where_a_seat_played_under_a_card_it_held() -> None:
    # seat 0 led the 3 of spades (a manilha with the 2 turned); seat 1 followed with a 5:
    # it plays its cards like médio, which takes the round when it holds a card that does
    hands = "3S 5D 6D / 5C KH 7S / 4C 6H 7H / KC QH JS"
    moves = ((0, "play 3S"), (1, "play 5C"))
    m = at_hand("paulista", hands, vira="2D", players=4, dealer=3, actions=moves)
    view = m.view(2)
    strength = get_ruleset("paulista").strength_table(view.vira)
    led = strength[Card.parse("3S")]
    share: dict[bool, float] = {}
    for by_cards in (False, True):
        rng = random.Random(1)
        held = total = 0.0
        for _ in range(400):
            world, weight = weighted_world(view, rng, by_cards=by_cards)
            held += weight * any(strength[c] > led for c in world.hands[1])
            total += weight
        share[by_cards] = held / total
    assert share[True] < share[False] / 2


def test_difficil_plays_out_the_other_teams_answers_by_their_habits() -> None:
    # the same answer to a truco, in a play-out, from a team that raised every call it
    # faced, one with no history and one that ran from every call
    def answers(bets: TeamBets) -> Counter[Act]:
        m = at_hand("paulista", "5D 6D 7D / 2C KH 7S", vira="3D", actions=((0, "truco"),))
        m.bets = (TeamBets(hands=8), bets)
        return Counter(habit_answer(m.view(1), random.Random(seed)).act for seed in range(40))

    raiser = answers(TeamBets(hands=8, raised=(8, 0, 0, 0)))
    prior = answers(TeamBets(hands=8))
    runner = answers(TeamBets(hands=8, ran=(8, 0, 0, 0)))
    assert raiser[Act.RAISE] > 30 > prior[Act.RAISE]
    assert prior[Act.ACCEPT] > 20 and prior[Act.RUN] < 5
    assert runner[Act.RUN] > prior[Act.RUN] + 10


def test_difficil_can_play_out_answers_by_the_best_card_alone() -> None:
    # vira 3D: the fours are the manilhas, 4C the zap
    def answer(hand: str, bets: TeamBets | None = None) -> Counter[Act]:
        m = at_hand("paulista", f"5D 6D 7D / {hand}", vira="3D", actions=((0, "truco"),))
        m.bets = (TeamBets(hands=8), bets or TeamBets(hands=8))
        return Counter(card_answer(m.view(1), random.Random(seed)).act for seed in range(20))

    # the zap with two poor cards is never run from; a two and two middling cards are
    assert answer("4C 5H 6S")[Act.RUN] == 0
    assert answer("2H JS KC")[Act.RUN] == 20
    # by a team that accepted every call it faced, they are accepted
    assert answer("2H JS KC", TeamBets(hands=8, accepted=(8, 0, 0, 0)))[Act.RUN] == 0


def test_play_outs_shared_by_the_answer_models_give_each_models_own_value() -> None:
    # every action of 2x2 states at a seat's turn, including truco calls that the other
    # team answers at once and card plays whose play-outs may meet a call later
    checked = 0
    for m in random_states("paulista", TableOptions(players=4), 3, 120):
        if m.phase != Phase.PLAY or m.kind != HandKind.NORMAL:
            continue
        seat = m.to_act()[0]
        world = sample_world(m.view(seat), random.Random(checked))
        for action in m.legal_actions(seat):
            for learned in (False, True):
                shared = playout_models(world, seat, action, 11, ROBUST_MODELS_2X2, learned)
                alone = [
                    playout(world, seat, action, random.Random(11), model, learned)
                    for model in ROBUST_MODELS_2X2
                ]
                assert shared == alone
            checked += 1
    assert checked > 20


def test_learned_play_outs_ask_the_policy_for_the_searching_team_s_calls_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[int] = []
    real = heuristic.policy_action

    def spy(view: View, rng: random.Random, samples: int = 32) -> Action | None:
        asked.append(view.seat)
        return real(view, rng, samples)

    monkeypatch.setattr(heuristic, "policy_action", spy)
    teams: dict[bool, list[tuple[int, int]]] = {False: [], True: []}
    for learned in (False, True):
        for i, m in enumerate(random_states("paulista", TableOptions(players=4), 5, 40)):
            if m.phase != Phase.PLAY or m.kind != HandKind.NORMAL:
                continue
            seat = m.to_act()[0]
            world = sample_world(m.view(seat), random.Random(i))
            for action in m.legal_actions(seat):
                asked.clear()
                playout_models(world, seat, action, i, ROBUST_MODELS_2X2, learned)
                teams[learned] += [(seat & 1, s & 1) for s in asked]
    # médio's play-outs never ask the table; the learned ones ask it for this team alone
    assert teams[False] == []
    assert len(teams[True]) > 10
    assert all(searching == asking for searching, asking in teams[True])


def test_match_values_grow_with_own_score_and_are_even_when_level() -> None:
    w = match_values("paulista", 12)
    assert abs(w[0][0] - 0.5) < 1e-9 and abs(w[11][11] - 0.5) < 1e-9
    assert w[12][3] == 1.0 and w[3][12] == 0.0
    for b in range(12):
        assert all(w[a][b] < w[a + 1][b] for a in range(11))


def test_win_chance_knows_a_lock_from_trash() -> None:
    rng = random.Random(1)
    lock = at_hand("paulista", "4C 4H 4S / 5D 6D 7S", vira="3D")
    trash = at_hand("paulista", "5D 6D 7S / 4C 4H 4S", vira="3D")
    assert win_chance(read(lock.view(0)), rng, 50) == 1.0
    assert win_chance(read(trash.view(0)), rng, 50) < 0.1


def test_a_reading_is_the_sense_its_own_constructor_makes() -> None:
    # read() fills Sense's slots without the frozen dataclass's constructor: over random
    # 2×2 play, what it gives must equal Sense(...) of the same fields, strongest card first
    rng = random.Random(4)
    m = Match("paulista", TableOptions(players=4), seed=6)
    reads = 0
    while m.phase is not Phase.MATCH_OVER and reads < 400:
        if m.phase is Phase.HAND_OVER:
            m.deal()
            continue
        for seat in range(4):
            sense = read(m.view(seat))
            assert type(sense) is Sense and replace(sense) == sense
            strengths = [sense.strength[c] for c in sense.hand]
            assert strengths == sorted(strengths, reverse=True)
            reads += 1
        seat = rng.choice(m.to_act())
        m.apply(seat, rng.choice(m.legal_actions(seat)))
    assert reads >= 100
