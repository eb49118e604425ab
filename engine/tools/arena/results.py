"""The results file: runs kept as a JSON list, one per pairing and table
(docs-dev/arena-protocol.md, *Results file*)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def save_run(path: Path, run: dict[str, Any]) -> None:
    """Add ``run`` to the JSON list at ``path``, replacing the run of the same pairing."""

    def key(r: dict[str, Any]) -> tuple[Any, ...]:
        return (
            r.get("variant"),
            r.get("players"),
            r.get("target"),
            r.get("sides"),
            r.get("sinais", True),
        )

    runs: list[dict[str, Any]] = []
    if path.exists():
        try:
            loaded = json.loads(path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ValueError(f"{path} não é uma lista JSON de rodadas: {exc}") from None
        if not isinstance(loaded, list):
            raise ValueError(f"{path} não é uma lista JSON de rodadas")
        runs = loaded
    record = {k: v for k, v in run.items() if k != "errors"}
    runs = [r for r in runs if key(r) != key(record)] + [record]
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(runs, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(path)
