"""Logging for ``truco bot``: one set-up, levels that say what they show, no secrets.

The token is the bot's password: PTB prints it in its Bot API URL and httpx in
every request line. Redaction happens where each record is made (a log record
factory), so every logger and every handler, including ones added later, only
ever sees ``<token>``. Private hands never reach a log: PTB's debug output dumps
every call's parameters and every update (hand texts, callback messages), so the
``telegram`` loggers stay at INFO even with ``-v``.

Levels (``truco bot`` / ``truco bot -v``):

- ``WARNING``: a Telegram call that failed, a robot that crashed; ``ERROR``: an
  update or job that raised (with its traceback, redacted).
- ``INFO`` (default): start-up, tables resumed, stop.
- ``-v``: the bot's own debug lines, one line per job run (``table:<chat>:<topic>``,
  ``hands:<chat>:<game>``, ``deadline:...``, ``robot:...``), one line per Bot API
  request (method and status, token redacted), migrations.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Iterable
from typing import IO, Any

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
TOKEN_PATTERN = re.compile(r"\d{3,}:[A-Za-z0-9_-]{20,}")
"""What a BotFather token looks like (``123456789:AA...``), known or not."""
MASK = "<token>"

_secrets: set[str] = set()
_installed = False


def redact(text: str) -> str:
    """``text`` with every registered secret and anything shaped like a token masked."""
    for secret in _secrets:
        if secret in text:
            text = text.replace(secret, MASK)
    return TOKEN_PATTERN.sub(MASK, text)


def _redacted_factory(factory: Any) -> Any:
    formatter = logging.Formatter()

    def make(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record: logging.LogRecord = factory(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # a bad format string: let the handler report it as usual
            return record
        clean = redact(message)
        if clean != message or record.args:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            record.exc_text = formatter.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return record

    return make


def protect(secrets: Iterable[str]) -> None:
    """Mask these strings (and anything shaped like a token) in every log record from now on."""
    global _installed
    _secrets.update(s for s in secrets if s)
    if not _installed:
        logging.setLogRecordFactory(_redacted_factory(logging.getLogRecordFactory()))
        _installed = True


class _ReportedByCli(logging.Filter):
    """A rejected token is said in one line by ``truco bot``; PTB would add a traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return type(exc).__name__ != "InvalidToken"


LEVELS: dict[str, tuple[int, int]] = {
    # logger: (level by default, level with -v)
    "": (logging.INFO, logging.DEBUG),
    "bot": (logging.INFO, logging.DEBUG),
    "engine": (logging.INFO, logging.DEBUG),
    "telegram": (logging.INFO, logging.INFO),  # its DEBUG dumps hands and updates
    "httpx": (logging.WARNING, logging.INFO),
    "httpcore": (logging.WARNING, logging.WARNING),
    "alembic": (logging.WARNING, logging.INFO),
    "aiohttp": (logging.WARNING, logging.WARNING),
    "asyncio": (logging.WARNING, logging.WARNING),
}


def setup(
    verbose: bool = False, secrets: Iterable[str] = (), stream: IO[str] | None = None
) -> None:
    """Configure the process's logging for the bot (call once, before anything logs)."""
    protect(secrets)
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(logging.Formatter(FORMAT))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    for name, (quiet, loud) in LEVELS.items():
        logging.getLogger(name).setLevel(loud if verbose else quiet)
    logger = logging.getLogger("telegram.ext")
    if not any(isinstance(f, _ReportedByCli) for f in logger.filters):
        logger.addFilter(_ReportedByCli())
