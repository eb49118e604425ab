"""The JSON scenario format and ``truco replay`` (docs-dev/SCENARIOS.md)."""

from __future__ import annotations

from typing import Any

from engine import actions as A
from engine import words
from engine.actions import SIMPLE, Act, Action
from engine.cards import Card
from engine.errors import ErrorCode, IllegalAction
from engine.match import Match, Phase
from engine.rulesets import TableOptions, get_ruleset


def _invalid(reason: str, **params: object) -> IllegalAction:
    return IllegalAction(ErrorCode.INVALID_SCENARIO, reason, **params)


def load_match(data: Any, seed: int = 0) -> Match:
    """The match at the start of the scenario's hand; ``IllegalAction(invalid_scenario)`` if bad.

    ``seed`` feeds the match's chance steps other than the deal (the catching of signals,
    which scenarios do not have; the tutorial's lesson on sinais chooses one).
    """
    if not isinstance(data, dict):
        raise _invalid("not_object")
    try:
        ruleset = get_ruleset(str(data["variant"]))
        players = data.get("players", 2)
        raw = data.get("options") or {}
        if not isinstance(raw, dict):
            raise _invalid("options_not_object")
        unknown = set(raw) - {"target", "covered_cards", "ladder", "flor"}
        if unknown:
            raise _invalid("unknown_option", option=sorted(unknown)[0])
        options = TableOptions(
            players=players,
            target=raw.get("target", ruleset.default_target_for(players)),
            covered_cards=bool(raw.get("covered_cards", True)),
            ladder=tuple(raw["ladder"]) if raw.get("ladder") is not None else None,
            flor=bool(raw.get("flor", True)),
        ).validated(ruleset)
        hands = [tuple(Card.parse(c) for c in hand) for hand in data["hands"]]
        vira = Card.parse(data["vira"]) if data.get("vira") is not None else None
        score = data.get("score", [0, 0])
        if len(score) != 2 or not all(isinstance(s, int) for s in score):
            raise _invalid("score_pair")
        dealer = data.get("dealer", 0)
        if not isinstance(dealer, int) or not 0 <= dealer < players:
            raise _invalid("dealer_out")
    except KeyError as exc:
        raise _invalid("missing_field", field=exc.args[0]) from None
    except (ValueError, TypeError) as exc:
        raise _invalid("bad_value", text=str(exc)) from None
    return Match.from_hand(
        ruleset,
        options,
        score=(score[0], score[1]),
        dealer=dealer,
        hands=hands,
        vira=vira,
        seed=seed,
    )


def parse_action(raw: Any) -> tuple[int, Action]:
    """One scenario action as (seat, Action); ``IllegalAction(invalid_scenario)`` if malformed."""
    if not isinstance(raw, dict) or not isinstance(raw.get("seat"), int):
        raise _invalid("action_fields")
    try:
        act = Act.from_code(str(raw.get("act", "")))
    except KeyError:
        act = None
    # sinais are not part of the scenario format (a scenario has no seed for the catch),
    # and a flor is sung by the engine, never played (R13.4)
    if act is None or act == Act.SIGNAL or act == Act.FLOR:
        raise _invalid("unknown_action", act=str(raw.get("act")))
    if act in (Act.PLAY, Act.COVER):
        try:
            card = Card.parse(str(raw["card"]))
        except (KeyError, ValueError):
            raise _invalid("needs_card", act=act.code) from None
        return raw["seat"], (A.PLAY if act == Act.PLAY else A.COVER)[card]
    if act == Act.BLIND:
        raise _invalid("blind_in_scenario")
    return raw["seat"], SIMPLE[act]


def outcome(m: Match | None, error: dict[str, Any] | None) -> dict[str, Any]:
    """The output object of ``truco replay`` for a match (``None`` when it never started)."""
    if m is None:
        return {
            "finished": False,
            "rounds": [],
            "hand_winner": None,
            "points": [0, 0],
            "score": None,
            "match_winner": None,
            "stake": None,
            "envido": None,
            "flor": [],
            "error": error,
        }
    finished = m.phase >= Phase.HAND_OVER
    return {
        "finished": finished,
        "rounds": list(m.rounds),
        "hand_winner": m.hand_winner if finished else None,
        "points": list(m.points),
        "score": list(m.score),
        "match_winner": m.match_winner,
        "stake": m.stake,
        "envido": envido_outcome(m),
        "flor": [seat % 2 for seat in m.flor],
        "error": error,
    }


def envido_outcome(m: Match) -> dict[str, Any] | None:
    """The ``envido`` field of the output: ``None`` when no envido was called (R13.6)."""
    env = m.env
    if env is None or not env.calls:
        return None
    return {
        "called": list(env.calls),
        "winner": env.winner,
        "points": list(env.points),
        "worth": env.worth,
    }


def _error(index: int | None, exc: IllegalAction) -> dict[str, Any]:
    """The ``error`` object of the format: where, the stable code, a pt-BR message."""
    return {"index": index, "code": str(exc.code), "message": words.get("pt").refusal(exc)}


def replay(data: Any) -> dict[str, Any]:
    """Replay one scenario object and return its outcome (errors are reported, not raised)."""
    try:
        m = load_match(data)
    except IllegalAction as exc:
        return outcome(None, _error(None, exc))
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        return outcome(m, _error(None, _invalid("actions_not_list")))
    for i, raw in enumerate(actions):
        try:
            seat, action = parse_action(raw)
            m.apply(seat, action)
        except IllegalAction as exc:
            return outcome(m, _error(i, exc))
    return outcome(m, None)


def matches_expect(result: Any, expect: Any) -> bool:
    """Whether ``result`` agrees with every field ``expect`` gives (nested objects: a subset)."""
    if isinstance(expect, dict):
        return isinstance(result, dict) and all(
            k in result and matches_expect(result[k], v) for k, v in expect.items()
        )
    return bool(result == expect)
