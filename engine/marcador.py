"""The marcador: a scoreboard for a match played with a real deck (the site and ``/marcador``).

Nobody's cards are known here; people say who took each hand and what it was worth, and the
marcador keeps the score by the variant's rules: which values a hand may be worth right now
(R2, R6), the mão de onze/dez and iron-hand warnings (R7, R8), the score capped at the target
and the winner (R9). A ``Marcador`` is an immutable value: ``add`` and ``undo`` return a new one,
and ``to_json``/``from_json`` round-trip it (the bot stores it, the site sends its numbers to
the page with ``site_config``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from engine import words
from engine.envido import FLOR_WORTH, falta_value, worth_table
from engine.match import HandKind
from engine.rulesets import (
    ALL_RULESETS,
    DEFAULT_VARIANT,
    MAX_TARGET,
    MIN_TARGET,
    Ruleset,
    TableOptions,
    get_ruleset,
)
from engine.words import Words


def _(text: str) -> str:
    """Marks a text for the catalogs (``engine.words.extract``); it is worded when shown."""
    return text


DEFAULT_NAMES = (_("Nós"), _("Eles"))
"""The teams' names until someone types theirs (worded by ``site_config``)."""
MAX_NAME = 24
"""Longest team name kept (longer ones are cut)."""


POINTS_KINDS = ("envido", "flor")
"""What a gaudério table scores besides its hands (R13.3, R13.4)."""
ENVIDO_VALUES = tuple(
    sorted(
        {d for _, _, d in worth_table()} | {a for _, a, _ in worth_table() if isinstance(a, int)}
    )
)
"""Every worth an envido may pay, accepted or declined, but the falta (R13.3's table)."""
MAX_FLORS = 4
"""At most one flor per seat of a 2×2 table; the best flor takes 3 for each (R13.4)."""


def clean_name(name: str, default: str) -> str:
    """A team name as shown: one line, trimmed, at most ``MAX_NAME`` characters."""
    text = " ".join(str(name).split())[:MAX_NAME]
    return text or default


@dataclass(frozen=True)
class Marcador:
    """The score of one match with a real deck, and every hand that made it."""

    variant: str = DEFAULT_VARIANT
    target: int = 12
    ladder: tuple[int, ...] | None = None
    """A house-rule ladder (mineiro 4-6-10-12); ``None`` = the variant's."""
    names: tuple[str, str] = DEFAULT_NAMES
    hands: tuple[tuple[int, int], ...] = field(default=())
    """Every hand scored so far: (team, points), oldest first."""

    def __post_init__(self) -> None:
        """Check the table options (``ValueError`` with a pt-BR reason)."""
        rs = get_ruleset(self.variant)
        TableOptions(target=self.target, ladder=self.ladder).validated(rs)
        if rs.name != self.variant:
            object.__setattr__(self, "variant", rs.name)
        names = (
            clean_name(self.names[0], DEFAULT_NAMES[0]),
            clean_name(self.names[1], DEFAULT_NAMES[1]),
        )
        object.__setattr__(self, "names", names)

    @property
    def ruleset(self) -> Ruleset:
        """The variant's rules."""
        return get_ruleset(self.variant)

    @property
    def score(self) -> tuple[int, int]:
        """Points of each team, never past the target (R9)."""
        s = [0, 0]
        for team, points in self.hands:
            s[team] = min(self.target, s[team] + points)
        return s[0], s[1]

    @property
    def winner(self) -> int | None:
        """The team that reached the target, if any."""
        s = self.score
        for team in (0, 1):
            if s[team] >= self.target:
                return team
        return None

    @property
    def threshold(self) -> int:
        """From this score on a team plays the mão de onze/dez (R7)."""
        return self.ruleset.threshold(self.target)

    @property
    def kind(self) -> HandKind:
        """The kind of the next hand: normal, mão de onze/dez or iron hand."""
        a, b = self.score
        t = self.threshold
        if a >= t and b >= t:
            return HandKind.IRON
        if a >= t or b >= t:
            return HandKind.SPECIAL
        return HandKind.NORMAL

    def values(self, team: int | None = None) -> tuple[int, ...]:
        """What the next hand may be worth to ``team``, smallest first (that team's buttons).

        Only scores the rules can produce: in a mão de onze/dez (R7) the team at the threshold
        either plays and wins the special value, or runs and the other team scores the plain
        value; so that team's only score is the special value, the other's either value. With
        no ``team``, every value the hand may be worth to either team.
        """
        rs = self.ruleset
        kind = self.kind
        if self.winner is not None:
            return ()
        if kind == HandKind.IRON:
            return (rs.hand_value,)
        if kind == HandKind.SPECIAL:
            if team is not None and self.score[team] >= self.threshold:
                return (rs.special_hand_value,)
            return tuple(sorted({rs.hand_value, rs.special_hand_value}))
        ladder = self.ladder or rs.ladder
        return (rs.hand_value, *ladder)

    def points_values(self, kind: str) -> tuple[int, ...]:
        """What the points game may pay now (gaudério): ``envido`` (R13.3's worths and the
        falta at this score) or ``flor`` (3 for each flor at the table); empty elsewhere."""
        if self.winner is not None or not self.ruleset.envido:
            return ()
        if kind == "envido":
            falta = falta_value(self.score, self.target)
            return tuple(sorted({*ENVIDO_VALUES, falta}))
        if kind == "flor":
            return tuple(FLOR_WORTH * n for n in range(1, MAX_FLORS + 1))
        return ()

    def add(self, team: int, points: int, kind: str = "mao") -> Marcador:
        """The score after ``team`` took a hand worth ``points`` (``kind`` ``mao``), or won an
        envido or flor worth it (gaudério); ``ValueError`` if it cannot."""
        if team not in (0, 1):
            return self._add(team, points, ())
        allowed = self.values(team) if kind == "mao" else self.points_values(kind)
        return self._add(team, points, allowed)

    def _add(self, team: int, points: int, allowed: tuple[int, ...]) -> Marcador:
        if team not in (0, 1):
            raise ValueError("time inválido")
        if self.winner is not None:
            raise ValueError("a partida já acabou")
        if points not in allowed:
            raise ValueError(
                f"essa mão não pode valer {points} agora (vale {', '.join(map(str, allowed))})"
            )
        return replace(self, hands=(*self.hands, (team, points)))

    def undo(self) -> Marcador:
        """The score before the last hand (the same score if nothing was marked)."""
        return replace(self, hands=self.hands[:-1])

    def renamed(self, team: int, name: str) -> Marcador:
        """The same score with a team renamed."""
        names = list(self.names)
        names[team] = name
        return replace(self, names=(names[0], names[1]))

    def restarted(self) -> Marcador:
        """A new match with the same table and names."""
        return replace(self, hands=())

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready value (``from_json`` reads it back)."""
        return {
            "variant": self.variant,
            "target": self.target,
            "ladder": list(self.ladder) if self.ladder else None,
            "names": list(self.names),
            "hands": [list(h) for h in self.hands],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Marcador:
        """The marcador of ``to_json``; ``ValueError`` if the data is not one."""
        try:
            marcador = cls(
                variant=str(data["variant"]),
                target=int(data["target"]),
                ladder=tuple(int(x) for x in data["ladder"]) if data.get("ladder") else None,
                names=(str(data["names"][0]), str(data["names"][1])),
            )
            for team, points, *_kind in data["hands"]:  # the page also keeps each kind
                # a score stored before each team had its own values (the onze team's +1 at
                # 11) is still read back: any value the hand could be worth to either team
                allowed = (
                    *marcador.values(),
                    *(v for k in POINTS_KINDS for v in marcador.points_values(k)),
                )
                marcador = marcador._add(int(team), int(points), allowed)
        except (KeyError, TypeError, IndexError) as exc:
            raise ValueError(f"marcador inválido: {exc}") from None
        return marcador


WARNINGS = {
    "winner": _("🏆 Vitória de {winner}!"),
    "iron": _(
        "Mão de ferro ({threshold} a {threshold}): todos jogam às cegas, sem truco; "
        "quem ganhar a mão ganha a partida."
    ),
    "special": _(
        "{Special} para {team}: vejam as cartas do parceiro e decidam antes de jogar. "
        "Jogando, a mão vale {special_value}; correndo, {hand_value} para {other}. Sem truco."
    ),
}
"""The marcador's warnings as templates: the bot fills them here, the site's page in the
browser (so both say the same words)."""


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def warning(p: Marcador, w: Words | None = None) -> str:
    """The warning for the next hand: mão de onze/dez, iron hand, or the end of the match."""
    w = w or words.get()
    rs = p.ruleset
    if p.winner is not None:
        return w.gettext(WARNINGS["winner"]).format(winner=p.names[p.winner])
    kind = p.kind
    if kind == HandKind.IRON:
        return w.gettext(WARNINGS["iron"]).format(threshold=p.threshold)
    if kind == HandKind.SPECIAL:
        team = 0 if p.score[0] >= p.threshold else 1
        return w.gettext(WARNINGS["special"]).format(
            Special=_capital(w.special_hand(rs)),
            team=p.names[team],
            other=p.names[1 - team],
            special_value=rs.special_hand_value,
            hand_value=rs.hand_value,
        )
    return ""


def site_config(lang: str = words.SOURCE) -> dict[str, Any]:
    """What the site's marcador needs, from the rulesets: per variant and target, the values
    of each kind of hand and the threshold, so the page does arithmetic and knows no rule;
    and its words (the warnings as templates, filled in the browser)."""
    w = words.get(lang)
    variants = []
    for rs in ALL_RULESETS.values():
        ladders = []
        for ladder in rs.ladder_options:
            base = Marcador(rs.name, ladder=ladder if ladder != rs.ladder else None)
            ladders.append({"ladder": list(ladder), "normal": list(base.values())})
        variants.append(
            {
                "name": rs.name,
                "title": w.variant(rs),
                "special": w.special_hand(rs) if rs.special_hands else "",
                "hand_value": rs.hand_value,
                # gaudério: a match to 24 (18 in 1×1), and the points game's values; the
                # falta envido (what the leader still needs) is counted by the page
                "default_target": rs.default_target,
                "min_target": rs.min_target,
                "envido_values": list(ENVIDO_VALUES) if rs.envido else [],
                "flor_values": (
                    [FLOR_WORTH * n for n in range(1, MAX_FLORS + 1)] if rs.envido else []
                ),
                "special_value": rs.special_hand_value,
                "ladders": ladders,
                # in a mão de onze/dez: the values of the team at the threshold, and the other's
                "special_values": {
                    "team": [rs.special_hand_value],
                    "other": sorted({rs.hand_value, rs.special_hand_value}),
                },
                "iron_values": [rs.hand_value],
                "thresholds": {str(t): rs.threshold(t) for t in range(MIN_TARGET, MAX_TARGET + 1)},
            }
        )
    return {
        "variants": variants,
        "target": {"min": MIN_TARGET, "max": MAX_TARGET, "default": 12},
        "names": [w.gettext(n) for n in DEFAULT_NAMES],
        "max_name": MAX_NAME,
        "warnings": {k: w.gettext(t) for k, t in WARNINGS.items()},
    }
