"""``truco arena`` on the command line: options, checks, the JSON printed and saved."""

from __future__ import annotations

import argparse
import json
import shlex
from pathlib import Path

from engine.rulesets import DEFAULT_VARIANT, TableOptions, get_ruleset
from engine.tools.arena.driver import Setup, arena
from engine.tools.arena.protocol import Side
from engine.tools.arena.results import save_run


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
    if args.target != get_ruleset(args.variant).default_target_for(args.players):
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
    if args.target is None:
        args.target = rs.default_target_for(args.players)
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
    p.add_argument("--target", type=int, default=None, help="default: the variant's")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--budget-ms", type=float, default=None, help="limite de tempo por decisão do difícil"
    )
    p.add_argument(
        "--playouts",
        type=int,
        default=None,
        help="simulações por decisão do difícil (240; 300 em 2x2)",
    )
    p.add_argument("--timeout-ms", type=float, default=5000, help="prazo de resposta de exec:")
    p.add_argument("--jobs", type=int, default=1, help="processos em paralelo")
    p.add_argument("--save", default=None, metavar="ARQUIVO", help="acrescenta a rodada (JSON)")
    p.add_argument("--quiet", action="store_true", help="sem progresso no stderr")
    p.add_argument("--sem-sinais", action="store_true", help="mesa sem sinais (2x2, R12)")
    p.set_defaults(handler=cmd_arena)
