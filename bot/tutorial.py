"""/tutorial in private: the engine's scripted lesson (``engine.tutorial``) as buttons.

The learner's position is one number in the database (``players.tutorial_step``):
the index, in the lesson's flat list of steps, of the next step to play.
Buttons are ``u<step>:<action code>`` and are checked like any other.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import cache

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.codes import action_code, parse_action_code
from bot.i18n import language_for, translations
from bot.models import Player
from bot.numbers import parse_number
from bot.render import action_label, card_label
from bot.store import Database
from engine.tutorial import Step, Tutorial, TutorialHand, load_script
from engine.view import View

_PRESS = re.compile(r"u([0-9]{1,4}):([A-Za-z0-9]{1,3})")


@dataclass(frozen=True)
class Answer:
    """What to show after a tutorial button: an alert, or a new text and keyboard."""

    alert: str = ""
    text: str | None = None
    markup: InlineKeyboardMarkup | None = None


@cache
def lesson() -> Tutorial:
    """The lesson, replayed and checked by the engine once per process."""
    return load_script()


def _flat() -> list[tuple[int, Step]]:
    return list(lesson().steps())


def _before(index: int) -> tuple[TutorialHand, View]:
    """The hand of step ``index`` and the learner's view just before it."""
    flat = _flat()
    hand_index, _step = flat[index]
    hand = lesson().hands[hand_index]
    if index == 0 or flat[index - 1][0] != hand_index:
        return hand, hand.start
    return hand, flat[index - 1][1].view


def _view_lines(view: View, style: str) -> list[str]:
    lines = []
    if view.vira is not None:
        lines.append(f"Vira: {card_label(view.vira, style)}")
    if view.table:
        table = " · ".join(card_label(c, style) if c else "🂠" for _s, c, _cov in view.table)
        lines.append(f"Mesa: {table}")
    lines.append("Sua mão: " + (" ".join(card_label(c, style) for c in view.hand) or "—"))
    lines.append(f"Placar: {view.score[0]} × {view.score[1]} · valendo {view.stake}")
    return lines


def _screen(
    index: int, style: str, lead: list[str]
) -> tuple[str, InlineKeyboardMarkup | None, int]:
    """Play the other seats' steps from ``index`` on, then ask for the learner's move.

    Returns the text, the buttons and the index of the step now awaited.
    """
    flat = _flat()
    lines = list(lead)
    while index < len(flat) and not flat[index][1].yours:
        hand_index, step = flat[index]
        if index == 0 or flat[index - 1][0] != hand_index:
            hand = lesson().hands[hand_index]
            lines += [f"<b>{html.escape(hand.title)}</b>", html.escape(hand.intro)]
        lines.append(f"{html.escape(step.narration)} {html.escape(step.explanation)}")
        index += 1
    if index >= len(flat):
        lines.append("🎉 <b>Fim do tutorial!</b> Agora jogue de verdade: /truco")
        return "\n\n".join(lines), None, index
    hand_index, step = flat[index]
    hand, view = _before(index)
    if index == 0 or flat[index - 1][0] != hand_index:
        lines += [f"<b>{html.escape(hand.title)}</b>", html.escape(hand.intro)]
    lines += _view_lines(view, style)
    lines.append(f"👉 {html.escape(step.prompt or '')}")
    t = translations("pt")
    buttons = [
        InlineKeyboardButton(
            action_label(a, view, t, style), callback_data=f"u{index}:{action_code(a)}"
        )
        for a in view.legal
    ]
    rows = [buttons[i : i + 3] for i in range(0, len(buttons), 3)]
    return "\n".join(lines), InlineKeyboardMarkup(rows), index


def _save_step(db: Database, user_id: int, index: int | None) -> Player | None:
    with db.session() as s:
        p = s.get(Player, user_id)
        if p is None:
            return None
        p.tutorial_step = index
        s.add(p)
        s.commit()
        return p


def begin(db: Database, user_id: int) -> tuple[str, InlineKeyboardMarkup | None]:
    """Start (or restart) the lesson for a person."""
    with db.session() as s:
        p = s.get(Player, user_id)
    style = p.deck if p else "traditional"
    intro = f"🎓 <b>{html.escape(lesson().title)}</b>"
    if p is not None and language_for(p.language_code) != "pt":
        intro += "\n(" + translations("en").gettext("O tutorial é em português.") + ")"
    text, markup, index = _screen(0, style, [intro])
    _save_step(db, user_id, index)
    return text, markup


def press(db: Database, user_id: int, data: str) -> Answer:
    """Check a tutorial button against the stored step and move the lesson on."""
    found = _PRESS.fullmatch(data)
    with db.session() as s:
        p = s.get(Player, user_id)
    t = translations(language_for(p.language_code if p else None))
    if found is None or p is None:
        return Answer(alert=t.gettext("Botão inválido."))
    index = parse_number(found[1])
    if p.tutorial_step != index:
        return Answer(alert=t.gettext("Essa jogada já passou."))
    try:
        action = parse_action_code(found[2])
    except ValueError:
        return Answer(alert=t.gettext("Botão inválido."))
    flat = _flat()
    step = flat[index][1]
    if not step.expects(action):
        return Answer(alert=f"Quase! {step.prompt}"[:200])
    lead = [f"✅ {html.escape(step.narration)}", html.escape(step.explanation)]
    text, markup, awaited = _screen(index + 1, p.deck, lead)
    _save_step(db, user_id, awaited)
    return Answer(text=text, markup=markup)
