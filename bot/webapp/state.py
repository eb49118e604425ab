"""What a Mini App page draws, as JSON: one seat's view of a table, or the public table.

Everything comes from the engine's per-seat ``View`` (``Table.view``): a seated person
gets their own seat's view and nothing else; anyone else gets the public table, built
from a view with every private field left out and every covered card hidden. Cards go as
``card_json`` (both deck styles, R11), which the page draws as SVG (``static/deck.js``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.domain.miniapp import Around
from bot.domain.values.commands import AddRobot, Join, Leave, LobbyCommand, RemoveRobot, Start
from bot.domain.values.errors import Reason
from bot.domain.values.game import GameStatus, HandSummary, MatchEnd, RobotLevel, Table
from bot.i18n import Translations, words_for
from bot.wording import Sentence
from bot.wording.points import Row, match_target, points_now, points_proved
from bot.wording.refusals import reason_text
from bot.wording.sinais import hand_signals, sinal_name
from bot.wording.table import (
    countdown_words,
    hand_banner,
    hand_closed_sentences,
    lobby_label,
    lobby_sentences,
    match_over_text,
    rematch_label,
    said_now,
    seat_name,
)
from engine.browser import card_json
from engine.cards import Card, DeckStyle
from engine.match import HandKind, Phase
from engine.view import SeenPlay, View

JSON = dict[str, Any]
PAGE_LOBBY: dict[str, LobbyCommand] = {
    "join": Join(),
    "team1": Join(0),
    "team2": Join(1),
    "leave": Leave(),
    # one per robot level, numbered as the group's buttons number them
    **{f"robot{n}": AddRobot(level) for n, level in enumerate(RobotLevel, 1)},
    "unrobot": RemoveRobot(),
    "start": Start(),
}
"""The lobby's buttons a page has, by the name it sends (``api/lobby``'s ``command``):
cancelling stays in the group's lobby message, where the group sees who asked."""
_PAGE_NAMES = {command: name for name, command in PAGE_LOBBY.items()}


def page_lobby_name(command: LobbyCommand) -> str:
    """The name a page sends for one of its lobby buttons (``PAGE_LOBBY``)."""
    return _PAGE_NAMES[command]


def page_words(t: Translations) -> dict[str, str]:
    """The page's own labels, in the person's language."""
    _ = t.gettext
    return {
        "lang": words_for(t).tag,
        "table": _("Mesa"),
        "vira": _("Vira"),
        "manilhas": _("Manilhas"),
        # gaudério's four top cards are fixed, with no vira: the South's own word for them
        "bravas": _("Bravas"),
        # one card's mark, as a screen reader says it after the card's name
        "manilha": _("manilha"),
        "brava": _("brava"),
        "rounds": _("Vazas"),
        "worth": _("Vale"),
        "your_turn": _("Sua vez"),
        "turn_of": _("Vez de {name}"),
        "turn_of_either": _("Vez de {a} ou {b}"),
        "watching": _("Você está assistindo: só a mesa pública."),
        "lobby": reason_text(t, Reason.NOT_STARTED),
        "over": _("A partida terminou."),
        "cancelled": _("A mesa foi cancelada."),
        "stand_in": _(
            "🤖 Um robô joga por você enquanto você está fora da mesa. "
            "Toque em 🙋 Voltei para jogar de novo."
        ),
        "back": _("🙋 Voltei"),
        "to_confirm": _("⏳ falta confirmar"),
        "offline": _("Sem conexão: tentando de novo…"),
        "reopen": _("Abra a mesa de novo pelo Telegram."),
        "no_table": _("Essa mesa não existe."),
        "your_cards": _("Suas cartas"),
        "partner_cards": _("Cartas do parceiro"),
        "signals": _("Sinais"),
        "cover": _("Cobrir"),
        "blind": _("{n}ª carta, às cegas"),
        "covered": _("carta coberta"),
        "you": _("você"),
        "free": _("(livre)"),
        "team": _("Time {n}"),
        "rematch": rematch_label(t),
        "countdown": countdown_words(t),
        "points_game": _("Envido e flor"),
        "if_quero": _("se quiser"),
        "if_nao_quero": _("se não quiser"),
    }


def _plays(w: Any, t: tuple[SeenPlay, ...], manilhas: tuple[Card, ...], public: bool) -> list[JSON]:
    out = []
    for seat, card, covered in t:
        shown = card if card is not None and not (covered and public) else None
        out.append(
            {
                "seat": seat,
                "card": card_json(w, shown, manilhas) if shown is not None else None,
                "covered": covered,
            }
        )
    return out


def _closing(t: Translations, table: Table, summary: HandSummary, deck: DeckStyle) -> JSON:
    """How the last hand ended (public facts: covered cards stay covered), one sentence a
    line."""
    said = hand_closed_sentences(t, summary, table.seats, deck)
    return {"hand": summary.hand, "winner": summary.winner, "sentences": _json(said)}


def _json(said: Sequence[Sentence]) -> list[JSON]:
    """Sentences as the page gets them: kind, values and words (``Sentence.to_json``)."""
    return [x.to_json() for x in said]


def _lobby(t: Translations, table: Table, user_id: int | None, around: Around) -> JSON:
    """A lobby as its message in the group tells it, and what this person may do in it
    (the group's buttons: Entrar, which also confirms a Revanche seat, the teams, the
    robots, Sair, Começar)."""
    names = {x.user: x.name for x in table.seats if x is not None and x.user is not None}
    waiting = [names[u] for u in around.waiting if u in names]
    seated = user_id is not None and table.seat_of(user_id) is not None
    offered: list[LobbyCommand] = []
    if user_id is not None and (not seated or user_id in around.waiting):
        offered.append(Join())
    mine = table.seat_of(user_id) if user_id is not None else None
    if user_id is not None and table.options.players == 4 and user_id not in around.waiting:
        # partners by choice, as the group's Time 1 / Time 2 (a robot yields its seat)
        offered += [Join(team) for team in (0, 1) if mine is None or mine % 2 != team]
    if user_id is not None and (seated or user_id == table.creator_id):
        # robots as the group's + Robô / − Robô, for the same people; the page knows who
        # looks, so it offers only what would change the chairs
        if any(x is None for x in table.seats):
            offered += [AddRobot(level) for level in RobotLevel]
        if any(x is not None and x.robot is not None for x in table.seats):
            offered.append(RemoveRobot())
    if seated:
        offered.append(Leave())
    if user_id is not None and user_id == table.creator_id:
        offered.append(Start())
    actions = [{"command": page_lobby_name(c), "label": lobby_label(t, c)} for c in offered]
    return {
        "sentences": _json(lobby_sentences(t, table, around.missing, waiting)),
        "waiting": [table.seat_of(u) for u in around.waiting],
        "actions": actions,
    }


def _points_game(
    t: Translations,
    table: Table,
    v: View,
    last: HandSummary | None,
    own: bool,
    card: Callable[[Card | None], JSON | None],
) -> JSON:
    """Gaudério's points game as the page's widget draws it (``bot.wording.points``): the
    match's target, the hand's rows, and the last hand's proving cards. ``own``: ``v`` is
    the person's own seat's view, not the public table's."""

    def row(r: Row) -> JSON:
        return {
            **r.sentence.to_json(),
            "detail": r.detail.text if r.detail is not None else None,
            "calls": list(r.calls),
            "cards": [card(c) for c in r.cards],
        }

    heading, proved = points_proved(t, table.seats, last) if last is not None else (None, [])
    return {
        "target": match_target(t, v.target).to_json(),
        "rows": [row(r) for r in points_now(t, table.seats, v, own)],
        "last": heading.to_json() if heading is not None and proved else None,
        "proved": [row(r) for r in proved],
    }


def table_state(
    t: Translations,
    table: Table,
    seat: int | None,
    ended: dict[int, HandSummary],
    deck: DeckStyle,
    now: float,
    around: Around | None = None,
    user_id: int | None = None,
) -> JSON:
    """The page's state for ``seat`` (``None``: someone not seated, the public table) of
    ``user_id``; ``around``: the lobby's waits or the Revanche (``miniapp.around``)."""
    around = around or Around()
    w = words_for(t)
    seats = [
        {
            "seat": i,
            "name": seat_name(x, t),
            "team": i & 1,
            "robot": x is not None and x.robot is not None,
            "free": x is None,
            "you": i == seat,
        }
        for i, x in enumerate(table.seats)
    ]
    state: JSON = {
        "game": table.id,
        "version": table.version,
        "status": table.status.value,
        "seat": seat,
        "players": table.options.players,
        "seats": seats,
        "deck": "espanhol" if deck == DeckStyle.SPANISH else "tradicional",
        "words": page_words(t),
    }
    if table.status == GameStatus.LOBBY:
        state["lobby"] = _lobby(t, table, user_id, around)
    if not table.started:
        return state
    v: View = table.view(seat if seat is not None else 0)
    public = seat is None
    manilhas = v.manilhas

    def card(c: Card | None) -> JSON | None:
        return card_json(w, c, manilhas) if c is not None else None

    previous = ended.get(v.hand_number - 1)
    last = ended.get(v.hand_number) if table.status == GameStatus.OVER else previous
    deadline_in = None
    playing = table.status == GameStatus.PLAYING
    if playing and table.deadline_at is not None:
        deadline_in = max(0.0, table.deadline_at - now)
    # a mão de onze/dez being decided is worth its special value if played, as its banner
    # says: the header says the same (the plain value is what running from it gives)
    deciding = v.kind == HandKind.SPECIAL and v.phase == Phase.DECIDE
    worth = v.ruleset.special_hand_value if deciding else v.stake
    banner = hand_banner(t, v)
    state.update(
        {
            "score": list(v.score),
            "target": v.target,
            "hand_number": v.hand_number,
            "kind": v.kind.name.lower(),
            # the special hand's banner and what each seat says, as sentences
            "banner": banner.to_json() if banner is not None else None,
            "phase": v.phase.name.lower(),
            "stake": v.stake,
            "worth": worth,
            "pending_value": v.pending_value,
            "vira": card(v.vira),
            "manilhas": [card(c) for c in manilhas],
            "cards_left": list(v.cards_left),
            "table": _plays(w, v.table, manilhas, public),
            "past": [_plays(w, p, manilhas, public) for p in v.past],
            "rounds": list(v.rounds),
            "turn": v.turn,
            "to_act": list(v.to_act) if playing and v.phase < Phase.HAND_OVER else [],
            "speech": {str(s): x.to_json() for s, x in said_now(t, v).items()},
            "deadline_in": deadline_in,
            "match_winner": v.match_winner,
            "closing": _closing(t, table, last, deck) if last is not None else None,
            "result": (
                match_over_text(
                    t, MatchEnd(v.match_winner, (v.score[0], v.score[1])), table.seats
                ).to_json()
                if table.status == GameStatus.OVER and v.match_winner is not None
                else None
            ),
            "rematch": f"g{around.rematch}" if around.rematch is not None else None,
            "can_rematch": table.status == GameStatus.OVER and seat is not None,
            "robot_plays": False,
            "hand": [],
            "blind_slots": [],
            "partner_hand": None,
            "legal": [],
            "signals": [],
            "seen_signals": [],
            "sent_signals": [],
        }
    )
    # gaudério's points game has a widget of its own (no special hands: no banner)
    state["points"] = (
        _points_game(t, table, v, last, playing and not public, card) if v.ruleset.envido else None
    )
    if public:
        return state
    mine = table.seats[seat] if seat is not None else None
    # a robot plays this person's seat (two timeouts, the table's vote, a Revanche they
    # were late for): the page offers 🙋 Voltei, as the private hand message does
    state["robot_plays"] = playing and mine is not None and mine.robot is not None
    # a cancelled (or finished) match takes no more moves: an old page shows no buttons
    legal = v.legal if playing else ()
    legal_signals = v.legal_signals if playing else ()
    said = hand_signals(t, v, table.seats, robot_moves=table.stand_in_moves.get(v.seat, ()))
    state.update(
        {
            "hand": [card(c) for c in v.hand],
            "blind_slots": list(v.blind_slots),
            "partner_hand": (
                [card(c) for c in v.partner_hand] if v.partner_hand is not None else None
            ),
            "legal": [
                {"action": str(a), "act": a.act.name.lower(), "label": w.button(a, v, deck)}
                for a in legal
            ],
            "signals": [
                {"action": str(a), "label": sinal_name(t, a.sinal)}
                for a in legal_signals
                if a.sinal is not None
            ],
            # the hand's signals as sentences (``Sentence.to_json``): the person's own,
            # said so that a sent one does not vanish, and the ones they know of others
            "sent_signals": _json([x for x in said if x.kind == "signal_sent"]),
            "seen_signals": _json([x for x in said if x.kind != "signal_sent"]),
        }
    )
    return state
