"""The ``truco`` command line: replay, play, bench (the bot adds its own commands)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence

from engine.rulesets import DEFAULT_VARIANT

Handler = Callable[[argparse.Namespace], int]


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay scenario files and print one JSON outcome per line."""
    from engine.scenario import replay

    for path in args.files:
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        except OSError as exc:
            print(f"truco replay: não consegui ler {path}: {exc.strerror}", file=sys.stderr)
            return 2
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            print(f"truco replay: {path} não é JSON válido: {exc}", file=sys.stderr)
            return 2
        print(json.dumps(replay(data), ensure_ascii=False), flush=True)
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """Play in the terminal against robots."""
    from engine import words
    from engine.tools.terminal import play
    from engine.tutorial import STYLE_KEYS  # the deck styles as the site names them

    decks = {key: style for style, key in STYLE_KEYS.items()}

    tag = args.lang or os.environ.get("LANGUAGE") or os.environ.get("LANG")
    lang = words.language_for(tag)
    return play(
        args.variant,
        args.players,
        args.target,
        args.seed,
        args.robot,
        sinais=not args.sem_sinais,
        lang=lang,
        deck=None if args.baralho is None else decks[args.baralho],
    )


def cmd_bench(args: argparse.Namespace) -> int:
    """Print engine speed figures as JSON."""
    from engine.tools.bench import run

    if args.points_hands:
        from engine.tools.bench import points_game_shares

        print(json.dumps(points_game_shares(args.points_hands, args.seed), indent=2))
        return 0
    print(json.dumps(run(args.seconds, args.seed), indent=2))
    return 0


def add_engine_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the engine's subcommands on a ``truco`` parser."""
    p = sub.add_parser("replay", help="reproduz cenários JSON e imprime o resultado (JSON Lines)")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.set_defaults(handler=cmd_replay)

    p = sub.add_parser("play", help="joga no terminal contra robôs")
    p.add_argument("variant", nargs="?", default=DEFAULT_VARIANT)
    p.add_argument("--players", type=int, choices=(2, 4), default=2)
    p.add_argument("--target", type=int, default=None, help="padrão: o da variante")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--robot", default="medio", help="nível dos robôs: facil, medio, dificil")
    p.add_argument("--sem-sinais", action="store_true", help="2x2 sem sinais entre parceiros")
    p.add_argument(
        "--baralho",
        choices=("tradicional", "espanhol"),
        default=None,
        help="as cartas: padrão, o da variante (gaudério: espanhol)",
    )
    p.add_argument(
        "--lang", default=None, help="idioma: pt, en, es (padrão: o do sistema, senão pt)"
    )
    p.set_defaults(handler=cmd_play)

    p = sub.add_parser("bench", help="mede a velocidade do motor (JSON)")
    p.add_argument("--seconds", type=float, default=2.0, help="tempo de cada medida")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--points-hands",
        type=int,
        default=0,
        metavar="N",
        help="gaudério: em N mãos de robôs, a parte com envido pedido e com flor",
    )
    p.set_defaults(handler=cmd_bench)

    from engine.tools.arena import add_arena_command  # robots and arena load only when registered

    add_arena_command(sub)

    from engine.tools.train import add_train_command

    add_train_command(sub)


def build_parser() -> tuple[
    argparse.ArgumentParser, argparse._SubParsersAction[argparse.ArgumentParser]
]:
    """The ``truco`` parser with the engine's commands."""
    parser = argparse.ArgumentParser(prog="truco", description="Truco brasileiro.")
    sub = parser.add_subparsers(dest="command", metavar="COMANDO")
    add_engine_commands(sub)
    return parser, sub


def run(parser: argparse.ArgumentParser, argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` and run the chosen command; errors become one line and exit 2."""
    args = parser.parse_args(argv)
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        return handler(args)
    except KeyboardInterrupt:
        return 130
    except (ValueError, OSError) as exc:
        print(f"truco {args.command}: {exc}", file=sys.stderr)
        return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m engine``."""
    parser, _ = build_parser()
    return run(parser, argv)


if __name__ == "__main__":
    sys.exit(main())
