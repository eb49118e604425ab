"""The lessons on small screens, measured in headless chromium (prints JSON).

Builds the site (or takes ``--site``, an already built one), serves it on 127.0.0.1 and walks
every screen of every lesson at each size of ``tests.site.lesson_fit.VIEWPORTS`` (390×844,
390×664, 360×640 and the phone at 200% zoom): per size, how many screens have the next thing
to press out of a finger's reach ("stuck") and how many show less than two lines of the
explanation ("squeezed"), with the first few of each. ``--url`` measures a site served
elsewhere (the public one, say). Not a test: it prints figures for docs-dev/site-log.md.

    .venv/bin/python tests/measure_lessons.py [--sizes 390x664,zoom200] [--all]
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
import platform
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from engine.tutorial import build_trace
from tests import browsers
from tests.site.helpers import build_site, serve
from tests.site.lesson_fit import VIEWPORTS, walk


@contextlib.contextmanager
def site_address(url: str | None, built: str | None) -> Iterator[str]:
    """The address to measure: ``url``, or a build of this tree (or ``built``) served here."""
    if url:
        yield url.rstrip("/")
        return
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(built) if built else Path(tmp) / "site"
        if not built:
            result = build_site(out)
            if result.returncode != 0:
                sys.exit(result.stderr)
        with serve(out) as base:
            yield base


def main() -> None:
    """Measure and print one JSON object."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(VIEWPORTS), help="comma-separated sizes")
    parser.add_argument("--url", help="the site's address (default: build and serve this tree)")
    parser.add_argument("--site", help="an already built site folder to serve")
    parser.add_argument("--all", action="store_true", help="list every screen found, not 5")
    args = parser.parse_args()
    found = browsers.find()
    if found.missing:
        sys.exit(found.missing)
    course = build_trace()
    report: dict[str, object] = {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="minutes"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        "lessons": len(course["lessons"]),
    }
    shown = None if args.all else 5
    with site_address(args.url, args.site) as base, contextlib.ExitStack() as stack:
        browser = stack.enter_context(contextlib.contextmanager(browsers.launch)(found))
        for size in args.sizes.split(","):
            context = browser.new_context(**VIEWPORTS[size])
            page = context.new_page()
            page.goto(base + "/tutorial/")
            page.wait_for_selector("[data-tutorial][data-tutorial-pronto] [data-tutorial-menu]")
            fit = walk(page, course)
            report[size] = {
                **fit.summary(),
                "stuck_at": fit.stuck[:shown],
                "squeezed_at": fit.squeezed[:shown],
            }
            context.close()
    print(json.dumps(report, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
