"""The rule-based robots: fácil (legal and a little sense) and médio (a strong heuristic)."""

from __future__ import annotations

import random

from engine import actions as A
from engine.actions import Action
from engine.cards import Card
from engine.match import HandKind, Phase
from engine.robots.base import SeededRobot, decision_rng
from engine.robots.policy import CHANCE_SAMPLES, PASS, load_policy, policy_action, policy_mix
from engine.robots.pontos import points_move
from engine.robots.reading import Reading
from engine.robots.sense import Sense, card_chances, read, value_after
from engine.robots.sinais import bluff_scale, choose_signal
from engine.view import View

MEDIO_SAMPLES = 72
"""Deals of the hidden cards médio samples for a betting decision (each weighed by the bets
seen, see ``reading``)."""
CARD_SAMPLES = 48
"""Deals of the hidden cards médio samples to choose a card: each card it may play is played
out on the same deals (``sense.card_chances``)."""
MARGIN = 0.004
"""A call or raise must gain at least this much match chance over the quiet choice."""
DEFER_DISCOUNT = 0.01
"""Leaving an answer to the partner costs a little: they may misjudge too."""
RERAISE_MIN = 0.75
"""Chance of winning the hand needed to raise a raise (seis and up): whoever raised a call
showed a strong hand, and a team that gives up rarely answers with the next raise."""
DEFEND_FOLDS = 0.55
"""Share of the other team's trucos this team may run from before it defends: a team
that runs more than that pays whoever calls on any hand (bluffing wins when the caller's
opponent runs from more than half the calls, R6 values 1 and 3)."""
DEFEND_GAIN = 3.0
"""How fast the defending share grows with the runs above ``DEFEND_FOLDS``."""
DEFEND_MIN = 0.15
"""A hand below this chance of winning never defends."""
BLUFF_BELOW = 0.5
"""A call on a hand with less chance than this of winning it played out is a bluff."""


def next_value(view: View) -> int:
    """What the hand becomes worth if the next truco step is accepted."""
    return view.ladder[view.next_step] if view.next_step is not None else view.stake


def run_value(view: View) -> int:
    """What the calling team scores if the pending call is run from."""
    return view.run_value if view.run_value is not None else view.stake


# --------------------------------------------------------------------- fácil


class Facil(SeededRobot):
    """Legal play with a little sense: takes rounds cheaply, answers by its best card."""

    level = "facil"

    def decide(self, view: View, rng: random.Random) -> Action:
        """One action out of ``view.legal``."""
        legal = view.legal
        points = points_move(view, rng, "facil")  # gaudério's envido (R13.3)
        if points is not None:
            return points
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


class Medio(SeededRobot):
    """A strong heuristic: card tiers, position, partner play, covers, truco by chance and score."""

    level = "medio"

    def __init__(
        self, seed: int = 0, samples: int = MEDIO_SAMPLES, card_samples: int = CARD_SAMPLES
    ) -> None:
        """A médio robot; ``samples`` sets how finely it estimates its chances to bet,
        ``card_samples`` how many deals it plays each card out on (0: tiers only)."""
        super().__init__(seed)
        self.samples = samples
        self.card_samples = card_samples

    def decide(self, view: View, rng: random.Random) -> Action:
        """One action out of ``view.legal``."""
        return medio_action(view, rng, self.samples, self.card_samples)

    def signal(self, view: View) -> Action | None:
        """The signal to send before choosing, if any (R12; honest, see robots.sinais)."""
        return choose_signal(view)


class Learned(Medio):
    """Médio's card play with the bets of the learned policy (``robots.policy``); where the
    policy holds no entry (another variant, a decision never reached in training) it bets
    like médio."""

    level = "policy"

    def __init__(
        self,
        seed: int = 0,
        samples: int = MEDIO_SAMPLES,
        card_samples: int = CARD_SAMPLES,
        answers: bool = True,
        medio_first_round: bool = False,
        agree: float | None = None,
    ) -> None:
        """A médio with learned bets; ``answers=False`` keeps médio's answers to calls (the
        policy then only calls); ``medio_first_round``: médio calls in a 2×2 hand's first
        round; ``agree``: a 2×2 call only when médio would make it too (see
        ``learned_action``)."""
        super().__init__(seed, samples, card_samples)
        self.answers = answers
        self.medio_first_round = medio_first_round
        self.agree = agree

    def decide(self, view: View, rng: random.Random) -> Action:
        """One action out of ``view.legal``."""
        return learned_action(
            view,
            rng,
            self.samples,
            self.card_samples,
            self.answers,
            medio_first_round=self.medio_first_round,
            agree=self.agree,
        )

    def mix(self, view: View) -> dict[Action, float] | None:
        """The policy's probabilities for this betting decision (``PASS``: play a card without
        a call), the very ones ``choose`` draws from; ``None`` where it bets like médio."""
        policy = load_policy()
        if policy is None or view.kind == HandKind.IRON or len(view.legal) == 1:
            return None
        if not self.answers and view.phase == Phase.ANSWER:
            return None
        if self.medio_first_round and _medio_calls_here(view):
            return None
        if self.agree is not None and view.players == 4:
            return None  # médio's agreement is no mix
        return policy.probabilities(view, decision_rng(self.seed, view))


def learned_action(
    view: View,
    rng: random.Random,
    samples: int,
    card_samples: int = 0,
    answers: bool = True,
    points: str = "medio",
    medio_first_round: bool = False,
    chance_samples: int = CHANCE_SAMPLES,
    mixed_to_medio: float = 0.0,
    agree: float | None = None,
    strong_first_round: bool = False,
    strong_until: float | None = None,
) -> Action:
    """The learned policy's bet for ``view`` when it has one, else médio's decision; a card
    (when the policy plays on without a call) is chosen as médio chooses it. ``answers``:
    whether answers to calls come from the policy too (else médio answers). ``points``: the
    level whose envido choice a gaudério robot makes first (``pontos.points_move``).
    ``medio_first_round``: at a 2×2 table médio calls (or not) until the first round is
    over, the policy after it (``robot:policy-late``: médio calls a strong hand at once,
    and the calls so joined matched médio's against the styles that call little and never
    bluff; difícil searching from them lost to the tight style, docs-dev/robots-log.md,
    2026-12-06 20:40). ``chance_samples``: deals behind the chance the policy's key holds
    (``policy.spot_of``; difícil's play-outs use fewer). ``mixed_to_medio``: at a 2×2
    table, in a hand's first round, the policy calls only where it clearly prefers to (a
    call chance of at least ``1 - mixed_to_medio``) and plays on where it clearly prefers
    that; in between, where a trained mix says the two are worth about the same against
    the trained game's players, médio's reading of this table's habits decides.
    ``agree``: at a 2×2 table, once the other team accepts (or raises) at least this share
    of this team's trucos in the match (``accept_share``; 0: always), a call the policy
    draws is made only when médio would make it too; else the card, as when the policy
    plays on (``None``: never). Against a team that accepts with middling hands and calls
    the next step with strong ones, the policy's thin calls are met and then raised; a
    team that runs from most calls pays them (docs-dev/robots-log.md, 2026-12-07 08:20).
    ``strong_first_round``: at a 2×2 table, in a hand's first round, where the policy plays
    on, médio's call is made when it is no bluff (``_value_call``): the table calls a
    strong hand at once about half as often as médio, and a team that never bluffs pays
    those calls (docs-dev/robots-log.md, 2026-12-07 08:20, item 4). ``strong_until``: those
    calls only while the other team accepts (or raises) less than this share of this
    team's trucos in the match (``accept_share``; ``None``: always): the early call pays
    through the runs it draws, and a team that accepts (almost) every call only lets it
    trade the later call, made on a better-known hand, for an earlier one (docs-dev/robots-log.md,
    2026-12-07 14:30 and 16:27)."""
    if view.kind != HandKind.IRON and view.envido_points is not None:
        # the envido is not in the trained game and comes before the truco (R13.3): the
        # robot's own envido choice first, the policy then bets only the truco
        move = points_move(view, rng, points)
        if move is not None:
            return move
        fallback = medio_play
    else:
        fallback = medio_action
    phases = (Phase.ANSWER, Phase.PLAY) if answers else (Phase.PLAY,)
    early = medio_first_round and _medio_calls_here(view)
    if view.kind != HandKind.IRON and view.phase in phases and not early:
        if mixed_to_medio > 0 and _medio_calls_here(view):
            choice = _clear_call(view, rng, chance_samples, mixed_to_medio)
            if choice is None:
                return fallback(view, rng, samples, card_samples)
        else:
            choice = policy_action(view, rng, chance_samples)
        if (
            agree is not None
            and choice == A.TRUCO
            and view.players == 4
            and accept_share(view) >= agree
            and not _should_call(read(view), rng, samples)
        ):
            choice = PASS
        if (
            strong_first_round
            and choice == PASS
            and _medio_calls_here(view)
            and A.TRUCO in view.legal
            and (strong_until is None or accept_share(view) < strong_until)
            and _value_call(read(view), rng, samples)
        ):
            choice = A.TRUCO
        if choice == PASS:
            return _medio_card(read(view), rng, card_samples)
        if choice is not None:
            return choice
    return fallback(view, rng, samples, card_samples)


AGREE_PRIOR = 0.3
"""The share of trucos a team is taken to accept before it answered any (``accept_share``)."""
AGREE_PRIOR_WEIGHT = 2.0
"""How many answers the prior of ``accept_share`` counts as."""


def accept_share(view: View) -> float:
    """The share of this team's trucos the other team accepted or raised in the match so
    far (``View.bets``, public), smoothed toward ``AGREE_PRIOR``."""
    them = view.bets[1 - view.team]
    took = them.accepted[0] + them.raised[0]
    faced = took + them.ran[0]
    return (took + AGREE_PRIOR_WEIGHT * AGREE_PRIOR) / (faced + AGREE_PRIOR_WEIGHT)


def _clear_call(view: View, rng: random.Random, samples: int, band: float) -> Action | None:
    """The policy's call (``A.TRUCO``) or play on (``PASS``) where its mix for ``view`` leans
    clearly one way (by more than ``1 - band``), else ``None`` (also without an entry)."""
    mix = policy_mix(view, rng, samples)
    if mix is None:
        return None
    call = mix.get(A.TRUCO, 0.0)
    if call >= 1 - band:
        return A.TRUCO
    if call <= band:
        return PASS
    return None


def _medio_calls_here(view: View) -> bool:
    """Whether this is a call decision of a 2×2 hand's first round (``medio_first_round``)."""
    return view.players == 4 and not view.rounds and view.phase == Phase.PLAY


def medio_action(view: View, rng: random.Random, samples: int, card_samples: int = 0) -> Action:
    """Médio's decision for ``view`` (also the play-out policy of difícil).

    ``card_samples`` is passed to ``_medio_card``: difícil's play-outs keep the default 0
    (card tiers only), as they make thousands of card choices per decision.
    """
    if view.kind == HandKind.IRON:
        return rng.choice(view.legal)  # blind cards: no position tells anything
    if view.envido_points is not None:  # gaudério's envido (R13.3); play-outs: the quick rule
        points = points_move(view, rng, "medio" if samples >= MEDIO_SAMPLES else "facil")
        if points is not None:
            return points
    return medio_play(view, rng, samples, card_samples)


def medio_play(view: View, rng: random.Random, samples: int, card_samples: int = 0) -> Action:
    """Médio's decision for ``view`` apart from gaudério's points game: truco, the answers,
    the mão de onze/dez and the card (difícil's own envido choice falls back on it)."""
    legal = view.legal
    sense = read(view)
    if view.phase == Phase.DECIDE:
        return _decide_special(sense, rng, samples)
    if view.phase == Phase.ANSWER:
        return _answer(sense, rng, samples)
    if A.TRUCO in legal and _should_call(sense, rng, samples):
        return A.TRUCO
    return _medio_card(sense, rng, card_samples)


def _decide_special(sense: Sense, rng: random.Random, samples: int) -> Action:
    """Mão de onze/dez: play when the chance (partner's cards included) beats running."""
    v = sense.view
    p = Reading(sense, rng, samples).chance()
    worth = sense.ruleset.special_hand_value
    play = p * value_after(v, worth, 0) + (1 - p) * value_after(v, 0, worth)
    run = value_after(v, 0, sense.ruleset.hand_value)
    return A.PLAY11 if play >= run else A.RUN11


def _played_out(v: View, p: float, value: int) -> float:
    """Match chance when the hand is played out for ``value`` with chance ``p``."""
    return p * value_after(v, value, 0) + (1 - p) * value_after(v, 0, value)


def _call_worth(v: View, reading: Reading, step: int, before: int) -> float:
    """Match chance of calling ladder ``step`` now (the hand is worth ``before`` if they run).

    They run, accept or raise as their habits and our reading of their cards say; after
    a raise we take the better of running and accepting, knowing what the raise tells.
    """
    run, acc, p_acc, rai, p_rai = reading.answers(1 - v.team, step)
    value = v.ladder[step]
    worth = run * value_after(v, before, 0) + acc * _played_out(v, p_acc, value)
    if rai > 0 and step + 1 < len(v.ladder):
        higher = v.ladder[step + 1]
        worth += rai * max(value_after(v, 0, value), _played_out(v, p_rai, higher))
    return worth


def _answer(sense: Sense, rng: random.Random, samples: int) -> Action:
    """Accept, run or raise by the chance of winning given what the call says about the caller.

    In 2×2 the first partner to answer also weighs leaving it to the other, who knows
    their own cards: running first only hands the decision over.
    """
    v = sense.view
    reading = Reading(sense, rng, samples)
    pending = v.accept_value or next_value(v)
    step = v.pending_step or 0
    p = reading.chance()
    accept = _played_out(v, p, pending)
    run = value_after(v, 0, run_value(v))
    partner = v.partner
    if partner is not None and partner not in v.ran and v.partner_hand is None:
        # the partner answers after us with their own cards in view
        defer = sum(
            share * max(run, _played_out(v, chance, pending))
            for share, chance in reading.split_by(partner)
        )
        run = max(run, defer - DEFER_DISCOUNT)
    if A.RAISE in v.legal and v.raise_value is not None and (step == 0 or p >= RERAISE_MIN):
        raised = _call_worth(v, reading, step + 1, pending)
        if raised > max(accept, run) + MARGIN:
            return A.RAISE
    if accept >= run:
        return A.ACCEPT
    last = partner is None or partner in v.ran or v.partner_hand is not None
    if last and step == 0 and p >= DEFEND_MIN and rng.random() < _defend_share(v, reading):
        return A.ACCEPT
    return A.RUN


def _defend_share(v: View, reading: Reading) -> float:
    """How often to accept a truco the chances say to run from (a mixed answer).

    A caller who knows this team runs from most calls profits by calling on any hand.
    When this team's runs from the other team's trucos pass ``DEFEND_FOLDS``, it accepts
    some of them anyway, the less so the more the caller's shown calls won.
    """
    mine = v.bets[v.team]
    faced, ran = mine.faced[0], mine.ran[0]
    folds = (ran + 4 * (1 - DEFEND_FOLDS)) / (faced + 4)
    honest = min(1.0, max(0.0, (reading.tend[1 - v.team].wins - 0.6) / 0.3))
    return max(0.0, min(1.0, (folds - DEFEND_FOLDS) * DEFEND_GAIN * (1.0 - honest)))


def _should_call(sense: Sense, rng: random.Random, samples: int) -> bool:
    """Call truco (or the next step) when it is worth more than playing on at this value."""
    p = _worth_calling(sense, rng, samples)
    if p is None:
        return False
    # a call on a hand that loses more often than not is a bluff; after this seat's own
    # weak signal an opponent may know it, and a bluff they know of is a gift
    scale = bluff_scale(sense.view)
    return p >= BLUFF_BELOW or scale >= 1.0 or rng.random() < scale


def _value_call(sense: Sense, rng: random.Random, samples: int) -> bool:
    """Whether médio would call here on a hand it wins more often than not (no bluff)."""
    p = _worth_calling(sense, rng, samples)
    return p is not None and p >= BLUFF_BELOW


def _worth_calling(sense: Sense, rng: random.Random, samples: int) -> float | None:
    """The hand's chance when a call is worth more than playing on at this value, else
    ``None`` (``_should_call``, ``_value_call``)."""
    v = sense.view
    me, them = v.team, 1 - v.team
    now = v.stake
    if v.score[me] + now >= v.target and v.score[them] + now >= v.target:
        return None  # this hand decides the match either way: a call changes nothing
    reading = Reading(sense, rng, samples)
    step = v.next_step if v.next_step is not None else 0
    p = reading.chance()
    if _call_worth(v, reading, step, now) <= _played_out(v, p, now) + MARGIN:
        return None
    return p


def _dump(sense: Sense) -> Action:
    """Give away the lowest card, face down when allowed so nobody learns it."""
    low = sense.hand[-1]
    return A.COVER[low] if A.COVER[low] in sense.view.legal else A.PLAY[low]


def _medio_card(sense: Sense, rng: random.Random | None = None, samples: int = 0) -> Action:
    """Choose the card: by playing each one out when ``samples`` is given, else by tiers.

    With ``samples`` deals (médio, the sparring robots) every card of a different strength
    is played open now and the hand played out by ``simulate``'s plain policy on the same
    deals; the best chance of winning the hand is chosen, the cheaper card when two are
    even. This sees what the tiers below miss: whether the partner still plays after an
    opponent, which round decides after a tie (R4), which cards are out. The lowest card
    goes face down when it gives the round up anyway. At 2×2 the tiers keep the first
    round: played out there too, médio won more hands played out but fewer bets
    (docs-dev/robots-log.md, 2026-12-01).

    Without samples (difícil's play-outs, which make thousands of card choices): tiers
    and position as mão (leading) or pé (following).
    """
    v = sense.view
    st = sense.strength
    hand = sense.hand  # strongest first
    team = v.team
    rounds = v.rounds
    if len(hand) == 1:
        return _last_card(sense)
    # 2×2 keeps the tiers in the first round (see the docstring)
    if samples > 0 and rng is not None and (rounds or v.players == 2):
        cards = tuple(c for i, c in enumerate(hand) if i == 0 or st[c] != st[hand[i - 1]])
        if len(cards) > 1:
            chances = card_chances(sense, cards, rng, samples)
            pick = max(range(len(cards)), key=lambda i: (chances[i], i))
            card = cards[pick]
            if st[card] != st[hand[-1]]:
                return A.PLAY[card]
            if v.table and st[hand[-1]] < sense.table_best[0]:
                return _dump(sense)
            return A.PLAY[hand[-1]]
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
