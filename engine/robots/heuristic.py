"""The rule-based robots: fácil (legal and a little sense) and médio (a strong heuristic)."""

from __future__ import annotations

import random

from engine import actions as A
from engine.actions import Action
from engine.cards import Card
from engine.match import HandKind, Phase
from engine.robots.base import decision_rng
from engine.robots.sense import Sense, opponent_called, read, value_after, win_chance
from engine.robots.sinais import bluff_scale, choose_signal
from engine.view import View

MEDIO_SAMPLES = 24
"""Hidden hands médio samples to estimate its chance of winning the hand."""


def next_value(view: View) -> int:
    """What the hand becomes worth if the next truco step is accepted."""
    return view.ladder[view.next_step] if view.next_step is not None else view.stake


def run_value(view: View) -> int:
    """What the calling team scores if the pending call is run from."""
    return view.run_value if view.run_value is not None else view.stake


# --------------------------------------------------------------------- fácil


class Facil:
    """Legal play with a little sense: takes rounds cheaply, answers by its best card."""

    level = "facil"

    def __init__(self, seed: int = 0) -> None:
        """A fácil robot; ``seed`` fixes its choices for a given view."""
        self.seed = seed

    def choose(self, view: View) -> Action:
        """One action out of ``view.legal``."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        rng = decision_rng(self.seed, view)
        if view.kind == HandKind.IRON:
            return rng.choice(legal)
        sense = read(view)
        top = max((sense.beats_share(c) for c in view.hand), default=0.0)
        if view.phase == Phase.DECIDE:
            return A.PLAY11 if top >= 0.8 or rng.random() < 0.3 else A.RUN11
        if view.phase == Phase.ANSWER:
            if top >= 0.9 and A.RAISE in legal and rng.random() < 0.3:
                return A.RAISE
            return A.ACCEPT if top >= 0.75 or rng.random() < 0.25 else A.RUN
        if A.TRUCO in legal and top >= 0.85 and rng.random() < 0.25:
            return A.TRUCO
        return _plain_card(sense)


def _plain_card(sense: Sense) -> Action:
    """Lead the best card; follow with the cheapest card that takes the round, else the lowest."""
    hand = sense.hand
    if not sense.view.table:
        return A.PLAY[hand[0]]
    best, team = sense.table_best
    if team == sense.view.team:
        return A.PLAY[hand[-1]]
    st = sense.strength
    takers = [c for c in hand if st[c] > best]
    return A.PLAY[takers[-1] if takers else hand[-1]]


# --------------------------------------------------------------------- médio


class Medio:
    """A strong heuristic: card tiers, position, partner play, covers, truco by chance and score."""

    level = "medio"

    def __init__(self, seed: int = 0, samples: int = MEDIO_SAMPLES) -> None:
        """A médio robot; ``samples`` sets how finely it estimates its chances."""
        self.seed = seed
        self.samples = samples

    def choose(self, view: View) -> Action:
        """One action out of ``view.legal``."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        return medio_action(view, decision_rng(self.seed, view), self.samples)

    def signal(self, view: View) -> Action | None:
        """The signal to send before choosing, if any (R12; honest, see robots.sinais)."""
        return choose_signal(view)


def medio_action(view: View, rng: random.Random, samples: int) -> Action:
    """Médio's decision for ``view`` (also the play-out policy of difícil)."""
    legal = view.legal
    if view.kind == HandKind.IRON:
        return rng.choice(legal)  # blind cards: no position tells anything
    sense = read(view)
    if view.phase == Phase.DECIDE:
        return _decide_special(sense, rng, samples)
    if view.phase == Phase.ANSWER:
        return _answer(sense, rng, samples)
    if A.TRUCO in legal and _should_call(sense, rng, samples):
        return A.TRUCO
    return _medio_card(sense)


def _decide_special(sense: Sense, rng: random.Random, samples: int) -> Action:
    """Mão de onze/dez: play when the chance (partner's cards included) beats running."""
    v = sense.view
    p = win_chance(sense, rng, samples * 2)
    worth = sense.ruleset.special_hand_value
    play = p * value_after(v, worth, 0) + (1 - p) * value_after(v, 0, worth)
    run = value_after(v, 0, sense.ruleset.hand_value)
    return A.PLAY11 if play >= run else A.RUN11


def _answer(sense: Sense, rng: random.Random, samples: int) -> Action:
    """Accept, run or raise by the chance of winning, discounted for the caller's confidence."""
    v = sense.view
    pending = v.accept_value or next_value(v)
    step = v.pending_step or 0
    # a call says "my hand is good": trust it more the higher it goes
    p = win_chance(sense, rng, samples) - 0.05 - 0.05 * step
    accept = p * value_after(v, pending, 0) + (1 - p) * value_after(v, 0, pending)
    run = value_after(v, 0, run_value(v))
    if A.RAISE in v.legal and v.raise_value is not None:
        higher = v.raise_value
        raised = p * value_after(v, higher, 0) + (1 - p) * value_after(v, 0, higher)
        if p >= 0.72 and raised > accept:
            return A.RAISE
    return A.ACCEPT if accept >= run else A.RUN


def _should_call(sense: Sense, rng: random.Random, samples: int) -> bool:
    """Call truco (or the next step) on value, or now and then as a bluff."""
    v = sense.view
    me, them = v.team, 1 - v.team
    now, then = v.stake, next_value(v)
    if v.score[me] + now >= v.target and v.score[them] + now >= v.target:
        return False  # this hand decides the match either way: a call changes nothing
    p = win_chance(sense, rng, samples)
    keep = p * value_after(v, now, 0) + (1 - p) * value_after(v, 0, now)
    called = p * value_after(v, then, 0) + (1 - p) * value_after(v, 0, then)
    if p >= 0.68 and called > keep:
        return True
    # a bluff only where losing the bigger hand does not hand them the match
    risky = v.score[them] + then >= v.target > v.score[them] + now
    bluff_rate = (0.10 if opponent_called(v) == 0 else 0.04) * bluff_scale(v)
    return p < 0.3 and not risky and rng.random() < bluff_rate


def _dump(sense: Sense) -> Action:
    """Give away the lowest card, face down when allowed so nobody learns it."""
    low = sense.hand[-1]
    return A.COVER[low] if A.COVER[low] in sense.view.legal else A.PLAY[low]


def _medio_card(sense: Sense) -> Action:
    """Choose the card: tiers and position as mão (leading) or pé (following)."""
    v = sense.view
    st = sense.strength
    hand = sense.hand  # strongest first
    team = v.team
    rounds = v.rounds
    if len(hand) == 1:
        return _last_card(sense)
    if not v.table:
        if not rounds:
            # keep the best card back when the second one can take the round alone
            if len(hand) == 3 and sense.beats_share(hand[1]) >= 0.62:
                return A.PLAY[hand[1]]
            return A.PLAY[hand[0]]
        if rounds[0] == team and len(rounds) == 1:
            # one round up: the low card makes them spend, the best one waits for round 3
            return A.PLAY[hand[-1]]
        return A.PLAY[hand[0]]
    best, holder = sense.table_best
    last = len(v.table) == v.players - 1
    if holder == team:
        partner_card = _holding_card(v, best, st)
        if last or (partner_card is not None and sense.is_top(partner_card)):
            return _dump(sense)  # the round is safe: hide a card
        return A.PLAY[hand[-1]]
    takers = [c for c in hand if st[c] > best]
    if takers:
        if last:
            return A.PLAY[takers[-1]]
        # an opponent still plays after us: take with margin when we can
        strong = [c for c in takers if sense.beats_share(c) >= 0.7]
        return A.PLAY[strong[-1] if strong else takers[-1]]
    equal = [c for c in hand if st[c] == best]
    if equal and holder is not None:
        won_first = bool(rounds) and rounds[0] == team and len(rounds) == 1
        keep = [c for c in hand if c != equal[0]]
        # cangar: a tie wins the hand after round 1, or sends round 1 to a strong second card
        if won_first or (not rounds and keep and sense.beats_share(keep[0]) >= 0.6):
            return A.PLAY[equal[0]]
    return _dump(sense)


def _last_card(sense: Sense) -> Action:
    """With one card left it goes open, unless the round is already lost or won by the team."""
    v = sense.view
    card = sense.hand[0]
    if v.table and A.COVER[card] in v.legal:
        best, holder = sense.table_best
        if holder == v.team and len(v.table) == v.players - 1:
            return A.COVER[card]
        if holder != v.team and sense.strength[card] < best and len(v.table) == v.players - 1:
            return A.COVER[card]
    return A.PLAY[card]


def _holding_card(v: View, best: int, st: tuple[int, ...]) -> Card | None:
    """The open card of this seat's team that holds the round now."""
    for seat, card, covered in v.table:
        if seat & 1 == v.team and not covered and card is not None and st[card] == best:
            return card
    return None
