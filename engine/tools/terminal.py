"""``truco play``: a small terminal game against robots, to try the engine with no Telegram.

Everything shown comes from the human's ``View`` and is worded by ``engine.words``
(``--lang en`` plays in English); the cards are named in the variant's own deck unless the
player picks one (``--baralho``: gaudério plays the Spanish deck, R13.1, the others the
traditional one, R11).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine import words
from engine.actions import Act, Action
from engine.cards import DeckStyle
from engine.match import HandKind, Match, Phase
from engine.robots import get_robot
from engine.rulesets import TableOptions, get_ruleset
from engine.sinais import ALL_SINAIS, Sinal
from engine.turns import robot_turn
from engine.view import View

HUMAN = 0
QUIT = ("s", "sair", "q", "quit")
"""Answers that leave the game, in any language."""


def describe(
    w: words.Words,
    before: View,
    seat: int,
    action: Action,
    style: DeckStyle = DeckStyle.TRADITIONAL,
) -> str:
    """One line telling the table what a seat did (``before``: a view it was legal in),
    its card named in ``style``."""
    who = w.seat(seat, HUMAN, before.players)
    # a text, not "who did": Spanish would conjugate the reader's own "Vos" as a third person
    what = w.did(action, before, style, public=seat != HUMAN)
    return w.gettext("{who} {what}").format(who=who, what=what)


def sinal_label(w: words.Words, sinal: Sinal) -> str:
    """A signal as the terminal lists it: emoji, name and the face that makes it."""
    return f"{ALL_SINAIS[sinal].emoji} {w.sinal(sinal)} ({w.sinal_face(sinal)})"


def describe_signal(w: words.Words, after: View, seat: int) -> str:
    """A signal just made, as the human saw it (R12): its content only if they may know it."""
    who = w.seat(seat, HUMAN, after.players)
    seen = after.history[-1][1].sinal
    if seen is None:
        return f"{who} {w.gettext('fez um sinal')}"
    name, emoji = w.sinal(seen), ALL_SINAIS[seen].emoji
    if seat == HUMAN:
        return w.gettext("Você fez o sinal de {name} {emoji}").format(name=name, emoji=emoji)
    if seat & 1 == HUMAN & 1:
        return w.gettext("{who} fez sinal: {emoji} {name}!").format(who=who, name=name, emoji=emoji)
    return w.gettext("Você viu {who} {face}: {name}! {emoji}").format(
        who=w.seat(seat, HUMAN, after.players).lower(),
        face=w.sinal_face(seen),
        name=name,
        emoji=emoji,
    )


def _vira(w: words.Words, v: View, style: DeckStyle) -> str:
    vira = w.card(v.vira, style) if v.vira is not None else "?"
    return w.gettext("Vira: {vira} · manilha: {rank}").format(
        vira=vira, rank=w.rank_label(v.manilhas[0].rank, style)
    )


def render(w: words.Words, v: View, style: DeckStyle = DeckStyle.TRADITIONAL) -> str:
    """The table as the human sees it (from the human's view only), cards in ``style``."""
    _ = w.gettext
    lines = [
        _("Placar: nós {us} × {them} eles · mão vale {stake}").format(
            us=v.score[0], them=v.score[1], stake=v.stake
        )
    ]
    if v.vira is not None:
        lines.append(_vira(w, v, style))
    if v.kind == HandKind.SPECIAL:
        lines.append(_("É {hand}!").format(hand=w.special_hand(v.ruleset)))
    elif v.kind == HandKind.IRON:
        lines.append(_("Mão de ferro: todo mundo joga às cegas."))
    if v.rounds:
        marks = ", ".join(w.tie() if r is None else w.team(r, HUMAN) for r in v.rounds)
        lines.append(_("Vazas: {rounds}").format(rounds=marks))
    if v.table:
        played = ", ".join(
            f"{w.seat(s, HUMAN, v.players)}: {w.card(c, style) if c is not None else words.COVERED}"
            for s, c, _cov in v.table
        )
        lines.append(_("Mesa: {plays}").format(plays=played))
    if v.hand:
        lines.append(
            _("Sua mão: {cards}").format(cards="  ".join(w.card(c, style) for c in v.hand))
        )
    if v.partner_hand is not None:
        cards = "  ".join(w.card(c, style) for c in v.partner_hand)
        lines.append(_("Mão do parceiro: {cards}").format(cards=cards))
    if v.pending_step is not None and v.call_seat is not None:
        lines.append(
            _("{call} de {who}: aceitar vale {accept}, correr dá {run}").format(
                call=w.shout(v.pending_step, v.ruleset),
                who=w.seat(v.call_seat, HUMAN, v.players),
                accept=v.accept_value,
                run=v.run_value,
            )
        )
    for s, sinal in v.signals:
        text = (
            _("Sinal do {who}: {emoji} {name}")
            if s & 1 == v.team
            else _("Você viu o sinal do {who}: {emoji} {name}")
        )
        lines.append(
            text.format(
                who=w.seat(s, HUMAN, v.players).lower(),
                emoji=ALL_SINAIS[sinal].emoji,
                name=w.sinal(sinal),
            )
        )
    return "\n".join(lines)


def announce_hand(
    w: words.Words,
    v: View,
    write: Callable[[str], None],
    style: DeckStyle = DeckStyle.TRADITIONAL,
) -> None:
    """Print who deals, the vira and the human's cards (in ``style``) at a hand's start."""
    dealer = w.seat(v.dealer, HUMAN, v.players)
    write(
        w.gettext("--- Mão {n} · dá as cartas: {who} ---").format(n=v.hand_number + 1, who=dealer)
    )
    if v.vira is not None:
        write(_vira(w, v, style))
    if v.hand:
        cards = "  ".join(w.card(c, style) for c in v.hand)
        write(w.gettext("Suas cartas: {cards}").format(cards=cards))


def ask(
    w: words.Words,
    v: View,
    read: Callable[[str], str],
    write: Callable[[str], None],
    style: DeckStyle = DeckStyle.TRADITIONAL,
) -> Action | None:
    """Ask the human for one legal action of their view (or a signal, R12), its cards in
    ``style``; ``None`` when they quit."""
    legal = v.legal
    signals = v.legal_signals
    again = w.gettext("Escolha um número de 1 a {n} (ou s para sair).").format(n=len(legal))
    write(render(w, v, style))
    options = "  ".join(f"[{i}] {w.button(a, v, style)}" for i, a in enumerate(legal, 1))
    extra = f"  {w.gettext('[z] sinal')}" if signals else ""
    write(f"{options}{extra}  {w.gettext('[s] sair')}")
    picked = _pick(read, write, "> ", len(legal), "z" if signals else None, again)
    if picked == "z":
        return ask_signal(w, signals, read, write)
    return legal[picked] if isinstance(picked, int) else None


def ask_signal(
    w: words.Words,
    signals: tuple[Action, ...],
    read: Callable[[str], str],
    write: Callable[[str], None],
) -> Action | None:
    """Ask which signal to send to the partner; ``None`` when they quit."""
    write(w.gettext("Que sinal fazer para o parceiro? (pode ser blefe; os adversários podem ver)"))
    labels = [sinal_label(w, a.sinal) for a in signals if a.sinal is not None]
    write("  ".join(f"[{i}] {label}" for i, label in enumerate(labels, 1)))
    again = w.gettext("Escolha um sinal de 1 a {n} (ou s para sair).").format(n=len(signals))
    picked = _pick(read, write, "sinal> ", len(signals), None, again)
    return signals[picked] if isinstance(picked, int) else None


def _pick(
    read: Callable[[str], str],
    write: Callable[[str], None],
    prompt: str,
    count: int,
    key: str | None,
    again: str,
) -> int | str | None:
    """Read until a choice: an index below ``count``, ``key`` itself, or ``None`` to quit."""
    while True:
        try:
            answer = read(prompt).strip().lower()
        except EOFError:
            return None
        if answer in QUIT:
            return None
        if answer.isdigit() and 1 <= int(answer) <= count:
            return int(answer) - 1
        if key is not None and answer == key:
            return key
        write(again)


def hand_over(w: words.Words, v: View) -> str:
    """Who took the hand just ended, and the score."""
    if v.hand_winner is None:
        return w.gettext("Ninguém marcou nesta mão.")
    text = (
        w.gettext("Nós levamos {points} (placar {us} × {them}).")
        if v.hand_winner == HUMAN & 1
        else w.gettext("Eles levaram {points} (placar {us} × {them}).")
    )
    return text.format(points=v.points[v.hand_winner], us=v.score[0], them=v.score[1])


def points_shown(w: words.Words, v: View, style: DeckStyle = DeckStyle.TRADITIONAL) -> list[str]:
    """Gaudério, at the end of a hand: the cards (in ``style``) that proved the envido's
    winning points and the flors sung (R13.3, R13.4)."""
    lines = []
    e = v.envido
    if e is not None and e.proof is not None and e.winner_seat is not None:
        who = w.seat(e.winner_seat, v.seat, v.players)
        lines.append(
            w.gettext("Envido de {who}: {cards}").format(who=who, cards=w.cards(e.proof, style))
        )
    for s, cards in v.flor_cards:
        who = w.seat(s, v.seat, v.players)
        lines.append(
            w.gettext("Flor de {who}: {cards}").format(who=who, cards=w.cards(cards, style))
        )
    return lines


def play(
    variant: str,
    players: int,
    target: int | None,
    seed: int | None,
    level: str,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
    sinais: bool = True,
    lang: str = words.SOURCE,
    deck: DeckStyle | None = None,
) -> int:
    """Play one match in the terminal in ``lang``, its cards in ``deck`` (``None``: the
    variant's own, ``Ruleset.deck_style``); return the exit status."""
    w = words.get(lang)
    ruleset = get_ruleset(variant)
    style = ruleset.deck_style if deck is None else deck
    if target is None:
        target = ruleset.default_target_for(players)
    options = TableOptions(players=players, target=target, sinais=sinais).validated(ruleset)
    seed = random.randrange(2**31) if seed is None else seed
    robots = {s: get_robot(level, seed=seed + s) for s in range(1, players)}
    levels = [None if s == HUMAN else level for s in range(players)]
    m = Match(ruleset, options, seed)
    size = f"{players // 2}×{players // 2}"
    write(
        w.gettext("{variant} · {size} · até {target} pontos (semente {seed})").format(
            variant=w.variant(ruleset), size=size, target=target, seed=seed
        )
    )
    if options.sinais_on:
        chance = options.catch_percent
        write(
            w.gettext(
                "Com sinais: [z] faz um sinal ao parceiro; cada adversário vê com {chance}%."
            ).format(chance=chance)
        )
    announce_hand(w, m.view(HUMAN), write, style)
    while True:
        if m.phase == Phase.HAND_OVER or m.phase == Phase.MATCH_OVER:
            v = m.view(HUMAN)
            write(hand_over(w, v))
            if v.match_winner is not None:
                result = (
                    w.gettext("Ganhamos!")
                    if v.match_winner == HUMAN & 1
                    else w.gettext("Perdemos!")
                )
                write(f"{result} {v.score[0]} × {v.score[1]}")
                return 0
            for line in points_shown(w, v, style):
                write(line)
            m.deal()
            announce_hand(w, m.view(HUMAN), write, style)
            for s in m.flor:  # the mão's flor is sung at the deal (R13.4)
                write(w.flor_result(m.view(HUMAN), s))
            continue
        # HUMAN is asked first; a robot beside them then follows their run (R6)
        turn = None if HUMAN in m.to_act() else robot_turn(m, levels)
        seat = HUMAN if turn is None else turn.seat
        before = m.view(HUMAN)
        if turn is None:
            action = ask(w, before, read, write, style)
            if action is None:
                write(w.gettext("Até a próxima!"))
                return 0
        else:
            action = turn.decide(robots[seat])  # a signal (R12) is a move of its own
        m.apply(seat, action)
        if action.act == Act.SIGNAL:
            write(describe_signal(w, m.view(HUMAN), seat))
        else:
            write(describe(w, before, seat, action, style))
        after = m.view(HUMAN)
        for s in after.flor[len(before.flor) :]:
            write(w.flor_result(after, s))
        settled = after.envido is not None and after.envido.winner is not None
        if settled and (before.envido is None or before.envido.winner is None):
            write(w.envido_result(after) or "")
