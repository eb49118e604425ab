"""A betting policy learned from self-play: what a seat reads of its view, and the table.

``truco train`` (``engine.tools.train``) trains it by Monte Carlo counterfactual regret
minimisation on an abstract betting game and writes ``engine/robots/data/policy.json``;
this module is the runtime half: the *abstraction* (a short key per betting decision)
and the lookup. The trainer builds the very same keys with the functions below, so a key
means the same thing in training and at a table.

A key holds what a seat knows that matters to a bet, coarsely:

- the node: ``c`` (may call truco or the next step on its turn) or ``a`` (answers a call);
- the rounds so far, from its team's side (``0``; ``w``/``l``/``t`` after round 1;
  ``W``/``L``/``T`` in round 3: who takes a tied last round, or ``T`` when all tied);
- the table of this round: empty, held by its team, by the others, or tied;
- its chance of winning the hand from here (``hand_chance``: its own cards against the
  unseen ones dealt at random and played plainly), in tenths;
- the ladder step called (or to call), whether the call is a raise made while answering,
  whether its partner already ran from it (2×2);
- its partner's last signal (2×2, R12): a manilha or not;
- how far each team is from the target (three bands each).

Each entry gives the probabilities of the actions, as percentages: ``[play on, call]``
at a ``c`` node, ``[run, accept]`` or ``[run, accept, raise]`` at an ``a`` node. Decisions
the table does not hold (never reached in training, another variant) get ``None``:
the robot decides them its own way.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from engine import actions as A
from engine.actions import Act, Action
from engine.match import HandKind, Phase
from engine.robots.sense import COVERED, read, simulate
from engine.robots.sinais import sinal_of
from engine.sinais import Sinal
from engine.view import View

POLICY_FILE = "policy.json"
FORMAT = 1
"""The data file's format: a key's meaning changes only with it."""
CHANCE_SAMPLES = 32
"""Deals of the unseen cards behind the chance in a key (training and play alike)."""
CHANCE_BUCKETS = 10


def need_band(need: int) -> int:
    """Three bands of the points a team still needs: 1-3, 4-7, 8 and more."""
    return 0 if need <= 3 else 1 if need <= 7 else 2


def chance_band(p: float) -> int:
    """The chance of winning the hand, in tenths (0-9)."""
    return min(CHANCE_BUCKETS - 1, int(p * CHANCE_BUCKETS))


def rounds_state(rounds: tuple[int | None, ...], team: int) -> str:
    """The rounds played, from ``team``'s side (see the module's docstring)."""
    if not rounds:
        return "0"

    def side(r: int | None) -> str:
        return "t" if r is None else "w" if r == team else "l"

    if len(rounds) == 1:
        return side(rounds[0])
    first = next((r for r in rounds if r is not None), None)
    return side(first).upper()


def table_state(table: list[tuple[int, int]], team: int) -> int:
    """This round's table from ``team``'s side: 0 empty, 1 held by it, 2 by the others, 3 tied."""
    if not table:
        return 0
    best = max(s for _, s in table)
    teams = {seat & 1 for seat, s in table if s == best}
    if len(teams) == 2:
        return 3
    return 1 if team in teams else 2


def signal_tier(sinal: Sinal | None) -> int:
    """A partner's signal, coarsely: 0 none, 1 weak (ás, nada), 2 três or dois, 3 a manilha."""
    if sinal is None:
        return 0
    if sinal <= Sinal.PICA_FUMO or Sinal.ESPADAO <= sinal <= Sinal.SETE_OUROS:
        # gaudério's four top cards (R13.5) are its manilhas: the trainer reads a partner's
        # hand by strength, where they are the strongest four as the manilhas elsewhere
        return 3
    return 2 if sinal <= Sinal.DOIS else 1


def strengths_tier(strengths: list[int] | tuple[int, ...]) -> int:
    """``signal_tier`` of the honest signal for these card strengths."""
    return signal_tier(sinal_of(strengths))


@dataclass(frozen=True, slots=True)
class Spot:
    """The facts of one betting decision a key is made of."""

    answer: bool
    rounds: str
    table: int
    place: int
    chance: float
    step: int
    chain: bool
    ran: bool
    signal: int
    need_mine: int
    need_theirs: int

    def key(self, players: int) -> str:
        """The table key: one character a fact.

        At four seats the key is coarser, as the 2×2 game has more states to learn from
        the same training: the chance in fifths, no table (the chance already plays the
        table out), and only whether the partner signalled a manilha.
        """
        node = "a" if self.answer else "c"
        needs = str(need_band(self.need_mine)) + str(need_band(self.need_theirs))
        if players == 4:
            key = node + self.rounds + str(chance_band(self.chance) // 2) + str(self.step) + needs
            key += "1" if self.signal == 3 else "0"
            if self.answer:
                key += ("1" if self.chain else "0") + ("1" if self.ran else "0")
            return key
        key = node + self.rounds + str(self.table) + str(chance_band(self.chance))
        key += str(self.step) + needs
        if self.answer:
            key += "1" if self.chain else "0"
        return key


def hand_chance(
    seat: int,
    players: int,
    hands_known: dict[int, list[int]],
    pool: list[int],
    cards_left: tuple[int, ...] | list[int],
    table: list[tuple[int, int]],
    rounds: tuple[int | None, ...],
    turn: int,
    leader: int,
    rng: random.Random,
    samples: int = CHANCE_SAMPLES,
) -> float:
    """Chance that ``seat``'s team wins the hand from here, by dealing ``pool`` at random.

    ``hands_known``: the strengths of the hands the seat knows (its own, and its partner's
    when shown); every other seat gets ``cards_left`` of the pool. A tied hand counts half.
    """
    need = [0 if s in hands_known else cards_left[s] for s in range(players)]
    total = sum(need)
    if total > len(pool):
        return 0.5
    to_play = players - len(table)
    wins = 0.0
    deck = list(pool)
    team = seat & 1
    for _ in range(samples):
        rng.shuffle(deck)
        hands: list[list[int]] = []
        at = 0
        for s in range(players):
            known = hands_known.get(s)
            if known is not None:
                hands.append(list(known))
            else:
                hands.append(deck[at : at + need[s]])
                at += need[s]
        if any(not hands[(turn + i) % players] for i in range(to_play)):
            return 0.5  # no cards to play: not a play state
        winner = simulate(hands, list(table), rounds, turn, leader, players)
        if winner is None:
            wins += 0.5
        elif winner == team:
            wins += 1.0
    return wins / samples


def spot_of(view: View, rng: random.Random, samples: int = CHANCE_SAMPLES) -> Spot | None:
    """The facts of ``view``'s betting decision, or ``None`` when it is not one the policy takes
    (card play, the mão de onze/dez, the iron hand, answering gaudério's envido).

    An envido call offered beside the truco (R13.3) does not stop it: the points game is not
    in the trained game, and the robots make their envido choice before asking the policy
    (``heuristic.learned_action``), so what is left to it is the truco's."""
    if view.kind != HandKind.NORMAL or any(a.act not in _TRAINED for a in view.legal):
        return None
    answer = view.phase == Phase.ANSWER
    if answer:
        step = view.pending_step
        if step is None:
            return None
    elif view.phase == Phase.PLAY and A.TRUCO in view.legal:
        step = view.next_step if view.next_step is not None else 0
    else:
        return None
    sense = read(view)
    st = sense.strength
    team = view.team
    table = [(s, COVERED if cov or c is None else st[c]) for s, c, cov in view.table]
    known = {view.seat: [st[c] for c in view.hand]}
    partner = view.partner
    if partner is not None and view.partner_hand is not None:
        known[partner] = [st[c] for c in view.partner_hand]
    chance = hand_chance(
        view.seat,
        view.players,
        known,
        list(sense.unseen_strengths),
        view.cards_left,
        table,
        view.rounds,
        view.turn,
        view.leader,
        rng,
        samples,
    )
    chain = False
    if answer:
        last = next((a for _, a in reversed(view.history) if a.act in _CALLS), None)
        chain = last is not None and last.act == Act.RAISE
    sinal = None
    if partner is not None:
        sinal = next((s for seat, s in reversed(view.signals) if seat == partner), None)
    return Spot(
        answer=answer,
        rounds=rounds_state(view.rounds, team),
        table=table_state(table, team),
        place=len(view.table),
        chance=chance,
        step=step,
        chain=chain,
        ran=partner is not None and partner in view.ran,
        signal=signal_tier(sinal),
        need_mine=view.target - view.score[team],
        need_theirs=view.target - view.score[1 - team],
    )


_CALLS = (Act.TRUCO, Act.RAISE)
_TRAINED = frozenset(
    (
        Act.PLAY,
        Act.COVER,
        Act.TRUCO,
        Act.ACCEPT,
        Act.RUN,
        Act.RAISE,
        Act.ENVIDO,
        Act.REAL_ENVIDO,
        Act.FALTA_ENVIDO,
    )
)
"""The actions of the trained game, and the envido calls that may be offered beside them: a
decision offering any other (an envido to answer, the mão de onze/dez) is left to the robot."""


class Policy:
    """The trained tables, one per ``variant/players``: key → action percentages."""

    __slots__ = ("meta", "tables")

    def __init__(self, data: dict[str, object]) -> None:
        """A policy from the data file's JSON object."""
        tables = data.get("tables", {})
        assert isinstance(tables, dict)
        self.tables: dict[str, dict[str, list[int]]] = tables
        meta = data.get("meta", {})
        assert isinstance(meta, dict)
        self.meta: dict[str, object] = meta

    def table_for(self, variant: str, players: int) -> dict[str, list[int]] | None:
        """The table for this kind of table, if one was trained."""
        return self.tables.get(f"{variant}/{players}")

    def probabilities(
        self, view: View, rng: random.Random, samples: int = CHANCE_SAMPLES
    ) -> dict[Action, float] | None:
        """The policy's mix over ``view.legal`` for this betting decision, if it has one;
        ``samples``: deals behind the key's chance (``spot_of``)."""
        table = self.table_for(view.variant, view.players)
        if table is None:
            return None
        spot = spot_of(view, rng, samples)
        if spot is None:
            return None
        row = table.get(spot.key(view.players))
        if row is None:
            return None
        if not spot.answer:
            return {_PASS: row[0] / 100, A.TRUCO: row[1] / 100}
        out = {A.RUN: row[0] / 100, A.ACCEPT: row[1] / 100}
        if A.RAISE in view.legal and len(row) > 2:
            out[A.RAISE] = row[2] / 100
        elif len(row) > 2:
            out[A.ACCEPT] += row[2] / 100
        return out


_PASS = Action(Act.PLAY)
"""Stands for "play a card, no call" in a call node's mix (the card is chosen elsewhere)."""
PASS = _PASS


def draw(mix: dict[Action, float], rng: random.Random) -> Action:
    """One action out of ``mix``, by ``rng``."""
    x = rng.random() * sum(mix.values())
    last = next(iter(mix))
    for action, p in mix.items():
        last = action
        x -= p
        if x < 0:
            return action
    return last


@lru_cache(maxsize=1)
def load_policy() -> Policy | None:
    """The shipped policy (``None`` when the data file is missing)."""
    try:
        text = resources.files("engine.robots").joinpath("data", POLICY_FILE).read_text("utf-8")
    except FileNotFoundError:
        return None
    data = json.loads(text)
    if data.get("format") != FORMAT:
        return None
    return Policy(data)


def policy_mix(
    view: View, rng: random.Random, samples: int = CHANCE_SAMPLES
) -> dict[Action, float] | None:
    """The shipped policy's mix for ``view`` (``Policy.probabilities``), or ``None`` without
    a policy or an entry for this decision; ``samples`` as in ``spot_of``."""
    policy = load_policy()
    return None if policy is None else policy.probabilities(view, rng, samples)


def policy_action(view: View, rng: random.Random, samples: int = CHANCE_SAMPLES) -> Action | None:
    """The policy's betting action for ``view`` (``PASS`` for "no call, play a card"), or
    ``None`` when it holds no entry for this decision; ``samples`` as in ``spot_of`` (fewer
    in difícil's play-outs, which ask it thousands of times a decision)."""
    mix = policy_mix(view, rng, samples)
    return None if mix is None else draw(mix, rng)
