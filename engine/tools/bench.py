"""``truco bench``: engine speed on seeded random legal matches (a benchmark, not a test)."""

from __future__ import annotations

import os
import platform
import random
import time
from datetime import date
from typing import Any

from engine.match import Match, Phase
from engine.rulesets import TableOptions


def play_random_match(match: Match, rng: random.Random) -> int:
    """Play ``match`` to the end with uniformly random legal actions; return hands played."""
    hands = 1
    hand_over, match_over = Phase.HAND_OVER, Phase.MATCH_OVER  # an enum lookup costs
    random = rng.random
    while True:
        phase = match.phase
        if phase == hand_over:
            match.deal()
            hands += 1
            continue
        if phase == match_over:
            return hands
        seats = match.to_act()
        seat = seats[0] if len(seats) == 1 else seats[int(random() * len(seats))]
        legal = match.legal_actions(seat)
        match.apply(seat, legal[int(random() * len(legal))])


def measure_matches(players: int, seconds: float, seed: int) -> dict[str, float]:
    """Hands and matches per second for random paulista play at this table size."""
    rng = random.Random(seed)
    options = TableOptions(players=players)
    matches = hands = 0
    start = time.perf_counter()
    cpu = time.process_time()
    elapsed = 0.0
    while elapsed < seconds:
        hands += play_random_match(Match("paulista", options, seed + matches), rng)
        matches += 1
        elapsed = time.perf_counter() - start
    # on a shared machine the wall clock also counts the wait for a processor
    cpu_elapsed = max(1e-9, time.process_time() - cpu)
    return {
        "hands_per_s": round(hands / elapsed),
        "hands_per_cpu_s": round(hands / cpu_elapsed),
        "matches_per_s": round(matches / elapsed, 1),
        "hands_per_match": round(hands / matches, 2),
    }


def _mid_hand(seed: int) -> Match:
    """A 4-player paulista hand after its first move (what the measures below work on)."""
    m = Match("paulista", TableOptions(players=4), seed)
    seat = m.to_act()[0]
    m.apply(seat, m.legal_actions(seat)[0])
    return m


def measure_copy(seed: int, rounds: int = 20000) -> float:
    """Microseconds to copy a mid-hand 4-player state."""
    m = _mid_hand(seed)
    start = time.perf_counter()
    for _ in range(rounds):
        m.copy()
    return (time.perf_counter() - start) / rounds * 1e6


def measure_legal(seed: int, rounds: int = 50000) -> float:
    """Microseconds to list the legal actions of the seat on turn, mid-hand at 4 players."""
    m = _mid_hand(seed)
    seat = m.to_act()[0]
    start = time.perf_counter()
    for _ in range(rounds):
        m.legal_actions(seat)
    return (time.perf_counter() - start) / rounds * 1e6


def measure_view(seed: int, rounds: int = 5000) -> float:
    """Microseconds to build one seat's view of a mid-hand 4-player state (robots read many)."""
    m = _mid_hand(seed)
    start = time.perf_counter()
    for i in range(rounds):
        m.view(i & 3)
    return (time.perf_counter() - start) / rounds * 1e6


def run(seconds: float = 2.0, seed: int = 1) -> dict[str, Any]:
    """All figures, with the date and the machine they were measured on."""
    return {
        "date": date.today().isoformat(),
        "machine": f"{platform.machine()} {platform.processor() or ''} "
        f"{os.cpu_count()} cores, Python {platform.python_version()}".replace("  ", " "),
        "players_2": measure_matches(2, seconds, seed),
        "players_4": measure_matches(4, seconds, seed),
        "state_copy_us": round(measure_copy(seed), 2),
        "legal_actions_us": round(measure_legal(seed), 2),
        "view_us": round(measure_view(seed), 2),
    }
