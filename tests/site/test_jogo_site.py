"""The play page's build step (site/_hooks/jogo.py): Pyodide from npm, checked, trimmed, offline.

The hook is imported as a module; the download is the real one from the npm registry the first
time on a machine, then comes from the cache folder (see ``cache_dir``).
"""

from __future__ import annotations

import importlib.util
import io
import json
import re
import sys
import zipfile
from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError

from tests import ROOT


def load_hook():
    spec = importlib.util.spec_from_file_location("jogo_hook", ROOT / "site/_hooks/jogo.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["jogo_hook"] = module
    spec.loader.exec_module(module)
    return module


hook = load_hook()


def test_a_tarball_that_is_not_the_pinned_one_is_refused(tmp_path, monkeypatch) -> None:
    fake = tmp_path / "pyodide.tgz"
    fake.write_bytes(b"not pyodide")
    monkeypatch.setenv("TRUCO_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("TRUCO_PYODIDE_TGZ", str(fake))
    with pytest.raises(PluginError, match="não confere"):
        hook.pyodide_dir()
    assert not (tmp_path / "cache" / f"pyodide-{hook.PYODIDE_VERSION}").exists()


def test_the_standard_library_is_trimmed_to_what_the_game_imports() -> None:
    stdlib = hook.pyodide_dir() / "python_stdlib.zip"
    names = zipfile.ZipFile(io.BytesIO(hook.trimmed_stdlib(stdlib))).namelist()
    tops = {n.split("/")[0].removesuffix(".py") for n in names}
    assert {"json", "random", "dataclasses", "enum", "gettext", "pyodide", "_pyodide"} <= tops
    assert not tops & {"email", "http", "xml", "unittest", "pydoc", "_pyrepl", "tkinter"}
    assert "encodings/utf_8.py" in names and "encodings/cp1252.py" not in names
    assert len(hook.trimmed_stdlib(stdlib)) < stdlib.stat().st_size / 2


def test_the_engine_zip_has_the_rules_robots_and_table_but_no_tools() -> None:
    data = hook.engine_zip()
    assert data == hook.engine_zip(), "same sources, same bytes (the cache name depends on it)"
    names = set(zipfile.ZipFile(io.BytesIO(data)).namelist())
    assert {"engine/match.py", "engine/robots/heuristic.py", "engine/browser.py"} <= names
    # the robots' tables and the learned betting policy, not the arena's sparring nor its trainer
    assert {"engine/robots/data/equity.json", "engine/robots/data/policy.json"} <= names
    assert "engine/robots/sparring.py" not in names
    assert not {n for n in names if re.search(r"(arena|cli|terminal|bench|scenario|train)\.py$", n)}
    assert not {n for n in names if n.startswith("engine/tools/arena/")}  # a package, whole
    assert not {n for n in names if "__pycache__" in n}


def test_the_built_page_carries_the_runtime_and_a_service_worker(site: Path) -> None:
    page = (site / "jogar/index.html").read_text(encoding="utf-8")
    found = re.search(r'data-jogo-config="([^"]+)"', page)
    assert found
    config = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    for name, size in config["sizes"].items():
        assert (site / "jogar" / name).stat().st_size == size
    assert (site / "jogar" / config["pyodide"] / "pyodide.asm.wasm").is_file()
    assert not (site / "jogar" / config["pyodide"] / "pyodide-lock.json").exists()
    sw = (site / "jogar/sw.js").read_text(encoding="utf-8")
    for name in config["sizes"]:
        assert json.dumps(name) in sw
    assert '"./"' in sw and '"motor.js"' in sw
    # nothing the page or its workers load names another host
    for text in (page, sw, (site / "jogar/motor.js").read_text(encoding="utf-8")):
        tags = re.findall(r"<(?:script|link|img|iframe|source)\b[^>]*>", text)
        loads = [t for t in tags if re.search(r'(?:src|href)="(?:https?:)?//', t)]
        assert [t for t in loads if 'rel="canonical"' not in t] == []
        assert not re.search(r"importScripts\(\s*['\"]https?:", text)
    # the Pyodide files the page does not need are left out of the site
    assert not list(site.rglob("console.html")) and not list(site.rglob("*.d.ts"))


def test_the_browser_gets_bytecode_for_its_own_python(site: Path) -> None:
    """Both zips are compiled by the shipped Pyodide (Python 3.13): no source left to compile."""
    page = (site / "jogar/index.html").read_text(encoding="utf-8")
    found = re.search(r'data-jogo-config="([^"]+)"', page)
    assert found
    config = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    stdlib = zipfile.ZipFile(site / "jogar" / config["pyodide"] / "python_stdlib.zip")
    engine = zipfile.ZipFile(site / "jogar" / config["engine"])
    for z, module in ((stdlib, "json/__init__.pyc"), (engine, "engine/browser.pyc")):
        assert not [n for n in z.namelist() if n.endswith(".py")]
        assert z.read(module)[:4] == (3571).to_bytes(2, "little") + b"\r\n"  # 3.13's magic
    # the engine's data files travel as they are (the English catalog, the robots' tables)
    assert {
        "engine/words/locale/en/LC_MESSAGES/engine.po",
        "engine/robots/data/equity.json",
    } <= set(engine.namelist())
    # modules frozen into the interpreter are not shipped again
    assert "os.pyc" not in stdlib.namelist() and "importlib/_bootstrap.pyc" not in stdlib.namelist()


def test_without_node_the_build_says_what_to_install(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TRUCO_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("TRUCO_NODE", str(tmp_path / "no-node"))
    with pytest.raises(PluginError, match=r"Node\.js"):
        hook.compiled({"motor": (hook.engine_zip(), hook.ENGINE_DIR)})


def test_rule_pages_end_with_jogar_agora(site: Path) -> None:
    for name in ("cartas", "truco", "cangou", "mao-de-onze", "variantes"):
        html = (site / name / "index.html").read_text(encoding="utf-8")
        assert 'href="../jogar/"' in html and "jogar-agora" in html
    assert "Jogar agora" in (site / "index.html").read_text(encoding="utf-8")
