"""The small value types of a match's state, shared by the match and the seat views.

``engine.match`` changes a state made of these, and ``engine.view`` shows a seat its part
of it: both import this module, neither imports the other at load time.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any, NamedTuple

from engine.cards import Card


def draft_of(cls: type) -> type:
    """A class with the slots of the frozen, slotted dataclass ``cls`` and no frozen guard.

    A frozen dataclass sets each field through ``object.__setattr__``, about ten times a
    plain slot store, and the robots' play-outs build views and readings by the hundred
    for each decision. Their builders fill a draft with plain stores, then give it ``cls``
    as its class, which the same slots in the same order allow; tests compare the result
    with ``cls``'s own constructor field by field.
    """
    return type(f"{cls.__name__}Draft", (), {"__slots__": vars(cls)["__slots__"]})


class Phase(IntEnum):
    """What the match waits for."""

    DECIDE = 0
    """The mão de onze/dez decision (play11/run11)."""
    PLAY = 1
    """A seat's turn to play a card (or call truco first)."""
    ANSWER = 2
    """A truco call waits for the called team's answer."""
    ENVIDO = 3
    """An envido call waits for the called team's answer (gaudério, R13.3); a truco called
    before it waits underneath, and is answered once the envido is settled."""
    HAND_OVER = 4
    """The hand ended; ``deal()`` starts the next one."""
    MATCH_OVER = 5
    """A team reached the target (at the end of a hand, or by envido or flor)."""


class HandKind(IntEnum):
    """The kind of hand being played."""

    NORMAL = 0
    SPECIAL = 1
    """Mão de onze (paulista, Trem Bão) or mão de dez (mineiro), R7."""
    IRON = 2
    """Mão de ferro: both teams at the threshold, cards played blind (R8)."""


class EnvidoState(NamedTuple):
    """The hand's envido sequence (R13.3): the calls so far and how it ended.

    Immutable, replaced at each envido act (a hand has one sequence at most), so a copy of
    the match shares it.
    """

    calls: tuple[str, ...]
    """The calls in order, by act code: ``envido``, ``real-envido``, ``falta-envido``."""
    team: int
    """The team of the last call (the other team answers it)."""
    seat: int
    """The seat of the last call."""
    resume: Phase
    """What the hand waited for before the first call (a seat's turn, or a truco's answer)."""
    declined: int = 0
    """Bit mask of the answering seats that declined the last call (2×2: R6's rule)."""
    state: str = "pending"
    """``pending``, ``accepted``, ``declined`` or ``withdrawn`` (a flor was sung, R13.4)."""
    winner: int | None = None
    """The team that scored it (accepted: the showdown's; declined: the last caller's)."""
    worth: int = 0
    """What it paid (0 while pending or withdrawn)."""
    winner_seat: int | None = None
    """Accepted: the seat holding the winning team's points (told to everybody at once)."""
    points: tuple[int, int] = (0, 0)
    """Both teams' envido points, fixed at the deal (a team's: the best of its seats)."""

    @property
    def pending(self) -> bool:
        """Whether the last call waits for an answer."""
        return self.state == "pending"


NO_ENVIDO = EnvidoState((), -1, -1, Phase.PLAY, state="off")
"""The envido of a hand in a variant without envido (the match keeps it, never ``None``,
so that the commonest check, "may envido be called?", is one identity test)."""


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


class TeamBets(NamedTuple):
    """What one team did with truco so far in the match: public, everyone at the table saw it.

    Counts are per ladder step (0 truco, 1 seis, 2 nove, 3 doze). Robots read them as the
    team's habits ("a team that runs a lot accepts little"). A named tuple, not a frozen
    dataclass: every finished hand makes two, and a tuple is made several times faster.
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
