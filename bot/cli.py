"""The ``truco`` command: the engine's commands plus ``bot`` (and ``sandbox``)."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from engine.robots import LEVELS
from engine.tools import cli as engine_cli


def cmd_bot(args: argparse.Namespace) -> int:
    """Run the Telegram bot with long polling (configuration from the environment)."""
    from telegram.error import InvalidToken

    from bot.config import Config, ConfigError
    from bot.domain import DatabaseError
    from bot.ops import logs

    logs.setup(verbose=args.verbose)
    try:
        config = Config.from_env()
        logs.protect([config.token, *([config.webhook_secret] if config.webhook_secret else [])])
        from bot.process import run

        return run(config)
    except (ConfigError, DatabaseError) as exc:
        print(f"truco bot: {exc}", file=sys.stderr)
        return 2
    except InvalidToken:
        print(
            "truco bot: o Telegram recusou o TELEGRAM_BOT_TOKEN (confira o token com o @BotFather)",
            file=sys.stderr,
        )
        return 2


def cmd_bot_bench(args: argparse.Namespace) -> int:
    """Print the bot's figures against the fake Bot API as JSON."""
    import json

    from bot.domain import DatabaseError

    try:
        from bot.tools.bench import BenchError, run
    except ModuleNotFoundError as exc:
        if not (exc.name or "").startswith("bot.tools"):
            raise
        print("truco bot-bench: roda de um checkout do projeto (bot/tools/)", file=sys.stderr)
        return 2

    logging.basicConfig(level=logging.WARNING)
    try:
        figures = run(
            args.tables,
            args.seconds,
            args.robots,
            people=args.people,
            pace=args.pace,
            reset=args.reset,
            processes=args.processes,
            clients=args.clients,
            noise=args.noise,
            warmup=args.warmup,
            matches=args.matches,
        )
    except (BenchError, DatabaseError) as exc:
        print(f"truco bot-bench: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(figures, indent=2))
    return 0


def add_bot_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``truco bot`` (and ``truco sandbox`` when the sandbox is present)."""
    p = sub.add_parser("bot", help="roda o bot do Telegram (long polling)")
    p.add_argument("-v", "--verbose", action="store_true", help="mostra o log de depuração")
    p.set_defaults(handler=cmd_bot)
    p = sub.add_parser(
        "bot-bench", help="mede o bot com muitas mesas no Telegram de mentira (JSON)"
    )
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument(
        "--robots",
        choices=(*LEVELS, "mix"),
        default="mix",
        help="nível dos robôs (mix: fácil, médio e difícil alternados)",
    )
    p.add_argument(
        "--people",
        type=int,
        choices=(1, 4),
        default=1,
        help="pessoas por mesa: 1 (contra um robô) ou 4 (2×2 só de pessoas)",
    )
    p.add_argument(
        "--pace",
        choices=("flat", "human", "fast"),
        default="flat",
        help=(
            "flat: toca assim que pode; human: pensa de 1 a 4 s antes de cada toque; "
            "fast: 1 s antes de cada toque, com /cancelar de vez em quando e os números "
            "de cada grupo (chamadas avisadas em 2 s, silêncio, pico por minuto)"
        ),
    )
    p.add_argument(
        "--reset",
        action="store_true",
        help="apaga as tabelas do bot no banco de DATABASE_URL antes de medir",
    )
    p.add_argument(
        "--processes",
        type=int,
        default=0,
        help="réplicas webhook (truco bot) no PostgreSQL de DATABASE_URL; 0: o bot neste processo",
    )
    p.add_argument(
        "--clients",
        choices=("buttons", "miniapp"),
        default="buttons",
        help="buttons: as pessoas tocam os botões da mão no privado; miniapp: jogam no Mini App",
    )
    p.add_argument(
        "--noise",
        choices=("all", "calls", "end"),
        default="all",
        help="o que cada grupo ouve da partida (/config Avisos): tudo, só trucos e o fim, só o fim",
    )
    p.add_argument(
        "--warmup",
        type=float,
        default=0.0,
        help="segundos do início (mesas abrindo) fora da contagem de chamadas e mãos",
    )
    p.add_argument(
        "--matches",
        choices=("short", "full"),
        default="short",
        help="short: a pessoa toca o primeiro lance e aceita todo truco (partidas de poucas "
        "mãos); full: joga como gente (carta ao acaso, truco às vezes, corre da maioria dos "
        "trucos), e a partida até 12 dura o que dura entre pessoas",
    )
    p.set_defaults(handler=cmd_bot_bench)
    from bot.sandbox.runner import add_sandbox_command

    add_sandbox_command(sub)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``truco`` console script."""
    parser, sub = engine_cli.build_parser()
    add_bot_commands(sub)
    return engine_cli.run(parser, argv)


if __name__ == "__main__":
    sys.exit(main())
