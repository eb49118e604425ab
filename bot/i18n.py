"""Gettext for user-facing text: Portuguese source strings, an English catalog.

Catalogs are ``bot/locale/<lang>/LC_MESSAGES/messages.po``; they are compiled in
memory when first used, so a fresh clone needs no build step and no ``.mo`` files.
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "messages"
Translations = gettext.NullTranslations
"""What every text function takes: ``t.gettext`` and ``t.ngettext`` of one language."""
LANGUAGES = ("pt", "en")


def N_(message: str) -> str:
    """Mark a source string for extraction; translate it later with ``gettext``."""
    return message


def language_for(code: str | None) -> str:
    """The bot language for a Telegram ``language_code``: Portuguese or else English."""
    if not code or code.lower().startswith("pt"):
        return "pt"
    return "en"


def person_translations(language_code: str | None) -> Translations:
    """The translations for a person's Telegram ``language_code``."""
    return translations(language_for(language_code))


@cache
def translations(lang: str) -> Translations:
    """The translations for ``pt`` (the source strings) or ``en``."""
    if lang not in LANGUAGES or lang == "pt":
        return gettext.NullTranslations()
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return gettext.GNUTranslations(buf)
