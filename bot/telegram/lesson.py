"""/tutorial in private: the engine's scripted lessons (``engine.tutorial``) as buttons.

/tutorial shows the lesson menu, the same lessons as the rulebook site. The learner's
position is one number in the database (``players.tutorial_step``): the index of the next
step to play in the flat list of every lesson's steps, so it also says which lesson is open.
Buttons are ``uL<n>`` (pick lesson ``n``) and ``u<step>:<action code>`` (a move), from
``bot.telegram.callbacks``, and are checked like any other.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from functools import cache

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.domain import Database, people
from bot.domain.values import Reason
from bot.i18n import language_for, translations
from bot.telegram.callbacks import lesson_data, parse_lesson, parse_tutorial, tutorial_data
from bot.telegram.render.wording import reason_text
from engine import words
from engine.actions import Act
from engine.cards import DeckStyle
from engine.sinais import SINAIS
from engine.tutorial import Course, Step, Tutorial, TutorialHand, Words, load_lessons
from engine.view import View

PT = words.get("pt")
"""The lessons are written in Portuguese: their cards and buttons are named in Portuguese too."""


@dataclass(frozen=True)
class Answer:
    """What to show after a tutorial button: an alert, or a new text and keyboard."""

    alert: str = ""
    text: str | None = None
    markup: InlineKeyboardMarkup | None = None


@dataclass(frozen=True)
class _At:
    """One step of the flat list: its lesson, its hand and the step."""

    lesson: int
    hand: int
    step: Step


@cache
def course() -> Course:
    """Every lesson, replayed and checked by the engine once per process."""
    return load_lessons()


@cache
def _flat() -> tuple[_At, ...]:
    return tuple(
        _At(n, h, step) for n, lesson in enumerate(course().lessons) for h, step in lesson.steps()
    )


@cache
def _starts() -> tuple[int, ...]:
    """The flat index of each lesson's first step, plus the end of the list."""
    starts, total = [], 0
    for lesson in course().lessons:
        starts.append(total)
        total += sum(len(h.steps) for h in lesson.hands)
    return (*starts, total)


def _say(text: Words | None, style: DeckStyle) -> str:
    return text.in_style(style) if text is not None else ""


def _lesson(n: int) -> Tutorial:
    return course().lessons[n]


def _opens_hand(index: int) -> bool:
    flat = _flat()
    return index == 0 or (flat[index - 1].lesson, flat[index - 1].hand) != (
        flat[index].lesson,
        flat[index].hand,
    )


def _before(index: int) -> tuple[TutorialHand, View]:
    """The hand of step ``index`` and the learner's view just before it."""
    at = _flat()[index]
    hand = _lesson(at.lesson).hands[at.hand]
    return hand, hand.start if _opens_hand(index) else _flat()[index - 1].step.view


def _view_lines(view: View, style: DeckStyle) -> list[str]:
    lines = []
    if view.vira is not None:
        lines.append(f"Vira: {PT.card(view.vira, style)}")
    if view.partner_hand is not None:
        lines.append("Parceiro: " + PT.cards(view.partner_hand, style))
    if view.table:
        table = " · ".join(PT.card(c, style) if c else "🂠" for _s, c, _cov in view.table)
        lines.append(f"Mesa: {table}")
    if view.hand:
        lines.append("Sua mão: " + PT.cards(view.hand, style))
    elif view.blind_slots:
        lines.append("Sua mão: 🂠 🂠 🂠 (às cegas)")
    seen = [
        f"{PT.seat(seat, view.seat, view.players)} {SINAIS[sinal].emoji} {PT.sinal(sinal)}"
        for seat, sinal in view.signals
    ]
    if seen:
        lines.append("Sinais: " + " · ".join(seen))
    lines.append(f"Placar: {view.score[0]} × {view.score[1]} · valendo {view.stake}")
    return lines


def menu(style: DeckStyle, lead: list[str] | None = None) -> tuple[str, InlineKeyboardMarkup]:
    """The lesson menu: one button per lesson, as on the rulebook site."""
    lines = list(lead or [])
    lines.append(f"🎓 <b>{html.escape(course().title.in_style(style))}</b>")
    lines.append("Escolha uma lição; cada uma é uma mão curta, jogada com botões.")
    for n, lesson in enumerate(course().lessons, start=1):
        lines.append(
            f"{n}. <b>{html.escape(lesson.title.in_style(style))}</b> — "
            + html.escape(lesson.summary.in_style(style))
        )
    buttons = [
        [InlineKeyboardButton(f"{n}. {lesson.title.in_style(style)}", callback_data=lesson_data(n))]
        for n, lesson in enumerate(course().lessons, start=1)
    ]
    return "\n".join(lines), InlineKeyboardMarkup(buttons)


def _screen(
    n: int, index: int, style: DeckStyle, lead: list[str]
) -> tuple[str, InlineKeyboardMarkup | None, int]:
    """Play the other seats' steps of lesson ``n`` from ``index`` on, then ask for a move.

    Stops at the end of the lesson with the way on. Returns the text, the buttons and the
    index of the step now awaited.
    """
    flat, starts = _flat(), _starts()
    end = starts[n + 1]
    lines = list(lead)

    def header(i: int) -> None:
        if i == starts[n]:
            lines.append(f"🎓 <b>{html.escape(_lesson(n).title.in_style(style))}</b>")
        if _opens_hand(i):
            hand = _lesson(n).hands[flat[i].hand]
            lines.append(f"<b>{html.escape(hand.title.in_style(style))}</b>")
            lines.append(html.escape(hand.intro.in_style(style)))

    while index < end and not flat[index].step.yours:
        header(index)
        step = flat[index].step
        lines.append(
            f"{html.escape(step.narration.in_style(style))} "
            + html.escape(step.explanation.in_style(style))
        )
        index += 1
    if index >= end:
        done = "🎉 <b>Lição concluída!</b>"
        if n + 1 < len(course().lessons):
            following = _lesson(n + 1).title.in_style(style)
            onward = [
                [InlineKeyboardButton(f"Próxima: {following}", callback_data=lesson_data(n + 2))],
                [InlineKeyboardButton("Outras lições", callback_data=lesson_data(0))],
            ]
            lines.append(done)
            return "\n\n".join(lines), InlineKeyboardMarkup(onward), index
        lines.append(done + " Você passou por todas as lições. Agora jogue de verdade: /truco")
        again = [[InlineKeyboardButton("Outras lições", callback_data=lesson_data(0))]]
        return "\n\n".join(lines), InlineKeyboardMarkup(again), index
    header(index)
    step = flat[index].step
    _hand, view = _before(index)
    lines += _view_lines(view, style)
    lines.append(f"👉 {html.escape(_say(step.prompt, style))}")
    # signals are offered only when the lesson teaches one: elsewhere they would distract
    choices = view.legal + view.legal_signals if step.action.act is Act.SIGNAL else view.legal
    buttons = [
        InlineKeyboardButton(PT.button(a, view, style), callback_data=tutorial_data(index, a))
        for a in choices
    ]
    rows = [buttons[i : i + 3] for i in range(0, len(buttons), 3)]
    return "\n".join(lines), InlineKeyboardMarkup(rows), index


def begin(db: Database, user_id: int) -> tuple[str, InlineKeyboardMarkup | None]:
    """/tutorial: the lesson menu (the stored step stays until a lesson is picked)."""
    p = people.player(db, user_id)
    style = p.deck if p else DeckStyle.TRADITIONAL
    lead = []
    if p is not None and language_for(p.language_code) != "pt":
        lead.append("(" + translations("en").gettext("O tutorial é em português.") + ")")
    return menu(style, lead)


def press(db: Database, user_id: int, data: str) -> Answer:
    """A menu button opens a lesson; a move is checked against the stored step."""
    p = people.player(db, user_id)
    t = translations(language_for(p.language_code if p else None))
    if p is None:
        return Answer(alert=reason_text(t, Reason.BAD_BUTTON))
    picked = parse_lesson(data)
    if picked is not None:
        if picked == 0:
            listing, choices = menu(p.deck)
            return Answer(text=listing, markup=choices)
        if not 1 <= picked <= len(course().lessons):
            return Answer(alert=reason_text(t, Reason.BAD_BUTTON))
        text, markup_or_none, index = _screen(picked - 1, _starts()[picked - 1], p.deck, [])
        people.set_tutorial_step(db, user_id, index)
        return Answer(text=text, markup=markup_or_none)
    try:
        index, action = parse_tutorial(data)
    except ValueError:
        return Answer(alert=reason_text(t, Reason.BAD_BUTTON))
    if people.tutorial_step(db, user_id) != index or index >= len(_flat()):
        return Answer(alert=reason_text(t, Reason.STALE))
    step = _flat()[index].step
    if not step.expects(action):
        return Answer(alert=f"Quase! {_say(step.prompt, p.deck)}"[:200])
    lead = [
        f"✅ {html.escape(step.narration.in_style(p.deck))}",
        html.escape(step.explanation.in_style(p.deck)),
    ]
    text, markup, awaited = _screen(_flat()[index].lesson, index + 1, p.deck, lead)
    people.set_tutorial_step(db, user_id, awaited)
    return Answer(text=text, markup=markup)
