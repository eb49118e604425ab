"""How good a dealt hand is before anything is played: a precomputed table per table kind.

A three-card hand is reduced to the *levels* of its cards (the rank of each card's
strength among the distinct strengths of the deck: common ranks first, then the four
manilhas), so one table serves every vira. For each level triple the table holds

- ``equity``: the chance that the holder's team wins the hand against hands dealt at
  random, every seat playing the plain policy of ``sense.simulate`` (a tie counts half),
  averaged over the holder's position in the round;
- ``quantile``: the share of dealt hands that are worse (ties half), so a player who
  "calls with the best 30% of hands" calls from quantile 0.7.

Robots use the quantile to read opponents (a call from a team that calls rarely means a
better hand) and the equity as a quick first estimate. ``truco robots-train`` rebuilds the
file (``python -m engine.robots.equity``); the result ships in ``engine/robots/data``.
"""

from __future__ import annotations

import json
import math
import random
import sys
from functools import lru_cache
from importlib import resources
from itertools import combinations_with_replacement
from pathlib import Path

from engine.cards import Card
from engine.robots.sense import simulate
from engine.rulesets import ALL_RULESETS, Ruleset, get_ruleset

DATA_FILE = "equity.json"
SIMULATIONS = 600
"""Random deals played out per level triple when the table is built."""
TRAIN_SEED = 20261201

Key = tuple[int, int, int]
"""Three card levels, strongest first."""


def levels_of(ruleset: Ruleset, strength: tuple[int, ...]) -> tuple[int, ...]:
    """Map every strength value (0-13) to its level among the deck's distinct strengths."""
    distinct = sorted({strength[c] for c in ruleset.deck})
    out = [0] * 14
    for i, s in enumerate(distinct):
        out[s] = i
    return tuple(out)


@lru_cache(maxsize=128)
def level_map(variant: str, vira: Card | None) -> tuple[int, ...]:
    """``levels_of`` for the hand with this vira (cached)."""
    rs = get_ruleset(variant)
    return levels_of(rs, rs.strength_table(vira))


def key_of(levels: tuple[int, ...], strengths: list[int] | tuple[int, ...]) -> Key:
    """The table key of three card strengths."""
    a, b, c = sorted((levels[s] for s in strengths), reverse=True)
    return (a, b, c)


# ------------------------------------------------------------------ the table


class EquityTable:
    """Equity and quantile of every dealt hand for one (variant, players)."""

    __slots__ = ("equity", "quantile")

    def __init__(self, rows: dict[Key, tuple[float, float]]) -> None:
        """A table from ``{key: (equity, quantile)}``."""
        self.equity = {k: v[0] for k, v in rows.items()}
        self.quantile = {k: v[1] for k, v in rows.items()}

    def quantile_of(self, key: Key) -> float:
        """The share of dealt hands worse than ``key`` (0.5 for a key never dealt)."""
        return self.quantile.get(key, 0.5)

    def equity_of(self, key: Key) -> float:
        """The chance of winning the hand with ``key`` against random hands."""
        return self.equity.get(key, 0.5)


@lru_cache(maxsize=1)
def _load_all() -> dict[str, dict[Key, tuple[float, float]]]:
    text = resources.files("engine.robots").joinpath("data", DATA_FILE).read_text("utf-8")
    data = json.loads(text)
    out: dict[str, dict[Key, tuple[float, float]]] = {}
    for name, rows in data["tables"].items():
        table: dict[Key, tuple[float, float]] = {}
        for key, (eq, q) in rows.items():
            a, b, c = (int(x) for x in key.split(","))
            table[(a, b, c)] = (float(eq), float(q))
        out[name] = table
    return out


@lru_cache(maxsize=16)
def table_for(variant: str, players: int) -> EquityTable:
    """The shipped table for ``variant`` with ``players`` seats."""
    return EquityTable(_load_all()[f"{get_ruleset(variant).name}/{players}"])


# ------------------------------------------------------------------ building


def _viras(rs: Ruleset) -> list[Card | None]:
    return list(rs.deck) if rs.uses_vira else [None]


def _key_weights(rs: Ruleset) -> dict[Key, float]:
    """How often each level triple is dealt (exact counts, averaged over viras)."""
    weights: dict[Key, float] = {}
    viras = _viras(rs)
    for vira in viras:
        strength = rs.strength_table(vira)
        lv = levels_of(rs, strength)
        count: dict[int, int] = {}
        for c in rs.deck:
            if c != vira:
                count[lv[strength[c]]] = count.get(lv[strength[c]], 0) + 1
        top = max(count) + 1
        for combo in combinations_with_replacement(range(top - 1, -1, -1), 3):
            ways = 1
            for level in set(combo):
                ways *= math.comb(count.get(level, 0), combo.count(level))
            if ways:
                key: Key = (combo[0], combo[1], combo[2])
                weights[key] = weights.get(key, 0.0) + ways / len(viras)
    return weights


def _equity(rs: Ruleset, players: int, key: Key, sims: int, rng: random.Random) -> float:
    """Monte Carlo equity of ``key`` (random vira, position and other hands)."""
    wins = 0.0
    done = 0
    viras = _viras(rs)
    while done < sims:
        vira = rng.choice(viras)
        strength = rs.strength_table(vira)
        lv = levels_of(rs, strength)
        pool = [c for c in rs.deck if c != vira]
        rng.shuffle(pool)
        mine: list[int] = []
        for level in key:
            pick = next((c for c in pool if lv[strength[c]] == level), None)
            if pick is None:
                break
            pool.remove(pick)
            mine.append(strength[pick])
        if len(mine) < 3:
            continue  # this vira cannot deal that triple
        seat = done % players
        hands = []
        for s in range(players):
            if s == seat:
                hands.append(mine)
            else:
                hands.append([strength[pool.pop()] for _ in range(3)])
        winner = simulate(hands, [], (), 0, 0, players)
        if winner is None:
            wins += 0.5
        elif winner == seat & 1:
            wins += 1.0
        done += 1
    return wins / sims


def build(sims: int = SIMULATIONS, seed: int = TRAIN_SEED) -> dict[str, object]:
    """Every table, as the JSON object the data file holds."""
    tables: dict[str, dict[str, list[float]]] = {}
    for rs in ALL_RULESETS.values():
        weights = _key_weights(rs)
        for players in (2, 4):
            rng = random.Random(f"{seed}/{rs.name}/{players}")
            eq = {k: _equity(rs, players, k, sims, rng) for k in sorted(weights)}
            total = sum(weights.values())
            rows: dict[str, list[float]] = {}
            for k, e in eq.items():
                below = sum(w for kk, w in weights.items() if eq[kk] < e)
                same = sum(w for kk, w in weights.items() if eq[kk] == e)
                q = (below + same / 2) / total
                rows[",".join(map(str, k))] = [round(e, 4), round(q, 4)]
            tables[f"{rs.name}/{players}"] = rows
    return {
        "about": "dealt-hand equity and quantile by card levels; built by python -m "
        "engine.robots.equity",
        "simulations": sims,
        "seed": seed,
        "tables": tables,
    }


def _tables(data: dict[str, object]) -> dict[str, dict[str, list[float]]]:
    tables = data["tables"]
    assert isinstance(tables, dict)
    return tables


def main(argv: list[str] | None = None) -> int:
    """Rebuild the shipped equity tables."""
    import argparse  # only this command needs it (the browser's standard library has none)

    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sims", type=int, default=SIMULATIONS)
    p.add_argument("--seed", type=int, default=TRAIN_SEED)
    default = Path(__file__).parent / "data" / DATA_FILE
    p.add_argument("--out", type=Path, default=default)
    args = p.parse_args(argv)
    data = build(args.sims, args.seed)
    rows = sum(len(t) for t in _tables(data).values())
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{args.out}: {rows} rows", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
