"""Difícil: information-set Monte Carlo (determinization) over the engine itself.

For each decision it deals the hidden cards many times in ways consistent with the
view, rebuilds each such world with ``Match.from_hand`` and the hand's history, and
plays every candidate action out to the end of the hand with the médio policy for
all seats (each seeing only its own view of the sampled world), except that the other
seat at a 1×1 table answers calls the way its habits in the match say (``habit_answer``).
At a 2×2 table a bet is played out against three models of the other team at once,
answering like médio, by its chances against its habits and by its best card against
its habits (``Answers``), and must gain under all three (``ROBUST_MODELS_2X2``; an answer
médio would run from is not searched as a raise, ``RAISE_OVER_RUN_2X2``); there,
when the search starts from the learned calls, its own team's later calls in the
play-outs may come from the same learned policy (``rollout_action``,
``LEARNED_PLAYOUTS_2X2``, off by default), and a learned call starts the search only
where médio would call too (``AGREE_CALLS_2X2``).
Worlds count as much as the other team's calls and accepts this hand make them likely
(one sensible-player curve on the actor's chance, ``_likelihood``). Outcomes are scored
by match-winning chance, and the action with the best paired gain over the baseline
choice is taken when the gain is clear of the sampling noise: the baseline is the learned
policy's call (``robots.policy``, in the variants of ``POLICY_VARIANTS``) and médio's
answer, or médio's own choice. Options clearly worse than the baseline stop being played
out part way (``prune``), on the same worlds.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import replace
from enum import IntEnum
from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

from engine import actions as A
from engine import envido as E
from engine.actions import Act, Action
from engine.cards import Card
from engine.errors import IllegalAction
from engine.match import HandKind, Match, Phase
from engine.robots.base import SeededRobot
from engine.robots.heuristic import MEDIO_SAMPLES, learned_action, medio_action, medio_play
from engine.robots.policy import policy_mix
from engine.robots.pontos import envido_tells, points_move, tell_likelihood
from engine.robots.reading import Tendencies
from engine.robots.sense import best_of, match_values, read, win_chance
from engine.robots.sinais import MAX_TRIES, Clues, choose_signal
from engine.view import View

POLICY_VARIANTS = frozenset({"paulista"})
"""The variants where difícil searches from the learned calls by default: where the arena
measured it above the search from médio's calls (docs-dev/robots-log.md, 2026-12-06); a
variant's table alone is not enough (mineiro's measured no better)."""
LEARNED_PLAYOUTS_2X2 = False
"""Whether difícil's 2×2 play-outs make its own team's later calls by the learned policy
when its search starts from the policy's calls (``rollout_action``). Off: with them,
difícil beat médio by no more than before, at a higher cost (docs-dev/robots-log.md,
2026-12-06 23:40, a partial run); ``robot:dificil-tabela`` and ``robot:dificil-medio-sim``
fix one setting each, to compare."""
MIXED_FIRST_ROUND_2X2 = 0.0
"""At a 2×2 table, where the search starts from the learned calls, the band of a trained
mix in a hand's first round within which médio's call starts the search instead of a
draw from the mix (``learned_action``'s ``mixed_to_medio``; 0: always the draw)."""
AGREE_CALLS_2X2: float | None = 0.4
"""At a 2×2 table where the search starts from the learned calls: once the other team
accepts at least this share of this team's trucos (``heuristic.accept_share``; 0:
always), a call the policy draws starts the search only when médio would make it too,
else the search starts from médio's card (``learned_action``'s ``agree``; ``None``:
never). The 2×2 search keeps almost every call it starts from, and the policy's calls
that médio would not make were met by the solid style, which accepts with middling
hands, and then raised to seis (docs-dev/robots-log.md, 2026-12-07 08:20); asking for
médio's agreement only against a team that pays gained against that style and lost no
measured row beyond the noise (the same log, 2026-12-07 10:44). ``robot:dificil-leitura``
is this setting fixed, ``robot:dificil-sem-acordo`` the one of before (``None``)."""
STRONG_FIRST_ROUND_2X2 = False
"""At a 2×2 table where the search starts from the learned calls: in a hand's first round,
where the policy plays on, the search starts from médio's call when that call is no bluff
(``learned_action``'s ``strong_first_round``). Off: as ``robot:dificil-forte`` it gained
on the styles that never bluff and lost beyond the noise to ``accepter``
(docs-dev/robots-log.md, 2026-12-07 12:05 and 14:30); gated by ``STRONG_UNTIL_2X2``
(``robot:dificil-forte-lido``) it gained more on those styles and on the whole, and still
lost beyond the noise to ``accepter`` on the table's row (the same log, 16:27); on deals no
round had seen, by a rule set before measuring, it lost on the whole (the same log,
18:31–21:29)."""
STRONG_UNTIL_2X2: float | None = 0.6
"""The strong first-round calls (``STRONG_FIRST_ROUND_2X2``) only while the other team
accepts (or raises) less than this share of this team's trucos (``heuristic.accept_share``;
``None``: always; ``learned_action``'s ``strong_until``). The early call pays through the
runs it draws; against a team that accepts every call it only trades the later call, made
on a better-known hand, for an earlier one. Médio's call is no bluff from a 50% chance of
winning the hand, so a team that answers by its own chance (accepting from about 50%)
holds the weaker hand in most of those calls and accepts about half of them or fewer;
0.6 leaves room above that for the few answers of one match, and with the prior of
``accept_share`` (0.3 counted as two answers) two accepts without a run reach it, so
the gate shuts within the match against a team that never runs. Chosen before measuring;
``robot:dificil-forte-lido`` is ``robot:dificil-forte`` with this gate, measured against
every 2×2 row (docs-dev/robots-log.md, 2026-12-07 16:27): a team that never runs still
meets the calls made before its first answers."""
_AGREE_DEFAULT = -1.0
"""``Dificil``'s ``agree_calls`` (and ``strong_until``) when none is given:
``AGREE_CALLS_2X2`` (``STRONG_UNTIL_2X2``; ``None`` means never, always)."""
DEFAULT_PLAYOUTS = 240
"""Play-outs per decision in 1×1 (split over the candidate actions): this decides the strength."""
DEFAULT_PLAYOUTS_2X2 = 300
"""The same in 2×2, where a play-out costs about twice as much (four seats decide) but a
bet's three answer models share most of their play (``playout_models``)."""
DEFAULT_BUDGET_MS = 1000.0
"""The cap on one decision's thinking time ``get_robot`` gives when none is asked: a guard
for a person waiting at the terminal or in the browser, not a budget (the planned
play-outs end far sooner on an idle machine). The arena plays with no cap, so its
figures are the same on a loaded machine; the bot sets its own, smaller under load."""
ROLLOUT_SAMPLES = 12
"""Hidden hands the play-out policy samples per betting decision (médio itself uses more)."""
MIN_WORLDS = 3
"""Sampled worlds searched at least, even past a time cap (the bot under load)."""
PRUNE_AT = (0.2, 0.4, 0.6)
"""Shares of the planned worlds after which the options clearly worse than the baseline
stop being played out (see ``prune``): the same worlds, fewer play-outs."""
PRUNE_Z = 1.5
"""Standard errors an option's mean gain may lie below zero and still be played out."""
STOP_Z = 3.0
"""Standard errors above zero that settle the search early on its only contender."""
POLICY_READING_2X2 = False
"""At a 2×2 table where the learned policy has a table, whether the other team's calls,
raises and accepts weigh a searched world by how often the policy makes them there
(``policy_likelihood``) instead of one sensible-player curve (``_likelihood``):
``Dificil``'s ``policy_reading``."""
POLICY_FLOOR = 0.02
"""Least weight a world keeps for an action the policy (almost) never takes there: none
is ruled out, as a player may bluff where the trained one does not."""
RAISE_OVER_RUN_2X2 = False
"""Whether difícil's 2×2 search tries raising a call médio would run from (``Dificil``'s
``raise_over_run``). Off: the search valued those raises above what they won against
players who call on good hands; counted answer by answer with the real cards, leaving
them out gained against every style that was measured and lost against none beyond the
noise (docs-dev/robots-log.md, 2026-12-07 23:00). ``robot:dificil-sem-blefe`` fixes this
setting, ``robot:dificil-com-blefe`` is the one of before."""
CARD_READING = False
"""Whether difícil's searched worlds count less where a seat of the other team played a card
against the way médio plays its cards (``Dificil``'s ``card_reading``, ``_card_likelihood``)."""
CARD_TELL = 0.2
"""Weight of a world in which a seat plays a card médio's play would not (``_card_likelihood``):
small, not zero, as a player may play otherwise."""
PICK_Z = 1.0
"""Standard errors above zero an option's gain must reach, under every model, for ``pick``
to leave the baseline."""
ANSWER_Z_2X2 = PICK_Z
"""``PICK_Z`` when a 2×2 team answers the other team's call (``Dificil``'s ``answer_z``)."""


class Answers(IntEnum):
    """How the other team answers calls in a play-out (every other choice is médio's)."""

    MEDIO = 0
    """Like médio."""
    HABITS = 1
    """By its chance of winning the hand, against its habits (``habit_answer``)."""
    CARDS = 2
    """By its best card, against its habits (``card_answer``)."""


class Dificil(SeededRobot):
    """Search robot: samples hidden cards consistent with the view and plays each option out."""

    level = "dificil"

    def __init__(
        self,
        seed: int = 0,
        *,
        budget_ms: float | None = None,
        playouts: int | None = None,
        policy: bool | None = None,
        cards_only_2x2: bool = False,
        learned_playouts: bool | None = None,
        mixed_first_round: float | None = None,
        agree_calls: float | None = _AGREE_DEFAULT,
        strong_first_round: bool | None = None,
        strong_until: float | None = _AGREE_DEFAULT,
        answer_z: float | None = None,
        policy_reading: bool | None = None,
        card_reading: bool | None = None,
        raise_over_run: bool | None = None,
    ) -> None:
        """A difícil robot.

        ``playouts`` is the work of one decision (``None``: ``DEFAULT_PLAYOUTS``, or
        ``DEFAULT_PLAYOUTS_2X2`` at a 2×2 table), and with it the strength: the same
        seed and view give the same action on an idle machine and on a loaded one.
        ``budget_ms`` only caps the thinking time (``None`` or infinity: no cap); when
        the cap stops a search early (after ``MIN_WORLDS`` deals at least) the
        decision depends on the machine's speed, which the bot accepts under load.
        ``policy``: the call searched against is the learned policy's (``robots.policy``)
        instead of médio's, where the policy has a table for the variant; answers stay
        médio's (the policy's own answers lost to the tight style, docs-dev/robots-log.md,
        2026-12-06). ``None``: only in the variants of ``POLICY_VARIANTS``; ``False`` is
        the search of before, kept to compare (``robot:dificil-busca`` in the arena).
        ``cards_only_2x2``: at a 2×2 table (outside gaudério's points game) bet exactly as
        médio does and search only the cards, to measure what the card search alone is
        worth (``robot:dificil-cartas``; the learned calls lost to médio's against the
        styles that call little, docs-dev/robots-log.md, 2026-12-06 17:36).
        ``learned_playouts``: at a 2×2 table, when the search starts from the learned
        calls, the play-outs make this team's later calls by the policy too (``None``:
        ``LEARNED_PLAYOUTS_2X2``).
        ``mixed_first_round``: at a 2×2 table, when the search starts from the learned
        calls, it starts in a hand's first round from the policy's clear preference, and
        from médio's call where the policy mixes within this band (``None``:
        ``MIXED_FIRST_ROUND_2X2``).
        ``agree_calls``: at a 2×2 table, when the search starts from the learned calls and
        the other team accepts at least this share of this team's trucos, a call starts it
        only when médio would call too (``None``: never; unset: ``AGREE_CALLS_2X2``).
        ``strong_first_round``: at a 2×2 table, when the search starts from the learned
        calls, in a hand's first round it starts from médio's call where the policy plays
        on and médio's call is no bluff (``None``: ``STRONG_FIRST_ROUND_2X2``).
        ``strong_until``: those calls only while the other team accepts less than this
        share of this team's trucos (``None``: always; unset: ``STRONG_UNTIL_2X2``).
        ``answer_z``: at a 2×2 table, the standard errors an answer to the other team's
        call must gain by to leave médio's (``None``: ``ANSWER_Z_2X2``).
        ``policy_reading``: at a 2×2 table, the other team's bets weigh the searched worlds
        by the learned policy's mix where it has one (``None``: ``POLICY_READING_2X2``).
        ``card_reading``: the cards the other team played weigh the searched worlds
        (``_card_likelihood``; ``None``: ``CARD_READING``).
        ``raise_over_run``: at a 2×2 table, a raise is searched as an answer where médio
        would run (``None``: ``RAISE_OVER_RUN_2X2``).
        """
        if budget_ms is not None and budget_ms <= 0:
            raise ValueError("o tempo de decisão deve ser positivo")
        if playouts is not None and playouts < 1:
            raise ValueError("o número de simulações deve ser positivo")
        super().__init__(seed)
        self.budget_ms = budget_ms
        self.playouts = playouts
        self.policy = policy
        self.cards_only_2x2 = cards_only_2x2
        self.learned_playouts = (
            LEARNED_PLAYOUTS_2X2 if learned_playouts is None else learned_playouts
        )
        self.mixed_first_round = (
            MIXED_FIRST_ROUND_2X2 if mixed_first_round is None else mixed_first_round
        )
        self.agree_calls = AGREE_CALLS_2X2 if agree_calls == _AGREE_DEFAULT else agree_calls
        self.strong_first_round = (
            STRONG_FIRST_ROUND_2X2 if strong_first_round is None else strong_first_round
        )
        self.strong_until = STRONG_UNTIL_2X2 if strong_until == _AGREE_DEFAULT else strong_until
        self.answer_z = ANSWER_Z_2X2 if answer_z is None else answer_z
        self.policy_reading = POLICY_READING_2X2 if policy_reading is None else policy_reading
        self.card_reading = CARD_READING if card_reading is None else card_reading
        self.raise_over_run = RAISE_OVER_RUN_2X2 if raise_over_run is None else raise_over_run
        self.capped = 0
        """Decisions the time cap cut short (the arena reports them)."""

    def decide(self, view: View, rng: random.Random) -> Action:
        """One action out of ``view.legal``."""
        cards_only = self.cards_only_2x2 and view.players == 4 and view.envido_points is None
        learned = False
        if cards_only:
            baseline = medio_action(view, rng, MEDIO_SAMPLES)
            if baseline.act in BETS or view.phase != Phase.PLAY:
                return baseline
        elif self.policy or (self.policy is None and view.variant in POLICY_VARIANTS):
            baseline = learned_action(
                view,
                rng,
                MEDIO_SAMPLES,
                answers=False,
                points="dificil",
                mixed_to_medio=self.mixed_first_round,
                agree=self.agree_calls,
                strong_first_round=self.strong_first_round,
                strong_until=self.strong_until,
            )
            # at 2×2, when ``learned_playouts``, the play-outs make this team's later calls
            # by the same policy; 1×1 keeps médio's, as measured there
            learned = self.learned_playouts and view.players == 4
        elif view.envido_points is not None and view.kind != HandKind.IRON:
            # gaudério: its own envido choice (``pontos``: the others' points-game choices
            # read), else médio's play without the envido
            baseline = points_move(view, rng, "dificil") or medio_play(view, rng, MEDIO_SAMPLES)
        else:
            baseline = medio_action(view, rng, MEDIO_SAMPLES)
        options = candidates(view, baseline)
        if cards_only:
            options = [a for a in options if a.act not in BETS]
        elif baseline == A.RUN and view.players == 4 and not self.raise_over_run:
            options = [a for a in options if a != A.RAISE]
        if len(options) == 1:
            return options[0]
        start = time.perf_counter()
        cap = math.inf if self.budget_ms is None else start + self.budget_ms * 0.9 / 1000
        work = self.playouts or (DEFAULT_PLAYOUTS if view.players == 2 else DEFAULT_PLAYOUTS_2X2)
        models = answer_models(view, options)
        worlds_planned = max(MIN_WORLDS, work // (len(options) * len(models)))
        checks = {max(MIN_WORLDS, int(worlds_planned * f)) for f in PRUNE_AT}
        alive = list(range(len(options)))  # the baseline (0) always stays
        gains: list[list[list[float]]] = [[[] for _ in options] for _ in models]
        weights: list[float] = []
        reading = self.policy_reading and view.players == 4
        for w in range(worlds_planned):
            world, weight = weighted_world(view, rng, reading, self.card_reading)
            world_seed = rng.getrandbits(32)
            weights.append(weight)
            # each option's value under every model, the models sharing what they agree on
            values = [
                playout_models(world, view.seat, options[i], world_seed, models, learned)
                for i in alive
            ]
            for k, model in enumerate(gains):
                for i, by_model in zip(alive, values, strict=True):
                    model[i].append(by_model[k] - values[0][k])
            done = w + 1
            if done in checks and done < worlds_planned:
                alive, chosen = prune_all(alive, gains, weights)
                if chosen is not None:
                    return options[chosen]
            if done >= MIN_WORLDS and done < worlds_planned and time.perf_counter() > cap:
                self.capped += 1
                break
        z = self.answer_z if view.players == 4 and view.phase == Phase.ANSWER else PICK_Z
        return pick([options[i] for i in alive], [[g[i] for i in alive] for g in gains], weights, z)

    def signal(self, view: View) -> Action | None:
        """The signal to send before choosing, if any (R12; honest, see robots.sinais)."""
        return choose_signal(view)


def gain_bounds(gains: list[float], weights: list[float]) -> tuple[float, float]:
    """Weighted mean gain of an option over the baseline and its standard error.

    The error uses the effective number of worlds the weights leave.
    """
    total = sum(weights)
    if total <= 0:
        return 0.0, 0.0
    n_eff = total * total / sum(w * w for w in weights)
    mean = sum(w * x for w, x in zip(weights, gains, strict=True)) / total
    var = sum(w * (x - mean) ** 2 for w, x in zip(weights, gains, strict=True)) / total
    return mean, math.sqrt(var / max(1.0, n_eff - 1))


def pick(
    options: list[Action],
    gains: list[list[list[float]]],
    weights: list[float],
    z: float = PICK_Z,
) -> Action:
    """The option whose weighted mean gain over the first (the baseline) is clearly positive.

    ``gains`` holds, for each model of the other team, every option's gain per world.
    The gain must stand out from the sampling noise of a few dozen worlds (``z``
    standard errors, with the effective number of worlds the weights leave) under
    every model: an option counts by its worst model.
    """
    if sum(weights) <= 0:
        return options[0]
    best, best_score = options[0], 0.0
    for i, action in enumerate(options[1:], start=1):
        score = min(mean - z * err for mean, err in (gain_bounds(g[i], weights) for g in gains))
        if score > best_score:
            best, best_score = action, score
    return best


def prune(
    alive: list[int], gains: list[list[float]], weights: list[float]
) -> tuple[list[int], int | None]:
    """Drop the options clearly worse than the baseline so far; stop when one is settled.

    An option goes when even ``PRUNE_Z`` standard errors above its mean gain stay
    below zero: more worlds would almost never make ``pick`` take it. With one
    option left beside the baseline and its gain ``STOP_Z`` errors above zero, it is
    taken now (returned second); with none left, the baseline is.
    """
    if sum(weights) <= 0:
        return alive, None
    kept = [alive[0]]
    last: tuple[float, float] = (0.0, 0.0)
    for i in alive[1:]:
        mean, err = gain_bounds(gains[i], weights)
        if mean + PRUNE_Z * err >= 0:
            kept.append(i)
            last = (mean, err)
    if len(kept) == 1:
        return kept, kept[0]
    if len(kept) == 2 and last[0] - STOP_Z * last[1] > 0:
        return kept, kept[1]
    return kept, None


def prune_all(
    alive: list[int], gains: list[list[list[float]]], weights: list[float]
) -> tuple[list[int], int | None]:
    """``prune`` under every model of the other team: an option stays while no model
    drops it. With one model this is ``prune``; with several, the search ends early
    only when the baseline is left alone."""
    if len(gains) == 1:
        return prune(alive, gains[0], weights)
    pruned = [prune(alive, g, weights) for g in gains]
    kept = [i for i in alive if all(i in k for k, _ in pruned)]
    return kept, (kept[0] if len(kept) == 1 else None)


def candidates(view: View, baseline: Action) -> list[Action]:
    """Actions worth searching, the baseline first; covers are tried with the lowest card only.

    Bets are searched at both tables (at 2×2 against every model of the other team,
    ``answer_models``): with médio's bets there, difícil was barely above médio.
    """
    legal = view.legal
    out = [baseline]
    covers = [a for a in legal if a.act == Act.COVER]
    if covers:
        st = view.ruleset.strength_table(view.vira)
        low = min(covers, key=lambda a: st[a.card] if a.card is not None else 0)
        covers = [low]
    for a in legal:
        if a.act == Act.COVER and a not in covers:
            continue
        if a not in out:
            out.append(a)
    return out


ROBUST_MODELS_2X2 = (Answers.MEDIO, Answers.HABITS, Answers.CARDS)
"""The models of the other team a 2×2 bet is played out against: every world under each,
and an option beats médio's choice only when it gains under all of them (``pick``,
``prune_all``). One model alone fails one way or the other: médio's answers are what
the searched calls learn to exploit, habits alone misread raises, and neither answers
by the best card held as many players do."""

BETS = (Act.TRUCO, Act.ACCEPT, Act.RUN, Act.RAISE)
"""The kinds of action that bet: a call, a raise and the answers to one."""


def answer_models(view: View, options: list[Action]) -> tuple[Answers | None, ...]:
    """How the other team answers in the play-outs of this decision, one entry a model.

    ``(None,)`` is the table's default (``playout``); a robust bet at 2×2 is played out
    under every model of ``ROBUST_MODELS_2X2``, each on every world.
    """
    if view.players == 4 and any(a.act in BETS for a in options):
        return ROBUST_MODELS_2X2
    return (None,)


def sample_world(view: View, rng: random.Random) -> Match:
    """A full match state consistent with ``view``, hidden cards dealt at random."""
    return _deal_world(view, rng, None)[0]


def weighted_world(
    view: View, rng: random.Random, by_policy: bool = False, by_cards: bool = False
) -> tuple[Match, float]:
    """A world as ``sample_world`` does, with how plausible the other team's calls make it;
    ``by_policy``: plausible to the learned policy where it has the decision
    (``policy_likelihood``), else to one sensible-player curve (``_likelihood``);
    ``by_cards``: and the cards the other team played (``_card_likelihood``)."""
    return _deal_world(view, rng, _Judge(random.Random(rng.getrandbits(32)), by_policy, by_cards))


class _Judge(NamedTuple):
    """How a drawn world is weighed (``weighted_world``'s settings)."""

    rng: random.Random
    by_policy: bool
    by_cards: bool


def _deal_world(view: View, rng: random.Random, judge: _Judge | None) -> tuple[Match, float]:
    """``_deal_one`` until a drawn world replays the hand as the table played it.

    A drawn world may part from the table where the cards decide without a card played
    (gaudério: two teams' flors; ``_PointsFacts`` draws agreeing ones when it can), and end
    the hand or the match there: such a world is drawn again.
    """
    for _ in range(MAX_TRIES - 1):
        try:
            return _deal_one(view, rng, judge)
        except IllegalAction:
            continue
    return _deal_one(view, rng, judge)


def _deal_one(view: View, rng: random.Random, judge: _Judge | None) -> tuple[Match, float]:
    """Deal the hidden cards, replay the hand, and (with ``judge``) weigh the world.

    Unknown cards are the deck minus this seat's cards (held and played), the vira,
    every open card and the partner's hand when visible; each other seat gets as many
    as it holds plus one for each card it played face down.
    """
    rs = view.ruleset
    n = view.players
    seat = view.seat
    played: list[list[Card | None]] = [[] for _ in range(n)]
    for s, a in view.history:
        if a.act == Act.PLAY or a.act == Act.COVER:
            played[s].append(a.card)
    known: set[Card] = set(view.hand)
    if view.vira is not None:
        known.add(view.vira)
    for cards in played:
        known.update(c for c in cards if c is not None)
    partner = view.partner
    visible = view.partner_hand
    if visible is not None:
        known.update(visible)
    unknown = [c for c in rs.deck if c not in known]
    strength = rs.strength_table(view.vira)
    clues = Clues.of(view, strength)
    hidden = [s for s in range(n) if s != seat and not (s == partner and visible is not None)]
    facts = _PointsFacts.of(view, hidden, played, unknown) if rs.envido else None
    for _ in range(MAX_TRIES if clues or facts else 1):
        pool = unknown.copy()
        rng.shuffle(pool)
        fixed = facts.draw_fixed(rng) if facts is not None else {}
        if fixed:
            taken = {c for cards in fixed.values() for c in cards}
            pool = [c for c in pool if c not in taken]
        hands: list[tuple[Card, ...]] = []
        for s in range(n):
            if s == seat:
                held: tuple[Card, ...] = view.hand
            elif s == partner and visible is not None:
                held = visible
            elif s in fixed:
                held = fixed[s]
            else:
                k = view.cards_left[s]
                held = tuple(pool[-k:]) if k else ()
                del pool[len(pool) - k :]
            filled = [c if c is not None else pool.pop() for c in played[s]]
            hands.append((*filled, *held))
        # gaudério: the showdown and the flors seen rule some deals out
        if facts is not None and not facts.allows(hands):
            continue
        # the signals seen make some deals likelier (rejection sampling, R12)
        if not clues or clues.accept(clues.weight_dealt(hands, strength), rng):
            break
    # gaudério: flors are sung as the history says, not as the drawn hands would
    options = view.options
    if rs.envido and options.flor:
        options = replace(options, flor=False)
    # the score before the hand: gaudério's envido and flor points are replayed below
    score = (view.score[0] - view.points[0], view.score[1] - view.points[1])
    m = Match.from_hand(rs, options, score=score, dealer=view.dealer, hands=hands, vira=view.vira)
    m.bets = view.bets  # the match's earlier hands, as everybody saw them
    cursor = [0] * n
    weight = 1.0
    if facts is not None and judge is not None:
        weight = facts.tells_weight(hands)
    called = False
    for s, a in view.history:
        if a.act == Act.SIGNAL:
            continue  # a sign changes no state; the world's seed would decide other catches
        if a.act == Act.FLOR:
            m.sing_flor(s)
            continue
        if a.act == Act.COVER and a.card is None:
            a = A.COVER[hands[s][cursor[s]]]
        if a.act == Act.PLAY or a.act == Act.COVER:
            cursor[s] += 1
            # the other team only: a partner plays as this robot does, not as médio
            if (
                judge is not None
                and judge.by_cards
                and s & 1 != seat & 1
                and a.act == Act.PLAY
                and a.card
            ):
                weight *= _card_likelihood(m, s, a.card)
        elif judge is not None and s & 1 != seat & 1 and a.act in _TELLING:
            # a call or an accept says something about the hand: worlds where it
            # would be a strange choice count less (the partner's tells are ignored)
            seen = m.view(s)
            like = policy_likelihood(seen, a, judge.rng) if judge.by_policy else None
            if like is None:
                p = win_chance(read(seen), judge.rng, JUDGE_SAMPLES)
                like = _likelihood(a.act, p, late=called and a.act == Act.TRUCO)
            weight *= like
        if a.act == Act.TRUCO or a.act == Act.RAISE:
            called = True
        m.apply(s, a)
        if m.env is not None and m.env.calls and len(m.env.calls) == 1 and a.act in _ENVIDO:
            _settle_like_the_table(m, view)
    return m, weight


_ENVIDO = (Act.ENVIDO, Act.REAL_ENVIDO, Act.FALTA_ENVIDO)


class _PointsFacts:
    """What a gaudério hand's points game told this seat about the hidden hands (R13.3,
    R13.4): the seat that won the envido holds exactly the points it showed (a 33 is a 7
    and a 6 of one suit), the losing team holds less (or as much, when the mão's team
    won), the winner's partner no more; a seat whose flor was sung holds one, a seat that
    acted in round 1 without one sung holds none; and the others' calls and answers make
    some points likelier (``pontos.envido_tells``)."""

    __slots__ = ("cap", "fixed", "flor", "flor_team", "flors", "mao_team", "no_flor", "tells")

    def __init__(self) -> None:
        self.cap: dict[int, int] = {}
        self.flor: set[int] = set()
        self.flors: tuple[int, ...] = ()
        self.flor_team: int | None = None
        self.mao_team = 0
        self.no_flor: set[int] = set()
        self.fixed: dict[int, tuple[tuple[Card, ...], ...]] = {}
        """Seats whose cards held are drawn among those that agree (``draw_fixed``)."""
        self.tells: dict[int, list[str]] = {}

    def __bool__(self) -> bool:
        return bool(self.cap or self.flor or self.no_flor or self.fixed)

    @staticmethod
    def of(
        view: View, hidden: list[int], played: list[list[Card | None]], unknown: list[Card]
    ) -> _PointsFacts:
        """The facts of ``view`` about the ``hidden`` seats (each with its ``played`` cards)."""
        f = _PointsFacts()
        f.tells = {s: k for s, k in envido_tells(view).items() if s in hidden}
        f.mao_team = (view.dealer + 1) % view.players & 1
        if view.options.flor:
            acted = {s for s, a in view.history if a.act != Act.SIGNAL}
            f.flor = {s for s in view.flor if s in hidden}
            f.no_flor = {s for s in acted if s in hidden and s not in view.flor}
            if len({s & 1 for s in view.flor}) == 2:
                # both teams sang: the best flor took every flor's points, in the hand's
                # points so far (a flor calls the envido off)
                f.flors = view.flor
                f.flor_team = 0 if view.points[0] > view.points[1] else 1
        seen = view.envido
        if seen is not None and seen.winner_points is not None and seen.winner is not None:
            points = seen.winner_points
            mao_team = (view.dealer + 1) % view.players & 1
            lose_cap = points if seen.winner == mao_team else points - 1
            for s in hidden:
                if s & 1 != seen.winner:
                    f.cap[s] = lose_cap
                elif s != seen.winner_seat:
                    f.cap[s] = points
            ws = seen.winner_seat
            if ws is not None and ws in hidden and view.cards_left[ws] > 0:
                known = tuple(c for c in played[ws] if c is not None)
                if len(known) == len(played[ws]):
                    hands = _completions(
                        tuple(unknown),
                        known,
                        view.cards_left[ws],
                        points,
                        True if ws in f.flor else False if ws in f.no_flor else None,
                    )
                    if hands:
                        f.fixed[ws] = hands
        # a sung flor is three cards of one suit: drawn among those, as 5% of blind draws
        for s in sorted(f.flor):
            known = tuple(c for c in played[s] if c is not None)
            if s not in f.fixed and len(known) == len(played[s]) and view.cards_left[s] > 0:
                hands = _completions(tuple(unknown), known, view.cards_left[s], None, True)
                if hands:
                    f.fixed[s] = hands
        return f

    def draw_fixed(self, rng: random.Random) -> dict[int, tuple[Card, ...]]:
        """Cards still held by each seat the table's points game pins down (the envido's
        winner, a flor's holder), drawn among those that agree with it, no card twice;
        empty when no hidden seat is pinned (or no disjoint draw was found)."""
        for _ in range(MAX_TRIES):
            out: dict[int, tuple[Card, ...]] = {}
            taken: set[Card] = set()
            for s, hands in self.fixed.items():
                cards = hands[rng.randrange(len(hands))]
                if taken.intersection(cards):
                    break
                out[s] = cards
                taken.update(cards)
            else:
                return out
        return {}

    def allows(self, hands: list[tuple[Card, ...]]) -> bool:
        """Whether a deal (each seat's three dealt cards) agrees with the facts."""
        for s, cap in self.cap.items():
            if E.envido_points(hands[s]) > cap:
                return False
        for s in self.flor:
            if not E.has_flor(hands[s]):
                return False
        if any(E.has_flor(hands[s]) for s in self.no_flor):
            return False
        if self.flor_team is not None:
            # the same best flor as at the table (``Match._flor_payout``), or the drawn
            # world scores the flors to the other team, and may end the match there
            best = max(self.flors, key=lambda s: (E.flor_points(hands[s]), s & 1 == self.mao_team))
            return best & 1 == self.flor_team
        return True

    def tells_weight(self, hands: list[tuple[Card, ...]]) -> float:
        """How likely the hidden seats' points-game choices are with these dealt hands."""
        w = 1.0
        for s, kinds in self.tells.items():
            points = E.envido_points(hands[s])
            for kind in kinds:
                w *= tell_likelihood(kind, points)
        return w


@lru_cache(maxsize=64)
def _completions(
    unknown: tuple[Card, ...],
    known: tuple[Card, ...],
    k: int,
    points: int | None,
    flor: bool | None,
) -> tuple[tuple[Card, ...], ...]:
    """Every ``k`` cards of ``unknown`` that, with the ``known`` ones played, make exactly
    ``points`` envido points (any, with ``None``) and a flor or none, when ``flor`` says."""
    out = []
    for more in combinations(unknown, k):
        cards = (*known, *more)
        if points is not None and E.envido_points(cards) != points:
            continue
        if flor is not None and E.has_flor(cards) != flor:
            continue
        out.append(more)
    return tuple(out)


def _settle_like_the_table(m: Match, view: View) -> None:
    """Gaudério: make the drawn world's envido points agree with the showdown everybody saw
    (the winning team and its points); the losing team's stay as drawn, below them."""
    seen = view.envido
    env = m.env
    if seen is None or env is None or seen.winner is None or seen.winner_points is None:
        return
    win = seen.winner
    mao_team = (view.dealer + 1) % view.players & 1
    cap = seen.winner_points if win == mao_team else seen.winner_points - 1
    points = [0, 0]
    points[win] = seen.winner_points
    points[1 - win] = min(env.points[1 - win], cap)
    m.env = env._replace(points=(points[0], points[1]))


_TELLING = (Act.TRUCO, Act.RAISE, Act.ACCEPT)
"""Actions that weigh a world, by one sensible-player curve on the actor's chance
(``_likelihood``): a searching player's calls follow no habit thresholds, and weighing by
habits lost to such a player (docs-dev/robots-log.md, 2026-12-02)."""
JUDGE_SAMPLES = 10
"""Hidden hands sampled to judge how likely an opponent's call was in a sampled world."""


def _card_likelihood(m: Match, seat: int, card: Card) -> float:
    """How plausible it is, in world ``m``, that ``seat`` plays ``card`` now: ``CARD_TELL``
    where médio's play would not, else 1.

    Médio, and every sparring style (they play their cards like médio), takes a round the
    other team holds whenever it holds a card that takes it (the tiers of a 2×2 first round
    do so in any place, the played-out choice almost always), and leads a 2×2 hand with its
    best card or the second; a world where that seat held a taker and played under it, or
    led below its two best, is one the table makes unlikely.
    """
    st = m.strength
    hand = m.hands[seat]
    mine = st[card]
    table = m.table
    if not table:
        if m.rounds or len(hand) != 3 or m.players != 4:
            return 1.0
        second = sorted((st[c] for c in hand), reverse=True)[1]
        return 1.0 if mine >= second else CARD_TELL
    best, holder = best_of(table, st)
    if holder == seat & 1 or mine > best:
        return 1.0
    return CARD_TELL if any(st[c] > best for c in hand) else 1.0


def policy_likelihood(view: View, action: Action, rng: random.Random) -> float | None:
    """How often the learned policy takes ``action`` (a call, a raise or an accept) at
    ``view``, at least ``POLICY_FLOOR``; ``None`` where it holds no entry.

    The trained mix is the range update the search's own calls are drawn from: a call it
    makes mostly with strong hands says so, by as much as the training found, where one
    curve for every spot reads middling hands into calls of players who never bluff
    (docs-dev/robots-log.md, 2026-12-07 22:10).
    """
    mix = policy_mix(view, rng, JUDGE_SAMPLES)
    if mix is None:
        return None
    share = mix.get(A.TRUCO if action.act == Act.TRUCO else action)
    return None if share is None else max(POLICY_FLOOR, share)


def _likelihood(act: Act, p: float, late: bool = False) -> float:
    """How likely a sensible player with hand chance ``p`` makes this call (or accepts).

    ``late``: a call of seis and up on the caller's own turn, which only the team that
    accepted the step below may make; having accepted it could play on, so it calls when
    its hand is made (``reading.LATE_TELLS``).
    """
    if late:
        return 0.03 + 0.97 / (1 + math.exp(-(p - 0.85) / 0.05))
    if act == Act.ACCEPT:
        return 0.15 + 0.85 / (1 + math.exp(-(p - 0.45) / 0.08))
    return 0.08 + 0.92 / (1 + math.exp(-(p - 0.6) / 0.07))


def playout(
    world: Match,
    seat: int,
    action: Action,
    rng: random.Random,
    answers: Answers | None = None,
    learned: bool = False,
) -> float:
    """Match-winning chance of ``seat``'s team after ``action`` and médio play to the hand's end.

    ``answers``: how the other team answers calls; ``None``, the table's default: by
    habits at 1×1 (``habit_answer``), like médio at 2×2, where habits alone made difícil
    raise médio's trucos and lose those hands. ``learned``: ``seat``'s team makes its
    later calls by the learned policy (``rollout_action``), as the search's own calls do.
    """
    m = world.copy()
    m.apply(seat, action)
    return _play_out(m, seat, rng, answers, learned)


def playout_models(
    world: Match,
    seat: int,
    action: Action,
    seed: int,
    models: tuple[Answers | None, ...],
    learned: bool = False,
) -> list[float]:
    """``playout`` under each of ``models``, each with ``random.Random(seed)``: the same
    values, but the play-out is shared up to the first answer of the other team, the
    only place where the models differ (at 2×2, most play-outs of a card never reach one).
    ``learned`` as in ``playout``.
    """
    if len(models) == 1:
        return [playout(world, seat, action, random.Random(seed), models[0], learned)]
    m = world.copy()
    m.apply(seat, action)
    rng = random.Random(seed)
    them = 1 - (seat & 1)
    us = seat & 1 if learned else -1
    hand_over, answer = Phase.HAND_OVER, Phase.ANSWER  # locals: see ``_play_out``
    while m.phase < hand_over:
        s = m.to_act()[0]
        legal = m.legal_actions(s)
        if len(legal) == 1:
            a = legal[0]
        elif s & 1 == them and m.phase == answer:
            break  # the models part here
        elif s & 1 == us:
            a = rollout_action(m.view(s), rng)
        else:
            a = medio_action(m.view(s), rng, ROLLOUT_SAMPLES)
        m.apply(s, a)
    else:
        return [_match_chance(m, seat)] * len(models)
    state = rng.getstate()
    out = []
    for answers in models:
        fork = random.Random()
        fork.setstate(state)
        out.append(_play_out(m.copy(), seat, fork, answers, learned))
    return out


ROLLOUT_CHANCE_SAMPLES = 12
"""Deals behind the chance in the learned policy's key when a play-out asks it (the table
itself was trained with ``policy.CHANCE_SAMPLES``): as few as médio's play-out calls use."""


def rollout_action(view: View, rng: random.Random) -> Action:
    """A play-out move of the searching team when its search starts from the learned
    calls: its calls (and the card after no call) by the learned policy, its answers and
    everything the policy holds no entry for as in any play-out (``medio_action``). The
    search then weighs a first call against later calls of the same owner: a first call
    from the policy and later ones from médio may not add up (the suspicion of
    docs-dev/robots-log.md, 2026-12-06 20:40, after a loss to the tight style)."""
    return learned_action(
        view,
        rng,
        ROLLOUT_SAMPLES,
        answers=False,
        points="facil",
        chance_samples=ROLLOUT_CHANCE_SAMPLES,
    )


def _play_out(
    m: Match, seat: int, rng: random.Random, answers: Answers | None, learned: bool = False
) -> float:
    """``playout`` from ``m`` (changed in place) on."""
    them = 1 - (seat & 1)
    us = seat & 1 if learned else -1
    if answers is None:
        answers = Answers.HABITS if m.players == 2 else Answers.MEDIO
    # the members as locals: an enum member looked up on its class costs several times a
    # local's lookup (see ``engine.match``), and this loop runs for every move played out
    hand_over, answer = Phase.HAND_OVER, Phase.ANSWER
    by_medio = answers == Answers.MEDIO
    by_habits = answers == Answers.HABITS
    while m.phase < hand_over:
        s = m.to_act()[0]
        legal = m.legal_actions(s)
        if len(legal) == 1:
            a = legal[0]
        elif not by_medio and s & 1 == them and m.phase == answer:
            view = m.view(s)
            a = habit_answer(view, rng) if by_habits else card_answer(view, rng)
        elif s & 1 == us:
            a = rollout_action(m.view(s), rng)
        else:
            a = medio_action(m.view(s), rng, ROLLOUT_SAMPLES)
        m.apply(s, a)
    return _match_chance(m, seat)


def _match_chance(m: Match, seat: int) -> float:
    """Match-winning chance of ``seat``'s team once the hand in ``m`` is over."""
    team = seat & 1
    if m.match_winner is not None:
        return 1.0 if m.match_winner == team else 0.0
    w = match_values(m.ruleset.name, m.options.target)
    return w[m.score[team]][m.score[1 - team]]


def habit_answer(view: View, rng: random.Random) -> Action:
    """How a seat answers a call in a play-out: by its chance of winning the hand now,
    against its team's answer thresholds (``Tendencies``: the shares of calls it accepted
    and raised in the match, the priors at first).

    A play-out where the other team answers like médio would misjudge a team that raises
    or accepts more than médio does: against the solid style, which raises with strong
    hands, difícil called truco, met a seis and ran, again and again.
    """
    return _answer_by_habits(view, win_chance(read(view), rng, ROLLOUT_SAMPLES))


def card_answer(view: View, rng: random.Random) -> Action:
    """How a seat answers a call in a play-out by its best card alone: the quantile of
    that card among the best cards of dealt hands, against its team's answer thresholds
    (``Tendencies``, as ``habit_answer``); with no card left, as ``habit_answer``.

    Many players answer by what they hold ("I have a manilha, I accept"), not by their
    chance of winning the hand: they accept with one strong card and a poor hand, and
    run from a hand of middling cards that would win. A call searched only against
    players who answer by their chances picks the wrong hands to bluff against them.
    """
    if not view.hand:
        return habit_answer(view, rng)
    sense = read(view)
    # a card that beats a share x of the unseen cards is the best of three cards drawn
    # at random about x**3 of the time
    return _answer_by_habits(view, max(sense.beats_share(c) for c in view.hand) ** 3)


def _answer_by_habits(view: View, strength: float) -> Action:
    """Raise, accept or run as ``strength`` (0-1) meets the answering team's thresholds."""
    habits = Tendencies.of(view, view.team)
    if A.RAISE in view.legal and strength >= habits.raise_:
        return A.RAISE
    return A.ACCEPT if strength >= habits.accept else A.RUN
