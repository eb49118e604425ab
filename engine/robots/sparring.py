"""Sparring partners for ``truco arena``: robots with one marked betting style each.

They exist to measure our robots against every kind of table, not to be played
against in the bot. All of them play their cards like médio and gaudério's envido by
médio's rule of before (``points_move``'s ``plain``: a yardstick does not move when médio
does); they differ in how they bet, each by fixed thresholds on their plain chance of
winning the hand:

- ``tight``: calls and accepts only with strong hands, never bluffs;
- ``loose``: calls and accepts with middling hands, bluffs now and then;
- ``bluffer``: calls truco on air half the time and raises on air too;
- ``honest``: calls with good hands only and never bluffs (a call always means it);
- ``accepter``: never runs from a call; calls on good hands;
- ``solid``: calls only with strong hands and never bluffs, but accepts with middling
  ones and raises with strong ones: the solid player who rarely calls and is hard to
  push off a hand (the outside baseline issue 13 describes called half as often as
  médio and won far more of the hands played out);
- ``valuer``: accepts a truco with a fair hand and calls the next step (on its own turn
  after accepting, or as a raise) only once its hand is made or won, bluffing such a raise
  rarely: its raise is near-certain, and whoever answers it as a bluff pays for it;
- ``probe``: the best response to one fixed robot (médio by default): for each betting
  choice it deals the hidden cards many times and asks *that robot's own policy* what
  it would answer (or would have called) in each deal, so it exploits every leak of
  that robot, and nothing else.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from engine import actions as A
from engine.actions import Act, Action
from engine.match import Match, Phase
from engine.robots.base import Robot, SeededRobot
from engine.robots.heuristic import (
    CARD_SAMPLES,
    Learned,
    Medio,
    _medio_card,
    _played_out,
    next_value,
    run_value,
)
from engine.robots.policy import PASS
from engine.robots.pontos import points_move
from engine.robots.search import BETS, STRONG_UNTIL_2X2, Dificil, sample_world
from engine.robots.sense import COVERED, Sense, read, simulate, value_after, win_chance
from engine.view import View

STYLE_SAMPLES = 24
"""Hidden hands a sparring robot samples to estimate its chance of winning the hand."""


@dataclass(frozen=True)
class Style:
    """A betting style: thresholds on the chance of winning the hand (0-1)."""

    call: float
    """Calls truco (or the next step) from this chance."""
    bluff: float
    """Share of weak hands (chance below 0.35) it calls with anyway."""
    accept: float
    """Accepts a call from this chance."""
    raise_: float
    """Raises a call from this chance."""
    raise_bluff: float = 0.0
    """Share of weak answers it raises anyway."""
    never_runs: bool = False
    play11: float = 0.5
    """Plays the mão de onze/dez from this chance."""
    made_only: bool = False
    """Raises (seis and up, on its own turn or as an answer) only with a made hand
    (``made_hand``), bluffing such a raise with a share ``raise_bluff`` of weak hands;
    ``raise_`` is then unused."""


STYLES: dict[str, Style] = {
    "tight": Style(call=0.8, bluff=0.0, accept=0.62, raise_=0.9, play11=0.6),
    "loose": Style(call=0.5, bluff=0.15, accept=0.3, raise_=0.7, play11=0.35),
    "bluffer": Style(call=0.6, bluff=0.5, accept=0.45, raise_=0.8, raise_bluff=0.2),
    "honest": Style(call=0.7, bluff=0.0, accept=0.5, raise_=0.85),
    "accepter": Style(call=0.7, bluff=0.05, accept=0.0, raise_=0.85, never_runs=True),
    "solid": Style(call=0.8, bluff=0.0, accept=0.45, raise_=0.8),
    "valuer": Style(
        call=0.65, bluff=0.05, accept=0.45, raise_=1.0, raise_bluff=0.01, made_only=True
    ),
}
"""The fixed-threshold styles, by name."""


class Styled(SeededRobot):
    """A sparring robot that bets by one ``Style`` and plays its cards like médio."""

    def __init__(self, name: str, seed: int = 0) -> None:
        """The style called ``name`` (see ``STYLES``)."""
        super().__init__(seed)
        self.level = name
        self.style = STYLES[name]

    def decide(self, view: View, rng: random.Random) -> Action:
        """One action out of ``view.legal``."""
        points = points_move(view, rng, "plain")  # gaudério's envido (R13.3), as before
        if points is not None:
            return points
        legal = view.legal
        sense = read(view)
        st = self.style
        if view.phase == Phase.DECIDE:
            p = win_chance(sense, rng, STYLE_SAMPLES * 2)
            return A.PLAY11 if p >= st.play11 else A.RUN11
        if view.phase == Phase.ANSWER:
            p = win_chance(sense, rng, STYLE_SAMPLES)
            if A.RAISE in legal and self._raises(sense, p, rng):
                return A.RAISE
            return A.ACCEPT if st.never_runs or p >= st.accept else A.RUN
        if A.TRUCO in legal:
            p = win_chance(sense, rng, STYLE_SAMPLES)
            if view.next_step and st.made_only:
                if self._raises(sense, p, rng):
                    return A.TRUCO
            elif p >= st.call or (p < 0.35 and rng.random() < st.bluff):
                return A.TRUCO
        return _medio_card(sense, rng, CARD_SAMPLES)

    def _raises(self, sense: Sense, p: float, rng: random.Random) -> bool:
        """Whether to raise (seis and up) with chance ``p`` of winning the hand."""
        st = self.style
        strong = made_hand(sense) if st.made_only else p >= st.raise_
        return strong or (p < 0.35 and rng.random() < st.raise_bluff)


def made_hand(sense: Sense) -> bool:
    """Whether this seat's team wins the hand whatever the hidden cards are, by its own cards.

    A card is sure when it beats every unseen card and every card the other team has on
    the table; a hand is made when the sure cards it holds win the rounds the team still
    needs (R4: the first round's winner takes a tied or split hand; a tied first round
    goes to the next round's winner).
    """
    v = sense.view
    st = sense.strength
    top = max(sense.unseen_strengths, default=-1)
    for seat, card, covered in v.table:
        if seat & 1 != v.team and not covered and card is not None:
            top = max(top, st[card])
    sure = sum(1 for c in sense.hand if st[c] > top)
    rounds = v.rounds
    if not rounds:
        need = 2
    elif rounds[0] is None or rounds[0] == v.team or len(rounds) == 2:
        need = 1
    else:
        need = 2
    return sure >= need


# ---------------------------------------------------------------- the probe

PROBE_WORLDS = 24
"""Deals the probe samples per betting decision."""


class Probe(SeededRobot):
    """Best response to one fixed robot's betting, by asking its policy in sampled deals."""

    def __init__(self, seed: int = 0, target: Robot | None = None) -> None:
        """A probe against ``target`` (médio when none is given)."""
        super().__init__(seed)
        self.level = "probe"
        # only the target's bets are asked for: its card play need not sample
        self.target: Robot = target if target is not None else Medio(seed ^ 0x5EED, card_samples=0)

    def decide(self, view: View, rng: random.Random) -> Action:
        """One action out of ``view.legal``."""
        points = points_move(view, rng, "plain")  # gaudério's envido (R13.3), as before
        if points is not None:
            return points
        legal = view.legal
        sense = read(view)
        if view.phase == Phase.DECIDE:
            p = win_chance(sense, rng, STYLE_SAMPLES * 2)
            worth = sense.ruleset.special_hand_value
            play = _played_out(view, p, worth)
            return A.PLAY11 if play >= value_after(view, 0, sense.ruleset.hand_value) else A.RUN11
        worlds = self._worlds(view, rng)
        if view.phase == Phase.ANSWER:
            return self._answer(view, worlds)
        if A.TRUCO in legal and self._call(view, worlds):
            return A.TRUCO
        return _medio_card(sense, rng, CARD_SAMPLES)

    def _worlds(self, view: View, rng: random.Random) -> list[tuple[Match, float]]:
        """Deals consistent with the view, weighted by how likely the target's actions were."""
        out = []
        for _ in range(PROBE_WORLDS):
            world = sample_world(view, rng)
            out.append((world, self._likelihood(view, world)))
        return out

    def _likelihood(self, view: View, world: Match) -> float:
        """Replay the hand in ``world``: how likely the target's bets were there.

        A target that tells its mix (``mix``, the learned policy) gives each of its bets,
        and each card it played where it could have called, its own probability; any
        other counts 1 when it would have bet as it did, else small.
        """
        m = Match.from_hand(
            world.ruleset,
            world.options,
            score=(view.score[0] - view.points[0], view.score[1] - view.points[1]),
            dealer=view.dealer,
            hands=list(world.dealt),
            vira=view.vira,
        )
        m.bets = view.bets
        weight = 1.0
        for seat, action in world.hand_log:
            if action.act == Act.FLOR:
                m.sing_flor(seat)  # as the world sang it (gaudério)
                continue
            if seat & 1 != view.team and action.act != Act.SIGNAL:
                weight *= self._chance_of(m, seat, action)
            m.apply(seat, action)
            if m.env is not None and world.env is not None and m.env.points != world.env.points:
                m.env = m.env._replace(points=world.env.points)  # the showdown the table saw
        return weight

    def _mix(self, view: View) -> dict[Action, float] | None:
        """The target's probabilities for a betting decision, when it tells them."""
        mix = getattr(self.target, "mix", None)
        return mix(view) if mix is not None else None

    def _chance_of(self, m: Match, seat: int, action: Action) -> float:
        """How likely the target was to take ``action`` (a bet, or a card instead of a call)."""
        telling = action.act in BETS
        if not telling and not (m.phase == Phase.PLAY and m.can_truco(seat)):
            return 1.0
        view = m.view(seat)
        mix = self._mix(view)
        if mix is not None:
            return max(MIX_FLOOR, mix.get(action if telling else PASS, 0.0))
        if not telling:
            return 1.0
        return 1.0 if self.target.choose(view) == action else 0.1

    def _outcome(self, world: Match, view: View) -> float:
        """1 if this seat's team wins the hand played out plainly in ``world``, else 0."""
        st = world.strength
        hands = [[st[c] for c in h] for h in world.hands]
        table = [(s, COVERED if cov else st[c]) for s, c, cov in world.table]
        winner = simulate(hands, table, world.rounds, world.turn, world.leader, world.players)
        return 0.5 if winner is None else float(winner == view.team)

    def _replies(
        self, world: Match, view: View, action: Action
    ) -> tuple[Match, list[tuple[Action | None, float]]]:
        """The world after ``action`` and the target team's first answers with their chances
        (``None``: no answer is due)."""
        m = world.copy()
        m.apply(view.seat, action)
        if m.phase != Phase.ANSWER:
            return m, [(None, 1.0)]
        answer_view = m.view(m.to_act()[0])
        mix = self._mix(answer_view)
        if mix is not None:
            return m, list(mix.items())
        return m, [(self.target.choose(answer_view), 1.0)]

    def _call(self, view: View, worlds: list[tuple[Match, float]]) -> bool:
        now, then = view.stake, next_value(view)
        keep = call = tot = 0.0
        for world, w in worlds:
            win = self._outcome(world, view)
            keep += w * _played_out(view, win, now)
            m, replies = self._replies(world, view, A.TRUCO)
            for answer, p in replies:
                if answer == A.RUN and len(m.to_act()) <= 1:
                    value = value_after(view, now, 0)
                elif answer == A.RAISE:
                    higher = next(v for v in view.ladder if v > then)
                    value = max(value_after(view, 0, then), _played_out(view, win, higher))
                else:
                    value = _played_out(view, win, then)
                call += w * p * value
            tot += w
        return tot > 0 and call > keep

    def _answer(self, view: View, worlds: list[tuple[Match, float]]) -> Action:
        pending = view.accept_value or next_value(view)
        accept = raised = tot = 0.0
        for world, w in worlds:
            win = self._outcome(world, view)
            accept += w * _played_out(view, win, pending)
            if A.RAISE in view.legal:
                higher = next(v for v in view.ladder if v > pending)
                m, replies = self._replies(world, view, A.RAISE)
                for answer, p in replies:
                    if answer == A.RUN and len(m.to_act()) <= 1:
                        raised += w * p * value_after(view, pending, 0)
                    else:
                        raised += w * p * _played_out(view, win, higher)
            tot += w
        if tot <= 0:
            return A.ACCEPT
        run = value_after(view, 0, run_value(view)) * tot
        if A.RAISE in view.legal and raised > max(accept, run):
            return A.RAISE
        return A.ACCEPT if accept >= run else A.RUN


MIXED_BAND = 0.2
"""``dificil-misto``'s band: a first-round call mix between 20% and 80% is médio's to decide."""
AGREEMENTS: dict[str, float | None] = {
    "dificil-acordo": 0.0,
    "dificil-leitura": 0.4,
    "dificil-leitura-cedo": 0.25,
    "dificil-sem-acordo": None,
}
"""Difícil with médio's agreement to its learned 2×2 calls always, once the other team
accepts 40% of its trucos (25%, which the prior of ``heuristic.accept_share`` passes
before any answer: ``-cedo``), or never; ``dificil-leitura`` plays as difícil does
(``search.AGREE_CALLS_2X2``) and ``dificil-sem-acordo`` as it did before."""
_LEARNED_CALLS = (
    "policy-calls",
    "policy-late",
    "policy-acordo",
    "policy-leitura",
    "policy-leitura-cedo",
)
"""Médio with the learned calls (and médio's answers): its agreement is that of the
difícil of the same suffix in ``AGREEMENTS``."""
DIFICIL_SIDES: dict[str, dict[str, Any]] = {
    "dificil-policy": {"policy": True},
    "dificil-busca": {"policy": False},
    "dificil-tabela": {"learned_playouts": True},
    "dificil-medio-sim": {"learned_playouts": False},
    "dificil-misto": {"mixed_first_round": MIXED_BAND, "agree_calls": None},
    "dificil-forte": {"strong_first_round": True, "strong_until": None},
    "dificil-forte-lido": {"strong_first_round": True, "strong_until": STRONG_UNTIL_2X2},
    "dificil-cartas": {"cards_only_2x2": True},
    **{name: {"agree_calls": agree} for name, agree in AGREEMENTS.items()},
    "dificil-resposta": {"answer_z": 0.0},
    "dificil-resposta-firme": {"answer_z": 2.0},
    "dificil-leitura-tabela": {"policy_reading": True},
    "dificil-leitura-cartas": {"card_reading": True},
    "dificil-sem-blefe": {"raise_over_run": False},
    "dificil-com-blefe": {"raise_over_run": True},
}
"""Every difícil side of the arena by its ``Dificil`` settings (``SPARRING`` says what each
one is for)."""
MIX_FLOOR = 0.02
"""Least likelihood of a target's action the probe counts (a world is never ruled out)."""

SPARRING = (
    *STYLES,
    "probe",
    "policy",
    "policy-calls",
    "policy-late",
    "probe-policy",
    "dificil-policy",
    "dificil-busca",
    "dificil-cartas",
    "dificil-tabela",
    "dificil-medio-sim",
    "dificil-misto",
    "dificil-acordo",
    "dificil-leitura",
    "dificil-leitura-cedo",
    "dificil-sem-acordo",
    "dificil-forte",
    "dificil-forte-lido",
    "dificil-resposta",
    "dificil-resposta-firme",
    "dificil-leitura-tabela",
    "dificil-leitura-cartas",
    "dificil-sem-blefe",
    "dificil-com-blefe",
    "policy-acordo",
    "policy-leitura",
    "policy-leitura-cedo",
)
"""Every sparring robot's name: ``policy`` is médio with the learned bets
(``heuristic.Learned``), ``policy-calls`` médio with the learned calls only (médio's
answers), ``policy-late`` the same with médio's calls in a 2×2 hand's first round, ``probe-policy`` the probe against ``policy``, ``dificil-policy`` difícil
searching from the learned calls wherever the policy has a table (difícil does so only in
``search.POLICY_VARIANTS``; no time cap) and ``dificil-busca`` the difícil of before
(searching from médio's calls everywhere), to compare; ``dificil-cartas`` difícil that
bets as médio at a 2×2 table and searches only the cards there; ``dificil-tabela`` and
``dificil-medio-sim`` difícil whose 2×2 play-outs make its team's later calls by the
learned policy, or by médio's rules as before (``search.LEARNED_PLAYOUTS_2X2``);
``dificil-misto`` difícil whose 2×2 search starts, in a hand's first round, from the
policy's clear preference and from médio's call where the policy mixes
(``search.MIXED_FIRST_ROUND_2X2``; without médio's agreement, as it was measured);
``dificil-acordo``, ``dificil-leitura``, ``dificil-leitura-cedo`` and
``dificil-sem-acordo`` difícil whose 2×2 search starts from a learned call only where
médio would call too, always or once the other team accepts enough of its trucos (40%:
difícil itself), or from every learned call (``AGREEMENTS``, ``search.AGREE_CALLS_2X2``),
and ``policy-acordo``, ``policy-leitura`` and ``policy-leitura-cedo`` médio with the
learned calls so agreed (``policy-calls`` with médio's agreement); ``dificil-forte``
difícil whose 2×2 search starts, in a hand's first round, from médio's call where the
policy plays on and médio's call is no bluff (``search.STRONG_FIRST_ROUND_2X2``), against
every team, and ``dificil-forte-lido`` the same only while the other team accepts less
than ``search.STRONG_UNTIL_2X2`` of its trucos. At a 2×2 table, ``dificil-resposta`` and
``dificil-resposta-firme`` leave médio's answer by any mean gain of the search or only by
two standard errors (difícil: one, ``search.ANSWER_Z_2X2``); ``dificil-leitura-tabela``
weighs its worlds by how often the learned policy makes the other team's bets
(``search.POLICY_READING_2X2``) and ``dificil-leitura-cartas`` by the cards the other team
played (``search.CARD_READING``); ``dificil-sem-blefe`` never raises a call médio would run
from (difícil itself) and ``dificil-com-blefe`` searches those raises as before
(``search.RAISE_OVER_RUN_2X2``)."""


def get_sparring(name: str, seed: int = 0) -> Robot:
    """The sparring robot called ``name``; ``ValueError`` if there is none."""
    if name == "probe":
        return Probe(seed)
    if name == "policy":
        return Learned(seed)
    settings = DIFICIL_SIDES.get(name)
    if settings is not None:
        searcher = Dificil(seed, **settings)
        searcher.level = name
        return searcher
    if name in _LEARNED_CALLS:
        calls = Learned(
            seed,
            answers=False,
            medio_first_round=name == "policy-late",
            agree=AGREEMENTS.get("dificil" + name.removeprefix("policy")),
        )
        calls.level = name
        return calls
    if name == "probe-policy":
        probe = Probe(seed, Learned(seed ^ 0x5EED, card_samples=0))
        probe.level = name
        return probe
    if name in STYLES:
        return Styled(name, seed)
    raise ValueError(f"estilo de treino desconhecido: {name!r} (use {', '.join(SPARRING)})")
