"""``make play-bench``: the "Jogar agora" page measured in headless chromium (prints JSON).

Builds the site, serves it on 127.0.0.1 (no compression, like ``python -m http.server``) and
counts the bytes the server sends. Then, ``--starts`` times, in a fresh browser profile:

- cold start: open the page with nothing cached; the time until the form can be read
  (``form_s``) and until the engine is ready to play (``ready_s``, ``data-jogo-pronto``); the
  worker's phases (``worker_ms``: runtime scripts in, Pyodide up, engine imported, whether
  Python's memory was restored from an earlier visit); the bytes sent, and what they would be
  gzip-compressed by a server that compresses;
- warm start: open it again ``--reloads`` times (service worker, caches and the kept copy of
  the engine's memory in place): the same figures;
- with the load average of the machine at each start, and medians over all starts.

Then robot decision time: whole matches against each level in ``--levels`` (1×1 and 2×2) by
clicking, with the robots' pause at zero: ``decision_ms`` is the time each robot decision took
inside the browser (the robot's ``choose`` in Python in Pyodide, what ``engine.browser`` times),
``click_to_your_turn_ms`` the time from the person's click until the page waits for them again
(every robot move between, drawing included).

Not a test: it prints figures for docs-dev/site-log.md (with the date and the machine).
"""

from __future__ import annotations

import argparse
import datetime
import functools
import gzip
import http.server
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from engine.stats import percentile
from tests import browsers
from tests.site.helpers import build_site

GAME = "[data-jogo]"


class CountingHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the built site and adds every body byte it sends to ``sent``."""

    sent: ClassVar[list[int]] = [0]
    requests: ClassVar[list[str]] = []

    def log_message(self, format: str, *args: object) -> None:
        pass

    def copyfile(self, source, outputfile) -> None:  # type: ignore[no-untyped-def]
        data = source.read()
        self.sent[0] += len(data)
        self.requests.append(self.path)
        outputfile.write(data)


def summary(values: list[float]) -> dict[str, float]:
    return {
        "n": len(values),
        "median": round(statistics.median(values), 2),
        "p95": round(percentile(values, 0.95), 2),
        "max": round(max(values), 2),
    }


def gzip_size(site: Path, paths: list[str]) -> int:
    total = 0
    for p in paths:
        f = site / p.lstrip("/").split("?")[0]
        if f.is_dir():
            f = f / "index.html"
        if f.is_file():
            total += len(gzip.compress(f.read_bytes(), 6))
    return total


def play(page, level: str, players: int, seed: int) -> tuple[list[float], list[float]]:
    """One match by clicking; (robot decision ms, click-to-your-turn ms)."""
    rng = random.Random(seed)
    page.check(f'{GAME} input[name=players][value="{players}"]')
    page.check(f'{GAME} input[name=level][value="{level}"]')
    page.click("[data-jogo-comecar]")
    page.wait_for_selector(f'{GAME}[data-jogo-fase="jogo"]')
    answers = []
    wait_person = (
        "!['robot', null].includes(document.querySelector('[data-jogo]')"
        ".getAttribute('data-jogo-espera'))"
    )
    for _ in range(600):
        page.wait_for_function(wait_person, timeout=60_000)
        waiting = page.get_attribute(GAME, "data-jogo-espera")
        if waiting == "match_over":
            break
        if waiting == "hand_over":
            # the page drops a click that comes while its worker is still busy (jogo.js,
            # onClick): the click is tried again, as a person would, before giving up
            for attempt in range(4):
                page.click("[data-jogo-proxima]")
                try:
                    page.wait_for_function(
                        "document.querySelector('[data-jogo]')"
                        ".getAttribute('data-jogo-espera') !== 'hand_over'",
                        timeout=15_000,
                    )
                    break
                except Exception:
                    if attempt < 3:
                        print(
                            f"bench: Próxima mão clicked again ({level}, {players}, {seed})",
                            file=sys.stderr,
                        )
                        continue
                    # what the page showed when the next hand did not come, to find out why
                    attrs = page.eval_on_selector(
                        GAME,
                        "e => Object.fromEntries([...e.attributes].map(a => [a.name, a.value]))",
                    )
                    stuck = {"stuck": level, "players": players, "seed": seed, **attrs}
                    print(json.dumps(stuck), file=sys.stderr)
                    print(page.inner_text(GAME)[:3000], file=sys.stderr)
                    raise
            continue
        actions = page.eval_on_selector_all(
            f"{GAME} button[data-acao]:not([disabled])",
            "els => els.map(e => e.getAttribute('data-acao'))",
        )
        before = int(page.get_attribute(GAME, "data-jogo-passo") or 0)
        start = time.perf_counter()
        page.click(f'{GAME} button[data-acao="{rng.choice(actions)}"]')
        page.wait_for_function(
            f"+document.querySelector('[data-jogo]').getAttribute('data-jogo-passo') > {before}",
            timeout=60_000,
        )
        page.wait_for_function(wait_person, timeout=60_000)
        answers.append((time.perf_counter() - start) * 1000)
    robot = [float(x) for x in (page.get_attribute(GAME, "data-jogo-robo-ms") or "").split()]
    page.click("[data-jogo-nova]")
    return robot, answers


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3, help="partidas por nível e formato")
    parser.add_argument("--levels", default="medio,dificil")
    parser.add_argument("--starts", type=int, default=3, help="perfis novos (partida a frio)")
    parser.add_argument("--reloads", type=int, default=2, help="recargas (a quente) por perfil")
    parser.add_argument("--built", type=Path, help="serve this built site instead of building one")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    out = args.built or Path(tempfile.mkdtemp(prefix="bench-site-"))
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(CountingHandler, directory=str(out))
    )
    base = f"http://127.0.0.1:{server.server_port}"
    if not args.built:
        result = build_site(out, TRUCO_SITE_URL=base + "/")
        if result.returncode != 0:
            print(result.stderr, file=sys.stderr)
            return 1
    threading.Thread(target=server.serve_forever, daemon=True).start()
    figures: dict[str, object] = {
        "date": datetime.date.today().isoformat(),
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}",
        "load_average_at_start": [round(x, 1) for x in os.getloadavg()],
    }
    # found before Playwright starts: finding may itself ask Playwright for its own browser
    found = browsers.find()
    if found.missing is not None:
        print(found.missing, file=sys.stderr)
        return 1
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=found.executable, args=browsers.ARGS)
        figures["chromium"] = browser.version

        def new_page():  # type: ignore[no-untyped-def]
            """A fresh browser profile: nothing cached, no service worker."""
            context = browser.new_context()
            context.add_init_script("localStorage.setItem('truco-jogo-ritmo', '0')")
            page = context.new_page()
            page.on("dialog", lambda d: d.accept())  # "Nova mesa" asks before leaving a match
            # the worker's warnings (a refused copy of the engine's memory, say) go to stderr
            context.on("console", lambda m: print(f"console {m.type}: {m.text}", file=sys.stderr))
            page.on(
                "worker",
                lambda w: w.on(
                    "console", lambda m: print(f"worker {m.type}: {m.text}", file=sys.stderr)
                ),
            )
            return page

        def open_page(page) -> dict[str, object]:  # type: ignore[no-untyped-def]
            CountingHandler.sent[0] = 0
            CountingHandler.requests.clear()
            load = os.getloadavg()[0]
            start = time.perf_counter()
            page.goto(base + "/jogar/", wait_until="commit")
            page.wait_for_selector("[data-jogo-comecar]", timeout=60_000)
            form = time.perf_counter() - start
            try:
                page.wait_for_selector(
                    f"{GAME}[data-jogo-pronto]",
                    timeout=int(os.environ.get("BENCH_TIMEOUT_MS", 120_000)),
                )
            except Exception:
                print(page.inner_text(GAME), file=sys.stderr)
                raise
            ready = time.perf_counter() - start
            return {
                "load_average": round(load, 1),
                "form_s": round(form, 2),
                "ready_s": round(ready, 2),
                # when the page started the worker (after navigation start), and its boot
                "worker_started_ms": int(page.get_attribute(GAME, "data-jogo-inicio-ms") or 0),
                "engine_boot_ms": int(page.get_attribute(GAME, "data-jogo-carga-ms") or 0),
                "worker_ms": json.loads(page.get_attribute(GAME, "data-jogo-motor-ms") or "{}"),
                "bytes": CountingHandler.sent[0],
                "requests": len(CountingHandler.requests),
                "bytes_gzip": gzip_size(out, list(CountingHandler.requests)),
            }

        starts = []
        for _ in range(args.starts):
            page = new_page()
            cold = open_page(page)
            page.wait_for_function("navigator.serviceWorker.ready.then(r => !!r.active)")
            # the copy of the engine's memory is written after the engine said it is ready
            page.wait_for_function(
                "caches.open('truco-motor-estado').then(c => c.keys()).then(k => k.length > 0)"
            )
            page.wait_for_timeout(1000)  # let the service worker finish filling its cache
            cold["bytes_with_service_worker"] = CountingHandler.sent[0]
            starts.append({"cold": cold, "warm": [open_page(page) for _ in range(args.reloads)]})
            if len(starts) < args.starts:
                page.context.close()
        figures["starts"] = starts
        for kind in ("form_s", "ready_s"):
            figures[f"cold_{kind}"] = summary([float(s["cold"][kind]) for s in starts])  # type: ignore[index]
            figures[f"warm_{kind}"] = summary(
                [float(w[kind]) for s in starts for w in s["warm"]]  # type: ignore[attr-defined]
            )
        robots: dict[str, object] = {}
        for level in args.levels.split(",") if args.matches else ():
            for players in (2, 4):
                think: list[float] = []
                answer: list[float] = []
                for i in range(args.matches):
                    t, a = play(page, level, players, seed=i)
                    think += t
                    answer += a
                robots[f"{level} {players // 2}x{players // 2}"] = {
                    "decision_ms": summary(think),
                    "click_to_your_turn_ms": summary(answer),
                }
        figures["robots"] = robots
        figures["goals"] = {
            "warm_ready_s median (goal <= 1.5)": figures["warm_ready_s"]["median"],  # type: ignore[index]
            "cold_ready_s median (goal <= 4)": figures["cold_ready_s"]["median"],  # type: ignore[index]
            **{
                f"{name} decision_ms p95 (goal <= 600)": r["decision_ms"]["p95"]  # type: ignore[index]
                for name, r in robots.items()
                if name.startswith("dificil")
            },
        }
        browser.close()
    server.shutdown()
    print(json.dumps(figures, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
