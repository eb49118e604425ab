"""Small helpers to write rule tests as short scripts: ``act(m, "0 play KC", "1 truco")``."""

from __future__ import annotations

import pytest

from engine import Action, Card, ErrorCode, IllegalAction, Match, TableOptions
from engine.cards import parse_cards


def deal(
    variant: str,
    hands: str,
    *,
    vira: str | None = None,
    score: tuple[int, int] = (0, 0),
    dealer: int | None = None,
    **options: object,
) -> Match:
    """A match at a given hand; ``hands`` is seat hands separated by ``|``."""
    seats = [parse_cards(h) for h in hands.split("|")]
    opts = TableOptions(players=len(seats), **options)  # type: ignore[arg-type]
    return Match.from_hand(
        variant,
        opts,
        score=score,
        dealer=len(seats) - 1 if dealer is None else dealer,
        hands=seats,
        vira=Card.parse(vira) if vira else None,
    )


def act(m: Match, *steps: str) -> Match:
    """Apply steps written as ``"<seat> <action>"``, e.g. ``"0 play KC"``."""
    for step in steps:
        seat, text = step.split(" ", 1)
        m.apply(int(seat), Action.parse(text))
    return m


def refused(m: Match, step: str) -> ErrorCode:
    """The error code of a step that must be refused; the state must not change."""
    before = m.to_json()
    with pytest.raises(IllegalAction) as info:
        act(m, step)
    assert m.to_json() == before
    return info.value.code
