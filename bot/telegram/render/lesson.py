"""The /tutorial screens: the lesson menu and each lesson's steps, drawn from the engine's
scripted lessons (``engine.tutorial``).

The lessons are written in Portuguese, so their frame (vira, mesa, placar...) and the cards
on their buttons are drawn in Portuguese too, whatever the person's language: one language
on the screen, not two mixed.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from functools import cache

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import Translations, translations, words_for
from bot.telegram.callbacks import lesson_data, tutorial_data
from engine import words
from engine.actions import Act
from engine.cards import DeckStyle
from engine.sinais import ALL_SINAIS
from engine.tutorial import Course, Step, Tutorial, TutorialHand, Words, load_lessons
from engine.view import View

PT = words.get("pt")
"""The lessons are written in Portuguese: their cards and buttons are named in Portuguese too."""

_ = translations("pt").gettext


@dataclass(frozen=True)
class At:
    """One step of the flat list: its lesson, its hand and the step."""

    lesson: int
    hand: int
    step: Step


@cache
def course() -> Course:
    """Every lesson, replayed and checked by the engine once per process."""
    return load_lessons()


@cache
def flat() -> tuple[At, ...]:
    """Every step of every lesson, in order: a learner's position is an index here."""
    return tuple(
        At(n, h, step) for n, lesson in enumerate(course().lessons) for h, step in lesson.steps()
    )


@cache
def starts() -> tuple[int, ...]:
    """The flat index of each lesson's first step, plus the end of the list."""
    found, total = [], 0
    for lesson in course().lessons:
        found.append(total)
        total += sum(len(h.steps) for h in lesson.hands)
    return (*found, total)


def say(text: Words | None, style: DeckStyle) -> str:
    """A lesson's words in the person's deck style (nothing when there are none)."""
    return text.in_style(style) if text is not None else ""


def _lesson(n: int) -> Tutorial:
    return course().lessons[n]


def _opens_hand(index: int) -> bool:
    steps = flat()
    return index == 0 or (steps[index - 1].lesson, steps[index - 1].hand) != (
        steps[index].lesson,
        steps[index].hand,
    )


def _before(index: int) -> tuple[TutorialHand, View]:
    """The hand of step ``index`` and the learner's view just before it."""
    at = flat()[index]
    hand = _lesson(at.lesson).hands[at.hand]
    return hand, hand.start if _opens_hand(index) else flat()[index - 1].step.view


def _view_lines(view: View, style: DeckStyle) -> list[str]:
    lines = []
    if view.vira is not None:
        lines.append(_("Vira: {card}").format(card=PT.card(view.vira, style)))
    if view.partner_hand is not None:
        lines.append(_("Parceiro: {cards}").format(cards=PT.cards(view.partner_hand, style)))
    if view.table:
        table = " · ".join(
            PT.card(c, style) if c is not None else "🂠" for _s, c, _cov in view.table
        )
        lines.append(_("Mesa: {cards}").format(cards=table))
    if view.hand:
        lines.append(_("Sua mão: {cards}").format(cards=PT.cards(view.hand, style)))
    elif view.blind_slots:
        lines.append(_("Sua mão: 🂠 🂠 🂠 (às cegas)"))
    seen = [
        f"{PT.seat(seat, view.seat, view.players)} {ALL_SINAIS[sinal].emoji} {PT.sinal(sinal)}"
        for seat, sinal in view.signals
    ]
    if seen:
        lines.append(_("Sinais: {seen}").format(seen=" · ".join(seen)))
    lines.append(
        _("Placar: {us} × {them} · valendo {stake}").format(
            us=view.score[0], them=view.score[1], stake=view.stake
        )
    )
    return lines


def menu(style: DeckStyle, reader: Translations | None = None) -> tuple[str, InlineKeyboardMarkup]:
    """The lesson menu: one button per lesson, as on the rulebook site.

    ``reader``: the person's language; one who reads another than Portuguese is first
    told, in their own language, that the lessons are in Portuguese."""
    lines = []
    if reader is not None and words_for(reader).lang != PT.lang:
        lines.append("(" + reader.gettext("O tutorial é em português.") + ")")
    lines.append(f"🎓 <b>{html.escape(course().title.in_style(style))}</b>")
    lines.append(_("Escolha uma lição; cada uma é uma mão curta, jogada com botões."))
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


def moved(step: Step, style: DeckStyle) -> list[str]:
    """The lines that open the screen after the learner's right move: what it did and why."""
    return [
        f"✅ {html.escape(step.narration.in_style(style))}",
        html.escape(step.explanation.in_style(style)),
    ]


def almost(step: Step, style: DeckStyle) -> str:
    """The alert for a legal move the lesson did not ask for."""
    return _("Quase! {prompt}").format(prompt=say(step.prompt, style))[:200]


def screen(
    n: int, index: int, style: DeckStyle, lead: list[str]
) -> tuple[str, InlineKeyboardMarkup | None, int]:
    """Play the other seats' steps of lesson ``n`` from ``index`` on, then ask for a move.

    Stops at the end of the lesson with the way on. Returns the text, the buttons and the
    index of the step now awaited.
    """
    steps, first = flat(), starts()
    end = first[n + 1]
    lines = list(lead)

    def header(i: int) -> None:
        if i == first[n]:
            lines.append(f"🎓 <b>{html.escape(_lesson(n).title.in_style(style))}</b>")
        if _opens_hand(i):
            hand = _lesson(n).hands[steps[i].hand]
            lines.append(f"<b>{html.escape(hand.title.in_style(style))}</b>")
            lines.append(html.escape(hand.intro.in_style(style)))

    while index < end and not steps[index].step.yours:
        header(index)
        step = steps[index].step
        lines.append(
            f"{html.escape(step.narration.in_style(style))} "
            + html.escape(step.explanation.in_style(style))
        )
        index += 1
    if index >= end:
        done = _("🎉 <b>Lição concluída!</b>")
        others = InlineKeyboardButton(_("Outras lições"), callback_data=lesson_data(0))
        if n + 1 < len(course().lessons):
            following = _lesson(n + 1).title.in_style(style)
            onward = [
                [
                    InlineKeyboardButton(
                        _("Próxima: {title}").format(title=following),
                        callback_data=lesson_data(n + 2),
                    )
                ],
                [others],
            ]
            lines.append(done)
            return "\n\n".join(lines), InlineKeyboardMarkup(onward), index
        lines.append(
            done + " " + _("Você passou por todas as lições. Agora jogue de verdade: /truco")
        )
        return "\n\n".join(lines), InlineKeyboardMarkup([[others]]), index
    header(index)
    step = steps[index].step
    _hand, view = _before(index)
    lines += _view_lines(view, style)
    lines.append(f"👉 {html.escape(say(step.prompt, style))}")
    # signals are offered only when the lesson teaches one: elsewhere they would distract
    choices = view.legal + view.legal_signals if step.action.act is Act.SIGNAL else view.legal
    buttons = [
        InlineKeyboardButton(PT.button(a, view, style), callback_data=tutorial_data(index, a))
        for a in choices
    ]
    rows = [buttons[i : i + 3] for i in range(0, len(buttons), 3)]
    return "\n".join(lines), InlineKeyboardMarkup(rows), index
