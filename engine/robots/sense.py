"""What a seat can work out from its view alone: strengths, unseen cards, chances, match value.

Everything here reads a ``View`` (never a ``Match``), so the robots built on it cannot peek.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import filterfalse
from typing import Any, cast

from engine.actions import Act
from engine.cards import Card
from engine.robots.sinais import MAX_TRIES, Clues
from engine.rulesets import Ruleset, get_ruleset
from engine.state import draft_of
from engine.view import View

COVERED = -1
"""Strength of a covered card: it loses to every open card (R5)."""


@dataclass(frozen=True, slots=True)
class Sense:
    """Facts derived from one view, computed once per decision."""

    view: View
    ruleset: Ruleset
    strength: tuple[int, ...]
    """Strength of every card this hand (``strength_table(vira)``)."""
    unseen: tuple[Card, ...]
    """Cards this seat cannot place: deck minus own cards, vira, open cards, visible partner."""
    unseen_strengths: tuple[int, ...]
    """Strengths of ``unseen``, sorted weakest first."""
    hand: tuple[Card, ...]
    """Own cards left, strongest first."""

    @property
    def table_best(self) -> tuple[int, int | None]:
        """Strongest card on the table now and its team (``None`` when the teams tie on it)."""
        return best_of(self.view.table, self.strength)

    def beats_share(self, card: Card) -> float:
        """Share of unseen cards this card beats (ties count half)."""
        s = self.strength[card]
        pool = self.unseen_strengths
        if not pool:
            return 1.0
        below = sum(1 for x in pool if x < s)
        equal = sum(1 for x in pool if x == s)
        return (below + 0.5 * equal) / len(pool)

    def is_top(self, card: Card) -> bool:
        """Whether no unseen card can beat this one."""
        pool = self.unseen_strengths
        return not pool or pool[-1] < self.strength[card]


def best_of(
    table: tuple[tuple[int, Card | None, bool], ...], strength: tuple[int, ...]
) -> tuple[int, int | None]:
    """Strongest strength on a table and the team holding it (``None``: tied, R4)."""
    best = COVERED - 1
    teams = 0
    for seat, card, covered in table:
        s = COVERED if covered or card is None else strength[card]
        if s > best:
            best, teams = s, 1 << (seat & 1)
        elif s == best:
            teams |= 1 << (seat & 1)
    if teams == 3:
        return best, None
    return best, (0 if teams == 1 else 1) if teams else None


def read(view: View) -> Sense:
    """The facts of ``view``."""
    rs = get_ruleset(view.variant)
    strength = rs.strength_table(view.vira)
    known: set[Card] = set(view.hand)
    if view.vira is not None:
        known.add(view.vira)
    for t in (*view.past, view.table):
        for _, card, _ in t:
            if card is not None:
                known.add(card)
    if view.partner_hand is not None:
        known.update(view.partner_hand)
    # built with C-level loops and the draft of ``Sense`` (see ``engine.state.draft_of``):
    # difícil's play-outs read every view they build
    unseen = tuple(filterfalse(known.__contains__, rs.deck))
    by_strength = strength.__getitem__
    sense: Any = _new(_DRAFT)
    sense.view = view
    sense.ruleset = rs
    sense.strength = strength
    sense.unseen = unseen
    sense.unseen_strengths = tuple(sorted(map(by_strength, unseen)))
    # strongest first; a stable sort, as reversed as it is, keeps equal cards in hand order
    sense.hand = tuple(sorted(view.hand, key=by_strength, reverse=True))
    sense.__class__ = Sense
    return cast(Sense, sense)


_DRAFT = draft_of(Sense)
_new = object.__new__


# ---------------------------------------------------------------- hand chances


def simulate(
    hands: list[list[int]],
    table: list[tuple[int, int]],
    rounds: tuple[int | None, ...],
    turn: int,
    leader: int,
    players: int,
) -> int | None:
    """Play the hand out with a plain policy on strengths; the winning team or ``None``.

    Leaders play their best card; followers play the cheapest card that takes the
    round, or their lowest when their team already holds it or nothing takes it.
    """
    # the strongest card of the round, its team (2: both teams hold it) and the first
    # seat that played it, kept up to date as cards fall (the follower's rule reads it
    # for every card, and it decides the round)
    best = -2
    team = -1
    first = -1
    for seat, s in table:
        if s > best:
            best, team, first = s, seat & 1, seat
        elif s == best and team != seat & 1:
            team = 2
    on_table = len(table)
    while True:
        while on_table < players:
            h = hands[turn]
            mine = turn & 1
            if not on_table:
                card = max(h)
            elif team == mine:
                card = min(h)
            else:
                card = -9
                for c in h:
                    if c > best and (card == -9 or c < card):
                        card = c
                if card == -9:
                    card = min(h)
            h.remove(card)
            if card > best:
                best, team, first = card, mine, turn
            elif card == best and team != mine:
                team = 2
            turn = (turn + 1) % players
            on_table += 1
        if team == 2:
            rounds = (*rounds, None)
        else:
            rounds = (*rounds, team)
            leader = first
        turn = leader
        # hand_outcome(rounds), inline: a reading plays out dozens of hands
        n = len(rounds)
        if n == 3:
            return rounds[0] if rounds[2] is None else rounds[2]
        if n == 2:
            r0, r1 = rounds
            if r0 is None:
                if r1 is not None:
                    return r1
            elif r1 is None or r0 == r1:
                return r0
        best = -2
        team = -1
        on_table = 0


def drawer(pool: list[int], k: int) -> Callable[[Callable[[int], int]], list[int]]:
    """``random.Random.sample(pool, k)`` as a function of the generator's ``getrandbits``.

    The same draws, bit for bit, as the standard library's ``sample`` (CPython 3.11,
    whose ``Random`` draws below ``n`` from ``getrandbits``), without its checks and
    set-up on every call: readings and ``sampled_hands`` draw the hidden
    cards a dozen times per decision inside difícil's play-outs.
    """
    n = len(pool)
    setsize = 21
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    if n <= setsize:
        # each draw's (cards left, bits to draw, last place), worked out once
        steps = [(n - i, (n - i).bit_length(), n - i - 1) for i in range(k)]

        def from_pool(getrandbits: Callable[[int], int]) -> list[int]:
            rest = pool.copy()
            out = []
            for m, bits, last in steps:
                j = getrandbits(bits)
                while j >= m:
                    j = getrandbits(bits)
                out.append(rest[j])
                rest[j] = rest[last]
            return out

        return from_pool
    bits = n.bit_length()
    ks = range(k)

    def from_set(getrandbits: Callable[[int], int]) -> list[int]:
        # a list, not a set: only a few cards are drawn this way (more go by the pool)
        taken: list[int] = []
        out = []
        for _ in ks:
            j = getrandbits(bits)
            while j >= n or j in taken:
                j = getrandbits(bits)
            taken.append(j)
            out.append(pool[j])
        return out

    return from_set


def sampled_hands(sense: Sense, rng: random.Random, samples: int) -> Iterator[list[list[int]]]:
    """``samples`` deals of the hidden cards, each as every seat's strengths left (fresh lists).

    Hidden hands are drawn uniformly from the unseen cards (the view's partner cards when
    visible) and each draw is kept as likely as the signals seen make it (``Clues``).
    Yields nothing when the view leaves too few unseen cards to deal (never in a
    consistent view).
    """
    v = sense.view
    n = v.players
    st = sense.strength
    own = [st[c] for c in v.hand]
    partner = v.partner
    known_partner = (
        [st[c] for c in v.partner_hand]
        if v.partner_hand is not None and partner is not None
        else None
    )
    need = [0] * n
    for s in range(n):
        if s != v.seat and not (s == partner and known_partner is not None):
            need[s] = v.cards_left[s]
    total = sum(need)
    pool = list(sense.unseen_strengths)
    if total > len(pool):
        return
    clues = Clues.of(v, st)
    # where each seat's cards come from, worked out once: a hand to copy (its own, the
    # visible partner's), else its place in the draw
    places: list[tuple[list[int] | None, int, int]] = []
    k = 0
    for s in range(n):
        if s == v.seat:
            places.append((own, 0, 0))
        elif known_partner is not None and s == partner:
            places.append((known_partner, 0, 0))
        else:
            places.append((None, k, k + need[s]))
            k += need[s]
    draw = drawer(pool, total)
    getrandbits = rng.getrandbits
    judged = bool(clues)  # its truth is a call in Python: asked once
    tries = MAX_TRIES if judged else 1
    for _ in range(samples):
        for _ in range(tries):
            drawn = draw(getrandbits)
            hands = [drawn[a:b] if held is None else held.copy() for held, a, b in places]
            if not judged or clues.accept(clues.weight(hands), rng):
                break
        yield hands


def _open_table(sense: Sense) -> list[tuple[int, int]]:
    """The table as (seat, strength) pairs, covered cards at ``COVERED``."""
    st = sense.strength
    return [(s, COVERED if cov or c is None else st[c]) for s, c, cov in sense.view.table]


def win_chance(sense: Sense, rng: random.Random, samples: int) -> float:
    """Chance that this seat's team wins the hand from here, by sampling unseen hands.

    Plays ``sampled_hands`` out with ``simulate``. A tied hand counts half.
    """
    v = sense.view
    n = v.players
    table = _open_table(sense)
    rounds, turn, leader = v.rounds, v.turn, v.leader
    wins = 0.0
    dealt = 0
    for hands in sampled_hands(sense, rng, samples):
        # every deal holds as many cards per seat as the first: one look is enough
        if not dealt and any(not hands[(turn + i) % n] for i in range(n - len(table))):
            return 0.5  # no cards to play (not a play state): nothing to learn
        winner = simulate(hands, table.copy(), rounds, turn, leader, n)
        if winner is None:
            wins += 0.5
        elif winner == v.team:
            wins += 1.0
        dealt += 1
    return wins / dealt if dealt else 0.5


def card_chances(
    sense: Sense, cards: tuple[Card, ...], rng: random.Random, samples: int
) -> list[float]:
    """For each of ``cards`` (own cards), the chance this seat's team wins the hand if
    this seat plays it open now, the rest being played out by ``simulate``'s plain policy.

    Every card is played out on the same ``sampled_hands``, so the comparison between
    cards carries little noise.
    """
    v = sense.view
    n = v.players
    st = sense.strength
    if len(v.table) >= n:  # not a play state
        return [0.5] * len(cards)
    table = _open_table(sense)
    after = (v.seat + 1) % n
    wins = [0.0] * len(cards)
    dealt = 0
    for hands in sampled_hands(sense, rng, samples):
        for i, card in enumerate(cards):
            played = [h.copy() for h in hands]
            played[v.seat].remove(st[card])
            winner = simulate(played, [*table, (v.seat, st[card])], v.rounds, after, v.leader, n)
            if winner is None:
                wins[i] += 0.5
            elif winner == v.team:
                wins[i] += 1.0
        dealt += 1
    return [w / dealt for w in wins] if dealt else [0.5] * len(cards)


# ------------------------------------------------------------------ match value


@lru_cache(maxsize=64)
def match_values(ruleset_name: str, target: int) -> tuple[tuple[float, ...], ...]:
    """``W[a][b]``: chance that a team at ``a`` beats one at ``b``, hands being coin flips.

    Each hand goes to either team with equal chance and is worth a typical mix of
    plain hands, runs and accepted calls; this turns points into match chances.
    """
    rs = get_ruleset(ruleset_name)
    h = rs.hand_value
    lad = rs.ladder
    # a plain hand, then each ladder step less often (a three-step ladder, gaudério's,
    # shares out the missing step's weight)
    shares = ((h, 0.55), *zip(lad, (0.27, 0.11, 0.05, 0.02), strict=False))
    total = sum(p for _, p in shares)
    mix = tuple((x, p / total) for x, p in shares)
    t = target
    w = [[0.0] * (t + 1) for _ in range(t + 1)]
    for total in range(2 * t, -1, -1):
        for a in range(max(0, total - t), min(t, total) + 1):
            b = total - a
            if a >= t:
                w[a][b] = 1.0 if b < t else 0.5
                continue
            if b >= t:
                w[a][b] = 0.0
                continue
            acc = 0.0
            for x, p in mix:
                acc += p * 0.5 * (w[min(t, a + x)][b] + w[a][min(t, b + x)])
            w[a][b] = acc
    return tuple(tuple(row) for row in w)


def value_after(view: View, mine: int, theirs: int) -> float:
    """Match chance of this seat's team after scoring ``mine`` and conceding ``theirs``."""
    t = view.target
    w = match_values(view.variant, t)
    me = view.team
    a = min(t, view.score[me] + mine)
    b = min(t, view.score[1 - me] + theirs)
    return w[a][b]


def opponent_called(view: View) -> int:
    """How many truco calls or raises the other team made this hand."""
    return sum(
        1
        for s, a in view.history
        if s & 1 != view.team and (a.act == Act.TRUCO or a.act == Act.RAISE)
    )
