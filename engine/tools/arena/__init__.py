"""``truco arena``: many mirrored matches between two players, with figures as JSON.

A side is a built-in robot (``robot:facil``, ``robot:medio``, ``robot:dificil``; add
``:sem-sinais`` for one that ignores signals, R12), a sparring robot with one betting
style (``robot:tight``, ``robot:loose``, ``robot:bluffer``, ``robot:honest``,
``robot:accepter``, ``robot:solid``, ``robot:probe``; see ``engine.robots.sparring``), ``random`` (a
uniformly random legal action) or an outside program (``exec:COMMAND``) that speaks the
JSON Lines protocol of docs-dev/arena-protocol.md.

Fair by construction: deal ``i`` (seed ``seed + i``, first dealer ``i % players``) is
played twice, once with each side on team 0, so both sides hold the same cards.

The command lives in modules of one job each: ``protocol`` (the players and the outside
program's JSON Lines), ``driver`` (the mirrored matches and the tallies), ``figures``
(per-side figures and the machine), ``results`` (the results file) and ``cli``;
``deviations`` (``python -m engine.tools.arena.deviations``) plays the same matches and
counts, decision by decision with the real cards, what one robot's choices that another
would not make were worth.
"""

from __future__ import annotations

from engine.stats import percentile, wilson
from engine.tools.arena.cli import add_arena_command, cmd_arena
from engine.tools.arena.driver import (
    MAX_HANDS,
    PairResult,
    Setup,
    Tally,
    arena,
    late_raise,
    make_player,
    play_match,
    play_pair,
    run_pairs,
    tally_bet,
)
from engine.tools.arena.figures import load_average, machine, summarize
from engine.tools.arena.protocol import (
    PROTOCOL_VERSION,
    ExecPlayer,
    Forfeit,
    Player,
    RobotPlayer,
    Side,
    end_message,
    parse_answer,
    start_message,
)
from engine.tools.arena.results import save_run

__all__ = [
    "MAX_HANDS",
    "PROTOCOL_VERSION",
    "ExecPlayer",
    "Forfeit",
    "PairResult",
    "Player",
    "RobotPlayer",
    "Setup",
    "Side",
    "Tally",
    "add_arena_command",
    "arena",
    "cmd_arena",
    "end_message",
    "late_raise",
    "load_average",
    "machine",
    "make_player",
    "parse_answer",
    "percentile",
    "play_match",
    "play_pair",
    "run_pairs",
    "save_run",
    "start_message",
    "summarize",
    "tally_bet",
    "wilson",
]
