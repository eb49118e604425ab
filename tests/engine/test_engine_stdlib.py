"""The engine uses the standard library only (and itself); its rules core needs no tool."""

from __future__ import annotations

import ast
import sys

from tests import ROOT

ENGINE = ROOT / "engine"


def test_engine_imports_only_the_standard_library() -> None:
    offenders = []
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top != "engine" and top not in sys.stdlib_module_names:
                    offenders.append(f"{path.relative_to(ENGINE.parent)}: {name}")
    assert not offenders


CORE = (
    "__init__",
    "actions",
    "cards",
    "dealing",
    "envido",
    "errors",
    "levels",
    "match",
    "rulesets",
    "sinais",
    "snapshot",
    "state",
    "view",
)
"""The rules core: every other module of the package builds on these."""


def test_the_rules_core_imports_only_itself() -> None:
    offenders = []
    for name in CORE:
        path = ENGINE / f"{name}.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.ImportFrom)
                and node.module
                and node.module.startswith("engine")
            ):
                module = node.module
                if module == "engine":
                    module += "." + node.names[0].name
                if module.split(".")[1] not in CORE:
                    offenders.append(f"{name}.py: {module}")
    assert not offenders
    assert (ENGINE / "py.typed").exists()
