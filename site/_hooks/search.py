"""MkDocs hook: search that finds "mao de onze" and "mão de onze" alike.

Material's search runs lunr in a web worker that loads the theme's Portuguese support
(``assets/javascripts/lunr/min/lunr.pt.min.js``). After the build, ``search_fold.js`` is
appended to that file: it folds accents in the index and in the query (see the script).
The worker loads no other script of ours, so this is the one place to change how it reads
words. Pages meant for developers ask for a lower rank with ``search: boost`` in their
front matter (a Material feature), so learners' pages come first.

Material's index reads a page's text as it is written: table cells run together
("Tipo14♣4zap") and a card says both of its faces (``4♣`` and the Spanish ``4``). Before the
index is made, ``on_page_content`` puts a space between cells (a table draws none) and marks
the Spanish faces ``data-search-exclude``: the index reads each card once, as the traditional
deck names it, and the deck switch is left out of it altogether (``truco.deck_toggle``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

FOLD_SCRIPT = Path(__file__).with_name("search_fold.js")
WORKER_LANGUAGE = Path("assets/javascripts/lunr/min/lunr.pt.min.js")


CELL_GAP = re.compile(
    r"(</t[dhr]>|</caption>|</thead>|</div>)\s*(?=<t[dhr][\s>]|<thead|<tbody|<div[\s>])"
)
CARD_GAP = re.compile(r'(</span>)(?=<span class="carta[ "])')
"""Between two cards: their row is a flexbox, which draws no space for it."""
SPANISH_FACE = re.compile(r'<span class="(carta__esp|nome__esp)"')


def on_page_content(html: str, **_: Any) -> str:
    """The page as the search index should read it (and as it looks: nothing visible changes)."""
    html = CELL_GAP.sub(r"\1 ", html)
    html = CARD_GAP.sub(r"\1 ", html)
    return SPANISH_FACE.sub(r'<span class="\1" data-search-exclude', html)


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
