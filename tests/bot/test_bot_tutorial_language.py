"""/tutorial in the person's language: a lesson translated into it (all of them, in Spanish
and English, gaudério's first) is played wholly in it, frame, narration, cards and
buttons; one that is not (a new lesson, say) stays wholly in Portuguese, marked on the
menu. Through the real bot and the fake Telegram, on the held clock."""

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
    ("lang", "course", "pontos", "flor", "done", "words"),
    [
        (
            "es-UY",
            "Mano de práctica: aprendé jugando",
            "El juego de los tantos (gaudério)",
            "Flor (gaudério)",
            "¡Lección terminada!",
            ("Contá tus tantos", "¡Envido!", "No quiero", "Tu mano", "baza", "¡Flor!"),
        ),
        (
            "en",
            "Practice hand: learn by playing",
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
    course: str,
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
        # every lesson is listed in her language, none marked as Portuguese
        assert menu["text"].startswith(f"🎓 {course}\n")
        names = labels(menu)
        assert any(pontos in n for n in names) and not any("🇧🇷" in n for n in names)
        # a Spanish speaker, whose game at home is gaudério, is shown where its lessons are
        where = [str(n) for n, x in enumerate(names, 1) if "gaudério" in x]
        pointer = f"Truco gaudério: las lecciones {', '.join(where)} son de ese juego."
        assert (pointer in menu["text"]) == (lang.startswith("es")), menu["text"]
        ours = words_for(person_translations(lang)).lang
        assert all(translated(x, ours) for x in draw.course().lessons)
        screens = await play_lesson(h, sofi, pontos) + await play_lesson(h, sofi, flor)
        text = "\n".join(screens)
        assert done in text
        for word in words:
            assert word in text, word
        for word in PORTUGUESE:
            assert word not in text, word


async def test_an_untranslated_lesson_stays_wholly_in_portuguese(
    server: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lesson with no translation yet (here the basics, as if just written) is listed in
    Portuguese, marked, the mark explained, and played wholly in Portuguese."""
    basics = draw.course().lessons[0]
    monkeypatch.setattr(draw, "translated", lambda lesson, lang: lesson is not basics)
    async with running(server, tmp_path, clock=FakeClock()) as h:
        caio = h.server.add_user("Caio", language_code="en")
        await h.server.user_sends(caio, caio, "/start")
        await h.server.user_sends(caio, caio, "/tutorial")
        menu: JSON = await h.wait(lambda: newest(h, caio, "🎓"))
        assert menu["text"].startswith("(The lessons marked 🇧🇷 are in Portuguese.)")
        names = labels(menu)
        assert "🇧🇷" in names[0] and not any("🇧🇷" in n for n in names[1:])
        title = basics.title.in_style(DeckStyle.TRADITIONAL)
        assert title in names[0]
        screens = await play_lesson(h, caio, title)
        text = "\n".join(screens)
        assert "Sua mão" in text and "Lição concluída" in text
        assert "Your hand" not in text and "Lesson complete" not in text
