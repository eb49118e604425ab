"""A signal (R12) as the people who know it say it: the one who sent it, the partner who
saw it, an opponent who caught it. Both adapters say these: the private hand message (with
names in HTML) and the Mini App page (plain)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Translations, words_for
from bot.wording import PLAIN, Sentence, Style, Value
from bot.wording.table import Seats
from engine.actions import Act
from engine.sinais import Sinal
from engine.view import View


def sinal_name(t: Translations, sinal: Sinal) -> str:
    """A signal as buttons and sentences name it: emoji and name (``😉 zap``)."""
    return f"{sinal.info.emoji} {words_for(t).sinal(sinal)}"


def sent_signal(t: Translations, sinal: Sinal, robot: bool = False) -> Sentence:
    """A signal the person sent: theirs alone to see, said so that it does not vanish.
    ``robot``: the robot playing for them while they were away sent it."""
    if robot:
        text = t.gettext("🤖 O robô fez por você o sinal: {sinal}")
    else:
        text = t.gettext("👁️ Você fez o sinal: {sinal}")
    values: dict[str, Value] = {"sinal": sinal.code, **({"robot": True} if robot else {})}
    return Sentence("signal_sent", text.format(sinal=sinal_name(t, sinal)), values)


def seen_signal(
    t: Translations, seat: int, name: str, sinal: Sinal, caught: bool, style: Style = PLAIN
) -> Sentence:
    """A signal of ``seat`` (named ``name``) the person knows: their partner's (``caught``
    false), or an opponent's they caught, which is said as caught, not as if it leaked."""
    values: dict[str, Value] = {"seat": seat, "name": name, "sinal": sinal.code}
    if caught:
        words = t.gettext("👀 Você pegou o sinal de {name}: {sinal}")
        kind = "signal_caught"
    else:
        words = t.gettext("👁️ Sinal de {name}: {sinal}")
        kind = "signal_partner"
    return Sentence(kind, words.format(name=style.name(name), sinal=sinal_name(t, sinal)), values)


def hand_signals(
    t: Translations,
    view: View,
    seats: Seats,
    style: Style = PLAIN,
    robot_moves: Sequence[bool] = (),
) -> list[Sentence]:
    """Every signal of the hand this seat knows, oldest first: the ones it sent, its
    partner's, and the opponents' it caught (an uncaught one is hidden in its view).

    ``robot_moves``: whether each of this seat's moves in the hand was made by the robot
    playing for the person (``Table.stand_in_moves``): its signals are said as the robot's.
    """
    said = []
    mine = -1  # this seat's moves so far, as ``robot_moves`` counts them
    for seat, action in view.history:
        if seat == view.seat:
            mine += 1
        if action.act is not Act.SIGNAL or action.sinal is None:
            continue
        if seat == view.seat:
            robot = mine < len(robot_moves) and robot_moves[mine]
            said.append(sent_signal(t, action.sinal, robot))
            continue
        who = seats[seat]
        caught = (seat - view.seat) % 2 == 1
        name = who.name if who is not None else ""
        said.append(seen_signal(t, seat, name, action.sinal, caught, style))
    return said
