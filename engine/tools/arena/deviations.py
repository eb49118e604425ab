"""Where one robot's choices part from another's at the arena, and what each parting was worth.

    python -m engine.tools.arena.deviations robot:dificil robot:honest \\
        --matches 60 --players 4 --seed 1 --sem-sinais

plays the arena's matches (the same deals and seeds as ``truco arena`` with the same
arguments, so side A wins the same matches) and, at every decision of side A where the
reference robot (médio unless ``--reference``) chooses otherwise, copies the real match
twice, applies A's action to one copy and the reference's to the other, and plays the
hand to its end with the real cards: the other side's seats by the real players, A's own
seats by médio with a few seeds (cheap, and the same in both copies). The
gain is the difference in A's team's chance of winning the match once the hand is over
(``sense.match_values``; 1.0 summed is one whole match).

Each parting is filed by what the reference chose and what A chose (``TRUCO``, ``ACCEPT``,
``RUN``, ``RAISE``, ``PLAY11``, ``RUN11``; a card is ``card``), the round, and, for
difícil, whether its search kept its own starting bet (``start``: the learned policy's
call and médio's answer) or left it (``search``). It answers "what does A do that the
reference does not, and does it pay?": a loss filed under ``start`` is in the bets the
search begins from, one under ``search`` in what the play-outs chose.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO

from engine import actions as A
from engine.actions import Act, Action
from engine.match import Match, Phase
from engine.robots import Robot, decision_rng
from engine.robots.heuristic import MEDIO_SAMPLES, learned_action
from engine.robots.search import POLICY_VARIANTS, Dificil
from engine.robots.sense import match_values
from engine.rulesets import TableOptions, get_ruleset
from engine.tools.arena.driver import MAX_HANDS, Setup, make_player
from engine.tools.arena.protocol import Player, Side
from engine.turns import robot_turn
from engine.view import View

FOLLOW_SEEDS = 3
"""Seeds of médio that play A's seats after a parting (the gain is their mean)."""
FOLLOWER = Side.parse("robot:medio:sem-sinais")
"""Who plays A's seats after a parting: médio (cheap, whatever A and the reference are)."""


def kind(action: Action) -> str:
    """The name a parting files an action under: its act, or ``card`` for any card."""
    if action.act in (Act.PLAY, Act.COVER):
        return "card"
    return action.act.name


def chance_after_hand(m: Match, team: int) -> float:
    """``team``'s match-winning chance once the hand in ``m`` is over."""
    if m.match_winner is not None:
        return 1.0 if m.match_winner == team else 0.0
    w = match_values(m.ruleset.name, m.options.target)
    return w[m.score[team]][m.score[1 - team]]


def finish_hand(m: Match, players: dict[int, Player], specs: list[str]) -> None:
    """Play the hand in ``m`` to its end (in place), each seat by ``players``."""
    while m.phase < Phase.HAND_OVER:
        turn = robot_turn(m, specs)
        if turn is None:
            return
        sign = turn.ready(players[turn.seat])
        if sign is not None:
            m.apply(turn.seat, sign)
            continue
        m.apply(turn.seat, players[turn.seat].choose(turn.view))


@dataclass
class Partings:
    """Gains of A's action over the reference's, per file (see the module's docstring)."""

    gains: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    decisions: int = 0
    wins: float = 0.0
    matches: int = 0

    def add(self, other: Partings) -> None:
        """Fold ``other`` into this one."""
        for key, values in other.gains.items():
            self.gains[key].extend(values)
        self.decisions += other.decisions
        self.wins += other.wins
        self.matches += other.matches

    def summary(self) -> dict[str, Any]:
        """Count, summed gain and the sum's standard error per file, biggest losses first."""
        stats: list[tuple[float, str, int, float]] = []  # gain, file, partings, error
        for key, values in self.gains.items():
            n = len(values)
            total = sum(values)
            mean = total / n
            var = sum((x - mean) ** 2 for x in values) / max(1, n - 1)
            stats.append((total, key, n, math.sqrt(var * n)))
        stats.sort()
        rows = [
            {"file": key, "partings": n, "gain": round(total, 3), "error": round(err, 3)}
            for total, key, n, err in stats
        ]
        return {
            "matches": self.matches,
            "wins": self.wins,
            "decisions": self.decisions,
            "partings": sum(n for _, _, n, _ in stats),
            "gain": round(sum(total for total, _, _, _ in stats), 3),
            "files": rows,
        }


def _start_choice(robot: Robot, view: View) -> Action | None:
    """The bet difícil's search starts from for ``view`` (``None`` for another robot)."""
    inner = getattr(robot, "robot", robot)  # a Deaf wrapper
    if not isinstance(inner, Dificil) or view.phase == Phase.DECIDE:
        return None
    searching = inner.policy or (inner.policy is None and view.variant in POLICY_VARIANTS)
    if not searching or len(view.legal) == 1:
        return None
    rng = decision_rng(inner.seed, view)
    return learned_action(
        view,
        rng,
        MEDIO_SAMPLES,
        answers=False,
        points="dificil",
        mixed_to_medio=inner.mixed_first_round,
        agree=inner.agree_calls,
    )


def _their_bet(view: View) -> bool:
    """Whether the other team called, raised or accepted in this hand so far."""
    return any(
        s & 1 != view.team and a.act in (Act.TRUCO, Act.RAISE, Act.ACCEPT) for s, a in view.history
    )


def _first_round_call(view: View) -> bool:
    """Whether this is a call decision of a hand's first round (truco may be called)."""
    return not view.rounds and view.phase == Phase.PLAY and A.TRUCO in view.legal


def _call(view: View) -> bool:
    """Whether this is a call decision of any round (truco or the next step may be called)."""
    return view.phase == Phase.PLAY and A.TRUCO in view.legal


def _answer(view: View) -> bool:
    """Whether this is an answer to the other team's call (accept, run or raise)."""
    return view.phase == Phase.ANSWER


WHERE: dict[str, Callable[[View], bool]] = {
    "answer": _answer,
    "their-bet": _their_bet,
    "first-round-call": _first_round_call,
    "call": _call,
}
"""Where ``--where`` compares A with the reference, by name (anywhere without it): two
robots that differ in one kind of decision part nowhere else, and asking the reference
costs as much as asking A."""


def _match(
    setup: Setup,
    reference: str,
    deal: int,
    first: int,
    lines: TextIO | None = None,
    where: Callable[[View], bool] | None = None,
) -> Partings:
    """One arena match of ``deal`` (side ``first`` on team 0) with its partings filed."""
    rs = get_ruleset(setup.variant)
    opts = TableOptions(players=setup.players, target=setup.target, sinais=setup.sinais)
    opts = opts.validated(rs)
    n = setup.players
    m = Match(rs, opts, seed=setup.seed + deal, dealer=deal % n)
    side_of_team = (first, 1 - first)
    a_team = first  # side A (index 0) is team ``first``: ``side_of_team`` above
    specs = [setup.sides[side_of_team[s & 1]].spec for s in range(n)]
    seeds = {s: (setup.seed * 1_000_003 + deal * 17 + s) & 0x7FFFFFFF for s in range(n)}
    players: dict[int, Player] = {
        s: make_player(setup.sides[side_of_team[s & 1]], seeds[s], setup) for s in range(n)
    }
    ref_side = Side.parse(reference)
    refs = {s: make_player(ref_side, seeds[s], setup) for s in range(n)}
    out = Partings()
    hands = 1
    while not m.is_terminal():
        if m.phase == Phase.HAND_OVER:
            if hands >= MAX_HANDS:
                break
            m.deal()
            hands += 1
        turn = robot_turn(m, specs)
        if turn is None:
            break
        seat, view = turn.seat, turn.view
        sign = turn.ready(players[seat])
        if sign is not None:
            m.apply(seat, sign)
            view = m.view(seat)
        action = players[seat].choose(view)
        if seat & 1 == a_team and len(view.legal) > 1 and (where is None or where(view)):
            out.decisions += 1
            theirs = refs[seat].choose(view)
            if theirs != action:
                robot = getattr(players[seat], "robot", None)
                start = _start_choice(robot, view) if robot is not None else None
                source = "" if start is None else (" start" if start == action else " search")
                key = f"{kind(theirs)}->{kind(action)} r{len(view.rounds) + 1}{source}"
                gain = _worth(m, seat, action, theirs, players, FOLLOWER, seeds, setup, specs)
                out.gains[key].append(gain)
                if lines is not None:
                    note = {"deal": deal, "first": first, "hand": hands, "file": key}
                    print(json.dumps({**note, "gain": round(gain, 4)}), file=lines, flush=True)
        m.apply(seat, action)
    out.matches = 1
    if m.match_winner is None:
        out.wins = 0.5
    else:
        out.wins = 1.0 if m.match_winner == a_team else 0.0
    return out


def _worth(
    m: Match,
    seat: int,
    action: Action,
    theirs: Action,
    players: dict[int, Player],
    follower: Side,
    seeds: dict[int, int],
    setup: Setup,
    specs: list[str],
) -> float:
    """Mean gain in match chance of ``action`` over ``theirs`` at ``seat`` in ``m``."""
    team = seat & 1
    total = 0.0
    for k in range(FOLLOW_SEEDS):
        follow: dict[int, Player] = {}
        for s in range(m.players):
            if s & 1 == team:
                follow[s] = make_player(
                    follower, seeds[s] ^ (0x9E3779B1 * (k + 1) & 0x7FFFFFFF), setup
                )
            else:
                follow[s] = players[s]
        values = []
        for choice in (action, theirs):
            world = m.copy()
            world.apply(seat, choice)
            finish_hand(world, follow, specs)
            values.append(chance_after_hand(world, team))
        total += values[0] - values[1]
    return total / FOLLOW_SEEDS


def _pair(args: tuple[Setup, str, int, str], lines: TextIO | None = None) -> Partings:
    setup, reference, deal, where = args
    out = Partings()
    for first in (0, 1):
        out.add(_match(setup, reference, deal, first, lines, WHERE.get(where)))
    return out


def run(
    setup: Setup,
    reference: str,
    matches: int,
    jobs: int,
    lines: TextIO | None = None,
    where: str = "",
) -> Partings:
    """The partings of ``matches`` arena matches (rounded up to mirrored pairs); with
    ``lines`` and one job, each parting is written there as a JSON line when found.
    ``where``: a name of ``WHERE``, the only decisions where A is compared ("": all)."""
    deals = max(1, (matches + 1) // 2)
    tasks = [(setup, reference, d, where) for d in range(deals)]
    total = Partings()
    if jobs <= 1:
        for task in tasks:
            total.add(_pair(task, lines))
        return total
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        for part in pool.imap_unordered(_pair, tasks):
            total.add(part)
    return total


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module's docstring)."""
    p = argparse.ArgumentParser(prog="python -m engine.tools.arena.deviations")
    p.add_argument("a", metavar="LADO_A")
    p.add_argument("b", metavar="LADO_B")
    p.add_argument("--reference", default="robot:medio", help="quem A é comparado (médio)")
    p.add_argument("--matches", type=int, default=60)
    p.add_argument("--variant", default="paulista")
    p.add_argument("--players", type=int, choices=(2, 4), default=4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--sem-sinais", action="store_true")
    p.add_argument("--lines", default=None, help="cada saída numa linha JSON (só com --jobs 1)")
    p.add_argument(
        "--where",
        choices=sorted(WHERE),
        default="",
        help=(
            "compara só ali: answer (a resposta a um pedido), their-bet (o outro time"
            " apostou nesta mão), first-round-call, call"
        ),
    )
    args = p.parse_args(argv)
    rs = get_ruleset(args.variant)
    setup = Setup(
        sides=(Side.parse(args.a), Side.parse(args.b)),
        variant=rs.name,
        players=args.players,
        target=rs.default_target_for(args.players),
        seed=args.seed,
        budget_ms=None,
        timeout_s=5.0,
        sinais=not args.sem_sinais,
    )
    if args.lines is not None:
        with open(args.lines, "w", encoding="utf-8") as lines:
            result = run(setup, args.reference, args.matches, args.jobs, lines, args.where)
    else:
        result = run(setup, args.reference, args.matches, args.jobs, None, args.where)
    json.dump(result.summary(), sys.stdout, indent=2, ensure_ascii=False)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
