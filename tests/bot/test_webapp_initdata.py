"""The Mini App's launch data is checked exactly as Telegram documents it."""

from __future__ import annotations

import hashlib
import hmac
from urllib.parse import quote

import pytest

from bot.webapp.initdata import BadInitData, sign, user_json, verify
from tests.bot.harness import TOKEN

NOW = 1_800_000_000


def documented(fields: dict[str, str], token: str) -> str:
    """Telegram's recipe written out independently of the module: the hash of the sorted
    ``key=value`` lines with ``HMAC_SHA256(key="WebAppData", msg=token)``."""
    check = "\n".join(f"{k}={fields[k]}" for k in sorted(fields))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    return hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()


def launch(**extra: str) -> dict[str, str]:
    user = {"id": 100, "first_name": "Ana", "photo_url": "https://t.me/i/userpic/320/a.jpg"}
    return {
        "query_id": "AAE",
        "user": user_json(user),
        "auth_date": str(NOW - 10),
        "signature": "c2lnbmF0dXJl-not-checked-by-the-bot",
        "start_param": "g12",
        **extra,
    }


def raw(fields: dict[str, str], digest: str) -> str:
    pairs = {**fields, "hash": digest}
    return "&".join(f"{k}={quote(v, safe='')}" for k, v in pairs.items())


def test_a_launch_signed_as_documented_is_accepted() -> None:
    fields = launch()
    assert "\\/" in fields["user"]  # Telegram escapes / in the user JSON
    user = verify(raw(fields, documented(fields, TOKEN)), TOKEN, now=NOW)
    assert (user.id, user.name, user.start_param) == (100, "Ana", "g12")


def test_sign_matches_the_documented_recipe() -> None:
    fields = launch()
    signed = sign(fields, TOKEN)
    assert signed.endswith("hash=" + documented(fields, TOKEN))
    assert verify(signed, TOKEN, now=NOW).id == 100


def test_the_escaped_slash_is_checked_as_received() -> None:
    fields = launch()
    unescaped = {**fields, "user": fields["user"].replace("\\/", "/")}
    # signed over the escaped JSON; a checker that re-serialised the user would fail here
    with pytest.raises(BadInitData):
        verify(raw(unescaped, documented(fields, TOKEN)), TOKEN, now=NOW)


def test_signature_is_part_of_the_checked_string() -> None:
    fields = launch()
    digest = documented(fields, TOKEN)
    tampered = {**fields, "signature": "other"}
    with pytest.raises(BadInitData):
        verify(raw(tampered, digest), TOKEN, now=NOW)
    without = {k: v for k, v in fields.items() if k != "signature"}
    with pytest.raises(BadInitData):
        verify(raw(without, digest), TOKEN, now=NOW)


@pytest.mark.parametrize(
    "change",
    [
        {"user": user_json({"id": 200, "first_name": "Beto"})},
        {"auth_date": str(NOW)},
        {"start_param": "g13"},
    ],
)
def test_a_changed_field_is_refused(change: dict[str, str]) -> None:
    fields = launch()
    with pytest.raises(BadInitData):
        verify(raw({**fields, **change}, documented(fields, TOKEN)), TOKEN, now=NOW)


def test_another_token_or_no_hash_is_refused() -> None:
    fields = launch()
    with pytest.raises(BadInitData):
        verify(raw(fields, documented(fields, "999:OTHER")), TOKEN, now=NOW)
    with pytest.raises(BadInitData):
        verify(sign(fields, TOKEN).rsplit("&hash=", 1)[0], TOKEN, now=NOW)
    with pytest.raises(BadInitData):
        verify("", TOKEN, now=NOW)
    with pytest.raises(BadInitData):
        verify("%%%&&=", TOKEN, now=NOW)


def test_a_repeated_field_is_refused() -> None:
    fields = launch()
    signed = sign(fields, TOKEN)
    with pytest.raises(BadInitData):
        verify(signed + "&start_param=g99", TOKEN, now=NOW)


def test_an_old_launch_is_refused() -> None:
    fields = launch(auth_date=str(NOW - 3601))
    with pytest.raises(BadInitData):
        verify(sign(fields, TOKEN), TOKEN, now=NOW)
    fields = launch(auth_date=str(NOW - 3599))
    assert verify(sign(fields, TOKEN), TOKEN, now=NOW).id == 100
    future = launch(auth_date=str(NOW + 3600))
    with pytest.raises(BadInitData):
        verify(sign(future, TOKEN), TOKEN, now=NOW)


async def test_live_wakes_watchers_once_per_new_version_and_forgets_unwatched_tables() -> None:
    from bot.webapp.live import Live

    live = Live()
    live.changed(7, 3)  # nobody watches table 7 here: nothing is kept
    assert live.versions == {}
    wake = live.watch(7)
    live.changed(7, 4)
    assert wake.is_set()
    wake.clear()
    live.changed(7, 4)  # the same change heard again (NOTIFY after the local hook)
    live.changed(7, 3)
    assert not wake.is_set()
    live.gap()  # the database connection dropped: every page reads again
    assert wake.is_set()
    live.unwatch(7, wake)
    assert live.waiting == {} and live.versions == {}
