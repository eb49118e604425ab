"""``truco play``: a small terminal game against robots, to try the engine with no Telegram."""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.actions import Act, Action
from engine.match import HandKind, Match, Phase
from engine.robots import get_robot, robot_signal
from engine.robots.partners import follows_partner
from engine.rulesets import TableOptions, get_ruleset
from engine.sinais import Sinal
from engine.view import View

HUMAN = 0


def seat_name(seat: int, players: int) -> str:
    """How the terminal names a seat: you, your partner or a robot."""
    if seat == HUMAN:
        return "Você"
    if players == 4 and seat == 2:
        return "Parceiro"
    return f"Robô {seat}"


def call_word(v: View, step: int | None) -> str:
    """What a player shouts for ladder step ``step`` (truco, seis, nove, doze)."""
    return v.ruleset.call_names[step or 0].capitalize() + "!"


def sinal_label(sinal: Sinal) -> str:
    """A signal as the terminal lists it: emoji, name and the face that makes it."""
    info = sinal.info
    return f"{info.emoji} {info.name} ({info.face})"


def describe(v: View, seat: int, action: Action) -> str:
    """One line telling the table what a seat did, from a view taken just after it
    (a signal only as the human saw it, R12)."""
    who = seat_name(seat, v.players)
    act = action.act
    if act == Act.SIGNAL:
        seen = v.history[-1][1].sinal
        if seen is None:
            return f"{who} fez um sinal"
        if seat == HUMAN:
            return f"Você fez o sinal de {seen.info.name} {seen.info.emoji}"
        if seat & 1 == HUMAN & 1:
            return f"{who} fez sinal: {seen.info.emoji} {seen.info.name}!"
        return f"Você viu {who} {seen.info.face}: {seen.info.name}! {seen.info.emoji}"
    if act == Act.PLAY and action.card is not None:
        return f"{who} jogou {action.card.label}"
    if act == Act.COVER:
        return f"{who} jogou uma carta coberta"
    if act == Act.TRUCO:
        return f"{who}: {call_word(v, v.pending_step)}"
    if act == Act.ACCEPT:
        return f"{who}: Desce!"
    if act == Act.RUN:
        return f"{who} correu"
    if act == Act.RAISE:
        return f"{who} aumentou: {call_word(v, v.pending_step)}"
    if act == Act.PLAY11:
        return f"{who} topou jogar a mão"
    if act == Act.BLIND and action.slot is not None:
        return f"{who} jogou a {action.slot + 1}ª carta às cegas"
    return f"{who} correu da mão"


def option_label(v: View, action: Action) -> str:
    """The label of one choice offered to the human."""
    act = action.act
    if act == Act.PLAY and action.card is not None:
        return action.card.label
    if act == Act.COVER and action.card is not None:
        return f"{action.card.label} coberta"
    if act == Act.BLIND and action.slot is not None:
        return f"{action.slot + 1}ª carta"
    if act == Act.TRUCO or act == Act.RAISE:
        return call_word(v, v.next_step)
    return {
        Act.ACCEPT: "Desce!",
        Act.RUN: "Corro",
        Act.PLAY11: "Jogar a mão",
        Act.RUN11: "Correr da mão",
    }[act]


def render(v: View) -> str:
    """The table as the human sees it (from the human's view only)."""
    lines = [f"Placar: nós {v.score[0]} × {v.score[1]} eles · mão vale {v.stake}"]
    if v.vira is not None:
        lines.append(f"Vira: {v.vira.label} · manilha: {v.manilhas[0].rank.code}")
    if v.kind == HandKind.SPECIAL:
        special = v.ruleset.special_hand.replace("_", " ").replace("mao", "mão")
        lines.append(f"É {special}!")
    elif v.kind == HandKind.IRON:
        lines.append("Mão de ferro: todo mundo joga às cegas.")
    if v.rounds:
        marks = {0: "nós", 1: "eles", None: "cangou"}
        lines.append("Vazas: " + ", ".join(marks[r] for r in v.rounds))
    if v.table:
        played = ", ".join(
            f"{seat_name(s, v.players)}: {c.label if c is not None else '🂠'}" for s, c, _ in v.table
        )
        lines.append(f"Mesa: {played}")
    if v.hand:
        lines.append("Sua mão: " + "  ".join(c.label for c in v.hand))
    if v.partner_hand is not None:
        lines.append("Mão do parceiro: " + "  ".join(c.label for c in v.partner_hand))
    if v.pending_value is not None:
        lines.append(f"Pedido na mesa: vale {v.pending_value}")
    for s, sinal in v.signals:
        seen = "Sinal do" if s & 1 == v.team else "Você viu o sinal do"
        lines.append(f"{seen} {seat_name(s, v.players)}: {sinal.info.emoji} {sinal.info.name}")
    return "\n".join(lines)


def announce_hand(v: View, write: Callable[[str], None]) -> None:
    """Print who deals, the vira and the human's cards at the start of a hand."""
    write(f"--- Mão {v.hand_number + 1} · dá as cartas: {seat_name(v.dealer, v.players)} ---")
    if v.vira is not None:
        write(f"Vira: {v.vira.label} · manilha: {v.manilhas[0].rank.code}")
    if v.hand:
        write("Suas cartas: " + "  ".join(c.label for c in v.hand))


def ask(v: View, read: Callable[[str], str], write: Callable[[str], None]) -> Action | None:
    """Ask the human for one legal action of their view (or a signal, R12); ``None`` when
    they quit."""
    legal = v.legal
    signals = v.legal_signals
    write(render(v))
    extra = "  [z] sinal" if signals else ""
    write(
        "  ".join(f"[{i}] {option_label(v, a)}" for i, a in enumerate(legal, 1))
        + extra
        + "  [s] sair"
    )
    while True:
        try:
            answer = read("> ").strip().lower()
        except EOFError:
            return None
        if answer in ("s", "sair", "q"):
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(legal):
            return legal[int(answer) - 1]
        if answer == "z" and signals:
            return ask_signal(signals, read, write)
        write(f"Escolha um número de 1 a {len(legal)} (ou s para sair).")


def ask_signal(
    signals: tuple[Action, ...], read: Callable[[str], str], write: Callable[[str], None]
) -> Action | None:
    """Ask which signal to send to the partner; ``None`` when they quit."""
    write("Que sinal fazer para o parceiro? (pode ser blefe; os adversários podem ver)")
    labels = [sinal_label(a.sinal) for a in signals if a.sinal is not None]
    write("  ".join(f"[{i}] {label}" for i, label in enumerate(labels, 1)))
    while True:
        try:
            answer = read("sinal> ").strip().lower()
        except EOFError:
            return None
        if answer in ("s", "sair", "q"):
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(signals):
            return signals[int(answer) - 1]
        write(f"Escolha um sinal de 1 a {len(signals)} (ou s para sair).")


def play(
    variant: str,
    players: int,
    target: int,
    seed: int | None,
    level: str,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
    sinais: bool = True,
) -> int:
    """Play one match in the terminal; return the exit status."""
    ruleset = get_ruleset(variant)
    options = TableOptions(players=players, target=target, sinais=sinais).validated(ruleset)
    seed = random.randrange(2**31) if seed is None else seed
    robots = {s: get_robot(level, seed=seed + s) for s in range(1, players)}
    m = Match(ruleset, options, seed)
    write(f"{ruleset.title} · {players // 2}×{players // 2} · até {target} pontos (semente {seed})")
    if options.sinais_on:
        chance = options.catch_percent
        write(f"Com sinais: [z] faz um sinal ao parceiro; cada adversário vê com {chance}%.")
    announce_hand(m.view(HUMAN), write)
    while True:
        if m.phase == Phase.HAND_OVER or m.phase == Phase.MATCH_OVER:
            if m.hand_winner is None:
                write("Ninguém marcou nesta mão.")
            else:
                who = "Nós levamos" if m.hand_winner == 0 else "Eles levaram"
                write(f"{who} {m.stake} (placar {m.score[0]} × {m.score[1]}).")
            if m.phase == Phase.MATCH_OVER:
                result = "Ganhamos" if m.match_winner == 0 else "Perdemos"
                write(f"{result}! {m.score[0]} × {m.score[1]}")
                return 0
            m.deal()
            announce_hand(m.view(HUMAN), write)
            continue
        seats = m.to_act()
        seat = HUMAN if HUMAN in seats else seats[0]
        if seat == HUMAN:
            action = ask(m.view(HUMAN), read, write)
            if action is None:
                write("Até a próxima!")
                return 0
        else:
            # beside the human the robot partner follows their run (R6); HUMAN is asked first
            view = m.view(seat)
            action = follows_partner(view, view.partner == HUMAN)
            sign = robot_signal(robots[seat], view) if action is None else None
            if sign is not None:
                m.apply(seat, sign)
                write(describe(m.view(HUMAN), seat, sign))
                view = m.view(seat)
            action = action or robots[seat].choose(view)
        m.apply(seat, action)
        write(describe(m.view(HUMAN), seat, action))
