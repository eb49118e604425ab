"""Building the site for the tests (into a temporary folder: the work tree never changes)."""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bot.config import DEFAULT_RULEBOOK_URL
from tests import ROOT

PREFIX = urlsplit(DEFAULT_RULEBOOK_URL).path.rstrip("/")
"""The path the site is published under, and served under in the browser tests."""


def build_site(out: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` into ``out`` with extra environment (the hooks read it)."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(out)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", **env},
        capture_output=True,
        text=True,
        timeout=300,
    )


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


@contextlib.contextmanager
def serve(site: Path) -> Iterator[str]:
    """The built ``site`` served at ``http://127.0.0.1:<port>/regras`` while the block runs."""
    handler = type("Handler", (QuietHandler,), {})
    server = QuietServer(("127.0.0.1", 0), functools.partial(handler, directory=str(site)))
    base = f"http://127.0.0.1:{server.server_port}{PREFIX}"
    handler.base = base
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield base
    finally:
        server.shutdown()
        server.server_close()
