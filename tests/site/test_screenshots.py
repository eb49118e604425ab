"""``make screenshots``: the Telegram guide's pictures come from the sandbox, not from a hand."""

from __future__ import annotations

import importlib.util
import struct

import pytest

from tests import ROOT

pytestmark = pytest.mark.browser


def load_tool():
    spec = importlib.util.spec_from_file_location(
        "screenshots", ROOT / "site/_tools/screenshots.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_three_pictures_of_the_guide_are_taken_from_the_sandbox(tmp_path, browser) -> None:
    tool = load_tool()
    with tool.running_sandbox(tmp_path / "data") as url:
        saved = tool.take(tmp_path / "out", url, browser)
    assert [p.name for p in saved] == ["mesa-aberta.png", "mao-no-privado.png", "mesa-no-grupo.png"]
    for path in saved:
        assert png_size(path.read_bytes()) == (1100, 860)
    # the pictures the guide shows are the ones the command writes
    guide = (ROOT / "site" / "telegram.md").read_text(encoding="utf-8")
    for path in saved:
        assert f"assets/telegram/{path.name}" in guide
        assert (ROOT / "site" / "assets" / "telegram" / path.name).exists()
