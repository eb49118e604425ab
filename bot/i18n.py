"""Gettext for the bot's own sentences: Portuguese source strings, a catalog per language.

Catalogs are ``bot/locale/<lang>/LC_MESSAGES/messages.po``: a new folder is a new
language (``LANGUAGES``). They are read by the engine's own gettext stack
(``engine.words.catalog``, standard library only, the one the browser runs too) and
compiled in memory when first used, so a fresh clone needs no build step and no
``.mo`` files. The names of game things inside the sentences (cards, calls, actions,
levels) come from ``engine.words`` (``words_for``). ``python -m bot.i18n`` lists the
sentences of the bot that a catalog lacks (the engine's extractor, ``engine.words.extract``).
"""

from __future__ import annotations

import gettext
import sys
from functools import cache
from pathlib import Path

from engine import words
from engine.words import Words, catalog
from engine.words import extract as extractor

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "messages"
Translations = gettext.NullTranslations
"""What every text function takes: ``t.gettext`` and ``t.ngettext`` of one language."""
SOURCE = words.SOURCE
"""Portuguese: the language the sentences are written in (the engine's too)."""
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


def NC_(context: str, message: str) -> str:
    """Mark a source string and its context for extraction; translate it later with
    ``pgettext`` (a command's name: each language names it its own way)."""
    return message


def language_for(code: str | None) -> str:
    """The bot language for a Telegram ``language_code``: the engine's rule
    (``words.language_for``: its primary subtag, ``pt-BR`` → ``pt``), with Portuguese
    when Telegram sends none and English for a language without a catalog."""
    if not code:
        return SOURCE
    lang = words.language_for(code, FALLBACK)
    return lang if lang in LANGUAGES else FALLBACK


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
    path = catalog_path(lang)
    return catalog.translations(path.read_text(encoding="utf-8"), str(path))


def catalog_path(lang: str) -> Path:
    """The ``.po`` file of the bot's sentences in ``lang``."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


BOT_DIR = Path(__file__).resolve().parent
CALLS = {"gettext": 1, "_": 1, "ngettext": 2, "N_": 1, "NC_": 2}
"""Calls whose literal arguments are the bot's sentences (``N_`` and ``NC_`` mark one for
later, ``NC_`` with its context)."""


def source_messages() -> set[extractor.Message]:
    """Every sentence of the bot (the sandbox, a tool for developers, speaks Portuguese)."""
    return extractor.from_code(
        BOT_DIR, calls=CALLS, skip=("sandbox",), contextual=frozenset({"NC_"})
    )


def main() -> int:
    """Print, for each catalog, the sentences it does not translate yet."""
    wanted = source_messages()
    for lang in LANGUAGES[1:]:
        path = catalog_path(lang)
        known = {
            extractor.Message(e.msgctxt, e.msgid, e.msgid_plural)
            for e in catalog.read_po(path.read_text(encoding="utf-8"), str(path))
            if e.msgid and e.translated
        }
        missing = sorted(wanted - known)
        for m in missing:
            print(f"{lang}: {m.msgid!r}")
        print(f"{lang}: {len(wanted)} sentences, {len(missing)} untranslated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
