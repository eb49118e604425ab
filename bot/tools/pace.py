"""A group's figures at a pace: what ``truco bot-bench --pace fast`` prints per group and the
group-call planner's tests assert (``bot.telegram.planner``).

Made from times only (seconds, on whatever clock the caller ran: the wall clock in the
bench, the held one in the tests), so that both count the same way.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from engine.stats import percentile

ANNOUNCED_WITHIN = 2.0
"""Seconds within which a call must reach the group."""


def peak_in_window(times: Sequence[float], window: float = 60.0) -> int:
    """The largest number of ``times`` inside any ``window`` seconds."""
    ordered = sorted(times)
    best, start = 0, 0
    for end, t in enumerate(ordered):
        while t - ordered[start] >= window:
            start += 1
        best = max(best, end - start + 1)
    return best


def longest_silence(times: Sequence[float], start: float, end: float) -> float:
    """The longest stretch of ``[start, end]`` (while the match moved) with no call in it."""
    inside = sorted(t for t in times if start <= t <= end)
    edges = [start, *inside, end]
    return max((b - a for a, b in itertools.pairwise(edges)), default=0.0)


@dataclass(frozen=True)
class GroupFigures:
    """One group's figures of a fast match (``group_figures``)."""

    hands: int
    calls: int
    """Calls to the group Telegram's flood limit counts (sends, edits, deletions)."""
    calls_per_hand: float | None
    peak_per_minute: int
    """The most of those calls in any 60 s (Telegram allows about 20)."""
    announced: int
    """Calls of the match (truco…, envido, flor, mão de onze) made."""
    announced_in_time: float | None
    """Share of them in the group within ``ANNOUNCED_WITHIN`` seconds."""
    announced_p95: float | None
    """Seconds from a call made to the group seeing it, 95th percentile (unsent: infinite)."""
    longest_silence: float
    """Longest time with no call to the group while the match moved."""
    commands: int
    commands_answered: int
    commands_p95: float | None
    """Seconds from a command sent to its answer (in the group or in private), 95th pct."""

    def as_json(self) -> dict[str, Any]:
        """The figures as JSON, rounded."""
        return {k: round(v, 2) if isinstance(v, float) else v for k, v in asdict(self).items()}


def group_figures(
    calls: Sequence[float],
    hands: int,
    said: Sequence[tuple[float, float | None]],
    moved: tuple[float, float],
    commands: Sequence[tuple[float, float | None]] = (),
) -> GroupFigures:
    """A group's figures: ``calls``, when each of its throttled calls was made; ``said``,
    each call of the match as (made, shown in the group or ``None``); ``moved``, from the
    first move to the last; ``commands``, each command as (sent, answered or ``None``)."""
    delays = [float("inf") if shown is None else max(0.0, shown - at) for at, shown in said]
    answers = [a - at for at, a in commands if a is not None]
    return GroupFigures(
        hands=hands,
        calls=len(calls),
        calls_per_hand=len(calls) / hands if hands else None,
        peak_per_minute=peak_in_window(calls),
        announced=len(said),
        announced_in_time=(
            sum(d <= ANNOUNCED_WITHIN for d in delays) / len(delays) if delays else None
        ),
        announced_p95=percentile(delays, 0.95) if delays else None,
        longest_silence=longest_silence(calls, *moved),
        commands=len(commands),
        commands_answered=len(answers),
        commands_p95=percentile(answers, 0.95) if answers else None,
    )
