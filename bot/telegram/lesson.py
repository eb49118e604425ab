"""/tutorial in private: the engine's scripted lesson (``engine.tutorial``) as buttons.

The learner's position is one number in the database (``players.tutorial_step``):
the index, in the lesson's flat list of steps, of the next step to play.
Buttons are ``u<step>:<action code>`` (``bot.telegram.callbacks``) and are
checked like any other.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from functools import cache

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.domain import Database, people
from bot.domain.values import Reason
from bot.i18n import language_for, translations
from bot.telegram.callbacks import parse_tutorial, tutorial_data
from bot.telegram.render import action_label, card_label, reason_text
from engine.cards import DeckStyle
from engine.tutorial import Step, Tutorial, TutorialHand, load_script
from engine.view import View


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


def _view_lines(view: View, style: DeckStyle) -> list[str]:
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
    index: int, style: DeckStyle, lead: list[str]
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
        InlineKeyboardButton(action_label(a, view, t, style), callback_data=tutorial_data(index, a))
        for a in view.legal
    ]
    rows = [buttons[i : i + 3] for i in range(0, len(buttons), 3)]
    return "\n".join(lines), InlineKeyboardMarkup(rows), index


def begin(db: Database, user_id: int) -> tuple[str, InlineKeyboardMarkup | None]:
    """Start (or restart) the lesson for a person."""
    p = people.player(db, user_id)
    style = p.deck if p else DeckStyle.TRADITIONAL
    intro = f"🎓 <b>{html.escape(lesson().title)}</b>"
    if p is not None and language_for(p.language_code) != "pt":
        intro += "\n(" + translations("en").gettext("O tutorial é em português.") + ")"
    text, markup, index = _screen(0, style, [intro])
    people.set_tutorial_step(db, user_id, index)
    return text, markup


def press(db: Database, user_id: int, data: str) -> Answer:
    """Check a tutorial button against the stored step and move the lesson on."""
    p = people.player(db, user_id)
    t = translations(language_for(p.language_code if p else None))
    try:
        index, action = parse_tutorial(data)
    except ValueError:
        return Answer(alert=reason_text(t, Reason.BAD_BUTTON))
    if p is None:
        return Answer(alert=reason_text(t, Reason.BAD_BUTTON))
    if people.tutorial_step(db, user_id) != index:
        return Answer(alert=reason_text(t, Reason.STALE))
    flat = _flat()
    step = flat[index][1]
    if not step.expects(action):
        return Answer(alert=f"Quase! {step.prompt}"[:200])
    lead = [f"✅ {html.escape(step.narration)}", html.escape(step.explanation)]
    text, markup, awaited = _screen(index + 1, p.deck, lead)
    people.set_tutorial_step(db, user_id, awaited)
    return Answer(text=text, markup=markup)
