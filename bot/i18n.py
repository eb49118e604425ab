"""Gettext for the bot's own sentences: Portuguese source strings, a catalog per language.

Catalogs are ``bot/locale/<lang>/LC_MESSAGES/messages.po``: a new folder is a new
language (``LANGUAGES``). They are compiled in memory when first used, so a fresh
clone needs no build step and no ``.mo`` files. The names of game things inside the
sentences (cards, calls, actions, levels) come from ``engine.words`` (``words_for``).
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from engine import words
from engine.words import Words

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "messages"
Translations = gettext.NullTranslations
"""What every text function takes: ``t.gettext`` and ``t.ngettext`` of one language."""
SOURCE = "pt"
LANGUAGES = (
    SOURCE,
    *sorted(
        d.name
        for d in LOCALE_DIR.iterdir()
        if d.name != SOURCE and (d / "LC_MESSAGES" / f"{DOMAIN}.po").exists()
    ),
)
"""Portuguese (the source) first, then every language with a catalog folder."""
FALLBACK = "en" if "en" in LANGUAGES else SOURCE
"""For a person whose Telegram language has no catalog."""


def N_(message: str) -> str:
    """Mark a source string for extraction; translate it later with ``gettext``."""
    return message


def language_for(code: str | None) -> str:
    """The bot language for a Telegram ``language_code``: its own if we have a catalog
    (``pt-BR`` → ``pt``), Portuguese when unknown, English for any other."""
    if not code:
        return SOURCE
    primary = code.replace("_", "-").split("-")[0].lower()
    return primary if primary in LANGUAGES else FALLBACK


def language_name(lang: str) -> str:
    """A language's name in itself (``Português``, ``English``)."""
    return words.get(lang).name


def person_translations(language_code: str | None) -> Translations:
    """The translations for a person's Telegram ``language_code``."""
    return translations(language_for(language_code))


def words_for(t: Translations) -> Words:
    """``engine.words`` (how the game itself is named) in the language of ``t``."""
    return words.get(t.info().get("language") or "pt")


@cache
def translations(lang: str) -> Translations:
    """The translations for ``pt`` (the source strings) or ``en``."""
    if lang not in LANGUAGES or lang == SOURCE:
        return gettext.NullTranslations()
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return gettext.GNUTranslations(buf)
