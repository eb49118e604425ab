"""The arena's matches: each deal played twice with the sides swapped, and what each side
did (wins, points, decision times, where its points came from)."""

from __future__ import annotations

import datetime
import multiprocessing
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.actions import Act, Action
from engine.match import Match, Phase
from engine.rulesets import TableOptions, get_ruleset
from engine.tools.arena.figures import load_average, machine, summarize
from engine.tools.arena.protocol import (
    ExecPlayer,
    Forfeit,
    Player,
    RobotPlayer,
    Side,
    end_message,
    start_message,
)
from engine.turns import robot_turn

MAX_HANDS = 1000
"""A match still running after this many hands is stopped as a draw (never seen in play)."""


@dataclass
class Tally:
    """What one side did over some matches."""

    wins: float = 0.0
    points: int = 0
    forfeits: int = 0
    capped: int = 0
    """Difícil decisions its time cap cut short (so not a pure function of seed and view)."""
    times_ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)
    """Processor time of built-in robots' decisions (robust to a busy machine)."""
    calls: int = 0
    """Calls this side made on its turn: truco, or the next step of a truco it accepted."""
    raises: int = 0
    """Raises this side answered with (seis and up)."""
    run_points: int = 0
    """Points scored in hands the other side ran from (a call or the mão de onze/dez)."""
    played_points: int = 0
    """Points scored in hands played to the last round."""
    raised_won: int = 0
    """Hands played out at a stake above the truco (seis and up) that this side won."""
    raised_lost: int = 0
    """Hands played out at a stake above the truco that this side lost."""
    called_hands: int = 0
    """Hands in which this side called the first truco."""
    called_net: int = 0
    """Points this side won minus points it lost in those hands: whether its calls pay,
    apart from its answers to the other side's calls."""
    early_called: int = 0
    """Of ``called_hands``, those whose first truco came in the first round (before its
    last card): a strong hand called at once, while the other side knows least, or kept
    quiet for a later round, is where two ways of calling part."""
    early_called_net: int = 0
    """Points this side won minus points it lost in those hands."""
    late_raises: int = 0
    """Hands in which the other side, having accepted a call, called the next step on its
    own turn (a raise after an accept: a strong tell)."""
    late_answered: int = 0
    """Of those, the hands in which this side accepted or raised that call."""
    late_answered_net: int = 0
    """Points this side won minus points it lost in the hands it answered so."""

    def add(self, other: Tally) -> None:
        """Fold ``other`` into this tally."""
        self.wins += other.wins
        self.points += other.points
        self.forfeits += other.forfeits
        self.capped += other.capped
        self.times_ms.extend(other.times_ms)
        self.cpu_ms.extend(other.cpu_ms)
        for name in _BET_COUNTS:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def bets(self) -> dict[str, int]:
        """The betting counts, as the run's JSON shows them."""
        return {name: getattr(self, name) for name in _BET_COUNTS}


_BET_COUNTS = (
    "calls",
    "raises",
    "run_points",
    "played_points",
    "raised_won",
    "raised_lost",
    "called_hands",
    "called_net",
    "early_called",
    "early_called_net",
    "late_raises",
    "late_answered",
    "late_answered_net",
)
"""Where a side's points came from: what the issue's own post-mortem counted."""


def tally_bet(
    tallies: tuple[Tally, Tally], side_of_team: tuple[int, int], seat: int, action: Action, m: Match
) -> None:
    """Count ``action`` (just applied by ``seat``) and, if it ended the hand, its points."""
    me = tallies[side_of_team[seat & 1]]
    if action.act == Act.TRUCO:
        me.calls += 1
    elif action.act == Act.RAISE:
        me.raises += 1
    result = m.hand_result()
    if result is None:
        return
    caller = None
    cards = 0  # cards played before the first truco
    for s, a in m.hand_log:
        if a.act == Act.TRUCO:
            caller = s & 1
            break
        if a.act in (Act.PLAY, Act.COVER):
            cards += 1
    if caller is not None:
        mine = tallies[side_of_team[caller]]
        net = result.points[caller] - result.points[1 - caller]
        mine.called_hands += 1
        mine.called_net += net
        if cards < m.players:
            mine.early_called += 1
            mine.early_called_net += net
    late = late_raise(m.hand_log)
    if late is not None:
        team, answered = late
        mine = tallies[side_of_team[team]]
        mine.late_raises += 1
        if answered:
            mine.late_answered += 1
            mine.late_answered_net += result.points[team] - result.points[1 - team]
    if result.winner is None:
        return
    winner = tallies[side_of_team[result.winner]]
    loser = tallies[side_of_team[1 - result.winner]]
    points = result.points[result.winner]
    if result.ran:
        winner.run_points += points
        return
    winner.played_points += points
    if result.stake > m.ladder[0]:
        winner.raised_won += 1
        loser.raised_lost += 1


def late_raise(log: Sequence[tuple[int, Action]]) -> tuple[int, bool] | None:
    """The team that faced the hand's first raise after an accept, and whether it
    accepted or raised it; ``None`` when no team called a step on its own turn after
    accepting the step below."""
    accepted = [False, False]
    facing: int | None = None
    for seat, action in log:
        team = seat & 1
        if facing is not None:
            if team == facing and action.act in (Act.ACCEPT, Act.RAISE):
                return facing, True
            if action.act in (Act.ACCEPT, Act.RAISE, Act.PLAY, Act.COVER):
                return facing, False
            continue
        if action.act == Act.ACCEPT:
            accepted[team] = True
        elif action.act == Act.TRUCO and accepted[team]:
            facing = 1 - team
    return None if facing is None else (facing, False)


@dataclass
class PairResult:
    """The two mirrored matches of one deal."""

    tallies: tuple[Tally, Tally]
    hands: int
    matches: int
    errors: list[str]


@dataclass(frozen=True)
class Setup:
    """Everything a worker needs to play a deal twice."""

    sides: tuple[Side, Side]
    variant: str
    players: int
    target: int
    seed: int
    budget_ms: float | None
    timeout_s: float
    sinais: bool = True
    """The table option (R12): with it off nobody may signal."""
    playouts: int | None = None
    """Difícil's play-outs per decision (``None``: its default)."""


def make_player(side: Side, seed: int, setup: Setup) -> Player:
    """The player for ``side`` with its own seed."""
    if side.kind == "exec":
        return ExecPlayer(side.command, setup.timeout_s)
    return RobotPlayer(side, seed, setup.budget_ms, setup.playouts)


def play_match(setup: Setup, deal: int, first: int) -> tuple[Tally, Tally, int, str | None]:
    """One match of deal ``deal`` with side ``first`` on team 0; tallies in side order."""
    rs = get_ruleset(setup.variant)
    opts = TableOptions(players=setup.players, target=setup.target, sinais=setup.sinais)
    opts = opts.validated(rs)
    n = setup.players
    m = Match(rs, opts, seed=setup.seed + deal, dealer=deal % n)
    side_of_team = (first, 1 - first)
    tallies = (Tally(), Tally())
    match_id = f"{setup.seed}-{deal}{'ab'[first]}"
    players: dict[int, Player] = {}
    specs = [setup.sides[side_of_team[seat & 1]].spec for seat in range(n)]
    seeds: dict[int, int] = {}
    for seat in range(n):
        side = setup.sides[side_of_team[seat & 1]]
        # the same seeds in both mirrored matches: a robot against itself splits each pair
        seeds[seat] = (setup.seed * 1_000_003 + deal * 17 + seat) & 0x7FFFFFFF
        # one player per seat, outside programs included: nobody sees a partner's cards
        players[seat] = make_player(side, seeds[seat], setup)
    hands = 1
    error: str | None = None

    def forfeit(side_index: int, why: str) -> str:
        """The side loses the match by forfeit; the error the results keep."""
        tallies[side_index].forfeits += 1
        tallies[1 - side_index].wins += 1
        return f"{setup.sides[side_index].spec}: {why}"

    try:
        for seat in range(n):
            side_index = side_of_team[seat & 1]
            try:
                players[seat].start(start_message(match_id, seeds[seat], seat, m))
            except Forfeit as exc:
                error = forfeit(side_index, str(exc))
                return tallies[0], tallies[1], hands, error
        while not m.is_terminal():
            if m.phase == Phase.HAND_OVER:
                if hands >= MAX_HANDS:
                    break
                m.deal()
                hands += 1
            turn = robot_turn(m, specs)
            if turn is None:
                break  # never: every seat is played by a robot, and the hand is on
            seat, view = turn.seat, turn.view
            side_index = side_of_team[seat & 1]
            start = time.perf_counter()
            cpu = time.process_time()
            try:
                sign = turn.ready(players[seat])  # a signal first (R12)
                if sign is not None:
                    m.apply(seat, sign)
                    view = m.view(seat)
                action = players[seat].choose(view)
                if action not in view.legal:
                    raise Forfeit(f"ação ilegal {action}")
            except Forfeit as exc:
                error = forfeit(side_index, str(exc))
                break
            except Exception as exc:  # a robot bug must not stop a long run
                error = forfeit(side_index, f"erro interno {type(exc).__name__}: {exc}")
                break
            tallies[side_index].times_ms.append((time.perf_counter() - start) * 1000)
            if not isinstance(players[seat], ExecPlayer):  # a program's time is its own
                tallies[side_index].cpu_ms.append((time.process_time() - cpu) * 1000)
            before = m.score
            m.apply(seat, action)
            tally_bet(tallies, side_of_team, seat, action, m)
            if m.phase >= Phase.HAND_OVER:
                for team in (0, 1):
                    tallies[side_of_team[team]].points += m.score[team] - before[team]
    finally:
        for seat, p in players.items():
            tallies[side_of_team[seat & 1]].capped += int(getattr(p, "capped", 0))
            try:
                p.end(end_message(match_id, seat, m, hands, error))
            finally:
                p.close()
    if error is None:
        if m.match_winner is None:
            for t in tallies:
                t.wins += 0.5
        else:
            tallies[side_of_team[m.match_winner]].wins += 1
    return tallies[0], tallies[1], hands, error


def play_pair(setup: Setup, deal: int) -> PairResult:
    """Deal ``deal`` played twice, the sides swapping teams."""
    total = (Tally(), Tally())
    hands = 0
    errors: list[str] = []
    for first in (0, 1):
        a, b, h, error = play_match(setup, deal, first)
        total[0].add(a)
        total[1].add(b)
        hands += h
        if error is not None:
            errors.append(f"partida {deal}{'ab'[first]}: {error}")
    return PairResult(total, hands, 2, errors)


def _play_pair_task(args: tuple[Setup, int]) -> PairResult:
    return play_pair(*args)


def run_pairs(setup: Setup, deals: int, jobs: int) -> Iterator[PairResult]:
    """Play deals ``0..deals-1`` (in ``jobs`` processes when more than one)."""
    tasks = [(setup, d) for d in range(deals)]
    if jobs <= 1 or deals <= 1:
        for task in tasks:
            yield _play_pair_task(task)
        return
    ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    with ctx.Pool(jobs) as pool:
        yield from pool.imap_unordered(_play_pair_task, tasks)


def arena(
    setup: Setup,
    matches: int,
    jobs: int = 1,
    progress: bool = True,
    command: str = "",
) -> dict[str, Any]:
    """Play ``matches`` matches (rounded up to mirrored pairs) and return the run's figures."""
    deals = max(1, (matches + 1) // 2)
    totals = (Tally(), Tally())
    hands = played = 0
    errors: list[str] = []
    started = time.monotonic()
    load_at_start = load_average()
    last_note = started
    for result in run_pairs(setup, deals, jobs):
        totals[0].add(result.tallies[0])
        totals[1].add(result.tallies[1])
        hands += result.hands
        played += result.matches
        for e in result.errors:
            if len(errors) < 20:
                errors.append(e)
            if progress:
                print(f"arena: {e}", file=sys.stderr, flush=True)
        now = time.monotonic()
        if progress and (now - last_note >= 5 or played == 2 * deals):
            last_note = now
            rate = totals[0].wins / played
            print(
                f"arena: {played}/{2 * deals} partidas · {setup.sides[0].spec} {rate:.1%}"
                f" · {now - started:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    return {
        "command": command,
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "variant": setup.variant,
        "players": setup.players,
        "target": setup.target,
        "seed": setup.seed,
        "budget_ms": setup.budget_ms,
        "playouts": setup.playouts,
        **({} if setup.sinais else {"sinais": False}),
        "sides": [s.spec for s in setup.sides],
        "matches": played,
        "hands": hands,
        "seconds": round(time.monotonic() - started, 1),
        "results": summarize(setup, totals, played, hands),
        # wall-clock decision times mostly measure the wait for a processor on a busy
        # machine: the run says how busy it was
        "load_average": {"start": load_at_start, "end": load_average()},
        "errors": errors,
    }
