"""The built site, once per test run: as files, and served on 127.0.0.1 for the browser.

A build costs tens of CPU seconds; under ``pytest -n`` the workers share one, built by the
first worker that needs it while the others wait on a lock.
"""

from __future__ import annotations

import fcntl
import functools
import http.server
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.config import DEFAULT_RULEBOOK_URL
from tests.site.helpers import PREFIX, build_site


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """The site built with the default settings, once for all workers."""
    if worker_id == "master":
        out = tmp_path_factory.mktemp("site")
        result = build_site(out)
        assert result.returncode == 0, result.stderr
        return out
    shared = tmp_path_factory.getbasetemp().parent  # this run's folder, one per run
    out, done = shared / "site", shared / "site.built"
    with open(shared / "site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            result = build_site(out)
            assert result.returncode == 0, result.stderr
            done.touch()
    return out


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the built site under its public path, as its host would.

    An unknown address gets the site's 404.html. The sitemap, which instant navigation
    follows (Material keeps the sitemap's port and path), names this server.
    """

    base = ""

    def translate_path(self, path: str) -> str:
        """The site's files under the public path; nothing outside it."""
        path = path.split("?")[0].split("#")[0]
        if path != PREFIX and not path.startswith(PREFIX + "/"):
            return str(Path(self.directory) / "\0outside")  # no such file: the 404 page
        return super().translate_path(path[len(PREFIX) :] or "/")

    def do_GET(self) -> None:
        """The sitemap with this server's address; any other file as it is."""
        if self.path.split("?")[0] != PREFIX + "/sitemap.xml":
            return super().do_GET()
        text = (Path(self.directory) / "sitemap.xml").read_text(encoding="utf-8")
        body = text.replace(DEFAULT_RULEBOOK_URL, self.base + "/").encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # keep test output clean
        pass

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The site's own 404 page for a missing address; the standard page otherwise."""
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.exists():
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class QuietServer(http.server.ThreadingHTTPServer):
    """A browser that leaves a page mid-download closes its socket: not worth a traceback."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Print other errors as usual."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@pytest.fixture(scope="session")
def base_url(site: Path) -> Iterator[str]:
    """The site served at ``http://127.0.0.1:<port>/regras`` (the public address's path)."""
    handler = type("Handler", (QuietHandler,), {})
    server = QuietServer(("127.0.0.1", 0), functools.partial(handler, directory=str(site)))
    base = f"http://127.0.0.1:{server.server_port}{PREFIX}"
    handler.base = base
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield base
    server.shutdown()
    server.server_close()
