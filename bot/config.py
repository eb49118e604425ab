"""Bot configuration from the environment and an optional ``.env`` file."""

from __future__ import annotations

import logging
import os
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from dotenv import dotenv_values

DEFAULT_API_URL = "https://api.telegram.org"
DEFAULT_DATABASE_URL = "sqlite:///./data/truco.db"
DEFAULT_RULEBOOK_URL = "https://truco-telegram.github.io/regras/"
DEFAULT_LISTEN = "127.0.0.1:8443"
WEBHOOK_SECRET_MIN = 16
"""Characters a webhook secret needs at least (Telegram accepts 1 to 256): a short one can be
guessed, and whoever knows it can post updates as anyone."""
log = logging.getLogger(__name__)
_SECRET_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


class ConfigError(ValueError):
    """A configuration value is missing or malformed (one line, for the user)."""


def read_env_file(path: Path) -> dict[str, str]:
    """``KEY=VALUE`` lines of a ``.env`` file, read by python-dotenv (quotes, ``export``,
    comments and escapes as everywhere else); a missing file is empty."""
    if not path.exists():
        return {}
    warn_if_readable(path)
    try:
        found = dotenv_values(path, encoding="utf-8", interpolate=False)
    except OSError as exc:
        raise ConfigError(f"não consegui ler {path}: {exc.strerror}") from None
    values: dict[str, str] = {}
    for key, value in found.items():
        if value is None:  # a line with a bare word: a typo, not a setting
            raise ConfigError(f"{path}: esperava CHAVE=valor, não {key!r}")
        values[key] = value
    return values


def warn_if_readable(path: Path) -> bool:
    """Warn (one line) when a file holding secrets may be read by others than its owner."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    if not mode & (stat.S_IRWXG | stat.S_IRWXO):
        return False
    log.warning(
        "%s tem o token e pode ser lido por outros usuários (modo %o): chmod 600 %s",
        path,
        stat.S_IMODE(mode),
        path,
    )
    return True


def _number(env: Mapping[str, str], key: str, default: float | None, low: float) -> float | None:
    raw = env.get(key, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{key} precisa ser um número, não {raw!r}") from None
    if value < low:
        raise ConfigError(f"{key} precisa ser pelo menos {low:g}")
    return value


def parse_listen(value: str) -> tuple[str, int]:
    """``host:port`` (``[::1]:8443`` for IPv6) as a pair; ``ValueError`` when malformed."""
    host, sep, port = value.strip().rpartition(":")
    if not sep or not host or not port.isascii() or not port.isdigit():
        raise ValueError(value)
    number = int(port)
    if not 0 <= number <= 65535:
        raise ValueError(value)
    return host.strip("[]"), number


@dataclass(frozen=True)
class Config:
    """Everything ``truco bot`` needs to run."""

    token: str
    api_url: str = DEFAULT_API_URL
    database_url: str = DEFAULT_DATABASE_URL
    robot_delay: float = 1.0
    """Seconds a robot "thinks" before acting."""
    decision_seconds: float | None = None
    """Overrides every decision timer (tests and demos); ``None`` uses the table's."""
    seed: int | None = None
    """Fixed deal seed for reproducible matches; ``None`` draws one per match."""
    robot_budget_ms: int = 250
    group_budget: int = 20
    """At most this many calls per minute to one group (all processes together)."""
    bot_budget: int = 30
    """At most this many messages a second for the whole bot (all processes together)."""
    job_lease: float = 10.0
    """Seconds a process holds a claimed job before another may take it over."""
    rulebook_url: str = DEFAULT_RULEBOOK_URL
    poll_timeout: int = 30
    webhook_url: str | None = None
    """Public HTTPS address Telegram posts updates to; ``None`` means long polling."""
    webhook_secret: str | None = None
    """Telegram's ``X-Telegram-Bot-Api-Secret-Token``: requests without it get 403."""
    listen: tuple[str, int] | None = None
    """Where the webhook, ``/healthz`` and ``/metrics`` are served (``TRUCO_LISTEN``).
    Polling serves the last two only when ``TRUCO_LISTEN`` is set."""
    webapp_url: str | None = None
    """Public address of the Mini App page (``TELEGRAM_WEBAPP_URL``, as registered with
    @BotFather's ``/newapp``); the bot serves the page at its path on ``TRUCO_LISTEN``."""
    webapp_name: str | None = None
    """The Mini App's short name (``TELEGRAM_WEBAPP_NAME``), for direct links
    ``https://t.me/<bot>/<name>?startapp=...``. Without both, no Mini App at all."""

    @property
    def webapp(self) -> tuple[str, str] | None:
        """The Mini App's URL and short name, when both are set."""
        if self.webapp_url is None or self.webapp_name is None:
            return None
        return self.webapp_url, self.webapp_name

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] | None = None, env_file: Path | None = Path(".env")
    ) -> Config:
        """Read the configuration; the environment wins over the ``.env`` file."""
        env: dict[str, str] = read_env_file(env_file) if env_file is not None else {}
        env.update(os.environ if environ is None else environ)
        token = env.get("TELEGRAM_BOT_TOKEN", "").strip()
        if not token:
            raise ConfigError(
                "falta TELEGRAM_BOT_TOKEN (crie o bot com o @BotFather e exporte o token)"
            )
        if any(ch.isspace() for ch in token) or ":" not in token:
            raise ConfigError("TELEGRAM_BOT_TOKEN não parece um token do BotFather (123:ABC...)")
        api_url = env.get("TELEGRAM_API_URL", "").strip() or DEFAULT_API_URL
        if not api_url.startswith(("http://", "https://")):
            raise ConfigError(
                f"TELEGRAM_API_URL precisa começar com http:// ou https://: {api_url}"
            )
        database_url = env.get("DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL
        if "://" not in database_url:
            # never echoed: it may carry a password (user:senha@host without the scheme)
            raise ConfigError(
                "DATABASE_URL inválida: esperava sqlite:///caminho ou postgresql://usuário@host/banco"
            )
        seed = env.get("TRUCO_SEED", "").strip()
        if seed and not seed.lstrip("-").isdigit():
            raise ConfigError(f"TRUCO_SEED precisa ser um inteiro, não {seed!r}")
        delay = _number(env, "TRUCO_ROBOT_DELAY", 1.0, 0.0)
        budget = _number(env, "TRUCO_ROBOT_BUDGET_MS", 250, 1)
        group_budget = _number(env, "TRUCO_GROUP_BUDGET", 20, 2)  # Telegram: 20 a minute per group
        bot_budget = _number(env, "TRUCO_BOT_BUDGET", 30, 1)  # Telegram: 30 a second per bot
        job_lease = _number(env, "TRUCO_JOB_LEASE", 10.0, 0.5)
        webhook_url = env.get("TELEGRAM_WEBHOOK_URL", "").strip() or None
        webhook_secret = env.get("TELEGRAM_WEBHOOK_SECRET", "").strip() or None
        if webhook_url is not None:
            if not webhook_url.startswith("https://"):
                raise ConfigError(
                    f"TELEGRAM_WEBHOOK_URL precisa ser um endereço https://: {webhook_url}"
                )
            if webhook_secret is None:
                raise ConfigError(
                    "com TELEGRAM_WEBHOOK_URL, defina TELEGRAM_WEBHOOK_SECRET "
                    f"({WEBHOOK_SECRET_MIN} a 256 caracteres: letras, números, _ e -)"
                )
        if webhook_secret is not None and (
            len(webhook_secret) > 256 or not set(webhook_secret) <= _SECRET_CHARS
        ):
            raise ConfigError("TELEGRAM_WEBHOOK_SECRET aceita só letras, números, _ e - (até 256)")
        if webhook_secret is not None and len(webhook_secret) < WEBHOOK_SECRET_MIN:
            raise ConfigError(
                f"TELEGRAM_WEBHOOK_SECRET curto demais: use pelo menos {WEBHOOK_SECRET_MIN} "
                "caracteres (openssl rand -hex 32)"
            )
        webapp_url, webapp_name = _webapp(env)
        listen_raw = env.get("TRUCO_LISTEN", "").strip()
        listen = None
        if listen_raw or webhook_url is not None or webapp_url is not None:
            try:
                listen = parse_listen(listen_raw or DEFAULT_LISTEN)
            except ValueError:
                raise ConfigError(
                    f"TRUCO_LISTEN precisa ser host:porta (como 127.0.0.1:8443), não {listen_raw!r}"
                ) from None
        return cls(
            token=token,
            api_url=api_url.rstrip("/"),
            database_url=database_url,
            robot_delay=delay if delay is not None else 1.0,
            decision_seconds=_number(env, "TRUCO_DECISION_SECONDS", None, 0.05),
            seed=int(seed) if seed else None,
            robot_budget_ms=int(budget or 250),
            group_budget=int(group_budget or 20),
            bot_budget=int(bot_budget or 30),
            job_lease=job_lease or 10.0,
            rulebook_url=(
                env.get("TRUCO_RULEBOOK_URL", "").strip()
                or env.get("TRUCO_SITE_URL", "").strip()
                or DEFAULT_RULEBOOK_URL
            ),
            poll_timeout=int(_number(env, "TRUCO_POLL_TIMEOUT", 30, 0) or 0),
            webhook_url=webhook_url,
            webhook_secret=webhook_secret,
            listen=listen,
            webapp_url=webapp_url,
            webapp_name=webapp_name,
        )


_LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
_WEBAPP_NAME = re.compile(r"[A-Za-z0-9_]{3,30}")


def _webapp(env: Mapping[str, str]) -> tuple[str | None, str | None]:
    """``TELEGRAM_WEBAPP_URL`` and ``TELEGRAM_WEBAPP_NAME``: both or neither; HTTPS, except
    ``http://`` on 127.0.0.1 or localhost (the sandbox and local tests)."""
    url = env.get("TELEGRAM_WEBAPP_URL", "").strip() or None
    name = env.get("TELEGRAM_WEBAPP_NAME", "").strip() or None
    if url is None and name is None:
        return None, None
    if url is None or name is None:
        raise ConfigError(
            "defina TELEGRAM_WEBAPP_URL e TELEGRAM_WEBAPP_NAME juntos (o Mini App do /newapp)"
        )
    parts = urlsplit(url)
    local = parts.scheme == "http" and (parts.hostname or "") in _LOCAL_HOSTS
    if not (parts.scheme == "https" and parts.hostname) and not local:
        raise ConfigError(
            f"TELEGRAM_WEBAPP_URL precisa ser https:// (http:// só em 127.0.0.1 ou localhost): {url}"
        )
    if not _WEBAPP_NAME.fullmatch(name):
        raise ConfigError(f"TELEGRAM_WEBAPP_NAME: 3 a 30 letras, números ou _, não {name!r}")
    return url, name
