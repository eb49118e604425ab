"""/tutorial in the person's language: a lesson translated into it (gaudério's, in Spanish
and English) is played wholly in it, frame, narration, cards and buttons; the others stay
wholly in Portuguese, marked on the menu. Through the real bot and the fake Telegram, on the
held clock."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.i18n import person_translations, words_for
from bot.sandbox.fakeapi import FakeTelegram
from bot.telegram.callbacks import parse_tutorial, tutorial_data
from bot.telegram.render import lesson as draw
from engine.cards import DeckStyle
from engine.tutorial import translated
from tests.bot.harness import JSON, FakeClock, Harness, button, buttons, labels, newest, running

PORTUGUESE = ("Sua mão", "Placar", "Você", "Jogue", "Conte", "Adversário", "vaza", "Quero")
"""Words of the Portuguese frame and lessons that no translated screen may show."""


async def play_lesson(h: Harness, user: int, title: str) -> list[str]:
    """Open the lesson named ``title`` from /tutorial and make every move it asks for, as
    the learner would (the button of the step awaited); the screens, in order."""
    s = h.server
    await s.user_sends(user, user, "/tutorial")
    menu: JSON = await h.wait(lambda: newest(h, user, "🎓"))
    mid = menu["message_id"]
    await s.user_presses(user, user, mid, button(menu, title)["callback_data"])
    screens: list[str] = []
    seen = {menu["text"]}  # each press redraws the message: wait for the new screen
    while True:
        shown = await h.wait(lambda: (m := s.message(user, mid)) and m["text"] not in seen and m)
        seen.add(shown["text"])
        screens.append(shown["text"])
        moves = [b["callback_data"] for b in buttons(shown) if b["callback_data"][1:2].isdigit()]
        if not moves:
            return screens
        index, _ = parse_tutorial(moves[0])
        wanted = tutorial_data(index, draw.flat()[index].step.action)
        assert wanted in moves, (wanted, labels(shown))
        await s.user_presses(user, user, mid, wanted)


@pytest.mark.parametrize(
    ("lang", "menu_note", "pontos", "flor", "done", "words"),
    [
        (
            "es-UY",
            "(Las lecciones marcadas con 🇧🇷 están en portugués.)",
            "El juego de los tantos (gaudério)",
            "Flor (gaudério)",
            "¡Lección terminada!",
            ("Contá tus tantos", "¡Envido!", "No quiero", "Tu mano", "baza", "¡Flor!"),
        ),
        (
            "en",
            "(The lessons marked 🇧🇷 are in Portuguese.)",
            "The points game (gaudério)",
            "Flor (gaudério)",
            "Lesson complete!",
            ("Count your points", "Envido!", "No quiero", "Your hand", "round", "Flor!"),
        ),
    ],
)
async def test_gauderio_lessons_in_the_persons_language(
    server: FakeTelegram,
    tmp_path: Path,
    lang: str,
    menu_note: str,
    pontos: str,
    flor: str,
    done: str,
    words: tuple[str, ...],
) -> None:
    async with running(server, tmp_path, clock=FakeClock()) as h:
        sofi = h.server.add_user("Sofía", language_code=lang)
        await h.server.user_sends(sofi, sofi, "/start")
        await h.server.user_sends(sofi, sofi, "/tutorial")
        menu: JSON = await h.wait(lambda: newest(h, sofi, "🎓"))
        assert menu["text"].startswith(menu_note)
        # the translated lessons are listed in her language, the others in Portuguese, marked
        names = labels(menu)
        assert any(pontos in n and "🇧🇷" not in n for n in names)
        ours = words_for(person_translations(lang)).lang
        untranslated = [x for x in draw.course().lessons if not translated(x, ours)]
        assert len(untranslated) < len(names) - 2  # the basics and gaudério's two at least
        assert sum("🇧🇷" in n for n in names) == len(untranslated)
        screens = await play_lesson(h, sofi, pontos) + await play_lesson(h, sofi, flor)
        text = "\n".join(screens)
        assert done in text
        for word in words:
            assert word in text, word
        for word in PORTUGUESE:
            assert word not in text, word


async def test_an_untranslated_lesson_stays_wholly_in_portuguese(
    server: FakeTelegram, tmp_path: Path
) -> None:
    async with running(server, tmp_path, clock=FakeClock()) as h:
        caio = h.server.add_user("Caio", language_code="en")
        await h.server.user_sends(caio, caio, "/start")
        lesson = next(x for x in draw.course().lessons if not translated(x, "en"))
        screens = await play_lesson(h, caio, lesson.title.in_style(DeckStyle.TRADITIONAL))
        text = "\n".join(screens)
        assert "Sua mão" in text and "Lição concluída" in text
        assert "Your hand" not in text and "Lesson complete" not in text
