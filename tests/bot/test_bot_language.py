"""Languages: English speakers get the English catalog, and every bot sentence has its
translation in every catalog (English, Spanish)."""

from __future__ import annotations

import string

import pytest

from bot.i18n import (
    LANGUAGES,
    catalog_path,
    language_for,
    person_translations,
    source_messages,
    translations,
    words_for,
)
from bot.webapp.state import page_words
from engine.words import catalog, extract
from tests.bot.harness import (
    Harness,
    button,
)

FIELDS = string.Formatter()


def fields(text: str) -> set[str]:
    """The ``{field}`` names of a format string."""
    return {name for _, name, _, _ in FIELDS.parse(text) if name}


async def test_english_speakers_get_the_english_catalog(harness: Harness) -> None:
    s = harness.server
    joe = s.add_user("Joe", language_code="en")
    await s.user_sends(joe, joe, "/start")
    await harness.wait(lambda: harness.bot_messages(joe))
    assert harness.bot_messages(joe)[0]["text"].startswith("Hi, Joe!")
    await s.user_sends(joe, joe, "/truco")
    msg = await harness.wait(lambda: harness.hand(joe))
    assert "Your hand:" in msg["text"] and "Your turn!" in msg["text"]
    group = s.add_group("G", admins=[joe])
    await s.user_sends(joe, group, "/config")
    cfg = await harness.wait(lambda: harness.bot_messages(group))
    assert "Configuração do grupo" in cfg[0]["text"]  # groups speak Portuguese by default
    await s.user_presses(
        joe, group, cfg[0]["message_id"], button(cfg[0], "Idioma")["callback_data"]
    )
    menu = await harness.wait(
        lambda: (
            harness.bot_messages(group)[0]
            if "English" in str(harness.bot_messages(group)[0])
            else None
        )
    )
    await s.user_presses(joe, group, menu["message_id"], button(menu, "English")["callback_data"])
    await harness.wait(lambda: "Group settings" in harness.bot_messages(group)[0]["text"], 5)
    assert "Language: English" in harness.bot_messages(group)[0]["text"]
    ana = s.add_user("Ana")
    await s.user_sends(ana, group, "/config")
    await harness.wait(lambda: "Only group admins" in harness.bot_messages(group)[-1]["text"], 5)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_bot_sentence_has_a_translation_with_the_same_fields(lang: str) -> None:
    """Every sentence of the bot (the Mini App's page words included: they are the bot's
    sentences) has an entry in each catalog, translated, with the source's ``{fields}``,
    and a catalog keeps no sentence the code no longer says."""
    assert lang in LANGUAGES
    wanted = source_messages()
    assert len(wanted) > 200
    path = catalog_path(lang)
    entries = {
        extract.Message(e.msgctxt, e.msgid, e.msgid_plural): e
        for e in catalog.read_po(path.read_text(encoding="utf-8"), str(path))
        if e.msgid
    }
    assert sorted(wanted - set(entries)) == [], f"{lang}: untranslated (python -m bot.i18n)"
    assert sorted(set(entries) - wanted) == [], f"{lang}: no longer in the code"
    for message, entry in entries.items():
        assert entry.translated, (lang, message.msgid)
        for text in entry.msgstr:
            assert fields(text) == fields(message.msgid), (lang, message.msgid, text)


def test_the_mini_app_page_words_are_in_each_language() -> None:
    """The page draws only the words the server sends (``page_words``), in the person's
    language, with the document's ``lang`` tag."""
    pt = page_words(translations("pt"))
    for lang, tag, turn in (("en", "en", "Your turn"), ("es", "es", "Te toca")):
        page = page_words(translations(lang))
        assert set(page) == set(pt) and all(page.values())
        assert page["lang"] == tag and page["your_turn"] == turn
        same = {k for k in pt if page[k] == pt[k]}
        # names kept as they are (vira, manilhas, the bravas), or the same word (mesa, vale)
        kept = {"vira", "manilhas", "manilha", "bravas", "brava", "worth", "table", "countdown"}
        assert same <= kept, (lang, same)
    assert pt["lang"] == "pt-BR"


def test_a_spanish_telegram_reads_spanish() -> None:
    assert [language_for(c) for c in ("es", "es-AR", "es-UY", "ES-419")] == ["es"] * 4
    assert language_for("pt-br") == "pt" and language_for("de") == "en"
    es = person_translations("es-AR")
    assert words_for(es).lang == "es" and es.gettext("Sua vez") == "Te toca"


def test_regras_sums_up_every_variant_in_every_language() -> None:
    from bot.telegram.render.help import rules_text
    from engine.rulesets import ALL_RULESETS

    for lang in LANGUAGES:
        for name in ALL_RULESETS:
            text = rules_text(translations(lang), name, "https://truco.example/regras/")
            assert "{" not in text and "https://truco.example/regras/" in text, (lang, name)
    gauderio = rules_text(translations("es"), "gauderio", "https://truco.example/")
    assert "Las cuatro bravas: 1 de espadas > 1 de bastos > 7 de espadas > 7 de oros" in gauderio
    assert "envido (2), real envido (3) o falta envido" in gauderio and "vira" in gauderio
    assert "24 puntos (18 en el 1×1)" in gauderio
