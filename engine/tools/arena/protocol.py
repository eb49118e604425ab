"""The arena's players and the JSON Lines protocol an outside program speaks
(docs-dev/arena-protocol.md): sides as written on the command line, built-in robots,
outside programs, their answers and the start and end messages."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import os
import select
import shlex
import shutil
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from engine.actions import Action
from engine.match import Match
from engine.robots import (
    LEVELS,
    Deaf,
    RandomRobot,
    Robot,
    get_robot,
    normalize_level,
    robot_signal,
)
from engine.robots.sparring import SPARRING, get_sparring
from engine.view import View

PROTOCOL_VERSION = 3
"""3: gaudério's view fields and acts (2: one program per seat, start and end messages; 1: one
program per side)."""


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
    """Whether the robot uses signals (``robot:medio:sem-sinais`` ignores them: ``Deaf``, a
    sparring robot's side as well, ``robot:dificil-busca:sem-sinais``)."""

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
                # as it plays at a table (those that signal, signal), or deaf with the suffix
                return Side(text, "robot", level=level, sinais=not extra)
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
            sparring = get_sparring(side.level, seed)
            self.robot = sparring if side.sinais else Deaf(sparring)
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
