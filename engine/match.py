"""The match state machine: deal, rounds, cangou, truco ladder, mão de onze, iron hand, score.

A match is fully described by (ruleset, options, seed, actions): each hand is dealt
by a seeded chance step (``deal``), and every other change is an ``apply`` of one
seat's action. Whether an opponent catches a signal (R12) is the other chance step,
also drawn from the seed (``caught``), so signals replay exactly too; both chance steps
live in ``engine.dealing``, and the JSON snapshot in ``engine.snapshot``. The state is
small and flat so that robots can copy it cheaply.
"""

from __future__ import annotations

from typing import Any

from engine import actions as A
from engine import envido as E
from engine import snapshot
from engine.actions import Act, Action
from engine.cards import Card
from engine.dealing import DEALS as _DEALS
from engine.dealing import catch_roll, deal_cards
from engine.dealing import shuffle as _shuffle
from engine.errors import ErrorCode, IllegalAction
from engine.rulesets import Ruleset, TableOptions, get_ruleset
from engine.snapshot import SNAPSHOT_VERSION
from engine.state import (
    NO_BETS,
    NO_ENVIDO,
    EnvidoState,
    HandKind,
    HandResult,
    Phase,
    Play,
    TeamBets,
)
from engine.view import View, make_view

__all__ = [
    "NO_BETS",
    "SNAPSHOT_VERSION",
    "HandKind",
    "HandResult",
    "Match",
    "Phase",
    "Play",
    "TeamBets",
    "catch_roll",
    "deal_cards",
    "fold_bets",
    "hand_outcome",
]


# The members as module names: an enum member looked up on its class costs several times
# a global's lookup (EnumType's ``__getattr__`` hook), and these are read on every action.
_DECIDE, _PLAYING, _ANSWERING, _ENVIDO, _HAND_OVER, _MATCH_OVER = Phase
_NORMAL, _SPECIAL, _IRON = HandKind
_PLAY = Act.PLAY
_COVER = Act.COVER
_BLIND = Act.BLIND
_TRUCO = Act.TRUCO
_ACCEPT = Act.ACCEPT
_RUN = Act.RUN
_RAISE = Act.RAISE
_PLAY11 = Act.PLAY11
_RUN11 = Act.RUN11
_SIGNAL = Act.SIGNAL
_FLOR = Act.FLOR
_QUERO = Act.QUERO
_ENVIDO_CALL = frozenset((Act.ENVIDO, Act.REAL_ENVIDO, Act.FALTA_ENVIDO))
_ENVIDO_ANSWER = frozenset((Act.QUERO, Act.NAO_QUERO))


def fold_bets(
    bets: tuple[TeamBets, TeamBets],
    hand_log: list[tuple[int, Action]],
    ran_team: int | None,
    winner: int | None = None,
) -> tuple[TeamBets, TeamBets]:
    """``bets`` after one finished normal hand.

    ``ran_team``: the team that ran, if it ended so; ``winner``: the team that won it.
    """
    # each team's fields as a list (hands first), rebuilt into a ``TeamBets`` at the end;
    # a hand moves two to five counts
    rows: tuple[list[Any], list[Any]] = (list(bets[0]), list(bets[1]))
    step = -1
    settled = True
    caller = -1
    for seat, a in hand_log:
        act = a.act
        if act is _PLAY:
            continue  # most of a hand's actions
        if act is _TRUCO:
            step += 1
            caller = seat & 1
            _count(rows[caller], _CALLS, step)
            settled = False
        elif act is _RAISE:
            caller = seat & 1
            _count(rows[caller], _RAISED, step)
            step += 1
            _count(rows[caller], _CALLS, step)
        elif act is _ACCEPT:
            _count(rows[seat & 1], _ACCEPTED, step)
            settled = True
    if not settled and ran_team is not None and step >= 0:
        _count(rows[ran_team], _RAN, step)
    if settled and step >= 0 and ran_team is None and winner is not None:
        _count(rows[caller], _SHOWN, step)
        if winner == caller:
            _count(rows[caller], _SHOWN_WON, step)
    rows[0][0] += 1
    rows[1][0] += 1
    return (_new_tuple(TeamBets, rows[0]), _new_tuple(TeamBets, rows[1]))


def _count(row: list[Any], field: int, step: int) -> None:
    """One more in ``row[field]`` (counts per ladder step) at ``step``.

    Unpacked for the four steps of every ladder: a list made and turned back into a tuple
    for each count cost twice as much.
    """
    cells = row[field]
    if len(cells) == 4:
        a, b, c, d = cells
        if step == 0:
            row[field] = (a + 1, b, c, d)
        elif step == 1:
            row[field] = (a, b + 1, c, d)
        elif step == 2:
            row[field] = (a, b, c + 1, d)
        else:
            row[field] = (a, b, c, d + 1)
    else:
        row[field] = (*cells[:step], cells[step] + 1, *cells[step + 1 :])


# places in a ``TeamBets``, counted after ``hands``: the rows of ``fold_bets``
_CALLS, _ACCEPTED, _RAISED, _RAN, _SHOWN, _SHOWN_WON = range(1, 7)


# ``TeamBets`` built from a sequence of its seven fields, without the keyword-parsing
# constructor: every finished hand makes two, play-outs included
_new_tuple = tuple.__new__


def _one_more_hand(bets: tuple[TeamBets, TeamBets]) -> tuple[TeamBets, TeamBets]:
    """``bets`` after a hand without a call: only the hand count moves (most hands, and
    every play-out's)."""
    # unpacked, not indexed: an index into a tuple subclass takes the slow path
    (h0, c0, a0, r0, x0, s0, w0), (h1, c1, a1, r1, x1, s1, w1) = bets
    return (
        _new_tuple(TeamBets, (h0 + 1, c0, a0, r0, x0, s0, w0)),
        _new_tuple(TeamBets, (h1 + 1, c1, a1, r1, x1, s1, w1)),
    )


def hand_outcome(rounds: tuple[int | None, ...]) -> tuple[bool, int | None]:
    """Whether the hand is decided after these rounds, and by whom (R4, cangou table)."""
    n = len(rounds)
    if n < 2:
        return False, None
    r0, r1 = rounds[0], rounds[1]
    if n == 2:
        if r0 is None and r1 is None:
            return False, None
        if r0 is None:
            return True, r1
        if r1 is None or r0 == r1:
            return True, r0
        return False, None
    r2 = rounds[2]
    if r2 is None:
        # one round each then a tie, or three ties: the first round decides (or nobody)
        return True, r0
    return True, r2


_TEAM_SEATS = {n: (tuple(range(0, n, 2)), tuple(range(1, n, 2))) for n in (2, 4)}
"""By table size, each team's seats."""

_ONE_SEAT = tuple((seat,) for seat in range(4))
"""``to_act`` of a turn, made once (every action of every play-out asks who acts)."""


_PLAYS = A.PLAY
_COVERS = A.COVER


def _card_actions(hand: tuple[Card, ...], cover: bool) -> list[Action]:
    """Each card of ``hand`` played open, then (when ``cover``) each played covered.

    One index a card, unrolled by hand size: a ``map`` or a comprehension over three
    cards costs about three times as much, and every decision of every play-out asks.
    After the first round a seat holds two cards or one.
    """
    n = len(hand)
    if n == 3 and not cover:
        a, b, c = hand
        return [_PLAYS[a], _PLAYS[b], _PLAYS[c]]
    if n == 2:
        a, b = hand
        if cover:
            return [_PLAYS[a], _PLAYS[b], _COVERS[a], _COVERS[b]]
        return [_PLAYS[a], _PLAYS[b]]
    if n == 1:
        a = hand[0]
        return [_PLAYS[a], _COVERS[a]] if cover else [_PLAYS[a]]
    acts = [_PLAYS[c] for c in hand]
    if cover:
        acts += [_COVERS[c] for c in hand]
    return acts


_TRUCO_ACTION = A.TRUCO
_ACCEPT_ACTION = A.ACCEPT
_RUN_ACTION = A.RUN
_RAISE_ACTION = A.RAISE
_ENVIDO_ACTIONS = {E.ENVIDO: A.ENVIDO, E.REAL_ENVIDO: A.REAL_ENVIDO, E.FALTA_ENVIDO: A.FALTA_ENVIDO}
_FIRST_CALLS = [A.ENVIDO, A.REAL_ENVIDO, A.FALTA_ENVIDO]


class Match:
    """One truco match. Query with ``to_act``/``legal_actions``; change with ``apply``/``deal``."""

    __slots__ = (
        "bets",
        "call",
        "call_team",
        "dealer",
        "dealt",
        "env",
        "flor",
        "flor_left",
        "hand_log",
        "hand_number",
        "hand_winner",
        "hands",
        "kind",
        "ladder",
        "leader",
        "level",
        "log",
        "match_winner",
        "options",
        "past",
        "phase",
        "players",
        "points",
        "raise_team",
        "ran",
        "rounds",
        "ruleset",
        "score",
        "seed",
        "signalled",
        "stake",
        "strength",
        "table",
        "team_seats",
        "threshold",
        "turn",
        "vira",
    )

    ruleset: Ruleset
    options: TableOptions
    players: int
    ladder: tuple[int, ...]
    team_seats: tuple[tuple[int, ...], tuple[int, ...]]
    seed: int
    hand_number: int
    dealer: int
    score: tuple[int, int]
    dealt: tuple[tuple[Card, ...], ...]
    hands: list[tuple[Card, ...]]
    vira: Card | None
    strength: tuple[int, ...]
    kind: HandKind
    phase: Phase
    stake: int
    level: int
    raise_team: int
    call: int
    call_team: int
    ran: int
    turn: int
    leader: int
    table: tuple[Play, ...]
    past: tuple[tuple[Play, ...], ...]
    rounds: tuple[int | None, ...]
    hand_winner: int | None
    points: tuple[int, int]
    match_winner: int | None
    log: list[tuple[int, Action]]
    hand_log: list[tuple[int, Action]]
    bets: tuple[TeamBets, TeamBets]
    env: EnvidoState | None
    """The hand's envido (R13.3): ``None`` while one may still be called in a gaudério hand,
    ``NO_ENVIDO`` in the other variants, else the sequence called."""
    flor: tuple[int, ...]
    """The seats whose flor the engine sang in this hand, in order (R13.4)."""
    flor_left: int
    """Bit mask of the seats holding a flor not sung yet (gaudério with flor on)."""
    signalled: int
    """Bit mask of the seats that signalled in this round (R12: one each per round)."""
    threshold: int
    """Score from which the mão de onze/dez (and the iron hand) apply: fixed by the ruleset
    and the target, kept rather than asked of the ruleset at every deal."""

    # ----------------------------------------------------------------- creation

    def __init__(
        self,
        ruleset: Ruleset | str,
        options: TableOptions | None = None,
        seed: int = 0,
        *,
        dealer: int = 0,
        score: tuple[int, int] = (0, 0),
        deal: bool = True,
    ) -> None:
        """A new match; the first hand is dealt from ``seed`` unless ``deal`` is False."""
        rs = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
        opts = (options or TableOptions()).validated(rs)
        self.ruleset = rs
        self.options = opts
        self.players = opts.players
        self.ladder = opts.ladder_for(rs)
        self.team_seats = _TEAM_SEATS[opts.players]
        self.threshold = rs.threshold(opts.target)
        self.seed = seed
        self.hand_number = 0
        self.dealer = dealer % opts.players
        self.score = (min(score[0], opts.target), min(score[1], opts.target))
        self.match_winner = None
        self.log = []
        self.bets = NO_BETS
        self.phase = _HAND_OVER
        if deal:
            self._deal_from_seed()  # sets every field of a hand, as ``_clear_hand`` would
        else:
            self._clear_hand()

    @classmethod
    def from_hand(
        cls,
        ruleset: Ruleset | str,
        options: TableOptions | None,
        *,
        score: tuple[int, int],
        dealer: int,
        hands: list[tuple[Card, ...]] | tuple[tuple[Card, ...], ...],
        vira: Card | None = None,
        seed: int = 0,
    ) -> Match:
        """A match positioned at the start of a given hand (scenarios, tutorial, robots).

        Raises ``IllegalAction(INVALID_SCENARIO)`` when the hand is inconsistent.
        """
        m = cls(ruleset, options, seed, dealer=dealer, score=score, deal=False)
        rs = m.ruleset
        invalid = ErrorCode.INVALID_SCENARIO
        if len(hands) != m.players:
            raise IllegalAction(invalid, "hands_count", players=m.players)
        seen: set[Card] = set()
        deck = set(rs.deck)
        for seat, hand in enumerate(hands):
            if len(hand) != 3:
                raise IllegalAction(invalid, "three_cards", seat=seat)
            for c in hand:
                if c not in deck:
                    raise IllegalAction(invalid, "not_in_deck", card=c.code, variant=rs.name)
                if c in seen:
                    raise IllegalAction(invalid, "duplicate", card=c.code)
                seen.add(c)
        if rs.uses_vira:
            if vira is None:
                raise IllegalAction(invalid, "no_vira")
            if vira in seen:
                raise IllegalAction(invalid, "vira_in_hand", card=vira.code)
        elif vira is not None:
            raise IllegalAction(invalid, "no_vira_in_variant", variant=rs.name)
        for s in score:
            if not 0 <= s < m.options.target:
                raise IllegalAction(invalid, "score_out")
        m._start_hand(tuple(tuple(h) for h in hands), vira)
        return m

    def _clear_hand(self) -> None:
        self.dealt = ()
        self.hands = []
        self.vira = None
        self.strength = self.ruleset.strength_table(None) if not self.ruleset.uses_vira else ()
        self.kind = _NORMAL
        self.stake = self.ruleset.hand_value
        self.level = -1
        self.raise_team = -1
        self.call = -1
        self.call_team = -1
        self.ran = 0
        self.turn = 0
        self.leader = 0
        self.table = ()
        self.past = ()
        self.rounds = ()
        self.hand_winner = None
        self.points = (0, 0)
        self.hand_log = []
        self.signalled = 0
        self.env = NO_ENVIDO
        self.flor = ()
        self.flor_left = 0

    def _deal_from_seed(self) -> None:
        n = self.players
        rs = self.ruleset
        # one card at a time to each seat, starting after the dealer: the seat k places
        # after the first gets cards k, k + n and k + 2n (one itemgetter a seat, unrolled:
        # a comprehension builds a function per call)
        takes = _DEALS[n][self.dealer]
        if rs.manilhas is None:
            cards = _shuffle(self.seed, self.hand_number, rs.deck, 3 * n + 1)
            vira = cards[3 * n]
        else:
            cards = _shuffle(self.seed, self.hand_number, rs.deck, 3 * n)
            vira = None
        if n == 2:
            t0, t1 = takes
            self._start_hand((t0(cards), t1(cards)), vira)
        else:
            t0, t1, t2, t3 = takes
            self._start_hand((t0(cards), t1(cards), t2(cards), t3(cards)), vira)

    def _start_hand(self, dealt: tuple[tuple[Card, ...], ...], vira: Card | None) -> None:
        # every field of ``_clear_hand``, set once (a hand starts thousands of times a second)
        rs = self.ruleset
        self.dealt = dealt
        self.hands = list(dealt)
        self.vira = vira
        self.strength = rs.strength_table(vira)
        self.stake = rs.hand_value
        self.level = -1
        self.raise_team = -1
        self.call = -1
        self.call_team = -1
        self.ran = 0
        self.leader = self.turn = (self.dealer + 1) % self.players
        self.table = ()
        self.past = ()
        self.rounds = ()
        self.hand_winner = None
        self.points = (0, 0)
        self.hand_log = []
        self.signalled = 0
        self.flor = ()
        self.env = NO_ENVIDO
        self.flor_left = 0
        threshold = self.threshold
        s0, s1 = self.score
        at0 = s0 >= threshold
        at1 = s1 >= threshold
        if at0 and at1:
            self.kind = _IRON
            self.phase = _PLAYING
        elif at0 or at1:
            self.kind = _SPECIAL
            self.phase = _DECIDE
            self.call_team = 0 if at0 else 1  # the deciding team
        else:
            self.kind = _NORMAL
            self.phase = _PLAYING
        if rs.envido:
            self._start_points(dealt)

    def _start_points(self, dealt: tuple[tuple[Card, ...], ...]) -> None:
        """A gaudério hand's points game: envido open, the flors to sing (the mão's now)."""
        self.env = None  # envido may be called
        left = 0
        if self.options.flor:
            for seat, cards in enumerate(dealt):
                if E.has_flor(cards):
                    left |= 1 << seat
        self.flor_left = left
        if left:
            self._sing_flors()

    def deal(self) -> None:
        """Chance step: rotate the dealer and deal the next hand from the seed."""
        if self.phase is not _HAND_OVER:
            raise IllegalAction(ErrorCode.HAND_OVER, "hand_not_over")
        self.hand_number += 1
        self.dealer = (self.dealer + 1) % self.players
        self._deal_from_seed()

    def rematch(self) -> Match:
        """A new match with the same table, a new seed and the next dealer (revanche)."""
        return Match(self.ruleset, self.options, self.seed + 1, dealer=self.dealer + 1)

    def copy(self) -> Match:
        """An independent copy (cheap: every field but the lists is immutable)."""
        # one assignment a field (a loop over ``__slots__`` costs three times as much);
        # tests/engine check that every slot is copied
        new = object.__new__(Match)
        new.bets = self.bets
        new.call = self.call
        new.call_team = self.call_team
        new.dealer = self.dealer
        new.dealt = self.dealt
        new.env = self.env
        new.flor = self.flor
        new.flor_left = self.flor_left
        new.hand_log = self.hand_log.copy()
        new.hand_number = self.hand_number
        new.hand_winner = self.hand_winner
        new.hands = self.hands.copy()
        new.kind = self.kind
        new.ladder = self.ladder
        new.leader = self.leader
        new.level = self.level
        new.log = self.log.copy()
        new.match_winner = self.match_winner
        new.options = self.options
        new.past = self.past
        new.phase = self.phase
        new.players = self.players
        new.points = self.points
        new.raise_team = self.raise_team
        new.ran = self.ran
        new.rounds = self.rounds
        new.ruleset = self.ruleset
        new.score = self.score
        new.seed = self.seed
        new.signalled = self.signalled
        new.stake = self.stake
        new.strength = self.strength
        new.table = self.table
        new.team_seats = self.team_seats
        new.threshold = self.threshold
        new.turn = self.turn
        new.vira = self.vira
        return new

    # ------------------------------------------------------------------ queries

    def team_of(self, seat: int) -> int:
        """The team of a seat (R3)."""
        return seat & 1

    def is_terminal(self) -> bool:
        """Whether the match is over."""
        return self.phase == _MATCH_OVER

    @property
    def round_index(self) -> int:
        """The round being played (0, 1 or 2)."""
        return len(self.rounds)

    @property
    def deciding_team(self) -> int | None:
        """The team deciding the mão de onze/dez, while it decides."""
        return self.call_team if self.phase == _DECIDE else None

    @property
    def pending_value(self) -> int | None:
        """The ladder value of the call awaiting an answer, if any."""
        return self.ladder[self.call] if self.phase == _ANSWERING else None

    def manilhas(self) -> tuple[Card, ...]:
        """This hand's manilhas, strongest first."""
        return self.ruleset.manilhas_for(self.vira)

    def hand_result(self) -> HandResult | None:
        """The result of the hand that just ended, or ``None`` while it is being played."""
        if self.phase < _HAND_OVER:
            return None
        return HandResult(
            winner=self.hand_winner,
            points=self.points,
            stake=self.stake,
            rounds=self.rounds,
            ran=self.hand_winner is not None and bool(self.ran),
            score=self.score,
            match_winner=self.match_winner,
        )

    def to_act(self) -> tuple[int, ...]:
        """Seats that may act now (two partners may both answer a call in 2×2)."""
        phase = self.phase
        if phase is _PLAYING:
            return _ONE_SEAT[self.turn]
        if phase is _ANSWERING or phase is _DECIDE:
            team = 1 - self.call_team if phase is _ANSWERING else self.call_team
            ran = self.ran
            # the team's seats (``team``, and ``team + 2`` at four) that did not run
            if ran >> team & 1:
                if self.players == 2 or ran >> team + 2 & 1:
                    return ()
                return _ONE_SEAT[team + 2]
            if self.players == 2 or ran >> team + 2 & 1:
                return _ONE_SEAT[team]
            return (team, team + 2)
        if phase is _ENVIDO:
            env = self.env
            assert env is not None
            team = 1 - env.team
            declined = env.declined
            return tuple(s for s in self.team_seats[team] if not declined >> s & 1)
        return ()

    def can_truco(self, seat: int) -> bool:
        """Whether ``seat`` may call truco (or the next step) now."""
        return (
            self.phase == _PLAYING
            and seat == self.turn
            and self.kind == _NORMAL
            and self.level + 1 < len(self.ladder)
            and self.raise_team != seat & 1
        )

    def can_signal(self, seat: int) -> bool:
        """Whether ``seat`` may send its partner a signal now (R12).

        At any moment of the hand while it still holds a card, on or off its turn (the
        signs go round right after the deal); once per round; only at 2×2 tables with
        sinais on, and never in the iron hand.
        """
        if not self.options.sinais_on or self.kind == _IRON:
            return False
        if not 0 <= seat < self.players or self.signalled >> seat & 1:
            return False
        if self.phase not in (_PLAYING, _ANSWERING, _DECIDE, _ENVIDO):
            return False
        return bool(self.hands[seat])

    def legal_signals(self, seat: int) -> list[Action]:
        """The signals ``seat`` may send now (they are not in ``legal_actions``: no turn)."""
        if not self.can_signal(seat):
            return []
        return [A.SIGNAL[s] for s in self.ruleset.sinais]

    def caught(self, index: int, seat: int) -> bool:
        """Whether ``seat`` caught the signal at ``hand_log[index]`` (seeded chance, R12).

        Only opponents of the signaller catch; the partner simply receives it.
        """
        signaller, action = self.hand_log[index]
        if action.act != _SIGNAL or (signaller ^ seat) & 1 == 0:
            return False
        roll = catch_roll(self.seed, self.hand_number, index, seat)
        return roll < self.options.catch_percent

    def can_cover(self) -> bool:
        """Whether a card may be played covered in this round (R5)."""
        return bool(self.rounds) and self.options.covered_cards and self.kind != _IRON

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty when it may not act)."""
        phase = self.phase
        if phase is _PLAYING:
            if seat != self.turn:
                return []
            kind = self.kind
            if kind is _IRON:
                hand = self.hands[seat]
                return [A.BLIND[i] for i, c in enumerate(self.dealt[seat]) if c in hand]
            # can_cover and can_truco, inline: asked for at every decision of every play-out
            hand = self.hands[seat]
            acts = _card_actions(hand, self.options.covered_cards if self.rounds else False)
            if (
                kind is _NORMAL
                and self.level + 1 < len(self.ladder)
                and self.raise_team != seat & 1
            ):
                acts.append(_TRUCO_ACTION)
            if self.env is None and self._may_call_envido(seat):
                acts += _FIRST_CALLS
            return acts
        if phase is _ANSWERING:
            if seat & 1 == self.call_team or self.ran >> seat & 1:
                return []
            if self.call + 1 < len(self.ladder):
                acts = [_ACCEPT_ACTION, _RUN_ACTION, _RAISE_ACTION]
            else:
                acts = [_ACCEPT_ACTION, _RUN_ACTION]
            if self.env is None and self._may_call_envido(seat):
                acts += _FIRST_CALLS
            return acts
        if phase == _DECIDE:
            if seat & 1 != self.call_team or self.ran >> seat & 1:
                return []
            return [A.PLAY11, A.RUN11]
        if phase is _ENVIDO:
            env = self.env
            assert env is not None
            if seat & 1 == env.team or env.declined >> seat & 1:
                return []
            return [A.QUERO, A.NAO_QUERO, *(_ENVIDO_ACTIONS[c] for c in E.next_calls(env.calls))]
        return []

    def _may_call_envido(self, seat: int) -> bool:
        """Whether ``seat``, on its turn or answering the first truco, may open an envido:
        round 1, its card not played, no truco accepted, no flor sung (R13.3, R13.4)."""
        if self.rounds or self.level >= 0 or self.flor:
            return False
        return all(s != seat for s, _, _ in self.table)

    def default_action(self, seat: int) -> Action | None:
        """What a seat does when its time runs out (R10), or ``None`` if it may not act.

        Play: the strongest card, open (in the iron hand, the first card left, since
        nobody may see it). Answering a call: run. Mão de onze/dez: run. Answering an envido: decline (R13.3).
        """
        if seat not in self.to_act():
            return None
        if self.phase == _ANSWERING:
            return A.RUN
        if self.phase == _DECIDE:
            return A.RUN11
        if self.phase == _ENVIDO:
            return A.NAO_QUERO
        if self.kind == _IRON:
            return self.legal_actions(seat)[0]
        strength = self.strength
        best = max(self.hands[seat], key=lambda c: strength[c])
        return A.PLAY[best]

    # ------------------------------------------------------------------ changes

    def apply(self, seat: int, action: Action) -> None:
        """Apply one seat's action; raise ``IllegalAction`` (state unchanged) if not allowed."""
        act = action.act
        phase = self.phase
        # The commonest legal actions first (an open card on the seat's turn, a truco, an
        # answer): each check below that they skip would pass for them, so an illegal
        # action still meets the checks in the order that picks its error code.
        # Phases and acts are enum members, compared by identity (an IntEnum's ``==``
        # takes the slow path of a subclass of int).
        if phase is _PLAYING:
            if act is _PLAY and seat == self.turn and self.kind is not _IRON:
                card = action.card
                hand = self.hands[seat]
                if card in hand:
                    self._lay(seat, action, hand, card, False)
                    if self.flor_left:
                        self._sing_flors()
                    return
            elif act is _TRUCO and 0 <= seat < self.players:
                if self.kind is not _NORMAL:
                    raise IllegalAction(ErrorCode.TRUCO_NOT_ALLOWED)
                if seat != self.turn:
                    raise IllegalAction(ErrorCode.NOT_YOUR_TURN)
                if self.level + 1 >= len(self.ladder):
                    raise IllegalAction(ErrorCode.RAISE_NOT_ALLOWED, "ladder_spent")
                if self.raise_team == seat & 1:
                    raise IllegalAction(ErrorCode.RAISE_NOT_ALLOWED, "called_last")
                entry = (seat, action)
                self.log.append(entry)
                self.hand_log.append(entry)
                self.call = self.level + 1
                self.call_team = seat & 1
                self.ran = 0
                self.phase = _ANSWERING
                if self.flor_left:
                    self._sing_flors()
                return
        elif (
            phase is _ANSWERING
            and (act is _ACCEPT or act is _RUN or act is _RAISE)
            and 0 <= seat < self.players
        ):
            self._answer(seat, action, act)
            if self.flor_left:
                self._sing_flors()
            return
        if phase >= _HAND_OVER:
            raise IllegalAction(ErrorCode.HAND_OVER)
        if not 0 <= seat < self.players:
            raise IllegalAction(ErrorCode.NOT_YOUR_TURN, "no_such_seat", seat=seat)
        if act is _SIGNAL:
            self._signal(seat, action)
            return
        if act in _ENVIDO_CALL:
            self._call_envido(seat, action, act)
            if self.flor_left:
                self._sing_flors()
            return
        if act in _ENVIDO_ANSWER:
            self._answer_envido(seat, action, act)
            if self.flor_left:
                self._sing_flors()
            return
        if act is _FLOR:
            raise IllegalAction(ErrorCode.NOT_YOUR_TURN, "unknown_action", act=act.code)
        if phase is _DECIDE:
            if act is not _PLAY11 and act is not _RUN11:
                raise IllegalAction(ErrorCode.DECISION_PENDING)
            if seat & 1 != self.call_team or self.ran >> seat & 1:
                raise IllegalAction(ErrorCode.NOT_YOUR_TURN)
            self._record(seat, action)
            if act is _PLAY11:
                self.stake = self.ruleset.special_hand_value
                self.ran = 0
                self.call_team = -1
                self.phase = _PLAYING
            else:
                self._run(seat, self.ruleset.hand_value)
            return
        if act is _PLAY11 or act is _RUN11:
            raise IllegalAction(ErrorCode.NO_DECISION_PENDING)
        if phase is _ENVIDO:
            if (act is _ACCEPT or act is _RUN or act is _RAISE) and self.call < 0:
                raise IllegalAction(ErrorCode.NO_CALL_PENDING)
            raise IllegalAction(ErrorCode.CALL_PENDING, "envido_pending")
        if phase is _ANSWERING:
            # accept, run and raise were answered above
            raise IllegalAction(ErrorCode.CALL_PENDING)
        # Phase.PLAY (a truco from a seat at the table was handled above)
        if act is _ACCEPT or act is _RUN or act is _RAISE:
            raise IllegalAction(ErrorCode.NO_CALL_PENDING)
        if seat != self.turn:
            raise IllegalAction(ErrorCode.NOT_YOUR_TURN)
        hand = self.hands[seat]
        covered = False
        if act is _BLIND:
            if self.kind is not _IRON:
                raise IllegalAction(ErrorCode.CARD_NOT_IN_HAND, "blind_only_in_iron")
            slot = action.slot
            card = self.dealt[seat][slot] if slot is not None and 0 <= slot < 3 else None
            if card is None or card not in hand:
                raise IllegalAction(ErrorCode.CARD_NOT_IN_HAND, "slot_played")
            action = A.PLAY[card]  # the log keeps the card, which is revealed when played
        else:
            card = action.card
            if act is _COVER:
                # can_cover(), inline
                if not (self.rounds and self.options.covered_cards and self.kind is not _IRON):
                    raise IllegalAction(ErrorCode.COVER_NOT_ALLOWED)
                covered = True
            elif act is not _PLAY:
                raise IllegalAction(ErrorCode.NOT_YOUR_TURN, "unknown_action", act=str(act))
            if card is None or card not in hand:
                raise IllegalAction(ErrorCode.CARD_NOT_IN_HAND)
        self._lay(seat, action, hand, card, covered)
        if self.flor_left:
            self._sing_flors()

    def _lay(
        self, seat: int, action: Action, hand: tuple[Card, ...], card: Card, covered: bool
    ) -> None:
        """Put a checked card on the table (open or covered) and pass the turn, or close
        the round when it is the last card of it."""
        entry = (seat, action)
        self.log.append(entry)
        self.hand_log.append(entry)
        # the hand less the card, unrolled: slices around ``hand.index`` cost three times
        # as much (every card laid in every play-out)
        n = len(hand)
        if n == 3:
            a, b, c = hand
            self.hands[seat] = (b, c) if card == a else (a, c) if card == b else (a, b)
        elif n == 2:
            a, b = hand
            self.hands[seat] = (b,) if card == a else (a,)
        elif n == 1:
            self.hands[seat] = ()
        else:
            i = hand.index(card)
            self.hands[seat] = hand[:i] + hand[i + 1 :]
        table = self.table
        if not table:
            self.table = ((seat, card, covered),)  # a round's first card never closes it
            self.turn = (seat + 1) % self.players
            return
        table = (*table, (seat, card, covered))
        if len(table) < self.players:
            self.table = table
            self.turn = (seat + 1) % self.players
        else:
            self._close_round(table)

    def _answer(self, seat: int, action: Action, act: Act) -> None:
        """Accept, run from or raise the pending call (R6)."""
        if seat & 1 == self.call_team:
            raise IllegalAction(ErrorCode.NO_CALL_PENDING, "own_call")
        if self.ran >> seat & 1:
            raise IllegalAction(ErrorCode.NOT_YOUR_TURN, "already_ran")
        call = self.call
        if act is _RAISE and call + 1 >= len(self.ladder):
            raise IllegalAction(ErrorCode.RAISE_NOT_ALLOWED, "ladder_spent")
        entry = (seat, action)
        self.log.append(entry)
        self.hand_log.append(entry)
        if act is _RUN:
            self._run(seat, self.ruleset.run_value(self.ladder, call))
            return
        # accept (a raise accepts first, then calls the next step)
        self.level = call
        self.stake = self.ladder[call]
        self.raise_team = self.call_team
        self.ran = 0
        if act is _RAISE:
            self.call = call + 1
            self.call_team = seat & 1
        else:
            self.call = -1
            self.call_team = -1
            self.phase = _PLAYING

    # ------------------------------------------------------------ points game

    def _call_envido(self, seat: int, action: Action, act: Act) -> None:
        """Open an envido (on the seat's turn, or answering the first truco), or raise the
        pending one while answering it (R13.3)."""
        env = self.env
        call = act.code
        if self.phase is _ENVIDO:
            assert env is not None
            if seat & 1 == env.team:
                raise IllegalAction(ErrorCode.RAISE_NOT_ALLOWED, "called_last")
            if env.declined >> seat & 1:
                raise IllegalAction(ErrorCode.NOT_YOUR_TURN, "already_declined")
            if call not in E.next_calls(env.calls):
                raise IllegalAction(ErrorCode.RAISE_NOT_ALLOWED, "envido_spent")
            self._record(seat, action)
            self.env = env._replace(calls=(*env.calls, call), team=seat & 1, seat=seat, declined=0)
            return
        code = ErrorCode.ENVIDO_NOT_ALLOWED
        if env is NO_ENVIDO:
            raise IllegalAction(code, "variant")
        if self.rounds:
            raise IllegalAction(code, "round_1_only")
        if any(s == seat for s, _, _ in self.table):
            raise IllegalAction(code, "card_played")
        if env is not None:
            raise IllegalAction(code, "one_sequence")
        if self.flor:
            raise IllegalAction(code, "flor")
        if self.level >= 0:
            raise IllegalAction(code, "truco_accepted")
        phase = self.phase
        if phase is _ANSWERING:
            if seat & 1 == self.call_team:
                raise IllegalAction(ErrorCode.CALL_PENDING)
            if self.ran >> seat & 1:
                raise IllegalAction(ErrorCode.NOT_YOUR_TURN, "already_ran")
        elif phase is not _PLAYING or seat != self.turn:
            raise IllegalAction(ErrorCode.NOT_YOUR_TURN)
        self._record(seat, action)
        self.env = EnvidoState((call,), seat & 1, seat, phase, points=self._envido_points())
        self.phase = _ENVIDO

    def _answer_envido(self, seat: int, action: Action, act: Act) -> None:
        """Accept or decline the pending envido; 2×2 declines once both partners did (R6)."""
        env = self.env
        if self.phase is not _ENVIDO or env is None:
            if env is not None and env.state == "withdrawn" and self._flor_just_answered(seat):
                return  # the flor answered it: the holder's team says "flor" for its answer
            raise IllegalAction(ErrorCode.NO_ENVIDO_PENDING)
        if seat & 1 == env.team:
            raise IllegalAction(ErrorCode.NO_ENVIDO_PENDING, "own_call")
        if env.declined >> seat & 1:
            raise IllegalAction(ErrorCode.NOT_YOUR_TURN, "already_declined")
        self._record(seat, action)
        falta = E.falta_value(self.score, self.options.target)
        if act is _QUERO:
            p0, p1 = env.points
            mao = (self.dealer + 1) % self.players
            winner = (0 if p0 > p1 else 1) if p0 != p1 else mao & 1
            self.env = env._replace(
                state="accepted",
                winner=winner,
                worth=E.accepted_worth(env.calls, falta),
                winner_seat=self._best_seat(winner),
            )
        else:
            declined = env.declined | 1 << seat
            team = seat & 1
            if any(not declined >> s & 1 for s in self.team_seats[team]):
                self.env = env._replace(declined=declined)
                return
            self.env = env._replace(
                declined=declined,
                state="declined",
                winner=env.team,
                worth=E.declined_worth(env.calls, falta),
            )
        self.phase = env.resume
        settled = self.env
        assert settled is not None and settled.winner is not None
        self._score_now(settled.winner, settled.worth)

    def _flor_just_answered(self, seat: int) -> bool:
        """Whether the hand's last entry is a flor of ``seat``'s team that withdrew the
        envido this seat's team was answering (R13.4): an answer sent then is the one the
        flor gave, and changes nothing."""
        env = self.env
        if env is None or seat & 1 == env.team or not self.hand_log:
            return False
        last_seat, last = self.hand_log[-1]
        return last.act is _FLOR and last_seat & 1 == seat & 1

    def _envido_points(self) -> tuple[int, int]:
        """Both teams' envido points: each the best of its seats (R13.3)."""
        by_seat = [E.envido_points(cards) for cards in self.dealt]
        return (
            max(by_seat[s] for s in self.team_seats[0]),
            max(by_seat[s] for s in self.team_seats[1]),
        )

    def _best_seat(self, team: int) -> int:
        """The seat holding ``team``'s envido points; partners tied: the first from the mão."""
        mao = (self.dealer + 1) % self.players
        seats = sorted(self.team_seats[team], key=lambda s: (s - mao) % self.players)
        return max(seats, key=lambda s: E.envido_points(self.dealt[s]))

    def _sing_flors(self) -> None:
        """Sing the flor of every seat now called on to act in round 1 (R13.4).

        A flor is announced the first time its holder acts in round 1: when it becomes one
        of the seats to act. Envido is then off for the hand; a pending one is withdrawn.
        """
        while self.flor_left:
            if self.rounds or self.phase >= _HAND_OVER:
                self.flor_left = 0  # round 1 is over: every holder that acted has sung
                return
            for seat in self.to_act():
                if self.flor_left >> seat & 1:
                    break
            else:
                return
            self.sing_flor(seat)

    def sing_flor(self, seat: int) -> None:
        """Sing ``seat``'s flor now, whatever its cards (a robot's world rebuilt from a view
        whose history has the flor, with the drawn hands' own flors off)."""
        self.flor_left &= ~(1 << seat)
        before = self._flor_payout()
        self._record(seat, A.FLOR)
        self.flor = (*self.flor, seat)
        env = self.env
        if env is not None and env.pending:
            self.env = env._replace(state="withdrawn")
            self.phase = env.resume
        after = self._flor_payout()
        self._score_now(0, after[0] - before[0])
        self._score_now(1, after[1] - before[1])

    def _flor_payout(self) -> tuple[int, int]:
        """What the flors sung so far pay each team: 3 each; when both teams sang one, the
        best flor (tie: the mão's team) takes 3 for every flor (R13.4)."""
        flor = self.flor
        if not flor:
            return (0, 0)
        total = E.FLOR_WORTH * len(flor)
        teams = {s & 1 for s in flor}
        if len(teams) == 1:
            team = flor[0] & 1
        else:
            mao_team = (self.dealer + 1) % self.players & 1
            best = max(flor, key=lambda s: (E.flor_points(self.dealt[s]), s & 1 == mao_team))
            team = best & 1
        return (total, 0) if team == 0 else (0, total)

    def _score_now(self, team: int, points: int) -> None:
        """Score envido or flor points at once (R13.3); the match ends if ``team`` reaches
        the target there. ``points`` may be negative: a flor outdone gives its 3 back."""
        if not points:
            return
        p = list(self.points)
        p[team] += points
        self.points = (p[0], p[1])
        s = list(self.score)
        s[team] = min(self.options.target, s[team] + points)
        self.score = (s[0], s[1])
        if s[team] >= self.options.target:
            self.match_winner = team
            self.hand_winner = None
            self.call = -1
            self.call_team = -1
            self.phase = _MATCH_OVER

    def _signal(self, seat: int, action: Action) -> None:
        """Record a signal: it changes no turn, only who signalled this round (R12)."""
        code = ErrorCode.SIGNAL_NOT_ALLOWED
        if action.sinal is None:
            raise IllegalAction(code, "no_sinal")
        if action.sinal not in self.ruleset.sinais:
            raise IllegalAction(code, "not_in_variant")
        if not self.options.sinais_on:
            raise IllegalAction(code, "sinais_off")
        if self.kind == _IRON:
            raise IllegalAction(code, "iron_hand")
        if self.signalled >> seat & 1:
            raise IllegalAction(code, "one_per_round")
        if not self.can_signal(seat):
            raise IllegalAction(code, "not_now")
        self._record(seat, action)
        self.signalled |= 1 << seat

    def _record(self, seat: int, action: Action) -> None:
        entry = (seat, action)
        self.log.append(entry)
        self.hand_log.append(entry)

    def _run(self, seat: int, value: int) -> None:
        """A seat runs; the team gives up once every partner has run (R6, R7)."""
        self.ran = ran = self.ran | 1 << seat
        team = seat & 1
        # the team's seats as a bit mask: seat 0 or 1, and seats 2 or 3 at four
        everyone = (5 if self.players == 4 else 1) << team
        if ran & everyone == everyone:
            self.stake = value
            self._end_hand(1 - team)

    def _close_round(self, table: tuple[Play, ...]) -> None:
        strength = self.strength
        best = -2
        first = -1
        teams = 0
        for seat, card, covered in table:
            s = -1 if covered else strength[card]
            if s > best:
                best, first, teams = s, seat, 1 << (seat & 1)
            elif s == best:
                teams |= 1 << (seat & 1)
        result = None if teams == 3 else first & 1
        self.past = (*self.past, table)
        self.table = ()
        self.signalled = 0
        self.rounds = rounds = (*self.rounds, result)
        # a tied round is led again by the seat that led it (R4 decision)
        if result is not None:
            self.leader = first
        self.turn = self.leader
        # hand_outcome(rounds), inline (every round of every play-out): one round never
        # decides a hand
        n = len(rounds)
        if n == 2:
            r0, r1 = rounds
            if r0 is None:
                if r1 is not None:
                    self._end_hand(r1)
            elif r1 is None or r0 == r1:
                self._end_hand(r0)
        elif n == 3:
            r2 = rounds[2]
            # one round each then a tie, or three ties: the first round decides (or nobody;
            # in gaudério, the mão's team: R13.1)
            winner = rounds[0] if r2 is None else r2
            if winner is None and self.ruleset.all_tied_to_mao:
                winner = (self.dealer + 1) % self.players & 1
            self._end_hand(winner)

    def _end_hand(self, winner: int | None) -> None:
        self.hand_winner = winner
        if self.kind is _NORMAL:
            if self.level < 0 and self.call < 0:
                # nobody called (every call leaves ``call`` or ``level`` at a step): only
                # the hand count moves, as ``fold_bets`` would say without reading the log
                self.bets = _one_more_hand(self.bets)
            else:
                ran_team = None if winner is None or not self.ran else 1 - winner
                self.bets = fold_bets(self.bets, self.hand_log, ran_team, winner)
        self.call = -1
        self.call_team = -1
        if winner is None:
            self.phase = _HAND_OVER
            return
        stake = self.stake
        target = self.options.target
        s0, s1 = self.score
        p0, p1 = self.points  # envido and flor points scored during the hand (R13)
        if winner == 0:
            self.points = (p0 + stake, p1)
            s0 = won = min(target, s0 + stake)
        else:
            self.points = (p0, p1 + stake)
            s1 = won = min(target, s1 + stake)
        self.score = (s0, s1)
        if won >= target:
            self.match_winner = winner
            self.phase = _MATCH_OVER
        else:
            self.phase = _HAND_OVER

    # ---------------------------------------------------------------- snapshots

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready snapshot of the whole state (``from_json`` restores it)."""
        return snapshot.to_dict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Match:
        """Restore a snapshot made by ``to_json``; ``ValueError`` if it is not one."""
        return snapshot.from_dict(data)

    @classmethod
    def replay(
        cls,
        ruleset: Ruleset | str,
        options: TableOptions | None,
        seed: int,
        log: list[tuple[int, Action]],
        *,
        dealer: int = 0,
    ) -> Match:
        """Rebuild a seeded match from its event log (deals happen between hands)."""
        m = cls(ruleset, options, seed, dealer=dealer)
        for seat, action in log:
            if m.phase == _HAND_OVER:
                m.deal()
            if action.act is not _FLOR:  # the engine sings flors itself as the hand goes
                m.apply(seat, action)
        return m

    def view(self, seat: int) -> View:
        """What ``seat`` may see now, and nothing more (see ``engine.view.View``)."""
        return make_view(self, seat)
