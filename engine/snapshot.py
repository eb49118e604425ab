"""A match as JSON: the snapshot the bot stores and the browser table keeps.

``to_dict`` writes every field of a ``Match``; ``from_dict`` restores it, reading older
snapshots (from before sinais or the bets' counts) with their defaults. ``Match.to_json``
and ``Match.from_json`` are these two.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.actions import Action
from engine.cards import Card
from engine.rulesets import TableOptions
from engine.sinais import DEFAULT_CATCH_PERCENT
from engine.state import EnvidoState, HandKind, Phase, Play, TeamBets

if TYPE_CHECKING:  # the match module calls these; it is imported when a snapshot is read
    from engine.match import Match

__all__ = ["SNAPSHOT_VERSION", "from_dict", "to_dict"]

SNAPSHOT_VERSION = 1


def _codes(cards: tuple[Card, ...]) -> list[str]:
    return [c.code for c in cards]


def _plays(table: tuple[Play, ...]) -> list[list[Any]]:
    return [[s, c.code, cov] for s, c, cov in table]


def _cards(codes: list[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in codes)


def _read_plays(rows: list[list[Any]]) -> tuple[Play, ...]:
    return tuple((int(s), Card.parse(c), bool(cov)) for s, c, cov in rows)


def to_dict(m: Match) -> dict[str, Any]:
    """A JSON-ready snapshot of the whole state of ``m`` (``from_dict`` restores it)."""
    o = m.options
    return {
        "version": SNAPSHOT_VERSION,
        "variant": m.ruleset.name,
        "options": {
            "players": o.players,
            "target": o.target,
            "covered_cards": o.covered_cards,
            "ladder": list(o.ladder) if o.ladder is not None else None,
            "timer": o.timer,
            "sinais": o.sinais,
            "catch_percent": o.catch_percent,
            "flor": o.flor,
        },
        "seed": m.seed,
        "hand_number": m.hand_number,
        "dealer": m.dealer,
        "score": list(m.score),
        "dealt": [_codes(h) for h in m.dealt],
        "hands": [_codes(h) for h in m.hands],
        "vira": m.vira.code if m.vira is not None else None,
        "kind": m.kind.name.lower(),
        "phase": m.phase.name.lower(),
        "stake": m.stake,
        "level": m.level,
        "raise_team": m.raise_team,
        "call": m.call,
        "call_team": m.call_team,
        "ran": m.ran,
        "turn": m.turn,
        "leader": m.leader,
        "table": _plays(m.table),
        "past": [_plays(t) for t in m.past],
        "rounds": list(m.rounds),
        "hand_winner": m.hand_winner,
        "points": list(m.points),
        "match_winner": m.match_winner,
        "log": [[s, str(a)] for s, a in m.log],
        "hand_log": [[s, str(a)] for s, a in m.hand_log],
        "bets": [b.to_json() for b in m.bets],
        "signalled": m.signalled,
        "envido": _envido(m.env),
        "flor": list(m.flor),
        "flor_left": m.flor_left,
    }


def _envido(env: EnvidoState | None) -> dict[str, Any] | None:
    if env is None:
        return None
    return {
        "calls": list(env.calls),
        "team": env.team,
        "seat": env.seat,
        "resume": env.resume.name.lower(),
        "declined": env.declined,
        "state": env.state,
        "winner": env.winner,
        "worth": env.worth,
        "winner_seat": env.winner_seat,
        "points": list(env.points),
    }


def _read_envido(data: dict[str, Any] | None) -> EnvidoState | None:
    if data is None:
        return None
    return EnvidoState(
        calls=tuple(str(c) for c in data["calls"]),
        team=int(data["team"]),
        seat=int(data["seat"]),
        resume=Phase[data["resume"].upper()],
        declined=int(data["declined"]),
        state=str(data["state"]),
        winner=data["winner"],
        worth=int(data["worth"]),
        winner_seat=data["winner_seat"],
        points=(int(data["points"][0]), int(data["points"][1])),
    )


def from_dict(data: dict[str, Any]) -> Match:
    """Restore a snapshot made by ``to_dict``; ``ValueError`` if it is not one."""
    from engine.match import Match

    try:
        if data.get("version") != SNAPSHOT_VERSION:
            raise ValueError(f"versão de snapshot desconhecida: {data.get('version')!r}")
        o = data["options"]
        options = TableOptions(
            players=o["players"],
            target=o["target"],
            covered_cards=o["covered_cards"],
            ladder=tuple(o["ladder"]) if o["ladder"] is not None else None,
            timer=o["timer"],
            # snapshots from before sinais existed play with the defaults
            sinais=bool(o.get("sinais", True)),
            catch_percent=int(o.get("catch_percent", DEFAULT_CATCH_PERCENT)),
            flor=bool(o.get("flor", True)),
        )
        m = Match(data["variant"], options, data["seed"], deal=False)
        m.hand_number = data["hand_number"]
        m.dealer = data["dealer"]
        m.score = (data["score"][0], data["score"][1])
        m.dealt = tuple(_cards(h) for h in data["dealt"])
        m.hands = [_cards(h) for h in data["hands"]]
        m.vira = Card.parse(data["vira"]) if data["vira"] is not None else None
        m.strength = m.ruleset.strength_table(m.vira) if m.dealt else m.strength
        m.kind = HandKind[data["kind"].upper()]
        m.phase = Phase[data["phase"].upper()]
        for name in ("stake", "level", "raise_team", "call", "call_team", "ran"):
            setattr(m, name, int(data[name]))
        m.turn = data["turn"]
        m.leader = data["leader"]
        m.table = _read_plays(data["table"])
        m.past = tuple(_read_plays(t) for t in data["past"])
        m.rounds = tuple(data["rounds"])
        m.hand_winner = data["hand_winner"]
        m.points = (data["points"][0], data["points"][1])
        m.match_winner = data["match_winner"]
        m.log = [(int(s), Action.parse(a)) for s, a in data["log"]]
        m.hand_log = [(int(s), Action.parse(a)) for s, a in data["hand_log"]]
        bets = data.get("bets")  # older snapshots have none: the habits start afresh
        if bets is not None:
            m.bets = (TeamBets.from_json(bets[0]), TeamBets.from_json(bets[1]))
        m.signalled = int(data.get("signalled", 0))
        if m.ruleset.envido:  # snapshots from before gaudério are of the other variants
            m.env = _read_envido(data.get("envido"))
            m.flor = tuple(int(s) for s in data.get("flor", ()))
            m.flor_left = int(data.get("flor_left", 0))
        return m
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise ValueError(f"snapshot inválido: {exc}") from None
