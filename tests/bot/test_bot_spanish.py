"""Spanish: a person whose Telegram speaks Spanish (``es-AR``) gets the bot in Spanish,
with the game's own words (quiero, no quiero, me voy al mazo), on the held clock."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.sandbox.fakeapi import FakeTelegram
from tests.bot.harness import (
    JSON,
    FakeClock,
    Harness,
    button,
    labels,
    newest,
    press,
    running,
    strip_tags,
)
from tests.bot.test_bot_hostile import my_membership


async def _said(h: Harness, chat: int, words: str) -> JSON:
    """The bot's newest message in ``chat`` containing ``words``, once it is there."""
    found: JSON = await h.wait(lambda: newest(h, chat, words))
    return found


async def test_an_es_ar_person_reads_the_bot_in_spanish(
    server: FakeTelegram, tmp_path: Path
) -> None:
    # a group budget this test never spends: a redraw it postponed past a person's
    # deadline would wait for a clock the harness does not move there
    async with running(server, tmp_path, clock=FakeClock(), TRUCO_GROUP_BUDGET=1000) as h:
        s = h.server
        sofi = s.add_user("Sofía", language_code="es-AR")
        beto = s.add_user("Beto", language_code="pt-br")

        # the command menus are published per language: hers is in Spanish, names too
        menu = await h.wait(lambda: s.commands_for(sofi, sofi) or None)
        lines = {c["command"]: c["description"] for c in menu}
        assert lines["truco"] == "Abre una mesa: /truco [variante] [1x1|2x2] [puntos]"
        assert lines["ayuda"] == "Cómo usar el bot" and "ajuda" not in lines
        assert lines["reglas"] == "Resumen de las reglas"
        assert {c["command"]: c["description"] for c in s.commands_for(beto, beto)}[
            "ajuda"
        ] == "Como usar o bot"

        await s.user_sends(sofi, sofi, "/start")
        hello = await _said(h, sofi, "Hola")
        assert hello["text"].startswith("¡Hola, Sofía! Acá te llegan tus cartas")

        assert "/ayuda" in hello["text"] and "/ajuda" not in hello["text"]

        await s.user_sends(sofi, sofi, "/ayuda")  # /ajuda, as her menu names it
        help_text = strip_tags((await _said(h, sofi, "Truco en Telegram"))["text"])
        assert "/truco [" in help_text and "abre una mesa" in help_text
        assert "/reglas — resumen de las reglas" in help_text and "/regras" not in help_text
        assert "Quién puede" in help_text and "Quem pode" not in help_text

        # the lessons are in Spanish, every one of them
        await s.user_sends(sofi, sofi, "/tutorial")
        lessons = await _said(h, sofi, "🎓")
        assert lessons["text"].startswith("🎓 Mano de práctica: aprendé jugando\n")
        assert "🇧🇷" not in lessons["text"] and "Lo básico" in labels(lessons)[0]

        # /idioma in private: her Telegram's language is the chat's
        await s.user_sends(sofi, sofi, "/idioma")
        said = await _said(h, sofi, "Acá hablo")
        assert said["text"].startswith("Acá hablo Español, el idioma de tu Telegram.")

        # a bad argument: one clear line in her language
        await s.user_sends(sofi, sofi, "/truco bisca")
        refused = await _said(h, sofi, "No entendí")
        assert refused["text"].startswith("No entendí “bisca”. Ejemplo: /truco")

        # her /config in private is in Spanish, and says the chat speaks it
        await s.user_sends(sofi, sofi, "/config")
        cfg = await _said(h, sofi, "Configuración del grupo")
        assert "Tiempo por jogada" not in cfg["text"] and "Tiempo por jugada" in cfg["text"]
        assert "Idioma: Español" in cfg["text"]  # hers: a private chat has none to pick
        assert {"Variante", "Jugadores"} <= set(labels(cfg)) and "Idioma" not in labels(cfg)

        # in a group: a group the bot first hears from her speaks Spanish from then on
        group = s.add_group("Truco del barrio", admins=[sofi], members=[beto])
        await s.user_sends(sofi, group, "/config")
        cfg = await _said(h, group, "Configuración del grupo")
        assert "Idioma: Español" in cfg["text"]
        mid = cfg["message_id"]
        await s.user_presses(sofi, group, mid, button(cfg, "Idioma")["callback_data"])
        langs = await h.wait(
            lambda: "Português (Brasil)" in str(s.message(group, mid)) and s.message(group, mid)
        )
        assert {"Português (Brasil)", "English", "✅ Español"} <= set(labels(langs))
        saved = await s.user_presses(sofi, group, mid, button(langs, "Español")["callback_data"])
        assert saved["text"] == "Configuración guardada."
        await h.wait(lambda: "✅ Guardado" in s.message(group, mid)["text"])
        assert "Idioma: Español" in s.message(group, mid)["text"]
        # a group first heard from a Brazilian speaks Portuguese, and a Spanish speaker
        # heard there later does not change it (its admins do, as above)
        home = s.add_group("Truco da firma", admins=[sofi], members=[beto])
        await s.user_sends(beto, home, "/regras")
        await _said(h, home, "Livro de regras")
        await s.user_sends(sofi, home, "/regras")
        rules = await h.wait(lambda: h.bot_messages(home)[1:] or None)
        assert "Livro de regras" in rules[0]["text"]

        # a refusal in the group, in its language now
        await s.user_sends(beto, group, "/config")
        await _said(h, group, "Solo los admins del grupo cambian la configuración.")

        # /marcador names the teams nobody named in the group's language
        await s.user_sends(sofi, group, "/marcador")
        marcador = strip_tags((await _said(h, group, "Anotador"))["text"])
        assert "Nosotros  0 × 0  Ellos" in marcador and "Tocá lo que valió la mano" in marcador

        # /truco: the lobby of the group's own game (first heard in Spanish, it plays
        # gaudério), its buttons; /truco paulista makes it the Brazilian game
        await s.user_sends(sofi, group, "/truco")
        lobby = await h.wait(lambda: h.table(group))
        assert "Mesa de Truco gaudério" in lobby["text"] and "puntos" in lobby["text"]
        assert {"Entrar", "Salir", "Empezar"} <= set(labels(lobby))
        assert any(x.startswith("+ Robot") for x in labels(lobby))
        await s.user_sends(sofi, group, "/truco paulista")
        lobby = await h.wait(lambda: (m := h.table(group)) and "paulista" in m["text"] and m)
        assert "Mesa de Truco paulista" in lobby["text"]
        await s.user_sends(beto, beto, "/start")
        await h.wait(lambda: h.bot_messages(beto))
        await s.user_presses(
            beto, group, lobby["message_id"], button(lobby, "Entrar")["callback_data"]
        )
        await h.wait(lambda: "Beto" in s.message(group, lobby["message_id"])["text"])
        start = s.message(group, lobby["message_id"])
        await s.user_presses(
            sofi, group, start["message_id"], button(start, "Empezar")["callback_data"]
        )

        # the private hand: Spanish for her, Portuguese for him (Beto is mano)
        waiting = await _said(h, sofi, "Tu mano:")
        assert "Tu mano vuelve acá, con los botones, cuando te toque." in waiting["text"]
        await _said(h, beto, "Sua mão")
        await press(h, beto, "Truco!")
        answer = await h.wait(lambda: (m := h.hand(sofi)) and "¡Quiero!" in labels(m) and m)
        assert labels(answer)[-3:] == ["¡Quiero!", "No quiero", "¡Seis!"]
        said = await _said(h, group, "📣 Beto")
        assert strip_tags(said["text"]) == "📣 Beto: ¡TRUCO!"
        table = await h.wait(lambda: (m := h.table_message(group)) and "❗" in m["text"] and m)
        assert "❗ ¡TRUCO! de Beto: vale 3 querido" in strip_tags(table["text"])
        assert "👉 Le toca a Sofía" in table["text"]
        await press(h, sofi, "No quiero")
        closing = await _said(h, group, "se fue al mazo")
        assert closing["text"] == "Mano 1: Sofía se fue al mazo; 1 punto para Beto. Tanteador 0 × 1"
        # the second hand: a card each, and the table tells the baza with a Spanish ordinal
        await h.press_move(sofi, lambda moves: moves[0])
        await h.press_move(beto, lambda moves: moves[0])
        await h.wait(lambda: "Bazas: 1.ª " in h.table_message(group)["text"])

        # a lobby button pressed after the start: a one-line refusal in her language
        late = await s.user_presses(
            sofi, group, lobby["message_id"], button(lobby, "Entrar")["callback_data"]
        )
        assert late == {"text": "Ese botón no es de este mensaje.", "show_alert": True, "url": None}
        texts = " ".join(  # all but the lessons' menu, which is Portuguese by design
            m["text"] for m in h.bot_messages(sofi) if m["message_id"] != lessons["message_id"]
        )
        for portuguese in ("Sua mão", "Você", "Desce", "Corro", "vaza"):
            assert portuguese not in texts, portuguese


PORTUGUESE = re.compile(
    r"\b(Você|você|Sua|sua|mão|Desce|Corro|correu|vaza|vazas|Vazas|Placar|Valendo|pontos|"
    r"aceitou|jogou|Parceiro|Adversário|Vitória|Eles|Nós|sinal|não|Começar|Sair|"
    r"cartas chegam|de novo|Revanche|Nova partida)\b"
)
"""Words of the Portuguese texts that no Spanish text has (names such as vira or manilha,
kept in Spanish, are not among them)."""


@pytest.mark.long
async def test_a_whole_spanish_2x2_match_has_no_portuguese_word(harness: Harness) -> None:
    # robots that do not wait: a whole match with nobody's clock running out
    h = harness
    s = h.server
    sofi = s.add_user("Sofía", language_code="es-AR")
    group = s.add_group("Truco del barrio", admins=[sofi])
    await s.user_sends(sofi, sofi, "/start")
    # the group heard her first, so it speaks Spanish: /idioma shows it chosen
    await s.user_sends(sofi, group, "/idioma")
    langs = await _said(h, group, "Idioma: elegí un valor.")
    assert "✅ Español" in labels(langs)
    # the Brazilian game, to 12, read in Spanish (the group's own, gaudério, goes to 24)
    await s.user_sends(sofi, group, "/truco paulista 2x2")
    lobby = await h.wait(lambda: h.table(group))
    assert "Truco paulista" in lobby["text"]
    await s.user_presses(
        sofi, group, lobby["message_id"], button(lobby, "Empezar")["callback_data"]
    )
    over = await h.play_out([sofi], group, timeout=120, seed=5)
    assert "🔁 Revancha" in labels(over)
    texts = [m["text"] for chat in (group, sofi) for m in h.bot_messages(chat)]
    texts += [b for chat in (group, sofi) for m in h.bot_messages(chat) for b in labels(m)]
    leaks = sorted({m.group(0) for text in texts for m in PORTUGUESE.finditer(text)})
    assert leaks == [], [t for t in texts if PORTUGUESE.search(t)][:5]


async def test_a_chat_new_to_the_bot_plays_the_game_of_its_first_language(
    harness: Harness,
) -> None:
    h, s = harness, harness.server
    sofi = s.add_user("Sofía", language_code="es-AR")
    beto = s.add_user("Beto", language_code="pt-br")
    # in private, her /truco deals gaudério against a robot, his paulista
    for who in (sofi, beto):
        await s.user_sends(who, who, "/start")
        await s.user_sends(who, who, "/truco")
    assert "Truco gaudério" in (await _said(h, sofi, "Tu mano:"))["text"]
    assert "Truco paulista" in (await _said(h, beto, "Sua mão"))["text"]
    # a group first heard in Spanish opens gaudério; one first heard in Portuguese, paulista
    for who, title, game in ((sofi, "La peña", "gaudério"), (beto, "Firma", "paulista")):
        group = s.add_group(title, admins=[who])
        await s.user_sends(who, group, "/truco")
        lobby = await h.wait(lambda group=group: h.table(group))
        assert f"Truco {game}" in lobby["text"]


async def test_a_group_that_adds_the_bot_is_greeted_in_its_adders_language(
    harness: Harness,
) -> None:
    h, s = harness, harness.server
    sofi = s.add_user("Sofía", language_code="es-AR")
    beto = s.add_user("Beto", language_code="pt-br")
    peña = s.add_group("La peña", admins=[sofi])
    firma = s.add_group("Firma", admins=[beto])
    await my_membership(s, peña, sofi, "member", old="left")
    await my_membership(s, firma, beto, "member", old="kicked")
    hola = await _said(h, peña, "¡Hola!")
    assert "/truco" in hola["text"] and "/reglas" in hola["text"] and "/ayuda" in hola["text"]
    await _said(h, firma, "Olá!")
    # a change while it was already there (a member still): nothing more to say
    await my_membership(s, firma, beto, "member", old="member")
    await s.user_sends(sofi, peña, "/truco")
    lobby = await h.wait(lambda: h.table(peña))
    assert "Truco gaudério" in lobby["text"]  # the group's game is its language's
    assert len([m for m in h.bot_messages(firma) if "Olá!" in m["text"]]) == 1
