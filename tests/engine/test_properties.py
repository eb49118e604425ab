"""Property tests over random legal play in every variant and table size."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Act, Match, Phase, TableOptions
from engine import actions as A
from engine.cards import Card
from engine.match import deal_cards
from engine.rulesets import get_ruleset

variants = st.sampled_from(["paulista", "mineiro", "trem-bao"])
players = st.sampled_from([2, 4])


def allowed_points(m: Match) -> set[int]:
    """Every value a hand of this table may award."""
    rs = m.ruleset
    runs = {rs.run_value(m.ladder, i) for i in range(len(m.ladder))}
    return {rs.hand_value, rs.special_hand_value, *m.ladder, *runs}


def check_view(m: Match, seat: int) -> None:
    """A view holds no card another seat could hide from this one."""
    view = m.view(seat)
    hidden: set[Card] = set()
    for other in range(m.players):
        if other != seat and not (view.partner_hand is not None and other == view.partner):
            hidden |= set(m.hands[other])
    for table in (*m.past, m.table):
        hidden |= {c for s, c, cov in table if cov and s != seat}
    if view.kind.name == "IRON":
        hidden |= set(m.hands[seat])
    shown: set[Card] = set(view.hand) | set(view.partner_hand or ())
    for table in (*view.past, view.table):
        shown |= {c for _, c, _ in table if c is not None}
    shown |= {a.card for _, a in view.history if a.card is not None}
    assert not shown & hidden
    check_signals(m, seat)


def check_signals(m: Match, seat: int) -> None:
    """R12: a signal's content reaches the signaller, its partner and the opponents who
    caught it, and no other view; every view shows that a signal was made."""
    view = m.view(seat)
    assert len(view.history) == len(m.hand_log)
    for i, ((s, real), (s_seen, seen)) in enumerate(zip(m.hand_log, view.history, strict=True)):
        assert s == s_seen
        if real.act != Act.SIGNAL:
            continue
        assert seen.act == Act.SIGNAL
        told = (s - seat) % 2 == 0 or m.caught(i, seat)
        assert seen == (real if told else A.HIDDEN_SIGNAL)


def check_decision_values(m: Match, seat: int) -> None:
    """The view's accept/run/raise values are what the engine then scores."""
    v = m.view(seat)
    if m.phase not in (Phase.ANSWER, Phase.DECIDE):
        assert v.accept_value is v.run_value is v.raise_value is v.pending_step is None
        return
    yes, no = (A.ACCEPT, A.RUN) if m.phase == Phase.ANSWER else (A.PLAY11, A.RUN11)
    accepted = m.copy()
    accepted.apply(seat, yes)
    assert accepted.stake == v.accept_value
    ran = m.copy()
    for s in ran.to_act():
        ran.apply(s, no)
    team = seat & 1
    assert ran.points[1 - team] == v.run_value and ran.hand_winner == 1 - team
    if m.phase == Phase.DECIDE:
        assert v.raise_value is None and v.call_seat is None
        return
    assert v.pending_step is not None and v.pending_value == v.ladder[v.pending_step]
    assert v.call_seat is not None and v.call_seat & 1 == v.call_team != team
    if v.raise_value is None:
        assert A.RAISE not in v.legal
    else:
        raised = m.copy()
        raised.apply(seat, A.RAISE)
        raised.apply(raised.to_act()[0], A.ACCEPT)
        assert raised.stake == v.raise_value


@settings(max_examples=60, deadline=None)
@given(
    variant=variants, n=players, seed=st.integers(0, 2**32), rnd=st.randoms(use_true_random=False)
)
def test_random_legal_play_keeps_the_invariants(
    variant: str, n: int, seed: int, rnd: random.Random
) -> None:
    opts = TableOptions(players=n)
    m = Match(variant, opts, seed)
    deck = len(m.ruleset.deck)
    values = allowed_points(m)
    score = m.score
    steps = 0
    while not m.is_terminal():
        if m.phase == Phase.HAND_OVER:
            m.deal()
            continue
        hand = m.hand_number
        # cards are conserved: hands + table + past + the rest of the deck
        in_play = [c for h in m.hands for c in h]
        in_play += [c for t in (*m.past, m.table) for _, c, _ in t]
        assert len(in_play) == len(set(in_play)) == 3 * n
        assert set(in_play) <= set(m.ruleset.deck) and deck - len(in_play) >= 1
        assert len(m.rounds) <= 3
        seat = rnd.choice(m.to_act())
        check_view(m, seat)
        signals = m.legal_signals(seat)
        if signals and rnd.random() < 0.5:
            before = (m.phase, m.to_act(), m.legal_actions(seat))
            m.apply(seat, rnd.choice(signals))
            assert (m.phase, m.to_act(), m.legal_actions(seat)) == before  # no turn spent
            assert m.legal_signals(seat) == []  # one per round
            steps += 1
            check_view(m, (seat + 1) % n)
        check_decision_values(m, seat)
        legal = m.legal_actions(seat)
        assert m.default_action(seat) in legal
        m.apply(seat, rnd.choice(legal))
        steps += 1
        if m.phase >= Phase.HAND_OVER and m.hand_number == hand:
            assert len(m.rounds) <= 3
            assert m.score[0] >= score[0] and m.score[1] >= score[1]
            assert max(m.score) <= opts.target
            for p in m.points:
                assert p == 0 or p in values
            score = m.score
            snap = m.to_json()
            assert Match.from_json(snap).to_json() == snap
    assert m.match_winner is not None and m.score[m.match_winner] == opts.target
    snapshot = m.to_json()
    assert Match.replay(variant, opts, seed, m.log).to_json() == snapshot
    assert steps == len(m.log)


@settings(max_examples=40, deadline=None)
@given(
    variant=variants, n=players, seed=st.integers(0, 2**32), rnd=st.randoms(use_true_random=False)
)
def test_snapshot_round_trips_mid_hand(variant: str, n: int, seed: int, rnd: random.Random) -> None:
    m = Match(variant, TableOptions(players=n), seed)
    for _ in range(rnd.randint(0, 12)):
        if m.phase >= Phase.HAND_OVER:
            break
        seat = rnd.choice(m.to_act())
        m.apply(seat, rnd.choice(m.legal_actions(seat) + m.legal_signals(seat)))
    snap = m.to_json()
    restored = Match.from_json(snap)
    assert restored.to_json() == snap
    for seat in range(n):
        assert restored.legal_actions(seat) == m.legal_actions(seat)
        assert restored.view(seat) == m.view(seat)
    copy = m.copy()
    if m.phase < Phase.HAND_OVER:
        seat = m.to_act()[0]
        copy.apply(seat, m.legal_actions(seat)[0])
        assert m.to_json() == snap  # a copy never shares mutable state


def test_covered_cards_never_reach_other_views() -> None:
    rnd = random.Random(5)
    for seed in range(200):
        m = Match("paulista", TableOptions(players=4), seed)
        while m.phase < Phase.HAND_OVER:
            seat = rnd.choice(m.to_act())
            legal = m.legal_actions(seat)
            covers = [a for a in legal if a.act == Act.COVER]
            m.apply(seat, covers[0] if covers else rnd.choice(legal))
            for s in range(4):
                check_view(m, s)


def _splitmix_deal(seed: int, hand_number: int, deck: tuple[Card, ...], count: int) -> list[Card]:
    """The deal written plainly, one splitmix64 draw at a time (the engine packs them)."""
    mask = (1 << 64) - 1
    golden = 0x9E3779B97F4A7C15
    x = (seed * golden + hand_number * 0xD1B54A32D192ED03 + 1) & mask
    cards = list(deck)
    for i in range(count):
        x = (x + golden) & mask
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        j = i + (z ^ (z >> 31)) % (len(cards) - i)
        cards[i], cards[j] = cards[j], cards[i]
    return cards[:count]


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(min_value=-(2**70), max_value=2**70),
    hand_number=st.integers(min_value=0, max_value=500),
    variant=st.sampled_from(["paulista", "mineiro"]),
    count=st.integers(min_value=0, max_value=27),
)
def test_deal_is_the_plain_splitmix_shuffle(
    seed: int, hand_number: int, variant: str, count: int
) -> None:
    deck = get_ruleset(variant).deck
    assert deal_cards(seed, hand_number, deck, count) == _splitmix_deal(
        seed, hand_number, deck, count
    )
