"""Scenario files (tests/engine/scenarios) and the ``truco replay`` contract (docs-dev/SCENARIOS.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.scenario import matches_expect, replay

EXAMPLES = sorted((Path(__file__).parent / "scenarios").glob("*/*.json"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_gives_its_expect(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    result = replay(data)
    assert matches_expect(result, data["expect"]), result


def truco(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], capture_output=True, text=True, timeout=60
    )


def test_replay_prints_one_line_per_file_in_order() -> None:
    proc = truco("replay", *map(str, EXAMPLES))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == len(EXAMPLES)
    for path, line in zip(EXAMPLES, lines, strict=True):
        expect = json.loads(path.read_text(encoding="utf-8"))["expect"]
        assert matches_expect(json.loads(line), expect)
    assert set(json.loads(lines[0])) == {
        "finished", "rounds", "hand_winner", "points", "score", "match_winner", "stake",
        "envido", "flor", "error"
    }  # fmt: skip


@pytest.mark.parametrize(
    ("content", "what"),
    [(None, "ler"), ("{not json", "JSON"), ("\udcff", "JSON")],
    ids=["missing", "not-json", "not-utf8"],
)
def test_bad_files_exit_2_with_one_line(tmp_path: Path, content: str | None, what: str) -> None:
    path = tmp_path / "bad.json"
    if content == "\udcff":
        path.write_bytes(b"\xff\xfe{")
    elif content is not None:
        path.write_text(content)
    proc = truco("replay", str(path))
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and what in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ([], "invalid_scenario"),
        (
            {"variant": "paulista", "hands": [["QC", "3H", "4S"], ["3C", "2D", "KH"]]},
            "invalid_scenario",
        ),
        ({"variant": "buraco", "hands": []}, "invalid_scenario"),
        (
            {"variant": "mineiro", "hands": [["QC", "QC", "4S"], ["3C", "2D", "KH"]]},
            "invalid_scenario",
        ),
        ({"variant": "mineiro", "hands": [["QC", "3H"], ["3C", "2D", "KH"]]}, "invalid_scenario"),
        (
            {
                "variant": "mineiro",
                "dealer": 1,
                "hands": [["QC", "3H", "4S"], ["3C", "2D", "KH"]],
                "actions": [{"seat": 0, "act": "dance"}],
            },
            "invalid_scenario",
        ),
        (
            {
                "variant": "mineiro",
                "dealer": 1,
                "hands": [["QC", "3H", "4S"], ["3C", "2D", "KH"]],
                "actions": [{"seat": 1, "act": "play", "card": "3C"}],
            },
            "not_your_turn",
        ),
    ],
)
def test_illegal_scenarios_report_an_error(data: object, code: str) -> None:
    result = replay(data)
    assert result["error"]["code"] == code
    assert result["error"]["message"]


def test_unreadable_scenario_through_the_command(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"variant": "paulista", "players": 3, "hands": []}))
    proc = truco("replay", str(path))
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["error"]["code"] == "invalid_scenario"
