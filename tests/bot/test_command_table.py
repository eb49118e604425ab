"""The one table of commands: the menus, /ajuda and the anonymous guard come from it."""

from __future__ import annotations

from bot.i18n import translations
from bot.telegram.command_table import ANONYMOUS_OK, COMMANDS, help_lines, menu


def test_the_menus_and_ajuda_list_the_tables_commands_in_its_order() -> None:
    group = [name for name, _ in menu(private=False)]
    private = [name for name, _ in menu(private=True)]
    assert group == [
        "truco", "placar", "marcador", "ranking", "regras", "baralho", "config", "idioma",
        "cancelar", "ajuda",
    ]  # fmt: skip
    assert private == ["truco", "tutorial", *group[1:]]  # /tutorial is played in private
    for lang in ("pt", "en", "es"):
        lines = help_lines(translations(lang))
        listed = [line.split()[0] for line in lines]
        assert listed == [f"/{c.name}" for c in COMMANDS if c.does is not None]
        assert "/start" not in listed and "/ajuda" not in listed
    assert help_lines(translations("en"))[0].endswith("[points] — open a table")


def test_an_anonymous_sender_may_only_read_or_administer() -> None:
    assert {
        "placar", "ranking", "regras", "reglas", "ajuda", "help", "ayuda", "cancelar", "config",
        "idioma", "language",
    } == ANONYMOUS_OK  # fmt: skip
    assert len({c.name for c in COMMANDS}) == len(COMMANDS)
