"""Per-seat views: exactly what one seat may see. Robots and the bot get only these."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from engine import actions as A
from engine.actions import Act, Action
from engine.cards import Card
from engine.rulesets import Ruleset, TableOptions
from engine.sinais import Sinal
from engine.state import HandKind, Phase, TeamBets

if TYPE_CHECKING:  # a view is made from a match; the match module builds views
    from engine.match import Match

SeenPlay = tuple[int, Card | None, bool]
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
        }


def _partner_visible(m: Match, seat: int) -> bool:
    """Whether ``seat`` has seen its partner's cards in this hand (and so still knows them).

    A person remembers what they were shown, so once a seat has seen its partner's hand it
    keeps seeing the cards left in it until the hand ends: from the mão de onze/dez
    decision on (R7) and, in Trem Bão, from the first call its team had to answer (R6).
    """
    if m.players != 4 or m.kind == HandKind.IRON or not m.dealt:
        return False
    team = seat & 1
    if m.kind == HandKind.SPECIAL:
        if m.phase == Phase.DECIDE:
            return team == m.call_team
        # the deciding team spoke first in this hand
        return bool(m.hand_log) and m.hand_log[0][0] & 1 == team
    if m.ruleset.partner_cards_when_answering:
        return any(a.act in (Act.TRUCO, Act.RAISE) and s & 1 != team for s, a in m.hand_log)
    return False


def _seen(seat: int, table: tuple[tuple[int, Card, bool], ...]) -> tuple[SeenPlay, ...]:
    return tuple((s, c if not cov or s == seat else None, cov) for s, c, cov in table)


def _history(m: Match, seat: int) -> tuple[tuple[int, Action], ...]:
    """The hand's actions as ``seat`` saw them (R5 covered cards, R12 signals)."""
    hidden_cover = Action(Act.COVER)
    seen: list[tuple[int, Action]] = []
    for i, (s, a) in enumerate(m.hand_log):
        if s != seat:
            if a.act == Act.COVER:
                a = hidden_cover
            elif a.act == Act.SIGNAL and (s ^ seat) & 1 and not m.caught(i, seat):
                a = A.HIDDEN_SIGNAL
        seen.append((s, a))
    return tuple(seen)


def _call_seat(m: Match) -> int | None:
    """The seat of the pending call: the last truco or raise of the hand (public)."""
    if m.phase != Phase.ANSWER:
        return None
    return next(s for s, a in reversed(m.hand_log) if a.act in (Act.TRUCO, Act.RAISE))


def _decision_values(m: Match) -> tuple[int | None, int | None, int | None]:
    """(accept, run, raise) values of the decision waiting now, as R6 and R7 score them."""
    rs = m.ruleset
    if m.phase == Phase.ANSWER:
        ladder = m.ladder
        raised = ladder[m.call + 1] if m.call + 1 < len(ladder) else None
        return ladder[m.call], rs.run_value(ladder, m.call), raised
    if m.phase == Phase.DECIDE:
        return rs.special_hand_value, rs.hand_value, None
    return None, None, None


def _next_step(m: Match) -> int | None:
    """The ladder step a call would ask for now (see ``View.next_step``)."""
    if m.kind != HandKind.NORMAL or m.phase >= Phase.HAND_OVER:
        return None
    step = m.call + 1 if m.phase == Phase.ANSWER else m.level + 1
    return step if step < len(m.ladder) else None


def make_view(m: Match, seat: int) -> View:
    """The view of ``seat`` on match ``m``."""
    iron = m.kind == HandKind.IRON
    own = m.hands[seat] if m.hands else ()
    history = _history(m, seat)
    partner = (seat + 2) % 4
    deciding = m.phase == Phase.DECIDE
    accept_value, run_value, raise_value = _decision_values(m)
    return View(
        seat=seat,
        ruleset=m.ruleset,
        options=m.options,
        variant=m.ruleset.name,
        players=m.players,
        target=m.options.target,
        covered_cards=m.options.covered_cards,
        ladder=m.ladder,
        hand_number=m.hand_number,
        dealer=m.dealer,
        score=m.score,
        kind=m.kind,
        phase=m.phase,
        vira=m.vira,
        manilhas=m.manilhas() if m.dealt else (),
        hand=() if iron else own,
        blind_slots=tuple(A.BLIND.index(a) for a in m.legal_actions(seat)) if iron and own else (),
        cards_left=tuple(len(h) for h in m.hands),
        partner_hand=m.hands[partner] if _partner_visible(m, seat) else None,
        table=_seen(seat, m.table),
        past=tuple(_seen(seat, t) for t in m.past),
        rounds=m.rounds,
        turn=m.turn,
        leader=m.leader,
        stake=m.stake,
        pending_value=m.pending_value,
        pending_step=m.call if m.phase == Phase.ANSWER else None,
        accepted_step=m.level if m.level >= 0 else None,
        next_step=_next_step(m),
        call_seat=_call_seat(m),
        accept_value=accept_value,
        run_value=run_value,
        raise_value=raise_value,
        call_team=m.call_team if m.phase == Phase.ANSWER or deciding else None,
        raise_team=m.raise_team if m.raise_team >= 0 else None,
        ran=tuple(s for s in range(m.players) if m.ran >> s & 1),
        to_act=m.to_act(),
        legal=tuple(m.legal_actions(seat)),
        history=history,
        bets=m.bets,
        legal_signals=tuple(m.legal_signals(seat)),
        hand_winner=m.hand_winner,
        points=m.points,
        match_winner=m.match_winner,
    )
