"""The tutorial hand: a scripted lesson replayed by the engine, for the site and the bot.

The script (``engine/data/tutorial.json``) is a list of hands in the scenario format
(shared/rules/scenario-format.md); each action also carries a pt-BR ``explain`` and,
when the learner's seat acts, a ``prompt`` telling what to do. ``load_script`` replays
every hand with the engine and fails with ``TutorialError`` as soon as a step stops
being legal, so the lesson can never teach a move the rules refuse.

    tutorial = load_script()
    for hand in tutorial.hands:
        hand.intro, hand.start             # text shown at the deal, learner's View before any move
        for step in hand.steps:
            step.prompt, step.action       # what the learner must do (None for the other seats)
            step.explanation, step.view    # why, and the learner's View after the step

``build_trace()`` is the same lesson as plain JSON (the site's player reads it).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from engine import words
from engine.actions import Action
from engine.errors import IllegalAction
from engine.tools.scenario import load_match, matches_expect, outcome, parse_action
from engine.view import View

TRACE_VERSION = 1
PT = words.get("pt")
"""The lesson is written in pt-BR; its narration is worded by ``engine.words``."""


class TutorialError(ValueError):
    """The tutorial script is malformed or one of its steps is not legal any more."""


def seat_name(seat: int, learner: int, players: int) -> str:
    """How the lesson calls a seat: ``Você``, ``Parceiro`` or ``Adversário``."""
    return PT.seat(seat, learner, players)


def narrate(before: View, seat: int, action: Action, learner: int) -> str:
    """One pt-BR line telling what ``seat`` did, from a view just before the action."""
    who = seat_name(seat, learner, before.players)
    return PT.narrate(who, action, before, own=seat == learner)


@dataclass(frozen=True)
class Step:
    """One action of the lesson and what the learner sees after it."""

    seat: int
    action: Action
    """The action taken; on the learner's steps, the one the learner must choose."""
    prompt: str | None
    """What the learner is asked to do; ``None`` when another seat acts."""
    explanation: str
    """Why the move is made and what it changed (pt-BR)."""
    narration: str
    """One line telling what happened, e.g. ``Adversário: Seis!``."""
    view: View
    """The learner's view just after the step."""

    @property
    def yours(self) -> bool:
        """Whether the learner makes this move."""
        return self.prompt is not None

    def expects(self, action: Action) -> bool:
        """Whether ``action`` is the move this step teaches."""
        return action == self.action


@dataclass(frozen=True)
class TutorialHand:
    """One hand of the lesson."""

    title: str
    intro: str
    """Shown at the deal: the situation, the vira and the manilhas."""
    scenario: Mapping[str, Any]
    """The hand in the scenario format (``truco replay`` accepts it as is)."""
    start: View
    """The learner's view before the first action."""
    steps: tuple[Step, ...]
    result: Mapping[str, Any]
    """The replay outcome (scenario-format output) after the last step."""


@dataclass(frozen=True)
class Tutorial:
    """The whole lesson, replayed and checked by the engine."""

    title: str
    seat: int
    """The learner's seat in every hand."""
    hands: tuple[TutorialHand, ...]

    def steps(self) -> Iterator[tuple[int, Step]]:
        """Every step in order, with the index of its hand."""
        for i, hand in enumerate(self.hands):
            for step in hand.steps:
                yield i, step

    def to_json(self) -> dict[str, Any]:
        """The lesson as JSON-ready data (views as ``View.to_json``)."""
        return {
            "version": TRACE_VERSION,
            "title": self.title,
            "seat": self.seat,
            "hands": [
                {
                    "title": h.title,
                    "intro": h.intro,
                    "variant": h.scenario["variant"],
                    "players": h.start.players,
                    "start": h.start.to_json(),
                    "steps": [
                        {
                            "seat": s.seat,
                            "action": str(s.action),
                            "prompt": s.prompt,
                            "explanation": s.explanation,
                            "narration": s.narration,
                            "view": s.view.to_json(),
                        }
                        for s in h.steps
                    ],
                    "result": dict(h.result),
                }
                for h in self.hands
            ],
        }


def _text(raw: Mapping[str, Any], key: str, where: str) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value.strip():
        raise TutorialError(f"{where}: falta o texto {key!r}")
    return value


def _replay_hand(raw: Any, learner: int, number: int) -> TutorialHand:
    where = f"mão {number}"
    if not isinstance(raw, dict):
        raise TutorialError(f"{where}: deve ser um objeto")
    try:
        m = load_match(raw)
    except IllegalAction as exc:
        raise TutorialError(f"{where}: {PT.refusal(exc)}") from None
    if not 0 <= learner < m.players:
        raise TutorialError(f"{where}: o aluno não está sentado na mesa")
    start = m.view(learner)
    actions = raw.get("actions")
    if not isinstance(actions, list) or not actions:
        raise TutorialError(f"{where}: falta a lista de ações")
    steps: list[Step] = []
    for i, item in enumerate(actions):
        at = f"{where}, passo {i + 1}"
        try:
            seat, action = parse_action(item)
            before = m.view(learner)
            m.apply(seat, action)
        except IllegalAction as exc:
            raise TutorialError(
                f"{at} ({item!r}) não é legal: {exc.code}: {PT.refusal(exc)}"
            ) from None
        prompt = _text(item, "prompt", at) if seat == learner else None
        if seat != learner and "prompt" in item:
            raise TutorialError(f"{at}: só os passos do aluno têm prompt")
        steps.append(
            Step(
                seat=seat,
                action=action,
                prompt=prompt,
                explanation=_text(item, "explain", at),
                narration=narrate(before, seat, action, learner),
                view=m.view(learner),
            )
        )
    result = outcome(m, None)
    expect = raw.get("expect")
    if expect is not None and not matches_expect(result, expect):
        raise TutorialError(f"{where}: resultado {result} difere do esperado {expect}")
    return TutorialHand(
        title=_text(raw, "title", where),
        intro=_text(raw, "intro", where),
        scenario=raw,
        start=start,
        steps=tuple(steps),
        result=result,
    )


def read_script(path: str | Path | None = None) -> dict[str, Any]:
    """The raw script: ``path``, or the one shipped in ``engine/data/tutorial.json``."""
    try:
        if path is None:
            text = resources.files("engine").joinpath("data/tutorial.json").read_text("utf-8")
        else:
            text = Path(path).read_text(encoding="utf-8")
        data = json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise TutorialError(f"não consegui ler o roteiro do tutorial: {exc}") from None
    if not isinstance(data, dict):
        raise TutorialError("o roteiro do tutorial deve ser um objeto JSON")
    return data


def load_script(path: str | Path | None = None) -> Tutorial:
    """The lesson, replayed by the engine; ``TutorialError`` if any step is not legal."""
    return from_data(read_script(path))


def from_data(data: Mapping[str, Any]) -> Tutorial:
    """The lesson from an already parsed script (see ``load_script``)."""
    learner = data.get("seat", 0)
    if not isinstance(learner, int):
        raise TutorialError("seat deve ser um inteiro")
    hands = data.get("hands")
    if not isinstance(hands, list) or not hands:
        raise TutorialError("o roteiro precisa de pelo menos uma mão")
    return Tutorial(
        title=_text(data, "title", "roteiro"),
        seat=learner,
        hands=tuple(_replay_hand(h, learner, i + 1) for i, h in enumerate(hands)),
    )


def build_trace(path: str | Path | None = None) -> dict[str, Any]:
    """The replayed lesson as JSON-ready data for the site's player."""
    return load_script(path).to_json()
