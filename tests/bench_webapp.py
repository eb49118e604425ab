"""``make webapp-bench``: the Mini App's first paint in headless chromium (prints JSON).

The real bot and the fake Telegram run on 127.0.0.1, a match is dealt, and the page is opened
as Telegram opens it (signed launch data in the fragment), each time in a fresh browser
context, so nothing is cached: the first paint (``first-contentful-paint``), the moment the
table is drawn with the person's own cards (the first state of the live stream on screen),
and the bytes the page fetched over the network (the live stream's left out). Then once more with the cache warm (a reload).

Not a test: it prints figures for the docs (with the date and the machine).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests import browsers
from tests.bot.test_webapp_browser import World

CARDS = "#hand button[data-card]"
WATCH = """
new MutationObserver((_, obs) => {
  if (document.querySelector("#hand button[data-card]")) {
    window.__cards = performance.now();
    obs.disconnect();
  }
}).observe(document, {subtree: true, childList: true});
"""
"""Notes when the person's cards are on screen (milliseconds since navigation began)."""


def summary(values: list[float]) -> dict[str, float]:
    """Median and worst of a list of milliseconds."""
    return {"p50": round(statistics.median(values), 1), "max": round(max(values), 1)}


def measure(page: Any, url: str | None, sizes: list[int]) -> dict[str, float]:
    """Open ``url`` in ``page`` (``None``: reload it) and wait for the cards; the page's own
    timings."""
    if url is None:
        page.reload()
    else:
        page.goto(url)
    page.wait_for_selector(CARDS)
    timing = page.evaluate(
        """() => ({
          paint: (performance.getEntriesByName("first-contentful-paint")[0] || {}).startTime,
          cards: window.__cards,
          response: performance.getEntriesByType("navigation")[0].responseEnd,
        })"""
    )
    return {k: float(v) for k, v in timing.items() if v is not None} | {"bytes": sum(sizes)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="cold opens (each in a new context)")
    args = parser.parse_args()
    found = browsers.find()
    if found.missing is not None:
        print(found.missing, file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    world = World(Path(tempfile.mkdtemp(prefix="truco-webapp-bench-")))
    try:
        ana, beto, _ = world.people()
        gid = world.table([ana, beto])
        cold: list[dict[str, float]] = []
        warm: list[dict[str, float]] = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=found.executable, args=browsers.ARGS)
            version = browser.version
            for _ in range(args.runs):
                context = browser.new_context(viewport={"width": 390, "height": 800})
                context.add_init_script(WATCH)
                page = context.new_page()
                sizes: list[int] = []

                def count(r: Any, sizes: list[int] = sizes) -> None:
                    if "/api/events" not in r.url:  # the live stream never ends
                        r.finished()
                        sizes.append(
                            max(0, int(r.request.sizes()["responseBodySize"]))
                        )  # -1: cached

                page.on("response", count)
                url = world.launch(ana, gid)
                cold.append(measure(page, url, sizes))
                sizes.clear()
                warm.append(measure(page, None, sizes))
                context.close()
            browser.close()
    finally:
        world.stop()
    figures = {
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}",
        "chromium": version,
        "runs": args.runs,
        "cold": {
            "first_paint_ms": summary([r["paint"] for r in cold if "paint" in r]),
            "table_drawn_ms": summary([r["cards"] for r in cold if "cards" in r]),
            "page_response_ms": summary([r["response"] for r in cold]),
            "bytes": int(statistics.median([r["bytes"] for r in cold])),
        },
        "warm": {
            "first_paint_ms": summary([r["paint"] for r in warm if "paint" in r]),
            "table_drawn_ms": summary([r["cards"] for r in warm if "cards" in r]),
            "bytes": int(statistics.median([r["bytes"] for r in warm])),
        },
    }
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
