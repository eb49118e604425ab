"""``truco bench``: engine speed on seeded random legal matches (a benchmark, not a test)."""

from __future__ import annotations

import os
import platform
import random
import time
from datetime import date
from typing import Any

from engine.match import Match, Phase
from engine.rulesets import TableOptions, get_ruleset


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


def measure_matches(
    players: int, seconds: float, seed: int, variant: str = "paulista"
) -> dict[str, float]:
    """Hands and matches per second for random play of ``variant`` at this table size (the
    variant's own target: gaudério plays to 24 or 18, the others to 12)."""
    rng = random.Random(seed)
    rs = get_ruleset(variant)
    options = TableOptions(players=players, target=rs.default_target_for(players))
    matches = hands = 0
    start = time.perf_counter()
    cpu = time.process_time()
    elapsed = 0.0
    while elapsed < seconds:
        hands += play_random_match(Match(rs, options, seed + matches), rng)
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


def points_game_shares(hands: int, seed: int = 1, level: str = "medio") -> dict[str, Any]:
    """Over ``hands`` gaudério hands played by robots of ``level`` (half 1×1, half 2×2):
    the share of hands in which an envido was called, and of seat deals holding a flor
    (R13.4: 4 × C(10, 3) / C(40, 3) ≈ 4.9%) and of hands in which one was sung."""
    from engine import envido as E
    from engine.robots import get_robot
    from engine.turns import robot_turn

    rs = get_ruleset("gauderio")
    counts = {"hands": 0, "envido": 0, "accepted": 0, "flor_hands": 0, "deals": 0, "flor_deals": 0}
    for players in (2, 4):
        names = [level] * players
        robots = [get_robot(level, seed=seed + s, playouts=48) for s in range(players)]
        match_seed = seed
        played = 0
        while played < hands // 2:
            m = Match(
                rs, TableOptions(players=players, target=rs.default_target_for(players)), match_seed
            )
            match_seed += 1
            while played < hands // 2:
                counts["deals"] += players
                counts["flor_deals"] += sum(E.has_flor(h) for h in m.dealt)
                while m.phase < Phase.HAND_OVER:
                    turn = robot_turn(m, names)
                    if turn is None:
                        break
                    m.apply(turn.seat, turn.decide(robots[turn.seat]))
                played += 1
                counts["hands"] += 1
                env = m.env
                if env is not None and env.calls:
                    counts["envido"] += 1
                    counts["accepted"] += env.state == "accepted"
                counts["flor_hands"] += bool(m.flor)
                if m.phase != Phase.HAND_OVER:
                    break
                m.deal()
    n = counts["hands"]
    return {
        "level": level,
        **counts,
        "envido_share": round(counts["envido"] / n, 3),
        "envido_accepted_share": round(counts["accepted"] / max(1, counts["envido"]), 3),
        "flor_hand_share": round(counts["flor_hands"] / n, 3),
        "flor_deal_share": round(counts["flor_deals"] / counts["deals"], 4),
    }


def run(seconds: float = 2.0, seed: int = 1) -> dict[str, Any]:
    """All figures, with the date and the machine they were measured on."""
    return {
        "date": date.today().isoformat(),
        "machine": f"{platform.machine()} {platform.processor() or ''} "
        f"{os.cpu_count()} cores, Python {platform.python_version()}".replace("  ", " "),
        "players_2": measure_matches(2, seconds, seed),
        "players_4": measure_matches(4, seconds, seed),
        "gauderio_2": measure_matches(2, seconds, seed, "gauderio"),
        "gauderio_4": measure_matches(4, seconds, seed, "gauderio"),
        "state_copy_us": round(measure_copy(seed), 2),
        "legal_actions_us": round(measure_legal(seed), 2),
        "view_us": round(measure_view(seed), 2),
    }
