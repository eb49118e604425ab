"""``truco play``: the terminal game plays whole matches from scripted input."""

from __future__ import annotations

import os
import subprocess
import sys
from itertools import cycle

import pytest

from engine.cards import DeckStyle
from engine.tools.terminal import play


@pytest.mark.parametrize("variant", ["paulista", "mineiro", "trem-bao"])
@pytest.mark.parametrize("players", [2, 4])
def test_a_whole_match_with_scripted_choices(variant: str, players: int) -> None:
    out: list[str] = []
    answers = cycle(["x", "9", "1", "2"])  # garbage and out-of-range answers are asked again
    status = play(variant, players, 12, 3, "facil", read=lambda _: next(answers), write=out.append)
    assert status == 0
    text = "\n".join(out)
    assert "Ganhamos!" in text or "Perdemos!" in text
    assert "Escolha um número" in text


def test_quitting_and_end_of_input() -> None:
    out: list[str] = []
    assert play("paulista", 2, 12, 1, "medio", read=lambda _: "s", write=out.append) == 0
    assert out[-1] == "Até a próxima!"

    def eof(_: str) -> str:
        raise EOFError

    assert play("paulista", 2, 12, 1, "medio", read=eof, write=out.append) == 0


def test_bad_variant_is_one_line_and_exit_2() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "play", "buraco"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert proc.returncode == 2
    assert "variante desconhecida" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("variant", ["paulista", "mineiro"])
def test_the_robot_partner_runs_when_you_run(variant: str) -> None:
    out: list[str] = []

    def read(_: str) -> str:
        options = next(line for line in reversed(out) if line.startswith("[1]"))
        for word in ("Corro", "Correr"):
            if f"] {word}" in options:
                return options.split(f"] {word}")[0].rsplit("[", 1)[1]
        return "1"

    assert play(variant, 4, 12, 5, "medio", read=read, write=out.append) == 0
    runs = [i for i, line in enumerate(out) if line in ("Você correu", "Você correu da mão")]
    assert runs, "the scripted human never had a call to run from"
    for i in runs:
        assert out[i + 1].startswith("Parceiro correu"), out[i - 6 : i + 2]


@pytest.mark.parametrize("players", [2, 4])
def test_a_whole_match_in_english(players: int) -> None:
    out: list[str] = []
    answers = cycle(["x", "1", "2"])
    assert (
        play("mineiro", players, 12, 4, "facil", lambda _: next(answers), out.append, lang="en")
        == 0
    )
    text = "\n".join(out)
    assert "We won!" in text or "We lost!" in text
    assert "Choose a number" in text and "Mineiro truco" in text
    # nothing Portuguese is left: no source text reached the English screen
    for pt in ("Você", "jogou", "Placar", "Sua mão", "Ganhamos", "correu", "Vazas", "Desce"):
        assert pt not in text.replace("(Desce!)", ""), pt


def test_a_whole_match_in_spanish() -> None:
    out: list[str] = []
    answers = cycle(["x", "1", "2"])
    assert play("paulista", 4, 12, 4, "facil", lambda _: next(answers), out.append, lang="es") == 0
    text = "\n".join(out)
    assert "¡Ganamos!" in text or "¡Perdimos!" in text
    assert "Elegí un número" in text and "Bazas:" in text
    assert "Vos: jugó" in text and "Vos jugó" not in text  # no "vos" in the third person
    for pt in ("Você", "jogou", "Placar", "Sua mão", "Ganhamos", "correu", "Vazas", "Desce"):
        assert pt not in text, pt


def test_the_command_line_takes_the_language_from_lang_or_the_system() -> None:
    def run(*args: str, env_lang: str) -> str:
        proc = subprocess.run(
            [sys.executable, "-m", "engine", "play", "--seed", "1", *args],
            input="",
            capture_output=True,
            text=True,
            timeout=30,
            env={**os.environ, "LANG": env_lang, "LANGUAGE": ""},
        )
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    assert "See you next time!" in run(env_lang="en_US.UTF-8")
    assert "Até a próxima!" in run(env_lang="C.UTF-8")
    assert "Até a próxima!" in run("--lang", "pt", env_lang="en_US.UTF-8")


@pytest.mark.parametrize("players", [2, 4])
def test_gauderio_in_the_spanish_deck_by_default(players: int) -> None:
    """Gaudério plays with the Spanish deck (R13.1): the terminal names its cards so unless
    the player asks for the traditional deck; envido, flor and their proving cards too."""
    out: list[str] = []
    answers = cycle(["x", "1", "2"])
    status = play("gauderio", players, 24, 6, "facil", lambda _: next(answers), out.append)
    assert status == 0
    text = "\n".join(out)
    assert "Ganhamos!" in text or "Perdemos!" in text
    hands = [line for line in out if line.startswith("Suas cartas: ")]
    assert hands and all(" de " in line and not set("♠♥♦♣") & set(line) for line in hands)
    assert "Envido" in text or "Flor" in text  # the points game was played and told
    assert not set("♠♥♦♣") & set(text)
    traditional: list[str] = []
    answers = cycle(["1"])
    play(
        "gauderio",
        players,
        24,
        6,
        "facil",
        lambda _: next(answers),
        traditional.append,
        deck=DeckStyle.TRADITIONAL,
    )
    assert any(set("♠♥♦♣") & set(line) for line in traditional if line.startswith("Suas cartas"))


def test_the_command_line_picks_the_deck() -> None:
    def run(*args: str) -> str:
        proc = subprocess.run(
            [sys.executable, "-m", "engine", "play", "--seed", "1", "--lang", "es", *args],
            input="",
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert proc.returncode == 0, proc.stderr
        return next(line for line in proc.stdout.splitlines() if line.startswith("Tus cartas"))

    assert not set("♠♥♦♣") & set(run("gauderio"))
    assert set("♠♥♦♣") & set(run("gauderio", "--baralho", "tradicional"))
    assert set("♠♥♦♣") & set(run("paulista"))
    assert not set("♠♥♦♣") & set(run("paulista", "--baralho", "espanhol"))
