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
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from typing import Any

from engine import words
from engine.actions import Act, Action
from engine.cards import SPANISH_RANKS, SPANISH_SUITS, Card, DeckStyle
from engine.errors import IllegalAction
from engine.match import HandKind, Match, Phase
from engine.robots import LEVELS, get_robot, normalize_level
from engine.rulesets import (
    ALL_RULESETS,
    DEFAULT_TIMER,
    DEFAULT_VARIANT,
    MAX_TARGET,
    MIN_TARGET,
    TableOptions,
    get_ruleset,
)
from engine.sinais import ALL_SINAIS
from engine.turns import RobotTurn, robot_turn
from engine.view import SeenPlay, View
from engine.words import Words

PERSON = 0
"""The person's seat."""
SNAPSHOT_VERSION = 1


@dataclass(frozen=True)
class Setup:
    """What the person chose before dealing: the variant and the table options (R2)."""

    variant: str = DEFAULT_VARIANT
    players: int = 2
    level: str = "medio"
    target: int = 12
    covered_cards: bool = True
    ladder: tuple[int, ...] | None = None
    timer: int | None = None
    """Seconds per decision of the person (R10); ``None`` plays without a clock, except in
    Trem Bão, whose 30 s always apply."""
    flor: bool = True
    """Gaudério: flor is played (R13.4); the other variants ignore it."""

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
            timer=self.timer or DEFAULT_TIMER,
            flor=self.flor,
        ).validated(rs)
        return Setup(
            variant=rs.name,
            players=options.players,
            level=level,
            target=options.target,
            covered_cards=options.covered_cards,
            ladder=options.ladder,
            timer=rs.fixed_timer or (options.timer if self.timer else None),
            flor=options.flor,
        )

    def options(self) -> TableOptions:
        """The engine's table options (sinais on, as at every 2×2 table: R12)."""
        return TableOptions(
            players=self.players,
            target=self.target,
            covered_cards=self.covered_cards,
            ladder=self.ladder,
            timer=self.timer or DEFAULT_TIMER,
            flor=self.flor,
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Setup:
        """A setup from the page's form (unknown keys are ignored); validated."""
        ladder = data.get("ladder")
        variant = str(data.get("variant", DEFAULT_VARIANT))
        players = int(data.get("players", 2))
        try:  # a variant's own target when the form says none (gaudério: 24, 18 in 1×1)
            default_target = get_ruleset(variant).default_target_for(players)
        except ValueError:
            default_target = 12  # validated() refuses the variant with its own words
        return cls(
            variant=variant,
            players=players,
            level=str(data.get("level", "medio")),
            target=int(data.get("target", default_target)),
            covered_cards=bool(data.get("covered_cards", True)),
            ladder=tuple(int(x) for x in ladder) if ladder else None,
            timer=int(data["timer"]) if data.get("timer") else None,
            flor=bool(data.get("flor", True)),
        ).validated()


# ------------------------------------------------------------------ words


def card_json(w: Words, card: Card, manilhas: tuple[Card, ...] = ()) -> dict[str, Any]:
    """A card as the page draws it, in both deck styles (R11); the faces' CSS keys are ASCII."""
    return {
        "code": card.code,
        "name": w.card_name(card),
        "esp_name": w.card_name(card, DeckStyle.SPANISH),
        "trad": card.rank.code,
        "naipe": card.suit.symbol,
        "esp": SPANISH_RANKS[card.rank],
        "naipe_esp": SPANISH_SUITS[card.suit],
        "manilha": card in manilhas,
    }


def deck_style(style: DeckStyle) -> str:
    """A deck style as the site stores it (``truco-baralho``): ``espanhol`` or ``tradicional``."""
    return "espanhol" if style == DeckStyle.SPANISH else "tradicional"


def team_name(w: Words, team: int) -> str:
    """``Nós`` (the person's team) or ``Eles``."""
    name = w.team(team, PERSON)
    return name[:1].upper() + name[1:]


def _walk(v: View) -> list[tuple[int, Action, View]]:
    """This hand's actions, each with the person's view as it was for the call's words.

    A view before a call knows which step it asks for (``next_step``) and, before an answer,
    which step is answered (``pending_step``); that is all the words read from it.
    """
    out = []
    step = -1  # the ladder step last called in this hand
    for seat, action in v.history:
        at = replace(v, next_step=step + 1, pending_step=step if step >= 0 else None)
        if action.act in (Act.TRUCO, Act.RAISE):
            step += 1
        out.append((seat, action, at))
    return out


def speech_texts(w: Words, v: View) -> dict[int, str]:
    """What each seat said in this hand and still shows (a card played clears it)."""
    said: dict[int, str] = {}
    for seat, action, at in _walk(v):
        act = action.act
        if act in (Act.PLAY, Act.COVER, Act.BLIND):
            said.pop(seat, None)
        elif act is not Act.SIGNAL:  # a signal is a face, not a word
            said[seat] = w.button(action, at)
    return said


def hand_log(w: Words, v: View) -> list[str]:
    """The hand so far in words, from the person's history (others' covered cards hidden)."""
    return [
        w.narrate(w.seat(seat, PERSON, v.players), action, at, own=seat == PERSON)
        for seat, action, at in _walk(v)
    ]


# ------------------------------------------------------------------ table


class Table:
    """One match of the page: the person, the robots, and what to draw next."""

    def __init__(self, setup: Setup, match: Match, robot_seed: int, lang: str = "pt") -> None:
        """A table around an existing match (use ``new`` or ``restore``); ``lang`` words it."""
        self.words = words.get(lang)
        self.setup = setup
        self.match = match
        self.robot_seed = robot_seed
        self.robots = {
            s: get_robot(setup.level, seed=robot_seed + s) for s in range(1, match.players)
        }
        self.think_ms: list[float] = []
        """How long each robot decision took in this session (the page reports them)."""
        self.timed_out = False
        """The person's clock ran out on the decision at hand: their robot partner now
        decides on its own instead of following them (R6)."""

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
                "timed_out": self.timed_out,
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
        table = cls(setup, match, robot_seed)
        table.timed_out = bool(data.get("timed_out", False))
        return table

    # -------------------------------------------------------------- moves

    def robot_turn(self) -> RobotTurn | None:
        """The robot that acts now, if any (R6: a robot partner waits for its person)."""
        levels = [
            None if seat == PERSON else self.setup.level for seat in range(self.match.players)
        ]
        return robot_turn(self.match, levels, (PERSON,) if self.timed_out else ())

    def robot_seat(self) -> int | None:
        """The seat of the robot that acts now, if any."""
        turn = self.robot_turn()
        return turn.seat if turn is not None else None

    def act(self, action: str) -> str:
        """The person's action (``play 4C``, ``truco``...); a refused one changes nothing."""
        refused = self.state(error=self.words.gettext("Essa jogada não vale agora."))
        try:
            parsed = Action.parse(action)
        except ValueError:
            return refused
        allowed = self.match.legal_actions(PERSON) + self.match.legal_signals(PERSON)
        if parsed not in allowed:
            return refused
        try:
            self.match.apply(PERSON, parsed)
        except IllegalAction:
            return refused
        self.timed_out = False
        return self.state()

    def time_out(self) -> str:
        """The person's clock ran out: the engine's default action is played for them (R10)."""
        if self.setup.timer is None or self.waiting() != "you":
            return self.state()
        action = self.match.default_action(PERSON)
        if action is None:
            return self.state()
        self.match.apply(PERSON, action)
        self.timed_out = True
        return self.state(
            error=self.words.gettext("Seu tempo acabou: {what}.").format(
                what=self.words.did(action, self.match.view(PERSON))
            )
        )

    def robot(self) -> str:
        """One robot decision (the page calls this while ``waiting`` is ``robot``).

        A signal (R12) is a decision of its own: the next call makes the move.
        """
        turn = self.robot_turn()
        if turn is None:
            return self.state()
        action = turn.decide(self.robots[turn.seat], self._timed_choose(turn.seat))
        self.match.apply(turn.seat, action)
        if action.act == Act.SIGNAL:
            return self.state()
        return self.state(last=turn.seat)

    def _timed_choose(self, seat: int) -> Callable[[View], Action]:
        def choose(view: View) -> Action:
            start = time.perf_counter()
            action = self.robots[seat].choose(view)
            self.think_ms.append((time.perf_counter() - start) * 1000)
            return action

        return choose

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
        w = self.words
        waiting = self.waiting()

        def card(c: Card | None) -> dict[str, Any] | None:
            return card_json(w, c, manilhas) if c is not None else None

        def plays(t: tuple[SeenPlay, ...]) -> list[dict[str, Any]]:
            return [{"seat": s, "card": card(c), "covered": cov} for s, c, cov in t]

        legal = [{"action": str(a), "act": a.act.code, "label": w.button(a, v)} for a in v.legal]
        result = None
        if v.phase >= Phase.HAND_OVER:
            r = self.match.hand_result()
            if r is not None:
                result = {
                    "winner": r.winner,
                    "points": list(r.points),
                    "ran": r.ran,
                    "text": hand_result_text(
                        w, v, r.winner, r.points[r.winner] if r.winner is not None else 0, r.ran
                    ),
                    "why": hand_reason_text(w, v, r.winner, r.rounds, r.ran),
                }
        data: dict[str, Any] = {
            "variant": v.variant,
            "title": w.variant(v.ruleset),
            "players": v.players,
            "level": self.setup.level,
            "level_name": w.level(self.setup.level),
            "target": v.target,
            "covered_cards": v.covered_cards,
            "ladder": list(v.ladder),
            "seats": [
                {
                    "seat": s,
                    "name": w.seat(s, PERSON, v.players),
                    "team": s & 1,
                    "robot": s != PERSON,
                }
                for s in range(v.players)
            ],
            "teams": [team_name(w, 0), team_name(w, 1)],
            "score": list(v.score),
            "hand_number": v.hand_number,
            "dealer": v.dealer,
            "kind": v.kind.name.lower(),
            "kind_text": kind_text(w, v),
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
            # a mão de onze/dez being decided: worth this if played, the plain value if run
            "special_value": v.ruleset.special_hand_value,
            "hand_value": v.ruleset.hand_value,
            "pending_value": v.pending_value,
            "call_team": v.call_team,
            "turn": v.turn,
            "to_act": list(v.to_act),
            "waiting": waiting,
            "status": status_text(w, v, waiting),
            "legal": legal,
            # sinais (R12): what the person may send, and what they received or caught
            "signals": [
                {"action": str(a), "label": f"{ALL_SINAIS[a.sinal].emoji} {w.sinal(a.sinal)}"}
                for a in v.legal_signals
                if a.sinal is not None
            ],
            "seen_signals": [
                f"{w.seat(s, PERSON, v.players)} {w.sinal_seen(sinal)}: "
                f"{ALL_SINAIS[sinal].emoji} {w.sinal(sinal)}"
                for s, sinal in v.signals
            ],
            "speech": {str(s): t for s, t in speech_texts(w, v).items()},
            # the points game (gaudério, R13.3, R13.4): its calls are in ``legal``; how it
            # ended and the flors sung are said to everybody, the losing points never
            "envido": v.envido.to_json() if v.envido is not None else None,
            "envido_text": w.envido_result(v),
            "envido_points": v.envido_points,
            "flor_texts": [w.flor_result(v, s) for s in v.flor],
            "flor": self.setup.flor,
            "deck_style": deck_style(v.ruleset.deck_style),
            "log": hand_log(w, v),
            "result": result,
            "match_winner": v.match_winner,
            "think_ms": self.think_ms[-1] if last is not None and self.think_ms else None,
            "timer": self.setup.timer if waiting == "you" else None,
            "error": error,
        }
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def kind_text(w: Words, v: View) -> str:
    """The banner of a special hand (R7, R8), or an empty string."""
    if v.kind == HandKind.IRON:
        return w.gettext("Mão de ferro: todos jogam às cegas, sem truco.")
    if v.kind == HandKind.SPECIAL:
        name = w.special_hand(v.ruleset)
        hand = name[:1].upper() + name[1:]
        value = v.ruleset.special_hand_value
        at = v.ruleset.threshold(v.target)
        if at != v.ruleset.threshold(v.ruleset.default_target):
            # a match to 6 plays its "mão de onze" at 5: the name stays, the points are said
            return w.gettext(
                "{Hand} (nesta partida até {target}, com {at} pontos): vale {value}, sem truco."
            ).format(Hand=hand, target=v.target, at=at, value=value)
        return w.gettext("{Hand}: vale {value}, sem truco.").format(Hand=hand, value=value)
    return ""


def status_text(w: Words, v: View, waiting: str) -> str:
    """The line telling whose turn it is (and what is being decided)."""
    if waiting == "match_over":
        won = v.match_winner == v.team
        return w.gettext("Vitória! Nós ganhamos.") if won else w.gettext("Eles ganharam.")
    if waiting == "hand_over":
        return w.gettext("Fim da mão.")
    e = v.envido
    if e is not None and e.state == "pending":
        call = w.envido_shout(Act.from_code(e.calls[-1]))
        if waiting == "you":
            return w.gettext("{call} Quero ou não quero?").format(call=call)
        return w.gettext("{call} Esperando a resposta.").format(call=call)
    if v.phase == Phase.ANSWER and v.pending_value is not None:
        call = w.shout(v.pending_step, v.ruleset)
        if waiting == "you":
            return w.gettext("{call} Aceitando, a mão vale {value}. Sua resposta?").format(
                call=call, value=v.pending_value
            )
        return w.gettext("{call} Esperando a resposta.").format(call=call)
    if v.phase == Phase.DECIDE:
        hand = w.special_hand(v.ruleset)
        if waiting == "you":
            return w.gettext("Jogar ou correr da {hand}? Veja as cartas do parceiro.").format(
                hand=hand
            )
        return w.gettext("Eles decidem a {hand}.").format(hand=hand)
    if waiting == "you":
        return w.gettext("Sua vez.")
    return w.gettext("Vez de: {who}.").format(who=w.seat(v.turn, PERSON, v.players))


def hand_result_text(w: Words, v: View, winner: int | None, points: int, ran: bool) -> str:
    """How the hand ended, in one sentence (Trem Bão's players count tentos, not pontos)."""
    if winner is None:
        return w.gettext("Ninguém marcou: as três vazas cangaram.")
    ours = winner == v.team
    tentos = v.variant == "trem-bao"
    if ran and ours:
        text = (
            w.ngettext(
                "Eles correram: {n} tento para nós.", "Eles correram: {n} tentos para nós.", points
            )
            if tentos
            else w.ngettext(
                "Eles correram: {n} ponto para nós.", "Eles correram: {n} pontos para nós.", points
            )
        )
    elif ran:
        text = (
            w.ngettext("Corremos: {n} tento para eles.", "Corremos: {n} tentos para eles.", points)
            if tentos
            else w.ngettext(
                "Corremos: {n} ponto para eles.", "Corremos: {n} pontos para eles.", points
            )
        )
    elif ours:
        text = (
            w.ngettext("Nós levamos a mão: {n} tento.", "Nós levamos a mão: {n} tentos.", points)
            if tentos
            else w.ngettext(
                "Nós levamos a mão: {n} ponto.", "Nós levamos a mão: {n} pontos.", points
            )
        )
    else:
        text = (
            w.ngettext("Eles levaram a mão: {n} tento.", "Eles levaram a mão: {n} tentos.", points)
            if tentos
            else w.ngettext(
                "Eles levaram a mão: {n} ponto.", "Eles levaram a mão: {n} pontos.", points
            )
        )
    return text.format(n=points)


def hand_reason_text(
    w: Words, v: View, winner: int | None, rounds: tuple[int | None, ...], ran: bool
) -> str:
    """Why the hand went the way it did, in one line, from its rounds (R4); empty after a run."""
    if ran or winner is None:
        return ""
    ours = winner == v.team
    r = list(rounds)
    if len(r) == 3 and r == [None, None, None]:  # gaudério: the mão's team takes it (R13.1)
        if ours:
            return w.gettext("As três vazas empataram, e o empate é do time da mão: nosso.")
        return w.gettext("As três vazas empataram, e o empate é do time da mão: deles.")
    if len(r) == 2 and r[0] == r[1] == winner:
        if ours:
            return w.gettext("Ganhamos as duas primeiras vazas.")
        return w.gettext("Eles ganharam as duas primeiras vazas.")
    if r[:2] == [None, None]:
        if ours:
            return w.gettext("A 1ª e a 2ª vaza cangaram; ganhamos a 3ª, que decidiu.")
        return w.gettext("A 1ª e a 2ª vaza cangaram; eles ganharam a 3ª, que decidiu.")
    if r[:1] == [None]:
        if ours:
            return w.gettext("A 1ª vaza cangou, e quem ganha a 2ª leva a mão: ganhamos a 2ª.")
        return w.gettext("A 1ª vaza cangou, e quem ganha a 2ª leva a mão: eles ganharam a 2ª.")
    if len(r) == 2 and r[1] is None:
        if ours:
            return w.gettext("Ganhamos a 1ª vaza e a 2ª cangou: vale quem fez a primeira.")
        return w.gettext("Eles ganharam a 1ª vaza e a 2ª cangou: vale quem fez a primeira.")
    if len(r) == 3 and r[2] is None:
        if ours:
            return w.gettext("Uma vaza para cada lado e a 3ª cangou: a 1ª foi nossa.")
        return w.gettext("Uma vaza para cada lado e a 3ª cangou: a 1ª foi deles.")
    if ours:
        return w.gettext("Ganhamos duas das três vazas.")
    return w.gettext("Eles ganharam duas das três vazas.")


def choices(lang: str = "pt") -> dict[str, Any]:
    """The setup form's choices (variants, ladders, targets, levels), in words."""
    w = words.get(lang)
    return {
        "variants": [
            {
                "name": rs.name,
                "title": w.variant(rs),
                "ladders": [list(lad) for lad in rs.ladder_options],
                "special": w.special_hand(rs) if rs.special_hands else "",
                "targets": {str(n): rs.default_target_for(n) for n in (2, 4)},
                "min_target": rs.min_target,
                "covered_cards": rs.covered_cards,
                "envido": rs.envido,
                "deck_style": deck_style(rs.deck_style),
            }
            for rs in ALL_RULESETS.values()
        ],
        "levels": [{"name": name, "title": w.level(name)} for name in LEVELS],
        "target": {"min": MIN_TARGET, "max": MAX_TARGET, "default": 12},
    }
