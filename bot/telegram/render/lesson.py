"""The /tutorial screens: the lesson menu and each lesson's steps, drawn from the engine's
scripted lessons (``engine.tutorial``).

The lessons are written in Portuguese; a lesson translated into the person's language
(``engine.tutorial.translated``: gaudério's first, in Spanish and English) is drawn in it,
frame, narration, cards and buttons alike; any other stays wholly in Portuguese, its frame
too: one language on the screen, not two mixed. The menu marks the lessons shown in
Portuguese to a person who reads another language.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from functools import cache

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.domain.people import home_variant
from bot.i18n import Translations, translations, words_for
from bot.telegram.callbacks import lesson_data, tutorial_data
from engine import DEFAULT_VARIANT, get_ruleset, words
from engine.actions import Act
from engine.cards import DeckStyle
from engine.sinais import ALL_SINAIS
from engine.tutorial import (
    Course,
    Step,
    Tutorial,
    TutorialHand,
    Words,
    in_language,
    load_lessons,
    told,
    translated,
)
from engine.view import View

PT = words.get("pt")
"""The lessons are written in Portuguese: an untranslated one is drawn all in Portuguese."""
PT_READER = translations("pt")


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


@dataclass(frozen=True)
class Reading:
    """The language a lesson is drawn in: the frame's sentences and the game's words."""

    t: Translations
    w: words.Words


def reading(n: int, reader: Translations | None) -> Reading:
    """The person's language (``reader``) if lesson ``n`` is translated into it, else
    Portuguese."""
    if reader is not None:
        w = words_for(reader)
        if w.lang != PT.lang and translated(_lesson(n), w.lang):
            return Reading(reader, w)
    return Reading(PT_READER, PT)


def say(text: Words | None, style: DeckStyle, w: words.Words = PT) -> str:
    """A lesson's words in the person's deck style and the reading's language (nothing
    when there are none)."""
    if text is None:
        return ""
    return in_language(text, w.lang, style) or text.in_style(style)


def _lesson(n: int) -> Tutorial:
    return course().lessons[n]


def _told(index: int, style: DeckStyle, w: words.Words) -> str:
    """The narration of step ``index`` (what its seat did) in the reading's language."""
    step = flat()[index].step
    if w is PT:
        return step.narration.in_style(style)
    return told(w, _before(index)[1], step.seat, step.action, course().seat, style)


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


def _view_lines(view: View, style: DeckStyle, r: Reading) -> list[str]:
    _, w = r.t.gettext, r.w
    lines = []
    if view.vira is not None:
        lines.append(_("Vira: {card}").format(card=w.card(view.vira, style)))
    if view.partner_hand is not None:
        lines.append(_("Parceiro: {cards}").format(cards=w.cards(view.partner_hand, style)))
    if view.table:
        table = " · ".join(w.card(c, style) if c is not None else "🂠" for _s, c, _cov in view.table)
        lines.append(_("Mesa: {cards}").format(cards=table))
    if view.hand:
        lines.append(_("Sua mão: {cards}").format(cards=w.cards(view.hand, style)))
    elif view.blind_slots:
        lines.append(_("Sua mão: 🂠 🂠 🂠 (às cegas)"))
    seen = [
        f"{w.seat(seat, view.seat, view.players)} {ALL_SINAIS[sinal].emoji} {w.sinal(sinal)}"
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
    """The lesson menu: one button per lesson, as on the rulebook site, in ``reader``'s
    language (the person's); a lesson not translated into it is listed in Portuguese,
    marked 🇧🇷, and the menu says what the mark means."""
    t = reader or PT_READER
    w = words_for(t)
    readings = [reading(n, t) for n in range(len(course().lessons))]
    lines = []
    if w.lang != PT.lang and any(r.w is PT for r in readings):
        lines.append("(" + t.gettext("As lições marcadas com 🇧🇷 são em português.") + ")")
    title = in_language(course().title, w.lang, style) or course().title.in_style(style)
    lines.append(f"🎓 <b>{html.escape(title)}</b>")
    lines.append(t.gettext("Escolha uma lição; cada uma é uma mão curta, jogada com botões."))
    home = home_variant(w.lang)
    if home != DEFAULT_VARIANT:
        # the course opens with the Brazilian game: whoever plays another at home is shown
        # where theirs is, rather than made to read about a vira they will never turn
        own = [
            str(n)
            for n, lesson in enumerate(course().lessons, start=1)
            if lesson.hands[0].scenario["variant"] == home
        ]
        if own:
            lines.append(
                t.ngettext(
                    "{variant}: a lição {lessons} é desse jogo.",
                    "{variant}: as lições {lessons} são desse jogo.",
                    len(own),
                ).format(variant=w.variant(get_ruleset(home)), lessons=", ".join(own))
            )
    names = []
    for n, (lesson, r) in enumerate(zip(course().lessons, readings, strict=True), start=1):
        mark = " 🇧🇷" if w.lang != PT.lang and r.w is PT else ""
        names.append(f"{n}. {say(lesson.title, style, r.w)}{mark}")
        lines.append(
            f"{n}. <b>{html.escape(say(lesson.title, style, r.w))}</b>{mark} — "
            + html.escape(say(lesson.summary, style, r.w))
        )
    buttons = [
        [InlineKeyboardButton(name, callback_data=lesson_data(n))]
        for n, name in enumerate(names, start=1)
    ]
    return "\n".join(lines), InlineKeyboardMarkup(buttons)


def moved(index: int, style: DeckStyle, reader: Translations | None = None) -> list[str]:
    """The lines that open the screen after the learner's right move (step ``index``):
    what it did and why."""
    r = reading(flat()[index].lesson, reader)
    return [
        f"✅ {html.escape(_told(index, style, r.w))}",
        html.escape(say(flat()[index].step.explanation, style, r.w)),
    ]


def almost(index: int, style: DeckStyle, reader: Translations | None = None) -> str:
    """The alert for a legal move the lesson did not ask for at step ``index``."""
    r = reading(flat()[index].lesson, reader)
    prompt = say(flat()[index].step.prompt, style, r.w)
    return r.t.gettext("Quase! {prompt}").format(prompt=prompt)[:200]


def screen(
    n: int, index: int, style: DeckStyle, lead: list[str], reader: Translations | None = None
) -> tuple[str, InlineKeyboardMarkup | None, int]:
    """Play the other seats' steps of lesson ``n`` from ``index`` on, then ask for a move,
    in ``reader``'s language if the lesson is translated into it (``reading``).

    Stops at the end of the lesson with the way on. Returns the text, the buttons and the
    index of the step now awaited.
    """
    steps, first = flat(), starts()
    end = first[n + 1]
    lines = list(lead)
    r = reading(n, reader)
    _, w = r.t.gettext, r.w

    def header(i: int) -> None:
        if i == first[n]:
            lines.append(f"🎓 <b>{html.escape(say(_lesson(n).title, style, w))}</b>")
        if _opens_hand(i):
            hand = _lesson(n).hands[steps[i].hand]
            lines.append(f"<b>{html.escape(say(hand.title, style, w))}</b>")
            lines.append(html.escape(say(hand.intro, style, w)))

    while index < end and not steps[index].step.yours:
        header(index)
        step = steps[index].step
        lines.append(
            f"{html.escape(_told(index, style, w))} " + html.escape(say(step.explanation, style, w))
        )
        index += 1
    if index >= end:
        done = _("🎉 <b>Lição concluída!</b>")
        others = InlineKeyboardButton(_("Outras lições"), callback_data=lesson_data(0))
        if n + 1 < len(course().lessons):
            following = say(_lesson(n + 1).title, style, reading(n + 1, reader).w)
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
    lines += _view_lines(view, style, r)
    lines.append(f"👉 {html.escape(say(step.prompt, style, w))}")
    # signals are offered only when the lesson teaches one: elsewhere they would distract
    choices = view.legal + view.legal_signals if step.action.act is Act.SIGNAL else view.legal
    buttons = [
        InlineKeyboardButton(w.button(a, view, style), callback_data=tutorial_data(index, a))
        for a in choices
    ]
    rows = [buttons[i : i + 3] for i in range(0, len(buttons), 3)]
    return "\n".join(lines), InlineKeyboardMarkup(rows), index
