"""``truco train``: the betting policy of ``engine.robots.policy``, by self-play.

The method is Monte Carlo counterfactual regret minimisation (external sampling, with
regret matching+ and averages weighted by the iteration, as in CFR+) on an *abstract
betting game* that keeps what matters to a bet and drops the rest:

- a hand is dealt for real (the variant's deck, vira and manilhas) and its cards are
  played by the plain policy of ``sense.simulate`` (leaders play their best card,
  followers the cheapest that takes the round): the card play is fixed by the deal, and
  only the bets are learned;
- before each card, the seat whose turn it is may call truco (or the next step, when its
  team may); the other team answers, in 2×2 its first seat then, after a run, its second
  (R6, R7): run, accept or raise; raises go up the ladder;
- each seat decides from its key (``policy.Spot``) alone: its chance of winning the hand
  from there (``policy.hand_chance``, from its own cards), the rounds, the table, the
  step, its partner's signal (half the deals are played with honest signals, R12) and how
  far each team is from the target (the variant's default target for the table's size:
  12, or gaudério's 18 and 24); the scores are drawn at random below the mão de onze/dez
  (below the target in gaudério, which has none) for every training hand;
- gaudério's points game (envido, flor; R13.3, R13.4) is not in it: it is settled apart
  from the truco, and the robots make their envido choice before asking the policy
  (``heuristic.learned_action``); its points reach the trained game only as the scores
  drawn for the hands;
- a hand's payoff is the match-winning chance after it (``sense.match_values``), so
  the policy weighs a point by what it is worth at that score.

With ``--against`` the other team is, in each traversal, one drawn from a list: the
policy being trained (``self``, the self-play above) or a sparring style of
``sparring.STYLES`` betting by its thresholds on its chance (``style_pick``). Self-play
alone finds an equilibrium of the abstract game, which slow-plays strong hands for callers
that bluff; against the styles that call little and never bluff the table then lost to
médio's calls (docs-dev/robots-log.md, 2026-12-06 20:40), and training against the styles
too teaches it what those tables pay.

Deals (with each turn's keys) are drawn once into a pool, and every iteration takes one
deal and one score from it. The *exploitability* is measured on separate deals: a best
response to the average strategy is found by improving one team's choices key by key
(``best_response``: a few passes, each taking in every key the action with the most
counterfactual value against the policy), and its gain over the policy's own play is
what a player who knew the policy could win per hand, in match chance.

``python -m engine train --variant paulista --players 2 --iterations 200000 --seed 1``
writes (or replaces) that table in ``engine/robots/data/policy.json``; the same command
and seed rebuild the same bytes.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from engine.cards import Card
from engine.robots.policy import (
    FORMAT,
    POLICY_FILE,
    Spot,
    hand_chance,
    rounds_state,
    strengths_tier,
    table_state,
)
from engine.robots.sense import match_values
from engine.robots.sparring import STYLES, Style
from engine.rulesets import Ruleset, get_ruleset

DATA_PATH = Path(__file__).resolve().parent.parent / "robots" / "data" / POLICY_FILE
POOL = 6000
"""Training deals drawn before the iterations (each with its keys worked out)."""
EVAL_DEALS = 1000
"""Deals of their own (each with a drawn score) a best response is measured on."""
BR_PASSES = 2
"""Improvement passes of the best response."""
BR_Z = 2.0
"""Standard errors by which an action must beat the policy's mix for the best response to
take it (fewer make it chase noise: it then loses to the policy on other deals)."""
FIT_DRAWS = {2: 20000, 4: 4000}
SELF = "self"
"""In ``--against``: the policy being trained, as in plain self-play."""
MADE_CHANCE = 0.95
"""The chance from which a style that raises only with a made hand (``valuer``) raises in
the abstract game, which sees chances, not made hands."""
"""Hands (a training deal at a score drawn anew) a best response is fitted on, by seats."""


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """What one seat knows before one turn's card (the key without the bet's facts)."""

    rounds: str
    table: int
    chance: float
    signal: int


@dataclass(frozen=True, slots=True)
class Turn:
    """One card of the plain play-out: whose turn it is and what each seat knows then."""

    seat: int
    place: int
    facts: dict[int, SeatFacts]
    """Every seat's facts (the turn's seat calls; either team may answer, after raises)."""


@dataclass(frozen=True, slots=True)
class Deal:
    """A dealt hand played plainly: its turns and who wins it played out."""

    turns: tuple[Turn, ...]
    winner: int | None


def deal_hand(rs: Ruleset, players: int, rng: random.Random) -> Deal:
    """Deal a hand at random, play it plainly and work out every turn's facts."""
    deck = list(rs.deck)
    rng.shuffle(deck)
    vira: Card | None = deck.pop() if rs.uses_vira else None
    st = rs.strength_table(vira)
    hands = [[st[deck.pop()] for _ in range(3)] for _ in range(players)]
    dealt = [list(h) for h in hands]
    all_str = [st[c] for c in deck] + [s for h in hands for s in h]  # every card but the vira
    signals = rng.random() < 0.5 and players == 4
    dealer = rng.randrange(players)
    leader = turn = (dealer + 1) % players
    rounds: tuple[int | None, ...] = ()
    seen: list[tuple[int, int]] = []
    turns: list[Turn] = []
    chance_rng = random.Random(rng.getrandbits(64))
    while True:
        table: list[tuple[int, int]] = []
        best, team, first = -2, -1, -1
        for _ in range(players):
            seat = turn
            facts = {}
            for s in range(players):
                pool = _without(all_str, dealt[s] + [c for by, c in seen if by != s])
                chance = hand_chance(
                    s,
                    players,
                    {s: hands[s]},
                    pool,
                    [len(h) for h in hands],
                    table,
                    rounds,
                    turn,
                    leader,
                    chance_rng,
                )
                partner = (s + 2) % 4
                signal = strengths_tier(hands[partner]) if signals and hands[partner] else 0
                facts[s] = SeatFacts(
                    rounds_state(rounds, s & 1), table_state(table, s & 1), chance, signal
                )
            turns.append(Turn(seat, len(table), facts))
            h = hands[seat]
            mine = seat & 1
            if not table:
                card = max(h)
            elif team == mine:
                card = min(h)
            else:
                takers = [c for c in h if c > best]
                card = min(takers) if takers else min(h)
            h.remove(card)
            seen.append((seat, card))
            table.append((seat, card))
            if card > best:
                best, team, first = card, mine, seat
            elif card == best and team != mine:
                team = 2
            turn = (turn + 1) % players
        if team == 2:
            rounds = (*rounds, None)
        else:
            rounds = (*rounds, team)
            leader = first
        turn = leader
        done, winner = hand_result(rs, rounds, (dealer + 1) % players & 1)
        if done:
            return Deal(tuple(turns), winner)


def _without(cards: list[int], out: list[int]) -> list[int]:
    """``cards`` less one copy of each of ``out`` (strengths repeat)."""
    rest = list(cards)
    for s in out:
        rest.remove(s)
    return rest


def hand_result(rs: Ruleset, rounds: tuple[int | None, ...], mao: int) -> tuple[bool, int | None]:
    """Whether the hand is over after ``rounds`` and which team wins it (``None``: nobody);
    ``mao`` is the team of the hand's first seat, which takes three ties in gaudério (R13.1)."""
    from engine.match import hand_outcome

    done, winner = hand_outcome(rounds)
    if done and winner is None and rs.all_tied_to_mao:
        return True, mao
    return done, winner


# ------------------------------------------------------------------ the game

State = tuple[int, int, int, tuple[int, int, bool, bool] | None]
"""(turn index, accepted step or -1, team whose call was accepted last or -1, pending call:
(step, calling seat, a raise made while answering, the first answerer ran) or ``None``)."""
Child = float | State
"""A child in the tree: team 0's payoff at a leaf, or a state."""
Node = float | tuple[int, str, list[Child]]


class Hand:
    """One deal at one score: the abstract betting game's tree, expanded on demand."""

    __slots__ = (
        "actor",
        "deal",
        "ladder",
        "players",
        "points",
        "run_values",
        "score",
        "target",
        "w",
    )

    def __init__(self, rs: Ruleset, players: int, target: int, deal: Deal, score: tuple[int, int]):
        """The game of ``deal`` with the match at ``score``."""
        self.deal = deal
        self.players = players
        self.ladder = rs.ladder
        self.points = rs.hand_value
        self.run_values = [rs.run_value(rs.ladder, k) for k in range(len(rs.ladder))]
        self.score = score
        self.target = target
        self.w = match_values(rs.name, target)
        self.actor: tuple[float, bool, int] = (0.0, False, 0)
        """The last decision ``expand`` returned: the acting seat's chance, whether it
        answers, the step (what a fixed style decides by, ``style_pick``)."""

    def payoff(self, team: int, points: int) -> float:
        """Team 0's match chance after ``team`` scores ``points``."""
        a, b = self.score
        if team == 0:
            a = min(self.target, a + points)
        else:
            b = min(self.target, b + points)
        return self.w[a][b]

    def key(self, i: int, seat: int, answer: bool, step: int, chain: bool, ran: bool) -> str:
        """The key of ``seat`` at turn ``i``."""
        turn = self.deal.turns[i]
        f = turn.facts[seat]
        team = seat & 1
        spot = Spot(
            answer=answer,
            rounds=f.rounds,
            table=f.table,
            place=turn.place,
            chance=f.chance,
            step=step,
            chain=chain,
            ran=ran,
            signal=f.signal,
            need_mine=self.target - self.score[team],
            need_theirs=self.target - self.score[1 - team],
        )
        return spot.key(self.players)

    def expand(self, state: State) -> Node:
        """Team 0's payoff at a leaf, else (team to act, key, children)."""
        i, level, rteam, pend = state
        top = len(self.ladder)
        turns = self.deal.turns
        n = self.players
        while pend is None:
            if i == len(turns):
                winner = self.deal.winner
                if winner is None:
                    return self.payoff(0, 0)
                return self.payoff(winner, self.ladder[level] if level >= 0 else self.points)
            seat = turns[i].seat
            team = seat & 1
            if level + 1 < top and rteam != team:
                key = self.key(i, seat, False, level + 1, False, False)
                kids: list[Child] = [
                    (i + 1, level, rteam, None),
                    (i, level, rteam, (level + 1, seat, False, False)),
                ]
                self.actor = (turns[i].facts[seat].chance, False, level + 1)
                return team, key, kids
            i += 1
        step, caller, chain, ran = pend
        # the seat after the caller answers first, its partner after a run (engine.turns)
        seat = (caller + (3 if ran else 1)) % n
        other = seat & 1
        key = self.key(i, seat, True, step, chain, ran)
        last = n == 2 or ran
        run: Child = (
            self.payoff(caller & 1, self.run_values[step])
            if last
            else (i, level, rteam, (step, caller, chain, True))
        )
        kids = [run, (i, step, caller & 1, None)]
        if step + 1 < top:
            kids.append((i, level, rteam, (step + 1, seat, True, False)))
        self.actor = (turns[i].facts[seat].chance, True, step)
        return other, key, kids


# ------------------------------------------------------------------ training


class Trainer:
    """External-sampling Monte Carlo CFR with regret matching+ and linear averages."""

    def __init__(
        self,
        rs: Ruleset,
        players: int,
        target: int,
        seed: int,
        pool: int,
        fit_deals: int = 0,
        eval_deals: int = 0,
        against: tuple[str, ...] = (),
    ) -> None:
        """A trainer for ``rs`` at ``players`` seats, its deals drawn from ``seed``;
        ``against``: the opponents each traversal draws one of (``SELF`` or a name of
        ``sparring.STYLES``, repeated to weigh it), or none for plain self-play."""
        self.rs = rs
        self.against = against
        self.players = players
        self.target = target
        self.seed = seed
        self.rng = random.Random(f"{seed}/{rs.name}/{players}/train")
        deal_rng = random.Random(f"{seed}/{rs.name}/{players}/deals")
        self.pool = [deal_hand(rs, players, deal_rng) for _ in range(pool)]
        fit_rng = random.Random(f"{seed}/{rs.name}/{players}/fit")
        self.fit = [
            Hand(rs, players, target, fit_rng.choice(self.pool), self.score(fit_rng))
            for _ in range(fit_deals)
        ]
        self.eval = self.hands("eval", eval_deals)
        self.regret: dict[str, list[float]] = {}
        self.total: dict[str, list[float]] = {}
        self.iterations = 0

    def hands(self, name: str, count: int) -> list[Hand]:
        """``count`` deals of their own, each at a score of its own (``name`` seeds them)."""
        rng = random.Random(f"{self.seed}/{self.rs.name}/{self.players}/{name}")
        rs, players, target = self.rs, self.players, self.target
        return [
            Hand(rs, players, target, deal_hand(rs, players, rng), self.score(rng))
            for _ in range(count)
        ]

    def score(self, rng: random.Random) -> tuple[int, int]:
        """A score below the mão de onze/dez for both teams, at random (below the target
        where the variant has no such hand: gaudério)."""
        top = min(self.rs.threshold(self.target), self.target)
        return rng.randrange(top), rng.randrange(top)

    def run(self, iterations: int) -> None:
        """Train for ``iterations`` more iterations (each one deal, both teams updated)."""
        rng = self.rng
        for _ in range(iterations):
            self.iterations += 1
            t = self.iterations
            hand = Hand(self.rs, self.players, self.target, rng.choice(self.pool), self.score(rng))
            for team in (0, 1):
                if self.against:
                    name = self.against[rng.randrange(len(self.against))]
                    style = None if name == SELF else STYLES[name]
                    self._walk_against(hand, (0, -1, -1, None), team, t, 1.0, style)
                else:
                    self._walk(hand, (0, -1, -1, None), team, t)

    def _regret_of(self, key: str, actions: int) -> list[float]:
        """The regrets kept at ``key`` (and its strategy sums), made at its first visit."""
        regret = self.regret.get(key)
        if regret is None:
            regret = self.regret[key] = [0.0] * actions
            self.total[key] = [0.0] * actions
        return regret

    def _walk(self, hand: Hand, state: Child, trav: int, t: int) -> float:
        node = state if isinstance(state, float) else hand.expand(state)
        if isinstance(node, float):
            return node if trav == 0 else 1.0 - node
        team, key, kids = node
        regret = self._regret_of(key, len(kids))
        strat = _matched(regret)
        if team == trav:
            values = [self._walk(hand, kid, trav, t) for kid in kids]
            ev = sum(p * v for p, v in zip(strat, values, strict=True))
            for a, v in enumerate(values):
                regret[a] = max(0.0, regret[a] + v - ev)
            return ev
        total = self.total[key]
        for a, p in enumerate(strat):
            total[a] += t * p
        x = self.rng.random()
        pick = len(kids) - 1
        for a, p in enumerate(strat):
            x -= p
            if x < 0:
                pick = a
                break
        return self._walk(hand, kids[pick], trav, t)

    def _walk_against(
        self, hand: Hand, state: Child, trav: int, t: int, reach: float, style: Style | None
    ) -> float:
        """``_walk`` against an opponent drawn from ``against``: a fixed ``style``, or the
        policy being trained (``None``). The average strategy is summed where the
        traversing team acts, weighed by its own reach: at a style's nodes there is no
        policy of the other team to sum."""
        node = state if isinstance(state, float) else hand.expand(state)
        if isinstance(node, float):
            return node if trav == 0 else 1.0 - node
        team, key, kids = node
        chance, answer, step = hand.actor
        regret = self._regret_of(key, len(kids))
        strat = _matched(regret)
        if team == trav:
            total = self.total[key]
            for a, p in enumerate(strat):
                total[a] += t * reach * p
            values = [
                self._walk_against(hand, kid, trav, t, reach * p, style)
                for kid, p in zip(kids, strat, strict=True)
            ]
            ev = sum(p * v for p, v in zip(strat, values, strict=True))
            for a, v in enumerate(values):
                regret[a] = max(0.0, regret[a] + v - ev)
            return ev
        if style is not None:
            pick = style_pick(style, chance, answer, step, len(kids), self.rng)
        else:
            pick = _draw(strat, self.rng.random())
        return self._walk_against(hand, kids[pick], trav, t, reach, style)

    def average(self) -> dict[str, list[float]]:
        """The average strategy of every key reached (uniform where nothing was summed)."""
        out = {}
        for key, total in self.total.items():
            s = sum(total)
            out[key] = [x / s for x in total] if s > 0 else [1 / len(total)] * len(total)
        return out

    def table(self) -> dict[str, list[int]]:
        """The average strategy as the data file holds it: percentages of keys reached."""
        out = {}
        for key, probs in sorted(self.average().items()):
            if sum(self.total[key]) <= 0:
                continue
            out[key] = _percentages(probs)
        return out


def style_pick(
    style: Style, chance: float, answer: bool, step: int, actions: int, rng: random.Random
) -> int:
    """The action a sparring style (``sparring.Styled``) takes at a node of the abstract
    game, by its thresholds on the seat's chance of winning the hand: 0/1 (play on, call)
    at a call, 0/1/2 (run, accept, raise) at an answer. A made hand, which the abstract
    game does not see, is read as a chance of at least ``MADE_CHANCE``."""

    def raises() -> bool:
        strong = chance >= (MADE_CHANCE if style.made_only else style.raise_)
        return strong or (chance < 0.35 and rng.random() < style.raise_bluff)

    if answer:
        if actions > 2 and raises():
            return 2
        return 1 if style.never_runs or chance >= style.accept else 0
    if step > 0 and style.made_only:
        return 1 if raises() else 0
    return 1 if chance >= style.call or (chance < 0.35 and rng.random() < style.bluff) else 0


def _matched(regret: list[float]) -> list[float]:
    s = sum(regret)
    if s <= 0:
        return [1 / len(regret)] * len(regret)
    return [r / s for r in regret]


def _percentages(probs: list[float]) -> list[int]:
    """Whole percentages summing to 100 (largest remainders)."""
    raw = [p * 100 for p in probs]
    out = [int(x) for x in raw]
    order = sorted(range(len(raw)), key=lambda i: (out[i] - raw[i], i))
    for i in order[: 100 - sum(out)]:
        out[i] += 1
    return out


# ------------------------------------------------------------------ exploitability


def best_response(
    fit: list[Hand],
    test: list[Hand],
    strategy: dict[str, list[float]],
    team: int,
    passes: int = BR_PASSES,
    seed: int = 0,
) -> tuple[float, float]:
    """``team``'s mean payoff on ``test`` playing the policy itself, and playing a best
    response to it found on ``fit``.

    The response starts from the policy and, pass after pass over ``fit``, takes in a key
    of ``team`` the action of most value against the policy (the other team's actions
    drawn by the policy's own probabilities), given its own choices elsewhere, when that
    action beats the policy's own mix there by ``BR_Z`` standard errors; elsewhere it
    plays the policy. It is then played on the separate ``test`` deals, with the same
    draws for the policy and for the response: a response fitted and measured on the same
    deals would know the cards. With the abstraction's imperfect recall and a finite
    ``fit`` this finds a strong response, not always the best: its gain is a lower bound
    on the exploitability.
    """
    choice: dict[str, int] | None = None
    for k in range(passes):
        q: dict[str, list[list[float]]] = {}
        for i, hand in enumerate(fit):
            rng = random.Random(f"{seed}/fit/{k}/{i}")
            _respond(hand, (0, -1, -1, None), strategy, team, choice, q, rng)
        choice = {}
        for key, (count, sums, squares) in q.items():
            n = count[0]
            if n < 2:
                continue
            best, score = -1, 0.0
            for a, (x, xx) in enumerate(zip(sums, squares, strict=True)):
                mean = x / n
                err = math.sqrt(max(0.0, xx / n - mean * mean) / (n - 1))
                if mean - BR_Z * err > score:
                    best, score = a, mean - BR_Z * err
            if best >= 0:
                choice[key] = best
    base = br = 0.0
    for i, hand in enumerate(test):
        start = (0, -1, -1, None)
        base += _respond(hand, start, strategy, team, None, None, random.Random(f"{seed}/test/{i}"))
        br += _respond(hand, start, strategy, team, choice, None, random.Random(f"{seed}/test/{i}"))
    return base / len(test), br / len(test)


def _respond(
    hand: Hand,
    state: Child,
    strategy: dict[str, list[float]],
    team: int,
    choice: dict[str, int] | None,
    q: dict[str, list[list[float]]] | None,
    rng: random.Random,
) -> float:
    """``team``'s payoff from ``state``: the other team draws by ``strategy``; ``team``
    plays ``choice`` (the strategy's own draw where it has none); with ``q``, each action
    of ``team`` is tallied there by its gain over the strategy's mix (one draw of the
    other team per node): visits, sums and sums of squares."""
    node = state if isinstance(state, float) else hand.expand(state)
    if isinstance(node, float):
        return node if team == 0 else 1.0 - node
    actor, key, kids = node
    probs = strategy.get(key) or [1 / len(kids)] * len(kids)
    x = rng.random()  # drawn at every node: the same draws with and without a choice
    if actor == team and q is not None:
        values = [_respond(hand, kid, strategy, team, choice, q, rng) for kid in kids]
        ev = sum(p * v for p, v in zip(probs, values, strict=True))
        row = q.get(key)
        if row is None:
            row = q[key] = [[0.0], [0.0] * len(kids), [0.0] * len(kids)]
        row[0][0] += 1
        for a, v in enumerate(values):
            row[1][a] += v - ev
            row[2][a] += (v - ev) ** 2
        pick = choice.get(key) if choice is not None else None
        return values[pick] if pick is not None else ev
    pick = _draw(probs, x)
    if actor == team and choice is not None:
        pick = choice.get(key, pick)
    return _respond(hand, kids[pick], strategy, team, choice, q, rng)


def _best(values: list[float]) -> int:
    """The action of most value (the first of equals)."""
    return max(range(len(values)), key=lambda a: (values[a], -a))


def _draw(probs: list[float], x: float) -> int:
    for a, p in enumerate(probs):
        x -= p
        if x < 0:
            return a
    return len(probs) - 1


def exploitability(trainer: Trainer, strategy: dict[str, list[float]]) -> tuple[float, float]:
    """The policy's value for team 0 against itself and the best responses' mean gain per
    hand, in match chance (the mean over both teams)."""
    gains = []
    base0 = 0.0
    for team in (0, 1):
        base, br = best_response(trainer.fit, trainer.eval, strategy, team, seed=trainer.seed)
        gains.append(br - base)
        if team == 0:
            base0 = base
    return base0, sum(gains) / 2


# ------------------------------------------------------------------ the file


def rounded(table: dict[str, list[int]]) -> dict[str, list[float]]:
    """A stored table back as probabilities."""
    return {k: [x / 100 for x in v] for k, v in table.items()}


def write_table(
    path: Path, name: str, table: dict[str, list[int]], meta: dict[str, object]
) -> None:
    """Put ``table`` (and its ``meta``) under ``name`` in the data file, keeping the others."""
    data: dict[str, object] = {"format": FORMAT, "meta": {}, "tables": {}}
    if path.exists():
        old = json.loads(path.read_text("utf-8"))
        if old.get("format") == FORMAT:
            data = old
    tables = data["tables"]
    metas = data["meta"]
    assert isinstance(tables, dict) and isinstance(metas, dict)
    tables[name] = table
    metas[name] = meta
    data["about"] = (
        "betting policy by Monte Carlo CFR+ on an abstract betting game; built by truco train"
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    path.write_text(text + "\n", encoding="utf-8")


def train(
    variant: str,
    players: int,
    iterations: int,
    seed: int,
    pool: int = POOL,
    checkpoints: int = 0,
    eval_deals: int = EVAL_DEALS,
    fit_draws: int | None = None,
    out: Path = DATA_PATH,
    log: object = None,
    against: tuple[str, ...] = (),
) -> dict[str, object]:
    """Train one table, write it to ``out`` and return what the command prints;
    ``against`` as ``Trainer`` takes it (empty: self-play)."""
    rs = get_ruleset(variant)
    # the target a table of this size plays by default: 12, or gaudério's 18 and 24 (R13.1)
    target = rs.default_target_for(players)
    started = time.process_time()
    wall = time.perf_counter()
    deals = eval_deals if checkpoints else 0
    fit = (FIT_DRAWS[players] if fit_draws is None else fit_draws) if checkpoints else 0
    trainer = Trainer(rs, players, target, seed, pool, fit, deals, against)
    pool_s = time.process_time() - started
    curve = []
    marks = (
        sorted({iterations * (k + 1) // checkpoints for k in range(checkpoints)})
        if checkpoints
        else []
    )
    done = 0
    for mark in marks if iterations in marks else [*marks, iterations]:
        trainer.run(mark - done)
        done = mark
        if mark in marks:
            value, gain = exploitability(trainer, rounded(trainer.table()))
            curve.append(
                {
                    "iterations": mark,
                    "br_gain": round(gain, 5),
                    "value": round(value, 5),
                    "keys": len(trainer.total),
                }
            )
            if log is not None:
                print(json.dumps(curve[-1]), file=sys.stderr, flush=True)
    table = trainer.table()
    cpu = time.process_time() - started
    meta: dict[str, object] = {
        "seed": seed,
        "iterations": iterations,
        "pool": pool,
        "keys": len(table),
    }
    if against:
        meta["against"] = ",".join(against)
    write_table(out, f"{rs.name}/{players}", table, meta)
    return {
        "table": f"{rs.name}/{players}",
        "seed": seed,
        "iterations": iterations,
        "pool": pool,
        **({"against": ",".join(against)} if against else {}),
        "keys": len(table),
        "entries": sum(len(v) for v in table.values()),
        "pool_cpu_s": round(pool_s, 1),
        "cpu_s": round(cpu, 1),
        "wall_s": round(time.perf_counter() - wall, 1),
        "curve": curve,
        "out": str(out),
    }


def cmd_train(args: argparse.Namespace) -> int:
    """Train a betting policy table and print its figures (JSON)."""
    if args.iterations < 1:
        raise ValueError("--iterations precisa ser pelo menos 1")
    if args.pool < 1:
        raise ValueError("--pool precisa ser pelo menos 1")
    against = tuple(x for x in args.against.split(",") if x) if args.against else ()
    unknown = [x for x in against if x != SELF and x not in STYLES]
    if unknown:
        names = ", ".join((SELF, *STYLES))
        raise ValueError(f"--against: adversário desconhecido {unknown[0]!r} (use {names})")
    result = train(
        args.variant,
        args.players,
        args.iterations,
        args.seed,
        args.pool,
        args.checkpoints,
        args.eval_deals,
        args.fit_draws,
        Path(args.out),
        log=True,
        against=against,
    )
    print(json.dumps(result, indent=2))
    return 0


def add_train_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``truco train`` on a ``truco`` parser."""
    p = sub.add_parser("train", help="treina a política de apostas por autojogo (CFR)")
    p.add_argument("--variant", default="paulista")
    p.add_argument("--players", type=int, choices=(2, 4), default=2)
    p.add_argument("--iterations", type=int, default=100_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--pool", type=int, default=POOL, help="mãos sorteadas para o treino")
    p.add_argument(
        "--checkpoints", type=int, default=0, help="medidas de explorabilidade durante o treino"
    )
    p.add_argument(
        "--eval-deals",
        type=int,
        default=EVAL_DEALS,
        help="mãos para ajustar e medir a melhor resposta",
    )
    p.add_argument(
        "--fit-draws", type=int, default=None, help="mãos para ajustar a melhor resposta"
    )
    p.add_argument("--out", default=str(DATA_PATH), help="arquivo da política (JSON)")
    p.add_argument(
        "--against",
        default="",
        help="adversários do treino, separados por vírgula (self = a própria política; "
        "nomes repetidos pesam mais); sem ele, autojogo",
    )
    p.set_defaults(handler=cmd_train)
