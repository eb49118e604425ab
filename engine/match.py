"""The match state machine: deal, rounds, cangou, truco ladder, mão de onze, iron hand, score.

A match is fully described by (ruleset, options, seed, actions): each hand is dealt
by a seeded chance step (``deal``), and every other change is an ``apply`` of one
seat's action. Whether an opponent catches a signal (R12) is the other chance step,
also drawn from the seed (``caught``), so signals replay exactly too. The state is small and flat so that robots can copy it cheaply.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from engine import actions as A
from engine.actions import Act, Action
from engine.cards import Card
from engine.errors import ErrorCode, IllegalAction
from engine.rulesets import Ruleset, TableOptions, get_ruleset
from engine.sinais import DEFAULT_CATCH_PERCENT

if TYPE_CHECKING:
    from engine.view import View

SNAPSHOT_VERSION = 1
_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class Phase(IntEnum):
    """What the match waits for."""

    DECIDE = 0
    """The mão de onze/dez decision (play11/run11)."""
    PLAY = 1
    """A seat's turn to play a card (or call truco first)."""
    ANSWER = 2
    """A truco call waits for the called team's answer."""
    HAND_OVER = 3
    """The hand ended; ``deal()`` starts the next one."""
    MATCH_OVER = 4
    """A team reached the target."""


class HandKind(IntEnum):
    """The kind of hand being played."""

    NORMAL = 0
    SPECIAL = 1
    """Mão de onze (paulista, Trem Bão) or mão de dez (mineiro), R7."""
    IRON = 2
    """Mão de ferro: both teams at the threshold, cards played blind (R8)."""


Play = tuple[int, Card, bool]
"""One card on the table: (seat, card, covered)."""


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a finished hand ended."""

    winner: int | None
    """Winning team, or ``None`` when nobody scored (three ties)."""
    points: tuple[int, int]
    stake: int
    rounds: tuple[int | None, ...]
    ran: bool
    """Whether it ended because a team ran (from a call or the mão de onze/dez)."""
    score: tuple[int, int]
    match_winner: int | None


@dataclass(frozen=True, slots=True)
class TeamBets:
    """What one team did with truco so far in the match: public, everyone at the table saw it.

    Counts are per ladder step (0 truco, 1 seis, 2 nove, 3 doze). Robots read them as the
    team's habits ("a team that runs a lot accepts little").
    """

    hands: int = 0
    """Hands finished in which truco could be called (not the mão de onze/dez or iron)."""
    calls: tuple[int, ...] = (0, 0, 0, 0)
    """Calls the team made at each step (truco on its turn, or a raise)."""
    accepted: tuple[int, ...] = (0, 0, 0, 0)
    """Calls of each step the team accepted (without raising)."""
    raised: tuple[int, ...] = (0, 0, 0, 0)
    """Calls of each step the team answered with a raise."""
    ran: tuple[int, ...] = (0, 0, 0, 0)
    """Calls of each step the team ran from (every partner ran)."""
    shown: tuple[int, ...] = (0, 0, 0, 0)
    """The team's calls of each step that were the hand's last call, accepted and played out
    to a winner: the calls whose cards everybody then saw."""
    shown_won: tuple[int, ...] = (0, 0, 0, 0)
    """Of ``shown``, the hands the team won: a team whose called hands win rarely bluffs."""

    @property
    def faced(self) -> tuple[int, ...]:
        """Calls of each step the team answered, one way or another."""
        return tuple(
            a + r + x for a, r, x in zip(self.accepted, self.raised, self.ran, strict=True)
        )

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (lists of counts)."""
        return {
            "hands": self.hands,
            "calls": list(self.calls),
            "accepted": list(self.accepted),
            "raised": list(self.raised),
            "ran": list(self.ran),
            "shown": list(self.shown),
            "shown_won": list(self.shown_won),
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> TeamBets:
        """The inverse of ``to_json`` (older snapshots have no ``shown`` counts: zeros)."""
        zeros = [0, 0, 0, 0]
        return TeamBets(
            int(data["hands"]),
            *(
                tuple(int(x) for x in (data.get(k, zeros) if k in _OPTIONAL_COUNTS else data[k]))
                for k in _COUNTS
            ),
        )


_COUNTS = ("calls", "accepted", "raised", "ran", "shown", "shown_won")
_OPTIONAL_COUNTS = ("shown", "shown_won")


NO_BETS = (TeamBets(), TeamBets())


def fold_bets(
    bets: tuple[TeamBets, TeamBets],
    hand_log: list[tuple[int, Action]],
    ran_team: int | None,
    winner: int | None = None,
) -> tuple[TeamBets, TeamBets]:
    """``bets`` after one finished normal hand.

    ``ran_team``: the team that ran, if it ended so; ``winner``: the team that won it.
    """
    count = [
        [
            list(b.calls),
            list(b.accepted),
            list(b.raised),
            list(b.ran),
            list(b.shown),
            list(b.shown_won),
        ]
        for b in bets
    ]
    step = -1
    settled = True
    caller = -1
    for seat, a in hand_log:
        team = seat & 1
        if a.act == Act.TRUCO:
            step += 1
            count[team][0][step] += 1
            settled = False
            caller = team
        elif a.act == Act.RAISE:
            count[team][2][step] += 1
            step += 1
            count[team][0][step] += 1
            caller = team
        elif a.act == Act.ACCEPT:
            count[team][1][step] += 1
            settled = True
    if not settled and ran_team is not None and step >= 0:
        count[ran_team][3][step] += 1
    if settled and step >= 0 and ran_team is None and winner is not None:
        count[caller][4][step] += 1
        count[caller][5][step] += int(winner == caller)
    return (
        TeamBets(bets[0].hands + 1, *(tuple(c) for c in count[0])),
        TeamBets(bets[1].hands + 1, *(tuple(c) for c in count[1])),
    )


def _mix(x: int) -> int:
    """The splitmix64 output function."""
    z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def deal_cards(seed: int, hand_number: int, deck: tuple[Card, ...], count: int) -> list[Card]:
    """The first ``count`` cards of ``deck`` shuffled by (seed, hand_number), splitmix64."""
    x = (seed * _GOLDEN + hand_number * 0xD1B54A32D192ED03 + 1) & _MASK
    cards = list(deck)
    n = len(cards)
    for i in range(count):
        x = (x + _GOLDEN) & _MASK
        j = i + _mix(x) % (n - i)
        cards[i], cards[j] = cards[j], cards[i]
    return cards[:count]


def catch_roll(seed: int, hand_number: int, index: int, seat: int) -> int:
    """A number 0-99 drawn from the seed for ``seat`` watching the hand's action ``index``.

    The seat catches that signal when the roll is below the table's ``catch_percent``.
    The stream is apart from the deal's (another odd multiplier and offset).
    """
    x = (seed * 0xA0761D6478BD642F + hand_number * 0xE7037ED1A0B428DB) & _MASK
    x = (x + (index * 4 + seat + 1) * _GOLDEN) & _MASK
    return _mix(x) % 100


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


class Match:
    """One truco match. Query with ``to_act``/``legal_actions``; change with ``apply``/``deal``."""

    __slots__ = (
        "bets",
        "call",
        "call_team",
        "dealer",
        "dealt",
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
    signalled: int
    """Bit mask of the seats that signalled in this round (R12: one each per round)."""

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
        self.team_seats = (tuple(range(0, opts.players, 2)), tuple(range(1, opts.players, 2)))
        self.seed = seed
        self.hand_number = 0
        self.dealer = dealer % opts.players
        self.score = (min(score[0], opts.target), min(score[1], opts.target))
        self.match_winner = None
        self.log = []
        self.bets = NO_BETS
        self._clear_hand()
        self.phase = Phase.HAND_OVER
        if deal:
            self._deal_from_seed()

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
        self.kind = HandKind.NORMAL
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

    def _deal_from_seed(self) -> None:
        n = self.players
        need = 3 * n + (1 if self.ruleset.uses_vira else 0)
        cards = deal_cards(self.seed, self.hand_number, self.ruleset.deck, need)
        first = (self.dealer + 1) % n
        # one card at a time to each seat, starting after the dealer
        hands: list[list[Card]] = [[] for _ in range(n)]
        for i in range(3 * n):
            hands[(first + i) % n].append(cards[i])
        vira = cards[3 * n] if self.ruleset.uses_vira else None
        self._start_hand(tuple(tuple(h) for h in hands), vira)

    def _start_hand(self, dealt: tuple[tuple[Card, ...], ...], vira: Card | None) -> None:
        self._clear_hand()
        self.dealt = dealt
        self.hands = list(dealt)
        self.vira = vira
        self.strength = self.ruleset.strength_table(vira)
        self.leader = self.turn = (self.dealer + 1) % self.players
        threshold = self.ruleset.threshold(self.options.target)
        at0 = self.score[0] >= threshold
        at1 = self.score[1] >= threshold
        if at0 and at1:
            self.kind = HandKind.IRON
            self.phase = Phase.PLAY
        elif at0 or at1:
            self.kind = HandKind.SPECIAL
            self.phase = Phase.DECIDE
            self.call_team = 0 if at0 else 1  # the deciding team
        else:
            self.phase = Phase.PLAY

    def deal(self) -> None:
        """Chance step: rotate the dealer and deal the next hand from the seed."""
        if self.phase != Phase.HAND_OVER:
            raise IllegalAction(ErrorCode.HAND_OVER, "hand_not_over")
        self.hand_number += 1
        self.dealer = (self.dealer + 1) % self.players
        self._deal_from_seed()

    def rematch(self) -> Match:
        """A new match with the same table, a new seed and the next dealer (revanche)."""
        return Match(self.ruleset, self.options, self.seed + 1, dealer=self.dealer + 1)

    def copy(self) -> Match:
        """An independent copy (cheap: every field but the lists is immutable)."""
        new = object.__new__(Match)
        for name in Match.__slots__:
            object.__setattr__(new, name, getattr(self, name))
        new.hands = self.hands.copy()
        new.log = self.log.copy()
        new.hand_log = self.hand_log.copy()
        return new

    # ------------------------------------------------------------------ queries

    def team_of(self, seat: int) -> int:
        """The team of a seat (R3)."""
        return seat & 1

    def is_terminal(self) -> bool:
        """Whether the match is over."""
        return self.phase == Phase.MATCH_OVER

    @property
    def round_index(self) -> int:
        """The round being played (0, 1 or 2)."""
        return len(self.rounds)

    @property
    def threshold(self) -> int:
        """Score from which the mão de onze/dez (and the iron hand) apply."""
        return self.ruleset.threshold(self.options.target)

    @property
    def deciding_team(self) -> int | None:
        """The team deciding the mão de onze/dez, while it decides."""
        return self.call_team if self.phase == Phase.DECIDE else None

    @property
    def pending_value(self) -> int | None:
        """The ladder value of the call awaiting an answer, if any."""
        return self.ladder[self.call] if self.phase == Phase.ANSWER else None

    def manilhas(self) -> tuple[Card, ...]:
        """This hand's manilhas, strongest first."""
        return self.ruleset.manilhas_for(self.vira)

    def hand_result(self) -> HandResult | None:
        """The result of the hand that just ended, or ``None`` while it is being played."""
        if self.phase < Phase.HAND_OVER:
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
        if phase == Phase.PLAY:
            return (self.turn,)
        if phase == Phase.ANSWER or phase == Phase.DECIDE:
            team = 1 - self.call_team if phase == Phase.ANSWER else self.call_team
            ran = self.ran
            return tuple(s for s in self.team_seats[team] if not ran >> s & 1)
        return ()

    def can_truco(self, seat: int) -> bool:
        """Whether ``seat`` may call truco (or the next step) now."""
        return (
            self.phase == Phase.PLAY
            and seat == self.turn
            and self.kind == HandKind.NORMAL
            and self.level + 1 < len(self.ladder)
            and self.raise_team != seat & 1
        )

    def can_signal(self, seat: int) -> bool:
        """Whether ``seat`` may send its partner a signal now (R12).

        At any moment of the hand while it still holds a card, on or off its turn (the
        signs go round right after the deal); once per round; only at 2×2 tables with
        sinais on, and never in the iron hand.
        """
        if not self.options.sinais_on or self.kind == HandKind.IRON:
            return False
        if not 0 <= seat < self.players or self.signalled >> seat & 1:
            return False
        if self.phase not in (Phase.PLAY, Phase.ANSWER, Phase.DECIDE):
            return False
        return bool(self.hands[seat])

    def legal_signals(self, seat: int) -> list[Action]:
        """The signals ``seat`` may send now (they are not in ``legal_actions``: no turn)."""
        return list(A.SIGNAL) if self.can_signal(seat) else []

    def caught(self, index: int, seat: int) -> bool:
        """Whether ``seat`` caught the signal at ``hand_log[index]`` (seeded chance, R12).

        Only opponents of the signaller catch; the partner simply receives it.
        """
        signaller, action = self.hand_log[index]
        if action.act != Act.SIGNAL or (signaller ^ seat) & 1 == 0:
            return False
        roll = catch_roll(self.seed, self.hand_number, index, seat)
        return roll < self.options.catch_percent

    def can_cover(self) -> bool:
        """Whether a card may be played covered in this round (R5)."""
        return bool(self.rounds) and self.options.covered_cards and self.kind != HandKind.IRON

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty when it may not act)."""
        phase = self.phase
        if phase == Phase.PLAY:
            if seat != self.turn:
                return []
            if self.kind == HandKind.IRON:
                hand = self.hands[seat]
                return [A.BLIND[i] for i, c in enumerate(self.dealt[seat]) if c in hand]
            acts = [A.PLAY[c] for c in self.hands[seat]]
            if self.rounds and self.options.covered_cards:
                acts += [A.COVER[c] for c in self.hands[seat]]
            if self.can_truco(seat):
                acts.append(A.TRUCO)
            return acts
        if phase == Phase.ANSWER:
            if seat & 1 == self.call_team or self.ran >> seat & 1:
                return []
            if self.call + 1 < len(self.ladder):
                return [A.ACCEPT, A.RUN, A.RAISE]
            return [A.ACCEPT, A.RUN]
        if phase == Phase.DECIDE:
            if seat & 1 != self.call_team or self.ran >> seat & 1:
                return []
            return [A.PLAY11, A.RUN11]
        return []

    def default_action(self, seat: int) -> Action | None:
        """What a seat does when its time runs out (R10), or ``None`` if it may not act.

        Play: the strongest card, open (in the iron hand, the first card left, since
        nobody may see it). Answering a call: run. Mão de onze/dez: run.
        """
        if seat not in self.to_act():
            return None
        if self.phase == Phase.ANSWER:
            return A.RUN
        if self.phase == Phase.DECIDE:
            return A.RUN11
        if self.kind == HandKind.IRON:
            return self.legal_actions(seat)[0]
        strength = self.strength
        best = max(self.hands[seat], key=lambda c: strength[c])
        return A.PLAY[best]

    # ------------------------------------------------------------------ changes

    def apply(self, seat: int, action: Action) -> None:
        """Apply one seat's action; raise ``IllegalAction`` (state unchanged) if not allowed."""
        act = action.act
        phase = self.phase
        if phase >= Phase.HAND_OVER:
            raise IllegalAction(ErrorCode.HAND_OVER)
        if not 0 <= seat < self.players:
            raise IllegalAction(ErrorCode.NOT_YOUR_TURN, "no_such_seat", seat=seat)
        if act == Act.SIGNAL:
            self._signal(seat, action)
            return
        if phase == Phase.DECIDE:
            if act != Act.PLAY11 and act != Act.RUN11:
                raise IllegalAction(ErrorCode.DECISION_PENDING)
            if seat & 1 != self.call_team or self.ran >> seat & 1:
                raise IllegalAction(ErrorCode.NOT_YOUR_TURN)
            self._record(seat, action)
            if act == Act.PLAY11:
                self.stake = self.ruleset.special_hand_value
                self.ran = 0
                self.call_team = -1
                self.phase = Phase.PLAY
            else:
                self._run(seat, self.ruleset.hand_value)
            return
        if act == Act.PLAY11 or act == Act.RUN11:
            raise IllegalAction(ErrorCode.NO_DECISION_PENDING)
        if phase == Phase.ANSWER:
            if act != Act.ACCEPT and act != Act.RUN and act != Act.RAISE:
                raise IllegalAction(ErrorCode.CALL_PENDING)
            if seat & 1 == self.call_team:
                raise IllegalAction(ErrorCode.NO_CALL_PENDING, "own_call")
            if self.ran >> seat & 1:
                raise IllegalAction(ErrorCode.NOT_YOUR_TURN, "already_ran")
            if act == Act.RAISE and self.call + 1 >= len(self.ladder):
                raise IllegalAction(ErrorCode.RAISE_NOT_ALLOWED, "ladder_spent")
            self._record(seat, action)
            if act == Act.RUN:
                self._run(seat, self.ruleset.run_value(self.ladder, self.call))
                return
            # accept (a raise accepts first, then calls the next step)
            self.level = self.call
            self.stake = self.ladder[self.call]
            self.raise_team = self.call_team
            self.ran = 0
            if act == Act.RAISE:
                self.call += 1
                self.call_team = seat & 1
            else:
                self.call = -1
                self.call_team = -1
                self.phase = Phase.PLAY
            return
        # Phase.PLAY
        if act == Act.ACCEPT or act == Act.RUN or act == Act.RAISE:
            raise IllegalAction(ErrorCode.NO_CALL_PENDING)
        if act == Act.TRUCO:
            if self.kind != HandKind.NORMAL:
                raise IllegalAction(ErrorCode.TRUCO_NOT_ALLOWED)
            if seat != self.turn:
                raise IllegalAction(ErrorCode.NOT_YOUR_TURN)
            if self.level + 1 >= len(self.ladder):
                raise IllegalAction(ErrorCode.RAISE_NOT_ALLOWED, "ladder_spent")
            if self.raise_team == seat & 1:
                raise IllegalAction(ErrorCode.RAISE_NOT_ALLOWED, "called_last")
            self._record(seat, action)
            self.call = self.level + 1
            self.call_team = seat & 1
            self.ran = 0
            self.phase = Phase.ANSWER
            return
        if seat != self.turn:
            raise IllegalAction(ErrorCode.NOT_YOUR_TURN)
        hand = self.hands[seat]
        covered = False
        if act == Act.BLIND:
            if self.kind != HandKind.IRON:
                raise IllegalAction(ErrorCode.CARD_NOT_IN_HAND, "blind_only_in_iron")
            slot = action.slot
            card = self.dealt[seat][slot] if slot is not None and 0 <= slot < 3 else None
            if card is None or card not in hand:
                raise IllegalAction(ErrorCode.CARD_NOT_IN_HAND, "slot_played")
            action = A.PLAY[card]  # the log keeps the card, which is revealed when played
        else:
            card = action.card
            if act == Act.COVER:
                if not self.can_cover():
                    raise IllegalAction(ErrorCode.COVER_NOT_ALLOWED)
                covered = True
            elif act != Act.PLAY:
                raise IllegalAction(ErrorCode.NOT_YOUR_TURN, "unknown_action", act=str(act))
            if card is None or card not in hand:
                raise IllegalAction(ErrorCode.CARD_NOT_IN_HAND)
        self._record(seat, action)
        i = hand.index(card)
        self.hands[seat] = hand[:i] + hand[i + 1 :]
        table = (*self.table, (seat, card, covered))
        if len(table) < self.players:
            self.table = table
            self.turn = (seat + 1) % self.players
        else:
            self._close_round(table)

    def _signal(self, seat: int, action: Action) -> None:
        """Record a signal: it changes no turn, only who signalled this round (R12)."""
        code = ErrorCode.SIGNAL_NOT_ALLOWED
        if action.sinal is None:
            raise IllegalAction(code, "no_sinal")
        if not self.options.sinais_on:
            raise IllegalAction(code, "sinais_off")
        if self.kind == HandKind.IRON:
            raise IllegalAction(code, "iron_hand")
        if self.signalled >> seat & 1:
            raise IllegalAction(code, "one_per_round")
        if not self.can_signal(seat):
            raise IllegalAction(code, "not_now")
        self._record(seat, action)
        self.signalled |= 1 << seat

    def _record(self, seat: int, action: Action) -> None:
        self.log.append((seat, action))
        self.hand_log.append((seat, action))

    def _run(self, seat: int, value: int) -> None:
        """A seat runs; the team gives up once every partner has run (R6, R7)."""
        self.ran |= 1 << seat
        team = seat & 1
        if all(self.ran >> s & 1 for s in self.team_seats[team]):
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
        done, winner = hand_outcome(rounds)
        if done:
            self._end_hand(winner)

    def _end_hand(self, winner: int | None) -> None:
        self.hand_winner = winner
        if self.kind == HandKind.NORMAL:
            ran_team = None if winner is None or not self.ran else 1 - winner
            self.bets = fold_bets(self.bets, self.hand_log, ran_team, winner)
        self.call = -1
        self.call_team = -1
        target = self.options.target
        if winner is None:
            self.points = (0, 0)
        else:
            pts = [0, 0]
            pts[winner] = self.stake
            self.points = (pts[0], pts[1])
            s = list(self.score)
            s[winner] = min(target, s[winner] + self.stake)
            self.score = (s[0], s[1])
            if s[winner] >= target:
                self.match_winner = winner
                self.phase = Phase.MATCH_OVER
                return
        self.phase = Phase.HAND_OVER

    # ---------------------------------------------------------------- snapshots

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready snapshot of the whole state (``from_json`` restores it)."""

        def codes(cards: tuple[Card, ...]) -> list[str]:
            return [c.code for c in cards]

        def plays(table: tuple[Play, ...]) -> list[list[Any]]:
            return [[s, c.code, cov] for s, c, cov in table]

        o = self.options
        return {
            "version": SNAPSHOT_VERSION,
            "variant": self.ruleset.name,
            "options": {
                "players": o.players,
                "target": o.target,
                "covered_cards": o.covered_cards,
                "ladder": list(o.ladder) if o.ladder is not None else None,
                "timer": o.timer,
                "sinais": o.sinais,
                "catch_percent": o.catch_percent,
            },
            "seed": self.seed,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "score": list(self.score),
            "dealt": [codes(h) for h in self.dealt],
            "hands": [codes(h) for h in self.hands],
            "vira": self.vira.code if self.vira is not None else None,
            "kind": self.kind.name.lower(),
            "phase": self.phase.name.lower(),
            "stake": self.stake,
            "level": self.level,
            "raise_team": self.raise_team,
            "call": self.call,
            "call_team": self.call_team,
            "ran": self.ran,
            "turn": self.turn,
            "leader": self.leader,
            "table": plays(self.table),
            "past": [plays(t) for t in self.past],
            "rounds": list(self.rounds),
            "hand_winner": self.hand_winner,
            "points": list(self.points),
            "match_winner": self.match_winner,
            "log": [[s, str(a)] for s, a in self.log],
            "hand_log": [[s, str(a)] for s, a in self.hand_log],
            "bets": [b.to_json() for b in self.bets],
            "signalled": self.signalled,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Match:
        """Restore a snapshot made by ``to_json``; ``ValueError`` if it is not one."""
        try:
            if data.get("version") != SNAPSHOT_VERSION:
                raise ValueError(f"versão de snapshot desconhecida: {data.get('version')!r}")
            o = data["options"]
            options = TableOptions(
                players=o["players"],
                target=o["target"],
                covered_cards=o["covered_cards"],
                ladder=tuple(o["ladder"]) if o["ladder"] is not None else None,
                timer=o["timer"],
                # snapshots from before sinais existed play with the defaults
                sinais=bool(o.get("sinais", True)),
                catch_percent=int(o.get("catch_percent", DEFAULT_CATCH_PERCENT)),
            )
            m = cls(data["variant"], options, data["seed"], deal=False)

            def cards(codes: list[str]) -> tuple[Card, ...]:
                return tuple(Card.parse(c) for c in codes)

            def plays(rows: list[list[Any]]) -> tuple[Play, ...]:
                return tuple((int(s), Card.parse(c), bool(cov)) for s, c, cov in rows)

            m.hand_number = data["hand_number"]
            m.dealer = data["dealer"]
            m.score = (data["score"][0], data["score"][1])
            m.dealt = tuple(cards(h) for h in data["dealt"])
            m.hands = [cards(h) for h in data["hands"]]
            m.vira = Card.parse(data["vira"]) if data["vira"] is not None else None
            m.strength = m.ruleset.strength_table(m.vira) if m.dealt else m.strength
            m.kind = HandKind[data["kind"].upper()]
            m.phase = Phase[data["phase"].upper()]
            for name in ("stake", "level", "raise_team", "call", "call_team", "ran"):
                setattr(m, name, int(data[name]))
            m.turn = data["turn"]
            m.leader = data["leader"]
            m.table = plays(data["table"])
            m.past = tuple(plays(t) for t in data["past"])
            m.rounds = tuple(data["rounds"])
            m.hand_winner = data["hand_winner"]
            m.points = (data["points"][0], data["points"][1])
            m.match_winner = data["match_winner"]
            m.log = [(int(s), Action.parse(a)) for s, a in data["log"]]
            m.hand_log = [(int(s), Action.parse(a)) for s, a in data["hand_log"]]
            bets = data.get("bets")  # older snapshots have none: the habits start afresh
            if bets is not None:
                m.bets = (TeamBets.from_json(bets[0]), TeamBets.from_json(bets[1]))
            m.signalled = int(data.get("signalled", 0))
            return m
        except (KeyError, TypeError, IndexError, AttributeError) as exc:
            raise ValueError(f"snapshot inválido: {exc}") from None

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
            if m.phase == Phase.HAND_OVER:
                m.deal()
            m.apply(seat, action)
        return m

    def view(self, seat: int) -> View:
        """What ``seat`` may see now, and nothing more (see ``engine.view.View``)."""
        from engine.view import make_view  # view.py builds on this module

        return make_view(self, seat)
