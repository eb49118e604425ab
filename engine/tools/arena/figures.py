"""The figures of a run: per-side win rates with their intervals, points, decision times,
and the machine and load they were measured on."""

from __future__ import annotations

import os
import platform
from typing import TYPE_CHECKING, Any

from engine.stats import percentile, wilson

if TYPE_CHECKING:  # the driver builds on these figures
    from engine.tools.arena.driver import Setup, Tally


def summarize(
    setup: Setup, tallies: tuple[Tally, Tally], matches: int, hands: int
) -> list[dict[str, Any]]:
    """Per-side figures: wins, win rate with its Wilson interval, points per hand, times."""
    out = []
    for side, t in zip(setup.sides, tallies, strict=True):
        low, high = wilson(t.wins, matches)
        out.append(
            {
                "side": side.spec,
                "wins": t.wins,
                "win_rate": round(t.wins / matches, 4) if matches else 0.0,
                "wilson95": [round(low, 4), round(high, 4)],
                "points_per_hand": round(t.points / hands, 3) if hands else 0.0,
                "decision_ms": {
                    "p50": round(percentile(t.times_ms, 0.5), 3),
                    "p95": round(percentile(t.times_ms, 0.95), 3),
                    "decisions": len(t.times_ms),
                },
                "decision_cpu_ms": (
                    {
                        "p50": round(percentile(t.cpu_ms, 0.5), 3),
                        "p95": round(percentile(t.cpu_ms, 0.95), 3),
                    }
                    if t.cpu_ms
                    else None
                ),
                "forfeits": t.forfeits,
                "capped": t.capped,
                "bets": t.bets(),
            }
        )
    return out


def machine() -> dict[str, Any]:
    """The machine a run was measured on."""
    return {
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
    }


def load_average() -> list[float] | None:
    """The machine's 1, 5 and 15 minute load averages (``None`` where the system has none)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None
