"""The built site, once per test run: as files, and served on 127.0.0.1 for the browser."""

from __future__ import annotations

import functools
import http.server
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.site.helpers import build_site


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built with the default settings."""
    out = tmp_path_factory.mktemp("site")
    result = build_site(out)
    assert result.returncode == 0, result.stderr
    return out


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the built site; an unknown address gets the site's 404.html, as a host would."""

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
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site built for, and served at, ``http://127.0.0.1:<port>/``."""
    out = tmp_path_factory.mktemp("served-site")
    server = QuietServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(out)))
    base = f"http://127.0.0.1:{server.server_port}"
    # instant navigation follows the sitemap, whose addresses come from site_url
    result = build_site(out, TRUCO_SITE_URL=base + "/")
    assert result.returncode == 0, result.stderr
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield base
    server.shutdown()
    server.server_close()
