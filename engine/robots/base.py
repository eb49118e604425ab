"""The robot interface, per-decision randomness and the uniformly random player."""

from __future__ import annotations

import hashlib
import random
from typing import Protocol

from engine.actions import Action
from engine.match import HandKind
from engine.view import View


class Robot(Protocol):
    """Anything that picks one of ``view.legal`` from a seat's view."""

    level: str
    """Short name: ``facil``, ``medio``, ``dificil`` or ``random``."""

    def choose(self, view: View) -> Action:
        """One action out of ``view.legal``."""
        ...


def decision_rng(seed: int, view: View) -> random.Random:
    """A generator that depends only on the robot's seed and the view.

    Deriving the randomness from what the seat sees (instead of a stream that
    advances with every call) makes each decision a pure function of
    (seed, view): replayable, and provably blind to hidden cards.
    """
    key = "|".join(
        (
            str(seed),
            view.variant,
            str(view.seat),
            str(view.hand_number),
            str(view.dealer),
            str(view.score),
            ",".join(c.code for c in view.hand),
            str(view.vira),
            ";".join(f"{s}{a}" for s, a in view.history),
            str(view.phase),
        )
    )
    digest = hashlib.blake2b(key.encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))


class SeededRobot:
    """What every robot does first: the only legal action is taken without thinking, a
    blind card of the iron hand (R8) is drawn at random (no card tells anything), and
    every other decision goes to ``decide`` with the generator of (seed, view)."""

    level = "seeded"

    def __init__(self, seed: int = 0) -> None:
        """A robot whose ``seed`` fixes its choice for each view."""
        self.seed = seed

    def choose(self, view: View) -> Action:
        """One action out of ``view.legal``."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        rng = decision_rng(self.seed, view)
        if view.kind == HandKind.IRON:
            return rng.choice(legal)
        return self.decide(view, rng)

    def decide(self, view: View, rng: random.Random) -> Action:
        """The robot's own choice among two or more legal actions, outside the iron hand."""
        raise NotImplementedError


class RandomRobot(SeededRobot):
    """Plays a uniformly random legal action (the arena's baseline)."""

    level = "random"

    def decide(self, view: View, rng: random.Random) -> Action:
        """A uniformly random action out of ``view.legal``."""
        return rng.choice(view.legal)
