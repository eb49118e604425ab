"""MkDocs hook: search that finds "mao de onze" and "mão de onze" alike.

Material's search runs lunr in a web worker that loads the theme's Portuguese support
(``assets/javascripts/lunr/min/lunr.pt.min.js``). After the build, ``search_fold.js`` is
appended to that file: it folds accents in the index and in the query (see the script).
The worker loads no other script of ours, so this is the one place to change how it reads
words. Pages meant for developers ask for a lower rank with ``search: boost`` in their
front matter (a Material feature), so learners' pages come first.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

FOLD_SCRIPT = Path(__file__).with_name("search_fold.js")
WORKER_LANGUAGE = Path("assets/javascripts/lunr/min/lunr.pt.min.js")


def on_post_build(config: Any) -> None:
    """Append the accent folding to the worker's Portuguese support (once per build)."""
    target = Path(config["site_dir"]) / WORKER_LANGUAGE
    if not target.exists():
        from mkdocs.exceptions import PluginError

        raise PluginError(f"{WORKER_LANGUAGE} não foi gerado: a busca em português mudou de lugar?")
    text = target.read_text(encoding="utf-8")
    fold = FOLD_SCRIPT.read_text(encoding="utf-8")
    if fold not in text:
        target.write_text(text.rstrip("\n") + "\n" + fold, encoding="utf-8")
