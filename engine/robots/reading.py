"""Reading the other seats: what their calls, accepts and runs say about their cards.

A player who calls truco in 30% of hands calls with roughly the best 30% of dealt hands
(plus a few bluffs); a team that runs a lot accepts only with good cards. ``Tendencies``
turns what a team did earlier in the match (``View.bets``)
into such thresholds on the dealt-hand quantile of ``equity``; ``Reading`` deals the
hidden cards many times, weighs every deal by how likely it makes the actions seen in
this hand, and gives the chances the betting decisions need.

Everything here reads a ``View`` only.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import lru_cache

from engine.actions import Act
from engine.cards import Card
from engine.match import TeamBets
from engine.robots.equity import key_of, level_map, table_for
from engine.robots.sense import COVERED, Sense, drawer, simulate
from engine.robots.sinais import Clues
from engine.view import View

# The members as module names: an enum member looked up on its class costs several times
# a global's lookup (see ``engine.match``), and these are read for every action of a history.
_PLAY, _COVER, _TRUCO, _ACCEPT, _RUN, _RAISE = (
    Act.PLAY,
    Act.COVER,
    Act.TRUCO,
    Act.ACCEPT,
    Act.RUN,
    Act.RAISE,
)

# what a solid player does, before the match shows anything (shares per chance)
PRIOR_CALL = 0.30
"""Share of hands in which a team calls truco (first step)."""
PRIOR_ACCEPT = 0.55
"""Share of first calls a team accepts (or raises)."""
PRIOR_RAISE = 0.12
"""Share of first calls a team answers with a raise."""
PRIOR_WEIGHT = 5.0
"""How many observations the prior is worth: the match's own counts take over after that."""
STEP_SHRINK = 0.6
"""Each step up the ladder keeps this share of the hands that would act at the step below."""
ANSWER_SHRINK = 1.0
"""The same for answers: who answers a raise already showed a good hand by calling."""
WIDTH = 0.07
"""How sharp a threshold is, in quantile units."""
PRIOR_BLUFF = 0.15
"""Share of a team's calls that are bluffs (made below its threshold), before the match
shows its called hands."""
HONEST_WINS = 0.85
"""How often a call made with a good hand wins once accepted and played out."""
BLUFF_WINS = 0.25
"""How often a bluff wins once accepted and played out."""
PRIOR_WINS = 0.7
"""How often a call wins once accepted, before the match shows any, at the prior call and run
shares (a little below what ``PRIOR_BLUFF`` alone says: the dealt-hand quantile already
reads part of it)."""
CALLS_COST = 0.45
"""How much that expectation drops per unit of call share above the prior (a steeper
drop, read against the probe's frequent calls, lost to every style: the probe's edge is
where it calls, not a misread strength; docs-dev/robots-log.md says how it was measured)."""
RUNS_GAIN = 0.6
"""How much it rises per unit of run share (from calls faced) above the prior."""
SHOWN_WEIGHT = 4.0
"""How many played-out calls the bluff prior is worth."""
PRIOR_WINS_2X2 = 0.8
"""``PRIOR_WINS`` at a 2×2 table, where médio read the tight and solid styles' calls as
weaker than they were; in 1×1 the same change lost against loose and bluffer
(docs-dev/robots-log.md says how it was measured)."""
SHOWN_WEIGHT_2X2 = 2.0
"""``SHOWN_WEIGHT`` at a 2×2 table: the team's shown calls take over sooner from the
stronger prior, so a team that bluffs is found out in fewer hands."""
MIN_FLOOR = 0.004
"""Smallest weight of a deal below a call's threshold (slips, misreads)."""
ACCEPT_FLOOR = 0.04
RAISE_READ_FLOOR = 0.15
"""Weight of a deal below a team's raise threshold when reading a raise it made in 1×1, at
the prior raise rate: a player raises by its chance of winning *now* (after a round, with
the cards seen), and a raiser the dealt-hand quantile calls weak wins often. Counted in
1×1 against the tight style and the probe, médio ran from seis raises it would have won
played out in about half the cases where its reading gave it 10-26%. In 2×2 it was the
other way (it accepted seis and nove raises it lost), so 2×2 readings keep no floor."""
PRIOR_RAISE_RATE = 0.04
"""Raises (calls of seis and up) per hand a team makes, before the match shows its own."""
RAISE_RATE_WEIGHT = 10.0
"""How many hands the prior raise rate is worth."""
LATE_TELLS = 0.3
"""How much more a call of seis and up on the caller's own turn says than the team's truco,
as the factor on its ``lose_ratio``. Only the team that accepted the step below may make
that call (R6), and having accepted it could just play on: the call gains only when it
expects to win, so from a team whose calls win 76% of the time (``lose_ratio`` 0.3) it
reads as a call that wins 92%; from a team whose shown calls are bluffs, less."""
LATE_RATE_COST = 1.0
"""How much the lose ratio of those calls grows (in multiples) per ``PRIOR_RAISE_RATE``
of raises per hand above that prior: a team that raises in many hands cannot hold a made
hand in all of them."""
LATE_WEIGHT = 3.0
"""How many of the team's shown raises (seis and up, played out) that reading is worth."""
ESS_SHARE = 1 / 3
"""A reading keeps dealing until its weighed deals are worth this share of the deals
planned (the effective sample size, (sum of weights)^2 / sum of squares). A hand with
a truco, an accept, a seis and a nove weighs each deal by six factors, and a few deals
take almost all the weight: counted in 2×2 against the tight style, half of médio's
answers to a nove rested on fewer than 7 deals' worth, and the same view read with two
seeds gave 8% and 98%."""
ESS_MAX_DRAWS = 4
"""The most deals a reading draws, in multiples of the deals planned: a cap on time."""
ESS_MAX_DRAWS_SIGNALS = 2
"""The same when signals were seen: an honest "zap" from the partner leaves a few deals in
ten with any weight, and dealing 4 times as many took médio's CPU p95 in 2×2 with sinais
from 2.1 to 5.1 ms."""


def _sigmoid(x: float) -> float:
    if x < -30:
        return 0.0
    if x > 30:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


def _smooth(count: float, chances: float, prior: float) -> float:
    return (count + PRIOR_WEIGHT * prior) / (chances + PRIOR_WEIGHT)


@dataclass(frozen=True, slots=True)
class Tendencies:
    """One team's betting habits as thresholds on the dealt-hand quantile (per seat)."""

    call: float
    """Quantile from which a seat calls truco."""
    accept: float
    """Quantile from which a seat accepts (or raises) a first call."""
    raise_: float
    """Quantile from which a seat raises a first call."""
    seats: int
    """Seats that may answer for the team (1 or 2)."""
    bluff: float = PRIOR_BLUFF
    """Share of the team's calls made below its threshold (read from its called hands
    that were played out: a team whose calls rarely win bluffs)."""
    wins: float = 0.76
    """How often its calls are expected to win once accepted (shown calls and priors)."""
    raise_floor: float = RAISE_READ_FLOOR
    """Weight of a deal below the raise threshold when reading one of its raises: the more
    often the team raises (per hand), the less a raise says."""
    lose_ratio: float = 0.3
    """How much likelier a call is from a hand that wins than from one that loses, inverted:
    (1 - w) / w where w is how often the team's shown calls won."""
    late_lose_ratio: float = 0.09
    """``lose_ratio`` for a call of seis and up on the caller's own turn (after it accepted
    the step below): ``LATE_TELLS`` of it, grown with the team's raise rate, moved by
    its shown raises."""

    @staticmethod
    def of(view: View, team: int, predict: bool = False) -> Tendencies:
        """``team``'s habits from its earlier hands in the match (the priors at first).

        ``predict``: the thresholds that forecast its answer to our next call (see
        the match's counts may only make it accept *more* than the prior), not the ones
        that read the answers it gave.
        """
        return _tendencies(view.bets[team], view.players, predict)

    @staticmethod
    def of_bets(r: TeamBets, players: int, predict: bool = False) -> Tendencies:
        """``of`` for a team's bet counts ``r`` at a table of ``players`` (not cached)."""
        hands, calls = float(r.hands), float(r.calls[0])
        # a team that runs a lot accepts only with good cards
        faced = float(r.faced[0])
        accepts = float(r.accepted[0] + r.raised[0])
        raises = float(r.raised[0])
        seats = 2 if players == 4 else 1
        c = _smooth(calls, hands, PRIOR_CALL)
        a = _smooth(accepts, faced, PRIOR_ACCEPT)
        r_ = _smooth(raises, faced, PRIOR_RAISE)
        if predict:
            # its runs were counted against our calls as we chose them (mostly good
            # hands); one who answers by its chance accepts our bluffs far more often
            a = max(a, PRIOR_ACCEPT)
            r_ = max(r_, PRIOR_RAISE)
        r_ = min(a, r_)
        shown, won = float(sum(r.shown)), float(sum(r.shown_won))
        # before its called hands show: a team that calls in most hands cannot hold a good
        # hand in all of them, and a team that runs a lot plays tight and calls with good
        # hands (its calls win more)
        ran = _smooth(float(sum(r.ran)), float(sum(r.faced)), 1.0 - PRIOR_ACCEPT)
        prior, weight = (
            (PRIOR_WINS_2X2, SHOWN_WEIGHT_2X2) if seats == 2 else (PRIOR_WINS, SHOWN_WEIGHT)
        )
        prior_wins = prior - CALLS_COST * (c - PRIOR_CALL)
        prior_wins += RUNS_GAIN * (ran - (1.0 - PRIOR_ACCEPT))
        prior_wins = min(0.9, max(0.5, prior_wins))
        wins = (won + weight * prior_wins) / (shown + weight)
        bluff = min(0.7, max(0.0, (HONEST_WINS - wins) / (HONEST_WINS - BLUFF_WINS)))
        rate = (float(sum(r.calls[1:])) + RAISE_RATE_WEIGHT * PRIOR_RAISE_RATE) / (
            hands + RAISE_RATE_WEIGHT
        )
        lose_ratio = min(1.0, max(0.05, (1.0 - wins) / wins))
        late_ratio = (
            lose_ratio
            * LATE_TELLS
            * (1.0 + LATE_RATE_COST * max(0.0, rate - PRIOR_RAISE_RATE) / PRIOR_RAISE_RATE)
        )
        late_prior = 1.0 / (1.0 + min(1.0, late_ratio))
        late_wins = (float(sum(r.shown_won[1:])) + LATE_WEIGHT * late_prior) / (
            float(sum(r.shown[1:])) + LATE_WEIGHT
        )
        # a team acts when either seat does: per seat the share is 1 - (1 - team)^(1/seats)
        return Tendencies(
            call=_seat_threshold(c, 1),  # only the seat on turn calls
            accept=_seat_threshold(a, seats),
            raise_=_seat_threshold(r_, seats),
            seats=seats,
            bluff=bluff,
            wins=wins,
            lose_ratio=lose_ratio,
            late_lose_ratio=min(1.0, max(0.03, (1.0 - late_wins) / late_wins)),
            raise_floor=min(0.5, RAISE_READ_FLOOR * rate / PRIOR_RAISE_RATE),
        )

    def at_step(self, threshold: float, step: int, shrink: float = 0.0) -> float:
        """The threshold at ladder ``step`` (0 = truco): fewer hands act higher up."""
        return 1.0 - (1.0 - threshold) * (shrink or STEP_SHRINK) ** step

    def p_call(self, q: float, step: int) -> float:
        """Chance that a seat holding quantile ``q`` calls ladder ``step``.

        Below the threshold the weight is such that a share ``bluff`` of all calls
        comes from there: ``floor * t / (floor * t + (1 - t)) = bluff``.
        """
        t = self.at_step(self.call, step)
        b = self.bluff
        floor = b * (1 - t) / max(1e-6, t * (1 - b))
        floor = min(1.0, max(MIN_FLOOR, floor))
        return floor + (1 - floor) * _sigmoid((q - t) / WIDTH)

    def p_accept(self, q: float, step: int) -> float:
        """Chance that a seat with quantile ``q`` accepts or raises a call of ``step``."""
        t = self.at_step(self.accept, step, ANSWER_SHRINK)
        return ACCEPT_FLOOR + (1 - ACCEPT_FLOOR) * _sigmoid((q - t) / WIDTH)

    def p_raise(self, q: float, step: int) -> float:
        """Chance that a seat with quantile ``q`` raises a call of ``step``."""
        t = self.at_step(self.raise_, step, ANSWER_SHRINK)
        return 0.02 + 0.98 * _sigmoid((q - t) / WIDTH) * self.p_accept(q, step)


@lru_cache(maxsize=4096)
def _tendencies(r: TeamBets, players: int, predict: bool) -> Tendencies:
    """``Tendencies.of_bets``, kept: a match's counts change once a hand, and difícil's
    play-outs read the same counts thousands of times per decision."""
    return Tendencies.of_bets(r, players, predict)


def _seat_threshold(team_share: float, seats: int) -> float:
    kept: float = (1.0 - min(0.98, max(0.02, team_share))) ** (1.0 / seats)
    return kept


@dataclass(slots=True)
class Deal:
    """One sampled deal of the hidden cards."""

    weight: float
    win: float
    """1 if this seat's team wins the hand played out plainly, 0 if it loses, 0.5 tied."""
    quantile: list[float]
    """Dealt-hand quantile of every seat (this seat's own too)."""


class Reading:
    """Sampled deals consistent with the view, weighed by the actions seen this hand."""

    __slots__ = ("deals", "forecast", "tend", "view")

    def __init__(self, sense: Sense, rng: random.Random, samples: int) -> None:
        """Deal the hidden cards ``samples`` times and weigh each deal."""
        v = sense.view
        self.view = v
        self.tend = (Tendencies.of(v, 0), Tendencies.of(v, 1))
        self.forecast = (Tendencies.of(v, 0, predict=True), Tendencies.of(v, 1, predict=True))
        self.deals = _sample(sense, rng, samples, self.tend)

    def total(self) -> float:
        """Sum of weights."""
        return sum(d.weight for d in self.deals) or 1e-12

    def chance(self) -> float:
        """Chance of winning the hand if it is played out from here."""
        tot = self.total()
        return sum(d.weight * d.win for d in self.deals) / tot

    def answers(self, team: int, step: int) -> tuple[float, float, float, float, float]:
        """How ``team`` answers our call of ``step``, and our chance in each case.

        Returns (run share, accept share, our chance when they accept, raise share,
        our chance when they raise).
        """
        t = self.forecast[team]
        seats = [s for s in range(self.view.players) if s & 1 == team]
        ran = set(self.view.ran)
        seats = [s for s in seats if s not in ran]
        run_w = acc_w = acc_win = rai_w = rai_win = 0.0
        memo = _answer_memo(t, step)
        alone = seats[0] if len(seats) == 1 else None
        for d in self.deals:
            if alone is not None:  # the product over one seat, without the loop
                q = d.quantile[alone]
                known = memo.get(q)
                if known is None:
                    known = memo[q] = (1.0 - t.p_accept(q, step), 1.0 - t.p_raise(q, step))
                p_none, p_no_raise = known
            else:
                p_none = 1.0
                p_no_raise = 1.0
                for s in seats:
                    q = d.quantile[s]
                    known = memo.get(q)
                    if known is None:
                        known = memo[q] = (1.0 - t.p_accept(q, step), 1.0 - t.p_raise(q, step))
                    p_none *= known[0]
                    p_no_raise *= known[1]
            p_raise = 1.0 - p_no_raise
            p_acc = 1.0 - p_none - p_raise
            if not p_acc > 0.0:
                p_acc = 0.0
            w = d.weight
            run_w += w * p_none
            acc_w += w * p_acc
            acc_win += w * p_acc * d.win
            rai_w += w * p_raise
            rai_win += w * p_raise * d.win
        tot = run_w + acc_w + rai_w or 1e-12
        return (
            run_w / tot,
            acc_w / tot,
            acc_win / acc_w if acc_w > 0 else 0.5,
            rai_w / tot,
            rai_win / rai_w if rai_w > 0 else 0.5,
        )

    def split_by(self, seat: int, buckets: int = 4) -> list[tuple[float, float]]:
        """(share, chance) of the deals grouped by ``seat``'s hand quantile (what it knows)."""
        sums = [[0.0, 0.0] for _ in range(buckets)]
        for d in self.deals:
            b = min(buckets - 1, int(d.quantile[seat] * buckets))
            sums[b][0] += d.weight
            sums[b][1] += d.weight * d.win
        tot = self.total()
        return [(w / tot, win / w) for w, win in sums if w > 0]


def _sample(
    sense: Sense, rng: random.Random, samples: int, tend: tuple[Tendencies, ...]
) -> list[Deal]:
    v = sense.view
    n = v.players
    st = sense.strength
    levels = level_map(v.variant, v.vira)
    table = table_for(v.variant, n)
    me = v.seat
    partner = v.partner
    known_partner = v.partner_hand if partner is not None else None
    # cards each seat played this hand (strength; None = covered by someone else)
    played: list[list[int | None]] = [[] for _ in range(n)]
    for s, a in v.history:
        act = a.act
        if act in (_PLAY, _COVER):
            played[s].append(st[a.card] if a.card is not None else None)
    hidden = [s for s in range(n) if s != me and not (s == partner and known_partner is not None)]
    need = {s: v.cards_left[s] + sum(1 for x in played[s] if x is None) for s in hidden}
    pool = list(sense.unseen_strengths)
    total = sum(need.values())
    if total > len(pool):
        total = len(pool)  # an inconsistent view cannot happen; stay safe
    own_dealt = [st[c] for c in v.hand] + [x for x in played[me] if x is not None]
    own_q = table.quantile_of(key_of(levels, own_dealt)) if len(own_dealt) == 3 else 0.5
    partner_q = 0.5
    if known_partner is not None and partner is not None:
        pd = [st[c] for c in known_partner] + [x for x in played[partner] if x is not None]
        partner_q = table.quantile_of(key_of(levels, pd)) if len(pd) == 3 else 0.5
    table_now = [(s, COVERED if cov or c is None else st[c]) for s, c, cov in v.table]
    events = _events(v)
    clues = Clues.of(v, st)
    deals: list[Deal] = []
    seen_q = _quantiles(v.variant, n, v.vira)
    own_held = [st[c] for c in v.hand]
    partner_held = [st[c] for c in known_partner] if known_partner is not None else []
    # what each seat is dealt, planned once: (seat, where its cards start in the draw,
    # where its held cards end, where its drawn cards end, the cards it played open when
    # it covered none (or None: its covered cards come from the draw), what it played,
    # whether it was dealt three cards)
    plan: list[tuple[int, int, int, int, list[int] | None, list[int | None], bool]] = []
    k = 0
    for s in hidden:
        shown = [x for x in played[s] if x is not None]
        left = v.cards_left[s]
        plan.append(
            (
                s,
                k,
                k + left,
                k + need[s],
                shown if len(shown) == len(played[s]) else None,
                played[s],
                left + len(played[s]) == 3 and k + need[s] <= total,
            )
        )
        k += need[s]
    base_quant = [0.5] * n
    base_quant[me] = own_q
    if known_partner is not None and partner is not None:
        base_quant[partner] = partner_q
    # the seats that still play this round hold cards in every deal, or in none (the
    # counts of held cards are the view's): whether to play the hand out is known now
    playable = True
    for i in range(n - len(table_now)):
        s = (v.turn + i) % n
        if not (v.cards_left[s] if s in need else len(own_held) if s == me else partner_held):
            playable = False
            break
    # each telling action weighs a deal by the actor's quantile (a few dozen values):
    # (seat, factor by quantile, habits, act, step, whether the call's win evidence is
    # for this seat's team or against it (None: no evidence), the evidence's lose ratio)
    weighers: list[tuple[int, dict[float, float], Tendencies, Act, int, bool | None, float]] = []
    for s, act, step in events:
        t = tend[s & 1]
        evidence = None
        # a rule-based player calls by its chance of winning *now*, which a dealt-hand
        # quantile misses: a call also weighs each deal by whether the caller wins it
        if act in (_TRUCO, _RAISE):
            evidence = s & 1 == v.team
        # a call of seis and up on its own turn comes from the team that accepted the step
        # below: a made hand, unless the match showed this team's raises losing
        lose = t.late_lose_ratio if act == _TRUCO and step > 0 else t.lose_ratio
        weighers.append((s, _factor_memo(t, act, step), t, act, step, evidence, lose))
    rounds, turn, leader, team = v.rounds, v.turn, v.leader, v.team
    quantile_of = table.quantile_of
    draw = drawer(pool, total)
    getrandbits = rng.getrandbits
    hands_base: list[list[int]] = [[] for _ in range(n)]  # every seat's list is replaced
    sum_w = sum_w2 = 0.0
    drawn_count = 0
    weigh = clues.weight if clues else None  # its truth is a call in Python: asked once
    limit = samples * (ESS_MAX_DRAWS_SIGNALS if weigh is not None else ESS_MAX_DRAWS)
    want = samples * ESS_SHARE
    while drawn_count < samples or (drawn_count < limit and sum_w * sum_w < want * sum_w2):
        drawn_count += 1
        drawn = draw(getrandbits)
        quant = base_quant.copy()
        hands = hands_base.copy()
        hands[me] = own_held.copy()
        if known_partner is not None and partner is not None:
            hands[partner] = partner_held.copy()
        for s, start, held_end, end, open_played, played_s, three in plan:
            held = drawn[start:held_end]
            hands[s] = held
            if not three:
                continue
            if open_played is None:
                hidden_played = iter(drawn[held_end:end])
                dealt = held + [x if x is not None else next(hidden_played) for x in played_s]
            elif open_played:
                dealt = held + open_played
            else:
                dealt = held
            dk = (dealt[0], dealt[1], dealt[2])
            got_q = seen_q.get(dk)
            if got_q is None:
                got_q = seen_q[dk] = quantile_of(key_of(levels, dealt))
            quant[s] = got_q
        weight = weigh(hands) if weigh is not None else 1.0
        if playable:
            winner = simulate(hands, table_now.copy(), rounds, turn, leader, n)
            win = 0.5 if winner is None else (1.0 if winner == team else 0.0)
        else:
            win = 0.5
        for s, memo, t, act, step, evidence, lose in weighers:
            q = quant[s]
            f = memo.get(q)
            if f is None:  # with the acting team's own habits: the memo is theirs
                f = memo[q] = event_likelihood(t, act, q, step)
            weight *= f
            if evidence is not None:
                # a call says "we win this hand" as often as the team's shown calls won
                wins = win if evidence else 1.0 - win
                weight *= lose + (1.0 - lose) * wins
        deals.append(Deal(weight, win, quant))
        sum_w += weight
        sum_w2 += weight * weight
    return deals


@lru_cache(maxsize=256)
def _quantiles(variant: str, players: int, vira: Card | None) -> dict[tuple[int, int, int], float]:
    """Where ``_sample`` keeps the dealt-hand quantile of three strengths (in any order)
    for one vira: a reading asks for it in every deal, and difícil reads thousands."""
    return {}


@lru_cache(maxsize=4096)
def _answer_memo(t: Tendencies, step: int) -> dict[float, tuple[float, float]]:
    """Where ``Reading.answers`` keeps, by quantile, the chances that a seat with habits
    ``t`` neither accepts nor raises, and does not raise, a call of ``step``: the same
    few dozen values serve every reading until the counts change."""
    return {}


@lru_cache(maxsize=4096)
def _factor_memo(t: Tendencies, act: Act, step: int) -> dict[float, float]:
    """Where ``_sample`` keeps ``event_likelihood`` by quantile for these habits and action:
    the same few dozen values serve every deal of every reading until the counts change."""
    return {}


def event_likelihood(t: Tendencies, act: Act, q: float, step: int) -> float:
    """How likely a seat of quantile ``q`` with habits ``t`` takes this telling action."""
    if act == _TRUCO:
        return t.p_call(q, step)
    if act == _RAISE:
        floor = t.raise_floor if t.seats == 1 else 0.0
        return floor + (1.0 - floor) * t.p_raise(q, step)
    if act == _ACCEPT:
        return max(0.02, t.p_accept(q, step) - t.p_raise(q, step))
    return 1.0 - t.p_accept(q, step)  # a run


def _events(v: View) -> list[tuple[int, Act, int]]:
    """The telling actions of the other seats this hand: (seat, act, ladder step)."""
    out: list[tuple[int, Act, int]] = []
    step = -1
    for s, a in v.history:
        act = a.act
        if act == _TRUCO:
            step += 1
        elif act == _RAISE:
            step += 1
            if s != v.seat:
                out.append((s, act, step - 1))
            continue
        if act in (_TRUCO, _ACCEPT, _RUN) and s != v.seat:
            out.append((s, act, max(0, step)))
    return out
