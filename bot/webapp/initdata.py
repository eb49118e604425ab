"""Telegram Mini App launch data (``initData``): checking it, and signing it for the fake.

Telegram documents the check ("Validating data received via the Mini App"): the
data-check-string is every received field but ``hash``, as ``key=value`` with the value
URL-decoded exactly as received, sorted by key and joined with ``\\n``; the secret key is
``HMAC_SHA256(key="WebAppData", msg=bot_token)``; the expected ``hash`` is the hex
``HMAC_SHA256(key=secret, msg=data_check_string)``. Fields are never re-serialised:
Telegram escapes ``/`` as ``\\/`` in the ``user`` JSON and now adds a ``signature`` field
(for third parties, Ed25519); both are checked as they came, like every other field.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import parse_qsl, quote

MAX_AGE = 3600.0
"""Seconds a launch stays valid after ``auth_date``: an hour. Telegram signs the data when
the app opens; a page left open longer is asked to be reopened (a leaked initData is useful
for an hour at most, and nobody plays one match for longer without reopening)."""
MAX_LENGTH = 8192
"""Longer launch data is refused unread (Telegram's is well under 2 kB)."""


class BadInitData(ValueError):
    """The launch data is missing, malformed, forged or too old (HTTP 401)."""


@dataclass(frozen=True)
class WebAppUser:
    """The person Telegram signed the launch for."""

    id: int
    name: str
    language_code: str | None
    start_param: str | None
    auth_date: int


def secret_key(token: str) -> bytes:
    """``HMAC_SHA256(key="WebAppData", msg=token)``: the key the data is signed with."""
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def data_check_string(fields: Mapping[str, str]) -> str:
    """Every field but ``hash``, ``key=value``, sorted by key, joined by newlines."""
    return "\n".join(f"{k}={fields[k]}" for k in sorted(fields) if k != "hash")


def _hash(fields: Mapping[str, str], token: str) -> str:
    text = data_check_string(fields).encode()
    return hmac.new(secret_key(token), text, hashlib.sha256).hexdigest()


def parse_fields(raw: str) -> dict[str, str]:
    """The query-string fields of ``raw`` (URL-decoded, in full); repeated keys are refused."""
    if not raw or len(raw) > MAX_LENGTH:
        raise BadInitData("empty or too long")
    try:
        pairs = parse_qsl(raw, keep_blank_values=True, strict_parsing=True, errors="strict")
    except ValueError:
        raise BadInitData("not a query string") from None
    fields: dict[str, str] = {}
    for key, value in pairs:
        if key in fields:
            raise BadInitData(f"repeated field {key}")
        fields[key] = value
    return fields


def verify(raw: str, token: str, now: float | None = None, max_age: float = MAX_AGE) -> WebAppUser:
    """The person of a signed launch; ``BadInitData`` unless the hash matches (compared in
    constant time), ``auth_date`` is at most ``max_age`` seconds old (and not in the
    future beyond a minute of clock skew) and ``user`` names a person."""
    fields = parse_fields(raw)
    given = fields.get("hash", "")
    if not hmac.compare_digest(given.encode(), _hash(fields, token).encode()):
        raise BadInitData("wrong hash")
    try:
        auth_date = int(fields["auth_date"])
    except (KeyError, ValueError):
        raise BadInitData("no auth_date") from None
    now = time.time() if now is None else now
    if auth_date < now - max_age or auth_date > now + 60:
        raise BadInitData("too old")
    try:
        user = json.loads(fields["user"])
        user_id = int(user["id"])
    except (KeyError, ValueError, TypeError):
        raise BadInitData("no user") from None
    if not isinstance(user, dict) or user_id <= 0:
        raise BadInitData("no user")
    name = " ".join(str(user.get(k) or "") for k in ("first_name", "last_name")).strip()
    language = user.get("language_code")
    return WebAppUser(
        id=user_id,
        name=name or str(user_id),
        language_code=str(language) if language else None,
        start_param=fields.get("start_param") or None,
        auth_date=auth_date,
    )


def user_json(user: Mapping[str, object]) -> str:
    """A ``user`` field as Telegram writes it: compact JSON with ``/`` escaped as ``\\/``."""
    text = json.dumps(dict(user), ensure_ascii=False, separators=(",", ":"))
    return text.replace("/", "\\/")


def sign(fields: Mapping[str, str], token: str) -> str:
    """Launch data for ``fields``, signed with ``token`` as Telegram signs it (the fake
    Telegram's and the tests' side of :func:`verify`)."""
    signed = {**fields, "hash": _hash(fields, token)}
    return "&".join(f"{quote(k, safe='')}={quote(v, safe='')}" for k, v in signed.items())
