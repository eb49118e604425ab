"""The table of the site's "Jogar agora" page: one person against the robots, in the browser.

The page runs this module in Pyodide (site/jogar/motor.js) and only draws what it returns:
the rules, the robots and the words come from the engine, as in the bot. A person sits at
seat 0; the other seats are robots of one level (in 2×2 seat 2 is the person's robot
partner). Everything the page draws is read from the person's own view, so the page knows
no more than a player at a real table.

Robots answer only when it is their turn under R6's robot-partner decision: a robot partner
never answers a call (or takes the mão de onze/dez decision) before its person has, and then
follows them. Every method returns a JSON string (the page stores ``snapshot()`` in local
storage, so a match survives a reload).
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import asdict, dataclass
from typing import Any

from engine import words
from engine.actions import Act, Action
from engine.cards import SPANISH_RANKS, SPANISH_SUITS, Card, DeckStyle
from engine.errors import IllegalAction
from engine.match import HandKind, Match, Phase
from engine.robots import LEVELS, get_robot, normalize_level
from engine.robots.partners import follows_partner, waits_for_partner
from engine.rulesets import MAX_TARGET, MIN_TARGET, RULESETS, TableOptions, get_ruleset
from engine.view import SeenPlay, View

PERSON = 0
"""The person's seat."""
SNAPSHOT_VERSION = 1

PT = words.get("pt")
"""The page is pt-BR; names of cards, calls, hands and levels come from ``engine.words``."""
LEVEL_NAMES = {level: PT.level(level) for level in LEVELS}


@dataclass(frozen=True)
class Setup:
    """What the person chose before dealing: the variant and the table options (R2)."""

    variant: str = "paulista"
    players: int = 2
    level: str = "medio"
    target: int = 12
    covered_cards: bool = True
    ladder: tuple[int, ...] | None = None

    def validated(self) -> Setup:
        """This setup with canonical names; ``ValueError`` with a pt-BR reason if it is wrong."""
        rs = get_ruleset(self.variant)
        level = normalize_level(self.level)
        ladder = tuple(self.ladder) if self.ladder else None
        options = TableOptions(
            players=self.players,
            target=self.target,
            covered_cards=self.covered_cards,
            ladder=ladder if ladder != rs.ladder else None,
        ).validated(rs)
        return Setup(
            variant=rs.name,
            players=options.players,
            level=level,
            target=options.target,
            covered_cards=options.covered_cards,
            ladder=options.ladder,
        )

    def options(self) -> TableOptions:
        """The engine's table options."""
        return TableOptions(
            players=self.players,
            target=self.target,
            covered_cards=self.covered_cards,
            ladder=self.ladder,
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Setup:
        """A setup from the page's form (unknown keys are ignored); validated."""
        ladder = data.get("ladder")
        return cls(
            variant=str(data.get("variant", "paulista")),
            players=int(data.get("players", 2)),
            level=str(data.get("level", "medio")),
            target=int(data.get("target", 12)),
            covered_cards=bool(data.get("covered_cards", True)),
            ladder=tuple(int(x) for x in ladder) if ladder else None,
        ).validated()


# ------------------------------------------------------------------ words


def card_json(card: Card, manilhas: tuple[Card, ...] = ()) -> dict[str, Any]:
    """A card as the page draws it, in both deck styles (R11)."""
    return {
        "code": card.code,
        "name": PT.card_name(card),
        "trad": card.rank.code,
        "naipe": card.suit.symbol,
        "esp": SPANISH_RANKS[card.rank],
        "naipe_esp": SPANISH_SUITS[card.suit],
        "esp_name": PT.card(card, DeckStyle.SPANISH),
        "manilha": card in manilhas,
    }


def seat_name(seat: int, players: int) -> str:
    """How the page names a seat."""
    if seat == PERSON:
        return "Você"
    if players == 4 and seat == 2:
        return "Parceiro"
    if players == 2:
        return "Robô"
    return "Robô da direita" if seat == 1 else "Robô da esquerda"


def team_name(team: int) -> str:
    """The person's team is "Nós"."""
    return "Nós" if team == 0 else "Eles"


def special_name(variant: str) -> str:
    """``mão de onze`` or ``mão de dez`` (R7)."""
    return PT.special_hand(get_ruleset(variant))


def call_name(view: View, step: int | None) -> str:
    """``Truco!``, ``Seis!``, ``Nove!``, ``Doze!`` for a ladder step."""
    return PT.shout(step, view.ruleset)


def action_label(action: Action, view: View) -> str:
    """The text of the button for one legal action."""
    act = action.act
    if act is Act.PLAY and action.card is not None:
        return action.card.label
    if act is Act.COVER and action.card is not None:
        return f"{action.card.label} coberta"
    if act is Act.BLIND:
        return f"{(action.slot or 0) + 1}ª carta"
    if act is Act.TRUCO or act is Act.RAISE:
        return call_name(view, view.next_step)
    if act is Act.ACCEPT:
        return "Desce!"
    if act is Act.RUN:
        return "Corro"
    if act is Act.PLAY11:
        return "Vamos jogar"
    if act is Act.RUN11:
        return "Correr"
    return str(action)


def speech_texts(view: View) -> dict[int, str]:
    """What each seat said in this hand and still shows (a card played clears it).

    The hand's history is walked with the ladder step it reached, so each call is named
    by what was asked (truco, seis, nove, doze) and each answer by what it did.
    """
    said: dict[int, str] = {}
    step = -1  # ladder step of the call on the table
    special = special_name(view.variant)
    for seat, action in view.history:
        act = action.act
        if act in (Act.PLAY, Act.COVER, Act.BLIND):
            said.pop(seat, None)
            continue
        if act is Act.SIGNAL:
            continue  # a signal is a face, not a word
        if act is Act.TRUCO or act is Act.RAISE:
            step += 1
            text = PT.shout(step, view.ruleset)
            said[seat] = text if act is Act.TRUCO else f"Desce! {text}"
        elif act is Act.ACCEPT:
            said[seat] = "Desce!"
        elif act is Act.RUN:
            said[seat] = "Corro!"
        elif act is Act.PLAY11:
            said[seat] = f"Vamos jogar a {special}!"
        elif act is Act.RUN11:
            said[seat] = f"Corro da {special}."
    return said


def describe(seat: int, action: Action, players: int, step: int, variant: str) -> str:
    """One line of the hand's log."""
    who = seat_name(seat, players)
    act = action.act
    rs = get_ruleset(variant)
    if act is Act.PLAY and action.card is not None:
        return f"{who}: {action.card.label}"
    if act is Act.COVER:
        if action.card is not None:
            return f"{who}: {action.card.label} coberta"
        return f"{who}: carta coberta"
    if act is Act.TRUCO:
        return f"{who}: {PT.call(step, rs)}!"
    if act is Act.RAISE:
        return f"{who}: desce, e {PT.call(step, rs)}!"
    if act is Act.ACCEPT:
        return f"{who}: desce!"
    if act is Act.RUN:
        return f"{who} correu"
    if act is Act.PLAY11:
        return f"{who} topou jogar a {special_name(variant)}"
    if act is Act.RUN11:
        return f"{who} correu da {special_name(variant)}"
    if act is Act.BLIND and action.slot is not None:
        return f"{who}: {action.slot + 1}ª carta, às cegas"
    if act is Act.SIGNAL:
        return f"{who} fez um sinal"
    return f"{who}: {action}"


def hand_log(view: View) -> list[str]:
    """The hand so far in words, from this seat's history (covered cards stay hidden)."""
    lines = []
    step = -1
    for seat, action in view.history:
        if action.act in (Act.TRUCO, Act.RAISE):
            step += 1
        lines.append(describe(seat, action, view.players, step, view.variant))
    return lines


# ------------------------------------------------------------------ table


class Table:
    """One match of the page: the person, the robots, and what to draw next."""

    def __init__(self, setup: Setup, match: Match, robot_seed: int) -> None:
        """A table around an existing match (use ``new`` or ``restore``)."""
        self.setup = setup
        self.match = match
        self.robot_seed = robot_seed
        self.robots = {
            s: get_robot(setup.level, seed=robot_seed + s) for s in range(1, match.players)
        }
        self.think_ms: list[float] = []
        """How long each robot decision took in this session (the page reports them)."""

    @classmethod
    def new(cls, setup: dict[str, Any] | Setup, seed: int | None = None) -> Table:
        """A new match dealt from ``seed`` (random when ``None``); the person's seat deals last."""
        s = setup if isinstance(setup, Setup) else Setup.from_dict(setup)
        s = s.validated()
        seed = random.randrange(2**31) if seed is None else seed
        # the person is "mão" in the first hand: the dealer sits just before seat 0
        match = Match(s.variant, s.options(), seed, dealer=s.players - 1)
        return cls(s, match, seed * 31 + 7)

    # -------------------------------------------------------------- snapshots

    def snapshot(self) -> str:
        """The whole table as a JSON string (``restore`` reads it back)."""
        setup = asdict(self.setup)
        setup["ladder"] = list(self.setup.ladder) if self.setup.ladder else None
        return json.dumps(
            {
                "version": SNAPSHOT_VERSION,
                "setup": setup,
                "robot_seed": self.robot_seed,
                "match": self.match.to_json(),
            },
            separators=(",", ":"),
        )

    @classmethod
    def restore(cls, text: str) -> Table:
        """A table from ``snapshot()``; ``ValueError`` if the text is not one."""
        try:
            data = json.loads(text)
            if data.get("version") != SNAPSHOT_VERSION:
                raise ValueError("versão desconhecida")
            setup = Setup.from_dict(data["setup"])
            match = Match.from_json(data["match"])
            robot_seed = int(data["robot_seed"])
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"partida salva inválida: {exc}") from None
        if match.ruleset.name != setup.variant or match.players != setup.players:
            raise ValueError("partida salva inválida: mesa e partida não combinam")
        return cls(setup, match, robot_seed)

    # -------------------------------------------------------------- moves

    def robot_seat(self) -> int | None:
        """The robot that acts now, if any (R6: a robot partner waits for its person)."""
        for seat in self.match.to_act():
            if seat == PERSON:
                continue
            if waits_for_partner(self.match.view(seat), partner_is_person=seat == 2):
                continue
            return seat
        return None

    def act(self, action: str) -> str:
        """The person's action (``play 4C``, ``truco``...); a refused one changes nothing."""
        refused = self.state(error="Essa jogada não vale agora.")
        try:
            parsed = Action.parse(action)
        except ValueError:
            return refused
        if parsed not in self.match.legal_actions(PERSON):
            return refused
        try:
            self.match.apply(PERSON, parsed)
        except IllegalAction:
            return refused
        return self.state()

    def robot(self) -> str:
        """One robot decision (the page calls this while ``waiting`` is ``robot``)."""
        seat = self.robot_seat()
        if seat is None:
            return self.state()
        action = self._robot_action(seat)
        self.match.apply(seat, action)
        return self.state(last=seat)

    def _robot_action(self, seat: int) -> Action:
        view = self.match.view(seat)
        follow = follows_partner(view, partner_is_person=seat == 2)
        if follow is not None:
            return follow  # the person ran: the robot partner runs too (R6)
        start = time.perf_counter()
        action = self.robots[seat].choose(view)
        self.think_ms.append((time.perf_counter() - start) * 1000)
        return action

    def next_hand(self) -> str:
        """Deal the next hand once the person has seen how the last one ended."""
        if self.match.phase == Phase.HAND_OVER:
            self.match.deal()
        return self.state()

    def rematch(self) -> str:
        """A new match at the same table (revanche)."""
        if self.match.phase == Phase.MATCH_OVER:
            self.match = self.match.rematch()
            self.think_ms = []
        return self.state()

    # -------------------------------------------------------------- drawing

    def waiting(self) -> str:
        """What the table waits for: ``you``, ``robot``, ``hand_over`` or ``match_over``."""
        phase = self.match.phase
        if phase == Phase.MATCH_OVER:
            return "match_over"
        if phase == Phase.HAND_OVER:
            return "hand_over"
        return "you" if PERSON in self.match.to_act() else "robot"

    def state(self, *, error: str = "", last: int | None = None) -> str:
        """Everything the page draws, as JSON, from the person's view only."""
        v = self.match.view(PERSON)
        manilhas = v.manilhas

        def card(c: Card | None) -> dict[str, Any] | None:
            return card_json(c, manilhas) if c is not None else None

        def plays(t: tuple[SeenPlay, ...]) -> list[dict[str, Any]]:
            return [{"seat": s, "card": card(c), "covered": cov} for s, c, cov in t]

        rs = get_ruleset(v.variant)
        legal = [
            {"action": str(a), "act": a.act.code, "label": action_label(a, v)} for a in v.legal
        ]
        result = None
        if v.phase >= Phase.HAND_OVER:
            r = self.match.hand_result()
            if r is not None:
                result = {
                    "winner": r.winner,
                    "points": list(r.points),
                    "ran": r.ran,
                    "text": hand_result_text(v, r.winner, r.points, r.ran),
                }
        data: dict[str, Any] = {
            "variant": v.variant,
            "title": rs.title,
            "players": v.players,
            "level": self.setup.level,
            "level_name": LEVEL_NAMES[self.setup.level],
            "target": v.target,
            "covered_cards": v.covered_cards,
            "ladder": list(v.ladder),
            "seats": [
                {"seat": s, "name": seat_name(s, v.players), "team": s & 1, "robot": s != PERSON}
                for s in range(v.players)
            ],
            "teams": [team_name(0), team_name(1)],
            "score": list(v.score),
            "hand_number": v.hand_number,
            "dealer": v.dealer,
            "kind": v.kind.name.lower(),
            "kind_text": kind_text(v),
            "phase": v.phase.name.lower(),
            "vira": card(v.vira),
            "manilhas": [card(c) for c in manilhas],
            "hand": [card(c) for c in v.hand],
            "blind_slots": list(v.blind_slots),
            "cards_left": list(v.cards_left),
            "partner_hand": (
                [card(c) for c in v.partner_hand] if v.partner_hand is not None else None
            ),
            "table": plays(v.table),
            "past": [plays(t) for t in v.past],
            "rounds": list(v.rounds),
            "stake": v.stake,
            "pending_value": v.pending_value,
            "call_team": v.call_team,
            "turn": v.turn,
            "to_act": list(v.to_act),
            "waiting": self.waiting(),
            "status": status_text(v, self.waiting()),
            "legal": legal,
            "speech": {str(s): t for s, t in speech_texts(v).items()},
            "log": hand_log(v),
            "result": result,
            "match_winner": v.match_winner,
            "think_ms": self.think_ms[-1] if last is not None and self.think_ms else None,
            "error": error,
        }
        if v.match_winner is not None:
            data["status"] = "Vitória! Nós ganhamos." if v.match_winner == 0 else "Eles ganharam."
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def kind_text(v: View) -> str:
    """The banner of a special hand (R7, R8), or an empty string."""
    rs = get_ruleset(v.variant)
    if v.kind == HandKind.IRON:
        return "Mão de ferro: todos jogam às cegas, sem truco."
    if v.kind == HandKind.SPECIAL:
        name = special_name(v.variant).capitalize()
        return f"{name}: vale {rs.special_hand_value}, sem truco."
    return ""


def status_text(v: View, waiting: str) -> str:
    """The line telling whose turn it is (and what is being decided)."""
    if waiting == "hand_over":
        return "Fim da mão."
    if v.phase == Phase.ANSWER and v.pending_value is not None:
        caller = team_name(v.call_team or 0)
        step = call_name(v, v.pending_step)
        if waiting == "you":
            return f"{step} de {caller}: vale {v.pending_value} se aceitar. Sua resposta?"
        return f"{step} — esperando a resposta."
    if v.phase == Phase.DECIDE:
        special = special_name(v.variant)
        if waiting == "you":
            return f"Jogar ou correr da {special}? Veja as cartas do parceiro."
        return f"{team_name(v.call_team or 0)} decidem a {special}."
    if waiting == "you":
        return "Sua vez."
    return f"Vez de {seat_name(v.turn, v.players)}."


def hand_result_text(v: View, winner: int | None, points: tuple[int, int], ran: bool) -> str:
    """How the hand ended, in one sentence."""
    if winner is None:
        return "Ninguém marcou: as três rodadas cangaram."
    pts = points[winner]
    plural = "ponto" if pts == 1 else "pontos"
    if ran:
        who = "Eles correram" if winner == 0 else "Nós corremos"
        return f"{who}: {pts} {plural} para {team_name(winner)}."
    return f"{team_name(winner)} {'levamos' if winner == 0 else 'levaram'} a mão: {pts} {plural}."


def choices() -> str:
    """The setup form's choices (variants, ladders, targets, levels), as JSON."""
    return json.dumps(
        {
            "variants": [
                {
                    "name": rs.name,
                    "title": rs.title,
                    "ladders": [list(lad) for lad in rs.ladder_options],
                    "special": special_name(rs.name),
                }
                for rs in RULESETS.values()
            ],
            "levels": [{"name": k, "title": t} for k, t in LEVEL_NAMES.items()],
            "target": {"min": MIN_TARGET, "max": MAX_TARGET, "default": 12},
        },
        ensure_ascii=False,
    )
