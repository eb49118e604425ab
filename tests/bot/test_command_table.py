"""The one table of commands: the menus, /ajuda and the anonymous guard come from it."""

from __future__ import annotations

import re

from bot.i18n import translations
from bot.telegram.command_table import ANONYMOUS_OK, COMMANDS, help_lines, menu

NAMES = {
    "pt": ["truco", "placar", "marcador", "ranking", "regras", "baralho", "config", "idioma",
           "cancelar", "ajuda"],
    "en": ["truco", "score", "tally", "ranking", "rules", "deck", "config", "language", "cancel",
           "help"],
    "es": ["truco", "tanteador", "anotador", "ranking", "reglas", "mazo", "config", "idioma",
           "cancelar", "ayuda"],
}  # fmt: skip
"""The group menu in each language: a person reads and types the commands in their own."""


def test_the_menus_and_ajuda_list_the_tables_commands_in_its_order() -> None:
    for lang, names in NAMES.items():
        t = translations(lang)
        group = [name for name, _ in menu(private=False, t=t)]
        private = [name for name, _ in menu(private=True, t=t)]
        assert group == names
        assert private == ["truco", "tutorial", *group[1:]]  # /tutorial is played in private
        listed = [line.split()[0] for line in help_lines(t)]
        assert listed == [f"/{name}" for name in private[:-1]]  # /ajuda does not list itself
        assert all(re.fullmatch("[a-z0-9_]{1,32}", name) for name in private)  # Telegram's rule
    assert help_lines(translations("en"))[0].endswith("[points] — open a table")
    assert menu(private=False, t=translations("es"))[-1] == ("ayuda", "Cómo usar el bot")


def test_every_languages_name_of_a_command_works_in_any_chat() -> None:
    """A Spanish speaker in a Portuguese group types /ayuda; the menus show each person's own."""
    help_ = next(c for c in COMMANDS if c.name == "ajuda")
    assert help_.names == ("ajuda", "help", "ayuda")
    every = [name for c in COMMANDS for name in c.names]
    assert len(every) == len(set(every))  # no name means two commands
    for names in NAMES.values():
        assert set(names) <= set(every)


def test_an_anonymous_sender_may_only_read_or_administer() -> None:
    assert {
        "placar", "score", "tanteador", "ranking", "regras", "rules", "reglas", "ajuda", "help",
        "ayuda", "cancelar", "cancel", "config", "idioma", "language",
    } == ANONYMOUS_OK  # fmt: skip
    assert len({c.name for c in COMMANDS}) == len(COMMANDS)
