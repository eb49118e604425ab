"""/tutorial in private: the engine's scripted lessons (``engine.tutorial``) as buttons.

/tutorial shows the lesson menu, the same lessons as the rulebook site. The learner's
position is one number in the database (``players.tutorial_step``): the index of the next
step to play in the flat list of every lesson's steps, so it also says which lesson is open.
Buttons are ``uL<n>`` (pick lesson ``n``) and ``u<step>:<action code>`` (a move), from
``bot.telegram.callbacks``, and are checked like any other. The screens are drawn by
``bot.telegram.render.lesson``.
"""

from __future__ import annotations

from dataclasses import dataclass

from telegram import InlineKeyboardMarkup

from bot.domain import Database, people
from bot.domain.values.errors import Reason
from bot.i18n import language_for, translations
from bot.telegram.callbacks import parse_lesson, parse_tutorial
from bot.telegram.render import lesson as draw
from bot.wording.refusals import reason_text
from engine.cards import DeckStyle


@dataclass(frozen=True)
class Answer:
    """What to show after a tutorial button: an alert, or a new text and keyboard."""

    alert: str = ""
    text: str | None = None
    markup: InlineKeyboardMarkup | None = None


def begin(db: Database, user_id: int) -> tuple[str, InlineKeyboardMarkup | None]:
    """/tutorial: the lesson menu (the stored step stays until a lesson is picked)."""
    p = people.player(db, user_id)
    style = p.deck if p else DeckStyle.TRADITIONAL
    reader = translations(language_for(p.language_code)) if p is not None else None
    return draw.menu(style, reader)


def press(db: Database, user_id: int, data: str) -> Answer:
    """A menu button opens a lesson; a move is checked against the stored step."""
    p = people.player(db, user_id)
    t = translations(language_for(p.language_code if p else None))
    if p is None:
        return Answer(alert=reason_text(t, Reason.BAD_BUTTON))
    lessons = len(draw.course().lessons)
    picked = parse_lesson(data)
    if picked is not None:
        if picked == 0:
            listing, choices = draw.menu(p.deck, t)
            return Answer(text=listing, markup=choices)
        if not 1 <= picked <= lessons:
            return Answer(alert=reason_text(t, Reason.BAD_BUTTON))
        first = draw.starts()[picked - 1]
        text, markup_or_none, index = draw.screen(picked - 1, first, p.deck, [], t)
        people.set_tutorial_step(db, user_id, index)
        return Answer(text=text, markup=markup_or_none)
    try:
        index, action = parse_tutorial(data)
    except ValueError:
        return Answer(alert=reason_text(t, Reason.BAD_BUTTON))
    steps = draw.flat()
    if people.tutorial_step(db, user_id) != index or index >= len(steps):
        return Answer(alert=reason_text(t, Reason.STALE))
    if not steps[index].step.expects(action):
        return Answer(alert=draw.almost(index, p.deck, t))
    lead = draw.moved(index, p.deck, t)
    text, markup, awaited = draw.screen(steps[index].lesson, index + 1, p.deck, lead, t)
    people.set_tutorial_step(db, user_id, awaited)
    return Answer(text=text, markup=markup)
