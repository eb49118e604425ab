"""Small statistics for the figures the commands print (arena, benchmarks): one definition
of each, shared by the engine's tools, the bot's benchmark and the browser benchmark."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959964
"""The normal quantile of a two-sided 95% interval."""


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    center = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, center - half), min(1.0, center + half))


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0-1) by nearest rank; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]
