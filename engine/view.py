"""Per-seat views: exactly what one seat may see. Robots and the bot get only these."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, cast

from engine import actions as A
from engine import envido as E
from engine.actions import Act, Action
from engine.cards import Card
from engine.rulesets import Ruleset, TableOptions
from engine.sinais import Sinal
from engine.state import NO_ENVIDO, EnvidoState, HandKind, Phase, TeamBets, draft_of

if TYPE_CHECKING:  # a view is made from a match; the match module builds views
    from engine.match import Match

SeenPlay = tuple[int, Card | None, bool]


@dataclass(frozen=True, slots=True)
class EnvidoSeen:
    """The hand's envido as every seat sees it (R13.3): the calls and answers are public;
    of the points, only the winning team's, and only once accepted."""

    calls: tuple[str, ...]
    """The calls in order: ``envido``, ``real-envido``, ``falta-envido``."""
    seat: int
    """The seat of the last call."""
    team: int
    """The team of the last call (the other team answers it)."""
    state: str
    """``pending``, ``accepted``, ``declined`` or ``withdrawn`` (a flor was sung)."""
    declined: tuple[int, ...]
    """Seats that declined the pending call (2×2: their partner still answers)."""
    accept_value: int
    """What the sequence is worth if accepted now (a falta counts the score now)."""
    decline_value: int
    """What the last caller's team scores if it is declined now."""
    raises: tuple[str, ...]
    """The calls that may raise the pending one (empty once settled)."""
    winner: int | None
    """The team that scored it; ``None`` while pending or withdrawn."""
    worth: int
    """What it paid (0 while pending or withdrawn)."""
    winner_seat: int | None
    """Accepted: the seat holding the winning team's points, told to everybody at once."""
    winner_points: int | None
    """Accepted: the winning team's points (the losing team's are never shown)."""
    proof: tuple[Card, ...] | None
    """Accepted, once the hand is over: the winning seat's cards that make its points."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (card codes)."""
        return {
            "calls": list(self.calls),
            "seat": self.seat,
            "team": self.team,
            "state": self.state,
            "declined": list(self.declined),
            "accept_value": self.accept_value,
            "decline_value": self.decline_value,
            "raises": list(self.raises),
            "winner": self.winner,
            "worth": self.worth,
            "winner_seat": self.winner_seat,
            "winner_points": self.winner_points,
            "proof": [c.code for c in self.proof] if self.proof is not None else None,
        }


"""A card on the table as a seat sees it: (seat, card or None when covered, covered)."""


@dataclass(frozen=True, slots=True)
class View:
    """One seat's observation of a match: every fact its seat may know, nothing more.

    Consumers (robots, bot, terminal, site) read only views, so every fact they need
    about the table, the ladder and the pending decision is a field here.
    """

    seat: int
    ruleset: Ruleset
    """The variant's rules (the same object ``get_ruleset(variant)`` gives)."""
    options: TableOptions
    """The table's options, validated (``players``, ``target``... repeat them)."""
    variant: str
    players: int
    target: int
    covered_cards: bool
    ladder: tuple[int, ...]
    hand_number: int
    dealer: int
    score: tuple[int, int]
    kind: HandKind
    phase: Phase
    vira: Card | None
    manilhas: tuple[Card, ...]
    hand: tuple[Card, ...]
    """Own cards left; empty in the iron hand, where nobody sees their own cards."""
    blind_slots: tuple[int, ...]
    """Iron hand: positions (0-2) not played yet."""
    cards_left: tuple[int, ...]
    """How many cards each seat still holds."""
    partner_hand: tuple[Card, ...] | None
    """The partner's cards left, once this seat has been shown them in this hand (mão de
    onze/dez decision, Trem Bão answers); ``None`` otherwise."""
    table: tuple[SeenPlay, ...]
    past: tuple[tuple[SeenPlay, ...], ...]
    rounds: tuple[int | None, ...]
    turn: int
    leader: int
    stake: int
    pending_value: int | None
    """The value of the truco call awaiting an answer (what accepting makes the hand worth)."""
    pending_step: int | None
    """The ladder step of the call awaiting an answer: 0 truco, 1 seis, 2 nove, 3 doze
    (mineiro: its own ladder, same steps); ``None`` when no call waits."""
    accepted_step: int | None
    """The ladder step accepted last in this hand; ``None`` while no call was accepted."""
    next_step: int | None
    """The ladder step the next call would ask for (truco on a turn, or a raise while
    answering), whether or not this seat may make it now (``legal`` says that);
    ``None`` when the ladder is spent or the hand has no truco (mão de onze/dez, iron)."""
    call_seat: int | None
    """The seat that made the pending call (truco or raise); ``None`` otherwise."""
    call_team: int | None
    """The team that made the pending call (or is deciding the mão de onze)."""
    accept_value: int | None
    """What the hand is worth if the pending call is accepted or the mão de onze/dez is
    played; ``None`` when nothing waits for an answer."""
    run_value: int | None
    """Points the other team scores if the answering (or deciding) team runs."""
    raise_value: int | None
    """What the hand would be worth if the pending call is raised and that raise is
    accepted; ``None`` when no raise is possible (after doze, or no call pending)."""
    raise_team: int | None
    """The team whose call was accepted last: it may not call the next step."""
    ran: tuple[int, ...]
    """Seats that already ran from the pending call or decision (2×2)."""
    to_act: tuple[int, ...]
    legal: tuple[Action, ...]
    history: tuple[tuple[int, Action], ...]
    """This hand's actions; another seat's covered card shows as ``cover`` with no card,
    and a signal this seat neither received nor caught as ``signal`` with no sinal."""
    bets: tuple[TeamBets, TeamBets]
    """What each team did with truco in the match's earlier hands (calls, accepts, raises,
    runs per ladder step): public, and how robots learn a table's habits."""
    legal_signals: tuple[Action, ...]
    """The signals this seat may send now (R12); sending one passes no turn."""
    hand_winner: int | None
    points: tuple[int, int]
    match_winner: int | None
    envido: EnvidoSeen | None
    """The hand's envido once one was called (gaudério, R13.3); ``None`` before, and
    always in the other variants."""
    envido_points: int | None
    """This seat's own envido points (from its three dealt cards); ``None`` outside
    gaudério."""
    flor: tuple[int, ...]
    """Seats whose flor the engine sang in this hand, in order (R13.4): public at once."""
    flor_cards: tuple[tuple[int, tuple[Card, ...]], ...]
    """The sung flors' cards as (seat, cards), shown once the hand is over (R13.4)."""

    @property
    def team(self) -> int:
        """This seat's team."""
        return self.seat & 1

    @property
    def partner(self) -> int | None:
        """The partner's seat in 2×2."""
        return (self.seat + 2) % 4 if self.players == 4 else None

    @property
    def signals(self) -> tuple[tuple[int, Sinal], ...]:
        """Signals of other seats this seat knows in this hand: its partner's, and the
        opponents' it caught, as (seat, sinal), oldest first."""
        return tuple(
            (s, a.sinal)
            for s, a in self.history
            if a.act == Act.SIGNAL and a.sinal is not None and s != self.seat
        )

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form with card codes and action strings (the arena protocol)."""

        def plays(t: tuple[SeenPlay, ...]) -> list[list[Any]]:
            return [[s, c.code if c is not None else None, cov] for s, c, cov in t]

        o = self.options
        return {
            "seat": self.seat,
            "variant": self.variant,
            "options": {
                **asdict(o),
                "ladder": list(o.ladder) if o.ladder is not None else None,
            },
            "players": self.players,
            "target": self.target,
            "covered_cards": self.covered_cards,
            "ladder": list(self.ladder),
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "score": list(self.score),
            "kind": self.kind.name.lower(),
            "phase": self.phase.name.lower(),
            "vira": self.vira.code if self.vira is not None else None,
            "manilhas": [c.code for c in self.manilhas],
            "hand": [c.code for c in self.hand],
            "blind_slots": list(self.blind_slots),
            "cards_left": list(self.cards_left),
            "partner_hand": (
                [c.code for c in self.partner_hand] if self.partner_hand is not None else None
            ),
            "table": plays(self.table),
            "past": [plays(t) for t in self.past],
            "rounds": list(self.rounds),
            "turn": self.turn,
            "leader": self.leader,
            "stake": self.stake,
            "pending_value": self.pending_value,
            "pending_step": self.pending_step,
            "accepted_step": self.accepted_step,
            "next_step": self.next_step,
            "call_seat": self.call_seat,
            "call_team": self.call_team,
            "accept_value": self.accept_value,
            "run_value": self.run_value,
            "raise_value": self.raise_value,
            "raise_team": self.raise_team,
            "ran": list(self.ran),
            "to_act": list(self.to_act),
            "legal": [str(a) for a in self.legal],
            "history": [[s, str(a)] for s, a in self.history],
            "bets": [b.to_json() for b in self.bets],
            "legal_signals": [str(a) for a in self.legal_signals],
            "hand_winner": self.hand_winner,
            "points": list(self.points),
            "match_winner": self.match_winner,
            "envido": self.envido.to_json() if self.envido is not None else None,
            "envido_points": self.envido_points,
            "flor": list(self.flor),
            "flor_cards": [[s, [c.code for c in cards]] for s, cards in self.flor_cards],
        }


# The members as module names: an enum member looked up on its class costs several times
# a global's lookup (EnumType's ``__getattr__`` hook), and the robots' play-outs build
# hundreds of views a decision.
_DECIDE, _PLAYING, _ANSWERING, _ENVIDO, _HAND_OVER, _MATCH_OVER = Phase
_NORMAL, _SPECIAL, _IRON = HandKind
_COVER = Act.COVER
_SIGNAL = Act.SIGNAL
_TRUCO = Act.TRUCO
_RAISE = Act.RAISE
_HIDDEN_COVER = Action(Act.COVER)
"""Another seat's covered card, as this seat sees it in the history."""
_NO_SIGNALS: tuple[Action, ...] = ()
_SIGNALS: dict[tuple[Sinal, ...], tuple[Action, ...]] = {}


def _signals_of(rs: Ruleset) -> tuple[Action, ...]:
    """The signal actions of a variant's list (R12, R13.5), made once per list."""
    found = _SIGNALS.get(rs.sinais)
    if found is None:
        found = _SIGNALS[rs.sinais] = tuple(A.SIGNAL[s] for s in rs.sinais)
    return found


def _partner_visible(m: Match, seat: int) -> bool:
    """Whether ``seat`` has seen its partner's cards in this hand (and so still knows them).

    A person remembers what they were shown, so once a seat has seen its partner's hand it
    keeps seeing the cards left in it until the hand ends: from the mão de onze/dez
    decision on (R7) and, in Trem Bão, from the first call its team had to answer (R6).
    """
    kind = m.kind
    if m.players != 4 or kind is _IRON or not m.dealt:
        return False
    team = seat & 1
    if kind is _SPECIAL:
        if m.phase is _DECIDE:
            return team == m.call_team
        # the deciding team spoke first in this hand
        return bool(m.hand_log) and m.hand_log[0][0] & 1 == team
    if m.ruleset.partner_cards_when_answering:
        for s, a in m.hand_log:
            if s & 1 != team and (a.act is _TRUCO or a.act is _RAISE):
                return True
    return False


def _seen(seat: int, table: tuple[tuple[int, Card, bool], ...]) -> tuple[SeenPlay, ...]:
    return tuple((s, c if not cov or s == seat else None, cov) for s, c, cov in table)


def _history(m: Match, seat: int) -> tuple[tuple[int, Action], ...]:
    """The hand's actions as ``seat`` saw them (R5 covered cards, R12 signals)."""
    seen: list[tuple[int, Action]] = []
    for i, (s, a) in enumerate(m.hand_log):
        if s != seat:
            if a.act is _COVER:
                a = _HIDDEN_COVER
            elif a.act is _SIGNAL and (s ^ seat) & 1 and not m.caught(i, seat):
                a = A.HIDDEN_SIGNAL
        seen.append((s, a))
    return tuple(seen)


def _call_seat(m: Match) -> int | None:
    """The seat of the pending call: the last truco or raise of the hand (public)."""
    if m.phase is not _ANSWERING:
        return None
    for s, a in reversed(m.hand_log):
        if a.act is _TRUCO or a.act is _RAISE:
            return s
    raise AssertionError("a call waits without a truco or raise in the hand")


def _next_step(m: Match) -> int | None:
    """The ladder step a call would ask for now (see ``View.next_step``)."""
    phase = m.phase
    if m.kind is not _NORMAL or phase >= _HAND_OVER:
        return None
    step = m.call + 1 if phase is _ANSWERING else m.level + 1
    return step if step < len(m.ladder) else None


_DRAFT = draft_of(View)
"""``make_view`` fills one, then makes it a ``View`` (see ``draft_of``)."""
_new = object.__new__


def _points_game(v: Any, m: Match, env: EnvidoState | None, seat: int) -> None:
    """The gaudério fields of a view: what each seat may know of envido and flor (R13.3,
    R13.4): the calls at once, the winning team's points and seat at once, the proving
    cards when the hand ends, never the losing team's points."""
    over = m.phase >= _HAND_OVER
    dealt = m.dealt
    v.envido_points = E.envido_points(dealt[seat]) if dealt else None
    v.flor = m.flor
    v.flor_cards = tuple((s, dealt[s]) for s in m.flor) if over else ()
    if env is None or not env.calls:
        v.envido = None
        return
    falta = E.falta_value(m.score, m.options.target)
    accepted = env.state == "accepted"
    best = env.winner_seat
    v.envido = EnvidoSeen(
        calls=env.calls,
        seat=env.seat,
        team=env.team,
        state=env.state,
        declined=tuple(s for s in range(m.players) if env.declined >> s & 1),
        accept_value=E.accepted_worth(env.calls, falta),
        decline_value=E.declined_worth(env.calls, falta),
        raises=E.next_calls(env.calls) if env.state == "pending" else (),
        winner=env.winner,
        worth=env.worth,
        winner_seat=best if accepted else None,
        winner_points=env.points[env.winner] if accepted and env.winner is not None else None,
        proof=E.envido_cards(dealt[best]) if accepted and over and best is not None else None,
    )


def make_view(m: Match, seat: int) -> View:
    """The view of ``seat`` on match ``m``."""
    rs = m.ruleset
    options = m.options
    kind = m.kind
    phase = m.phase
    hands = m.hands
    iron = kind is _IRON
    own = hands[seat] if hands else ()
    answering = phase is _ANSWERING
    table: tuple[SeenPlay, ...] = m.table
    past: tuple[tuple[SeenPlay, ...], ...] = m.past
    log = m.hand_log
    for s, a in log:
        if s != seat and (a.act is _COVER or a.act is _SIGNAL):
            history = _history(m, seat)
            if any(a.act is _COVER for s, a in log if s != seat):
                # another seat's covered card shows without its face (R5)
                table = _seen(seat, m.table)
                past = tuple(_seen(seat, t) for t in m.past)
            break
    else:
        history = tuple(log)  # nothing in this hand is hidden from this seat (most views)
    v: Any = _new(_DRAFT)
    v.seat = seat
    v.ruleset = rs
    v.options = options
    v.variant = rs.name
    v.players = m.players
    v.target = options.target
    v.covered_cards = options.covered_cards
    v.ladder = ladder = m.ladder
    v.hand_number = m.hand_number
    v.dealer = m.dealer
    v.score = m.score
    v.kind = kind
    v.phase = phase
    v.vira = m.vira
    v.manilhas = m.manilhas() if m.dealt else ()
    v.hand = () if iron else own
    v.blind_slots = tuple(A.BLIND.index(a) for a in m.legal_actions(seat)) if iron and own else ()
    v.cards_left = tuple(map(len, hands))
    v.partner_hand = hands[(seat + 2) % 4] if _partner_visible(m, seat) else None
    v.table = table
    v.past = past
    v.rounds = m.rounds
    v.turn = m.turn
    v.leader = m.leader
    v.stake = m.stake
    call = m.call
    if answering:
        v.pending_value = v.accept_value = ladder[call]
        v.pending_step = call
        v.run_value = rs.run_value(ladder, call)
        v.raise_value = ladder[call + 1] if call + 1 < len(ladder) else None
    else:
        v.pending_value = v.pending_step = v.raise_value = None
        if phase is _DECIDE:
            v.accept_value = rs.special_hand_value
            v.run_value = rs.hand_value
        else:
            v.accept_value = v.run_value = None
    v.accepted_step = m.level if m.level >= 0 else None
    v.next_step = _next_step(m)
    v.call_seat = _call_seat(m)
    v.call_team = m.call_team if answering or phase is _DECIDE else None
    v.raise_team = m.raise_team if m.raise_team >= 0 else None
    ran = m.ran
    v.ran = tuple(s for s in range(m.players) if ran >> s & 1) if ran else ()
    v.to_act = m.to_act()
    v.legal = tuple(m.legal_actions(seat))
    v.history = history
    v.bets = m.bets
    v.legal_signals = _signals_of(rs) if m.can_signal(seat) else _NO_SIGNALS
    v.hand_winner = m.hand_winner
    v.points = m.points
    v.match_winner = m.match_winner
    env = m.env
    if env is NO_ENVIDO:  # the other variants: no points game
        v.envido = v.envido_points = None
        v.flor = v.flor_cards = ()
    else:
        _points_game(v, m, env, seat)
    v.__class__ = View
    return cast(View, v)
