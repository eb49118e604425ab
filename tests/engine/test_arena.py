"""``truco arena``: sides, figures, mirrored play and the exec protocol with misbehaving bots."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from engine import actions as A
from engine.tools.arena import (
    Forfeit,
    Setup,
    Side,
    arena,
    parse_answer,
    play_pair,
    save_run,
    wilson,
)
from engine.tools.cli import main

TINY_BOT = """
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    legal = msg["legal"]
    # plays its first card; answers calls by accepting; never calls truco
    plays = [a for a in legal if a.startswith(("play", "blind"))]
    pick = plays[0] if plays else ("accept" if "accept" in legal else legal[0])
    if msg["view"]["hand_number"] % 2:
        print(pick, flush=True)  # the bare action string is accepted too
    else:
        print(json.dumps({"action": pick}), flush=True)
"""

GARBAGE_BOT = """
import sys
for line in sys.stdin:
    print("jogo o zap, confia", flush=True)
"""

ILLEGAL_BOT = """
import json, sys
for line in sys.stdin:
    print(json.dumps({"action": "raise"}), flush=True)
"""

CRASH_BOT = """
import sys
sys.stdin.readline()
raise SystemExit(3)
"""

HANG_BOT = """
import sys, time
for line in sys.stdin:
    time.sleep(60)
"""


def bot(tmp_path: Path, name: str, source: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    return f"exec:{shlex.quote(sys.executable)} {shlex.quote(str(path))}"


def setup(
    a: str, b: str, *, players: int = 2, variant: str = "paulista", timeout_s: float = 5.0
) -> Setup:
    return Setup(
        sides=(Side.parse(a), Side.parse(b)),
        variant=variant,
        players=players,
        target=12,
        seed=7,
        budget_ms=20,
        timeout_s=timeout_s,
    )


def figures(run: dict[str, object], index: int) -> dict[str, object]:
    results = run["results"]
    assert isinstance(results, list)
    row = results[index]
    assert isinstance(row, dict)
    return row


# ------------------------------------------------------------------- sides


def test_sides_parse_robots_random_and_programs() -> None:
    assert Side.parse("robot:médio") == Side("robot:medio", "robot", level="medio")
    assert Side.parse("random").kind == "random"
    side = Side.parse(f"exec:{sys.executable} -u bot.py")
    assert side.kind == "exec" and side.command == (sys.executable, "-u", "bot.py")
    for bad in ("robot:mestre", "humano", "exec:", "exec:/no/such/program --x"):
        with pytest.raises(ValueError):
            Side.parse(bad)


def test_wilson_interval() -> None:
    low, high = wilson(90, 100)
    assert 0.82 < low < 0.83 and 0.94 < high < 0.95
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(100, 100)
    assert high == 1.0 and low > 0.96


def test_answers_are_parsed_strictly() -> None:
    legal = [A.PLAY[0], A.TRUCO]
    assert parse_answer('{"action": "truco"}', legal) == A.TRUCO
    assert parse_answer("play 4D", legal) == A.PLAY[0]
    assert parse_answer('"truco"', legal) == A.TRUCO
    for bad in ("", "{", '{"acao": "truco"}', "play 5D", "accept", "42", "[1]"):
        with pytest.raises(Forfeit):
            parse_answer(bad, legal)


# ------------------------------------------------------------- built-ins


@pytest.mark.parametrize("players", [2, 4])
def test_arena_figures_add_up(players: int) -> None:
    run = arena(setup("robot:medio", "random", players=players), matches=6, progress=False)
    assert run["matches"] == 6
    a, b = figures(run, 0), figures(run, 1)
    assert a["wins"] + b["wins"] == 6  # type: ignore[operator]
    assert a["forfeits"] == b["forfeits"] == 0
    low, high = a["wilson95"]  # type: ignore[misc]
    assert 0 <= low <= a["win_rate"] <= high <= 1  # type: ignore[operator]
    assert a["decision_ms"]["decisions"] > 0  # type: ignore[index]
    assert run["machine"]["cpus"]  # type: ignore[index]


def test_mirrored_pair_gives_each_side_both_seats_of_the_same_deal() -> None:
    # the same deterministic robot on both sides plays the very same match twice with the
    # labels swapped, so each side wins exactly one match of every pair
    s = setup("robot:medio", "robot:medio", players=4)
    for deal in range(3):
        pair = play_pair(s, deal)
        assert (pair.tallies[0].wins, pair.tallies[1].wins) == (1, 1)
        assert pair.tallies[0].points == pair.tallies[1].points
    # while different robots do not split every pair
    s = setup("robot:medio", "random")
    assert any(play_pair(s, deal).tallies[0].wins == 2 for deal in range(3))


def test_arena_runs_in_two_processes() -> None:
    run = arena(setup("robot:facil", "random"), matches=4, jobs=2, progress=False)
    assert run["matches"] == 4
    assert figures(run, 0)["wins"] + figures(run, 1)["wins"] == 4  # type: ignore[operator]


# ------------------------------------------------------------ exec protocol


@pytest.mark.parametrize("players", [2, 4])
def test_outside_bot_plays_whole_matches(tmp_path: Path, players: int) -> None:
    run = arena(
        setup(bot(tmp_path, "tiny", TINY_BOT), "random", players=players), matches=4, progress=False
    )
    tiny = figures(run, 0)
    assert tiny["forfeits"] == 0 and run["errors"] == []
    assert tiny["decision_ms"]["decisions"] > 10  # type: ignore[index]


@pytest.mark.parametrize(
    ("name", "source", "message"),
    [
        ("garbage", GARBAGE_BOT, "inválida"),
        ("illegal", ILLEGAL_BOT, "ação ilegal"),
        ("crash", CRASH_BOT, "terminou"),
        ("hang", HANG_BOT, "sem resposta"),
    ],
)
def test_misbehaving_bot_loses_its_matches_and_the_arena_goes_on(
    tmp_path: Path, name: str, source: str, message: str
) -> None:
    run = arena(
        # a short deadline only for the bot that never answers (a slow CI start is no hang)
        setup("robot:medio", bot(tmp_path, name, source), timeout_s=0.5 if name == "hang" else 10),
        matches=2,
        progress=False,
    )
    assert run["matches"] == 2
    medio, other = figures(run, 0), figures(run, 1)
    assert medio["wins"] == 2 and other["forfeits"] == 2
    errors = run["errors"]
    assert isinstance(errors, list) and len(errors) == 2
    assert all(message in e for e in errors), errors


# -------------------------------------------------------------------- CLI


def test_cli_prints_json_and_saves_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "results" / "arena.json"
    args = ["arena", "robot:facil", "random", "--matches", "2", "--quiet", "--save", str(out)]
    assert main(args) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["sides"] == ["robot:facil", "random"]
    assert printed["command"].startswith("truco arena robot:facil random --matches 2")
    assert main([*args[:4], "4", "--quiet", "--save", str(out)]) == 0
    assert (
        main(["arena", "robot:medio", "random", "--matches", "2", "--quiet", "--save", str(out)])
        == 0
    )
    runs = json.loads(out.read_text(encoding="utf-8"))
    # the same pairing replaces its entry; a new pairing is added
    assert [(r["sides"], r["matches"]) for r in runs] == [
        (["robot:facil", "random"], 4),
        (["robot:medio", "random"], 2),
    ]


@pytest.mark.parametrize(
    "argv",
    [
        ["arena", "robot:mestre", "random"],
        ["arena", "random", "random", "--variant", "sueca"],
        ["arena", "random", "random", "--matches", "0"],
        ["arena", "random", "random", "--target", "99"],
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("truco arena:") and "\n" not in err


def test_save_refuses_a_file_that_is_not_a_run_list(tmp_path: Path) -> None:
    path = tmp_path / "arena.json"
    path.write_text('{"not": "a list"}', encoding="utf-8")
    with pytest.raises(ValueError, match="lista"):
        save_run(path, {"sides": ["random", "random"]})
    assert path.read_text(encoding="utf-8") == '{"not": "a list"}'
