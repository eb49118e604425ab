"""``truco arena``: many mirrored matches between two players, with figures as JSON.

A side is a built-in robot (``robot:facil``, ``robot:medio``, ``robot:dificil``; add
``:sem-sinais`` for one that ignores signals, R12), a sparring robot with one betting
style (``robot:tight``, ``robot:loose``, ``robot:bluffer``, ``robot:honest``,
``robot:accepter``, ``robot:solid``, ``robot:probe``; see ``engine.robots.sparring``), ``random`` (a
uniformly random legal action) or an outside program (``exec:COMMAND``) that speaks the
JSON Lines protocol of docs-dev/arena-protocol.md.

Fair by construction: deal ``i`` (seed ``seed + i``, first dealer ``i % players``) is
played twice, once with each side on team 0, so both sides hold the same cards.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import datetime
import json
import math
import multiprocessing
import os
import platform
import select
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from engine.actions import Act, Action
from engine.match import Match, Phase
from engine.robots import (
    LEVELS,
    RandomRobot,
    Robot,
    get_robot,
    normalize_level,
    robot_signal,
)
from engine.robots.sparring import SPARRING, get_sparring
from engine.rulesets import DEFAULT_VARIANT, TableOptions, get_ruleset
from engine.turns import robot_turn
from engine.view import View

PROTOCOL_VERSION = 2
"""2: one program per seat, start and end messages (1: one program per side)."""
MAX_HANDS = 1000
"""A match still running after this many hands is stopped as a draw (never seen in play)."""
Z95 = 1.959964


class Forfeit(Exception):
    """A side gave no legal answer in time: it loses the match."""


class Player(Protocol):
    """One seat's decision maker in the arena."""

    def choose(self, view: View) -> Action:
        """One action out of ``view.legal`` (or raise ``Forfeit``)."""
        ...

    def signal(self, view: View) -> Action | None:
        """A signal to send before choosing (one of ``view.legal_signals``), or ``None``."""
        ...

    def start(self, info: dict[str, Any]) -> None:
        """The match begins (``info``: the start message of the protocol)."""
        ...

    def end(self, info: dict[str, Any]) -> None:
        """The match is over (``info``: the end message of the protocol)."""
        ...

    def close(self) -> None:
        """Release whatever the player holds (an outside process)."""
        ...


@dataclass(frozen=True)
class Side:
    """A side as written on the command line: ``robot:LEVEL``, ``random`` or ``exec:COMMAND``."""

    spec: str
    kind: str
    """``robot``, ``random`` or ``exec``."""
    level: str = ""
    command: tuple[str, ...] = ()
    sinais: bool = True
    """Whether the robot uses signals (``robot:medio:sem-sinais`` ignores them)."""

    @staticmethod
    def parse(text: str) -> Side:
        """The side written as ``text``; ``ValueError`` (pt-BR) if it names none."""
        text = text.strip()
        if text == "random":
            return Side(text, "random")
        kind, _, rest = text.partition(":")
        if kind == "robot":
            level, _, extra = rest.partition(":")
            if extra not in ("", "sem-sinais"):
                raise ValueError(f"lado desconhecido: {text!r} (só existe :sem-sinais)")
            if level in SPARRING:
                if extra:
                    raise ValueError(f"os robôs de treino não usam sinais: {text!r}")
                return Side(text, "robot", level=level, sinais=False)
            level = normalize_level(level)
            sinais = not extra
            spec = f"robot:{level}" + ("" if sinais else ":sem-sinais")
            return Side(spec, "robot", level=level, sinais=sinais)
        if kind == "exec":
            try:
                command = tuple(shlex.split(rest))
            except ValueError as exc:
                raise ValueError(f"comando inválido em {text!r}: {exc}") from None
            if not command:
                raise ValueError(
                    "exec: precisa de um comando, por exemplo exec:'python3 meu_bot.py'"
                )
            if shutil.which(command[0]) is None and not Path(command[0]).is_file():
                raise ValueError(f"programa não encontrado: {command[0]}")
            return Side(text, "exec", command=command)
        levels = ", ".join(f"robot:{lv}" for lv in (*LEVELS, *SPARRING))
        raise ValueError(f"lado desconhecido: {text!r} (use {levels}, random ou exec:COMANDO)")


class RobotPlayer:
    """A built-in robot (or the random player) in an arena seat."""

    def __init__(
        self, side: Side, seed: int, budget_ms: float | None, playouts: int | None = None
    ) -> None:
        """The robot of ``side`` with its own seed."""
        self.robot: Robot
        if side.kind == "random":
            self.robot = RandomRobot(seed)
        elif side.level in SPARRING:
            self.robot = get_sparring(side.level, seed)
        else:
            self.robot = get_robot(
                side.level,
                seed=seed,
                # no cap unless asked: every decision a pure function of (seed, view)
                budget_ms=math.inf if budget_ms is None else budget_ms,
                sinais=side.sinais,
                playouts=playouts,
            )

    def choose(self, view: View) -> Action:
        """The robot's action."""
        return self.robot.choose(view)

    def signal(self, view: View) -> Action | None:
        """The robot's signal, if it sends one."""
        return robot_signal(self.robot, view)

    def start(self, info: dict[str, Any]) -> None:
        """Built-in robots keep no state between decisions."""

    def end(self, info: dict[str, Any]) -> None:
        """Built-in robots keep no state between decisions."""

    @property
    def capped(self) -> int:
        """Decisions a time cap cut short (difícil); 0 for robots that do not search."""
        inner = getattr(self.robot, "robot", self.robot)  # a Deaf wrapper
        return int(getattr(inner, "capped", 0))

    def close(self) -> None:
        """Nothing to release."""


class ExecPlayer:
    """An outside program speaking JSON Lines on stdin/stdout (docs-dev/arena-protocol.md).

    One program plays one seat of one match: it is started for the match, told so
    (``start``), asked for each decision of that seat only, told the result (``end``)
    and stopped, so it never sees another seat's cards, not even its partner's.
    """

    def __init__(self, command: Sequence[str], timeout_s: float) -> None:
        """Start nothing yet: the program is launched by ``start``."""
        self.command = list(command)
        self.timeout_s = timeout_s
        self.proc: subprocess.Popen[bytes] | None = None
        self.buffer = b""

    def _start(self) -> subprocess.Popen[bytes]:
        try:
            self.proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except OSError as exc:
            raise Forfeit(f"não consegui iniciar o programa: {exc.strerror or exc}") from None
        return self.proc

    def _send(self, message: dict[str, Any]) -> subprocess.Popen[bytes]:
        proc = self.proc or self._start()
        assert proc.stdin is not None
        try:
            proc.stdin.write(json.dumps(message, ensure_ascii=False).encode() + b"\n")
            proc.stdin.flush()
        except OSError:
            raise Forfeit(self._died()) from None
        return proc

    def start(self, info: dict[str, Any]) -> None:
        """Launch the program and send it the start message (no answer expected)."""
        self._send(info)

    def choose(self, view: View) -> Action:
        """Send the view, wait for one line, and return the action it names."""
        message = {"type": "decide", "view": view.to_json(), "legal": [str(a) for a in view.legal]}
        proc = self._send(message)
        line = self._read_line(proc)
        return parse_answer(line, view.legal)

    def end(self, info: dict[str, Any]) -> None:
        """Send the end message if the program still runs (no answer expected)."""
        if self.proc is None or self.proc.poll() is not None:
            return
        with contextlib.suppress(Forfeit):  # it left early: nothing more to tell it
            self._send(info)

    def signal(self, view: View) -> Action | None:
        """Outside programs see signals in their views but send none (protocol v1)."""
        return None

    def _died(self) -> str:
        code = None
        if self.proc is not None:
            try:  # the output closed: give the program a moment to finish exiting
                code = self.proc.wait(timeout=1)
            except subprocess.TimeoutExpired:
                code = None
        return (
            f"o programa terminou (código {code})"
            if code is not None
            else "o programa fechou a saída"
        )

    def _read_line(self, proc: subprocess.Popen[bytes]) -> str:
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        deadline = time.monotonic() + self.timeout_s
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Forfeit(f"sem resposta em {self.timeout_s * 1000:.0f} ms")
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                raise Forfeit(self._died())
            self.buffer += chunk
            if len(self.buffer) > 1 << 20:
                raise Forfeit("resposta longa demais")
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode("utf-8", "replace").strip()

    def close(self) -> None:
        """Stop the program (it gets EOF first, then is killed)."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        for stream in (proc.stdin, proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        try:
            proc.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def parse_answer(line: str, legal: Sequence[Action]) -> Action:
    """The legal action a program's answer names: ``{"action": "play 4C"}`` or ``play 4C``."""
    text: Any = line
    if line.startswith(("{", '"')):
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            raise Forfeit(f"resposta não é JSON válido: {line[:60]!r}") from None
        text = data.get("action") if isinstance(data, dict) else data
    if not isinstance(text, str):
        raise Forfeit(f"resposta sem ação: {line[:60]!r}")
    try:
        action = Action.parse(text)
    except ValueError as exc:
        raise Forfeit(f"resposta inválida {text[:60]!r}: {exc}") from None
    if action not in legal:
        allowed = ", ".join(str(a) for a in legal)
        raise Forfeit(f"ação ilegal {text!r} (as legais eram: {allowed})")
    return action


# ------------------------------------------------------------------- matches


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
    caller = next((s & 1 for s, a in m.hand_log if a.act == Act.TRUCO), None)
    if caller is not None:
        mine = tallies[side_of_team[caller]]
        mine.called_hands += 1
        mine.called_net += result.points[caller] - result.points[1 - caller]
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
    try:
        for seat in range(n):
            side_index = side_of_team[seat & 1]
            try:
                players[seat].start(start_message(match_id, seeds[seat], seat, m))
            except Forfeit as exc:
                error = f"{setup.sides[side_index].spec}: {exc}"
                tallies[side_index].forfeits += 1
                tallies[1 - side_index].wins += 1
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
                error = f"{setup.sides[side_index].spec}: {exc}"
                tallies[side_index].forfeits += 1
                tallies[1 - side_index].wins += 1
                break
            except Exception as exc:  # a robot bug must not stop a long run
                error = f"{setup.sides[side_index].spec}: erro interno {type(exc).__name__}: {exc}"
                tallies[side_index].forfeits += 1
                tallies[1 - side_index].wins += 1
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


def start_message(match_id: str, seed: int, seat: int, m: Match) -> dict[str, Any]:
    """The protocol's start message for ``seat`` (docs-dev/arena-protocol.md).

    ``seed`` is the player's own seed for its randomness, never the deal's: the deal
    seed would tell every hand of the match.
    """
    o = m.options
    return {
        "type": "start",
        "protocol": PROTOCOL_VERSION,
        "match": match_id,
        "seed": seed,
        "seat": seat,
        "team": seat & 1,
        "variant": m.ruleset.name,
        "players": m.players,
        "options": {
            **dataclasses.asdict(o),
            "ladder": list(m.ladder),
        },
    }


def end_message(
    match_id: str, seat: int, m: Match, hands: int, error: str | None
) -> dict[str, Any]:
    """The protocol's end message for ``seat``: the score and who won."""
    winner = m.match_winner
    return {
        "type": "end",
        "match": match_id,
        "seat": seat,
        "score": list(m.score),
        "winner": winner,
        "won": None if winner is None else winner == seat & 1,
        "hands": hands,
        "forfeit": error,
    }


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


# ------------------------------------------------------------------- figures


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


def machine() -> dict[str, Any]:
    """The machine a run was measured on."""
    return {
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
    }


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


def load_average() -> list[float] | None:
    """The machine's 1, 5 and 15 minute load averages (``None`` where the system has none)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None


def save_run(path: Path, run: dict[str, Any]) -> None:
    """Add ``run`` to the JSON list at ``path``, replacing the run of the same pairing."""

    def key(r: dict[str, Any]) -> tuple[Any, ...]:
        return (
            r.get("variant"),
            r.get("players"),
            r.get("target"),
            r.get("sides"),
            r.get("sinais", True),
        )

    runs: list[dict[str, Any]] = []
    if path.exists():
        try:
            loaded = json.loads(path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ValueError(f"{path} não é uma lista JSON de rodadas: {exc}") from None
        if not isinstance(loaded, list):
            raise ValueError(f"{path} não é uma lista JSON de rodadas")
        runs = loaded
    record = {k: v for k, v in run.items() if k != "errors"}
    runs = [r for r in runs if key(r) != key(record)] + [record]
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(runs, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(path)


# ----------------------------------------------------------------------- CLI


def _command_line(args: argparse.Namespace) -> str:
    parts = [
        "truco arena",
        shlex.quote(args.a),
        shlex.quote(args.b),
        f"--matches {args.matches}",
        f"--variant {args.variant}",
        f"--players {args.players}",
        f"--seed {args.seed}",
    ]
    if args.target != 12:
        parts.append(f"--target {args.target}")
    if args.budget_ms is not None:
        parts.append(f"--budget-ms {args.budget_ms:g}")
    if args.playouts is not None:
        parts.append(f"--playouts {args.playouts}")
    if args.jobs != 1:
        parts.append(f"--jobs {args.jobs}")
    if args.sem_sinais:
        parts.append("--sem-sinais")
    return " ".join(parts)


def cmd_arena(args: argparse.Namespace) -> int:
    """Run the arena and print its figures as JSON."""
    rs = get_ruleset(args.variant)
    TableOptions(players=args.players, target=args.target).validated(rs)
    if args.matches < 1:
        raise ValueError("--matches precisa ser pelo menos 1")
    if args.jobs < 1:
        raise ValueError("--jobs precisa ser pelo menos 1")
    if args.playouts is not None and args.playouts < 1:
        raise ValueError("--playouts precisa ser pelo menos 1")
    if args.budget_ms is not None and args.budget_ms <= 0:
        raise ValueError("--budget-ms precisa ser positivo")
    if args.timeout_ms <= 0:
        raise ValueError("--timeout-ms precisa ser positivo")
    setup = Setup(
        sides=(Side.parse(args.a), Side.parse(args.b)),
        variant=rs.name,
        players=args.players,
        target=args.target,
        seed=args.seed,
        budget_ms=args.budget_ms,
        playouts=args.playouts,
        timeout_s=args.timeout_ms / 1000,
        sinais=not args.sem_sinais,
    )
    run = arena(setup, args.matches, args.jobs, not args.quiet, _command_line(args))
    print(json.dumps(run, indent=2, ensure_ascii=False))
    if args.save:
        save_run(Path(args.save), run)
    return 0


def add_arena_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``truco arena`` on a ``truco`` parser."""
    p = sub.add_parser(
        "arena", help="joga muitas partidas espelhadas entre dois jogadores e mede a força (JSON)"
    )
    p.add_argument(
        "a",
        metavar="LADO_A",
        help="robot:facil|robot:medio|robot:dificil[:sem-sinais]|robot:ESTILO|random|exec:CMD",
    )
    p.add_argument("b", metavar="LADO_B")
    p.add_argument("--matches", type=int, default=200, help="partidas (pares espelhados)")
    p.add_argument("--variant", default=DEFAULT_VARIANT)
    p.add_argument("--players", type=int, choices=(2, 4), default=2)
    p.add_argument("--target", type=int, default=12)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--budget-ms", type=float, default=None, help="limite de tempo por decisão do difícil"
    )
    p.add_argument(
        "--playouts",
        type=int,
        default=None,
        help="simulações por decisão do difícil (240; 150 em 2x2)",
    )
    p.add_argument("--timeout-ms", type=float, default=5000, help="prazo de resposta de exec:")
    p.add_argument("--jobs", type=int, default=1, help="processos em paralelo")
    p.add_argument("--save", default=None, metavar="ARQUIVO", help="acrescenta a rodada (JSON)")
    p.add_argument("--quiet", action="store_true", help="sem progresso no stderr")
    p.add_argument("--sem-sinais", action="store_true", help="mesa sem sinais (2x2, R12)")
    p.set_defaults(handler=cmd_arena)
