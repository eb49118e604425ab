"""Telegram's rules for what a bot sends: texts, parse modes, entities, keyboards, menus."""

from __future__ import annotations

import copy
import json
import re
from typing import Any, TypeVar, cast

from bot.sandbox.fakeapi.errors import bad_request
from bot.sandbox.html import ParseError, parse_html, utf16_len

JSON = dict[str, Any]
_T = TypeVar("_T")

MAX_TEXT = 4096
MAX_CALLBACK_DATA = 64
MAX_CALLBACK_ANSWER = 200
MAX_INLINE_RESULTS = 50
BUTTON_ACTIONS = (
    "url",
    "callback_data",
    "web_app",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
)
_COMMAND = re.compile(r"(?<!\S)/[a-zA-Z0-9_]{1,64}(?:@[a-zA-Z0-9_]{3,32})?")
_MENTION = re.compile(r"(?<![\w@])@[a-zA-Z0-9_]{5,32}")
COMMAND_NAME = re.compile(r"^[a-z0-9_]{1,32}$")


def _utf16_offsets(text: str, pattern: re.Pattern[str], kind: str) -> list[JSON]:
    return [
        {"type": kind, "offset": utf16_len(text[: m.start()]), "length": utf16_len(m.group(0))}
        for m in pattern.finditer(text)
    ]


def command_entities(text: str) -> list[JSON]:
    """Entities Telegram's clients attach to a typed text (commands and @mentions)."""
    found = _utf16_offsets(text, _COMMAND, "bot_command") + _utf16_offsets(
        text, _MENTION, "mention"
    )
    return sorted(found, key=lambda e: e["offset"])


def clone(value: _T) -> _T:
    """A deep copy of JSON data (dicts, lists, strings, numbers): what the fake stores and
    hands out. Tests read a chat's messages many times a second while they wait, and
    ``copy.deepcopy``, which also tracks shared and recursive objects that JSON cannot
    hold, was most of the suite's CPU; this copy is several times cheaper."""
    return cast(_T, _clone(value))


def _clone(value: Any) -> Any:
    kind = type(value)
    if kind is dict:
        return {k: _clone(v) for k, v in value.items()}
    if kind is list:
        return [_clone(v) for v in value]
    if kind in _ATOMS:
        return value
    return copy.deepcopy(value)


_ATOMS = (str, int, float, bool, type(None))


def public(record: JSON) -> JSON:
    """A stored message as the Bot API shows it (without the fake's bookkeeping keys)."""
    return {
        k: clone(v)
        for k, v in record.items()
        if k not in ("deleted", "html", "parse_mode", "inline_message_id")
    }


def render_text(text: Any, parse_mode: Any, entities: Any) -> JSON:
    """Text, entities and the original HTML of an outgoing text, checked like Telegram."""
    if not isinstance(text, str) or not text.strip():
        raise bad_request("message text is empty")
    out: JSON = {}
    mode = (parse_mode or "").lower()
    if mode == "html":
        try:
            plain, found = parse_html(text)
        except ParseError as exc:
            raise bad_request(f"can't parse entities: {exc}") from None
        out["html"] = text
        out["parse_mode"] = "HTML"
    else:
        plain, found = text, list(entities or [])
        if mode:
            out["parse_mode"] = parse_mode
    if not plain.strip():
        raise bad_request("message text is empty")
    if utf16_len(plain) > MAX_TEXT:
        raise bad_request("message is too long")
    out["text"] = plain
    # Telegram marks the /commands of a bot's text too (a tap sends them), where no
    # entity of the text's own covers them
    taken = [(e["offset"], e["offset"] + e["length"]) for e in found]
    for e in command_entities(plain):
        if e["type"] == "bot_command" and not any(
            a < e["offset"] + e["length"] and e["offset"] < b for a, b in taken
        ):
            found.append(e)
    found.sort(key=lambda e: e["offset"])
    if found:
        out["entities"] = found
    return out


def check_markup(markup: Any) -> JSON | None:
    """A reply markup checked like Telegram (an inline keyboard without rows is none)."""
    if markup is None:
        return None
    if not isinstance(markup, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    if "inline_keyboard" not in markup:
        return markup
    rows = markup["inline_keyboard"]
    if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
        raise bad_request(
            'field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays'
        )
    for row in rows:
        for button in row:
            if not isinstance(button, dict) or not button.get("text"):
                raise bad_request("can't parse inline keyboard button: Text must be non-empty")
            actions = [a for a in BUTTON_ACTIONS if a in button]
            if not actions:
                raise bad_request(
                    "can't parse inline keyboard button: Text buttons are unallowed in the "
                    "inline keyboard"
                )
            if "callback_data" in button:
                data = button["callback_data"]
                if not isinstance(data, str) or not 1 <= len(data.encode()) <= MAX_CALLBACK_DATA:
                    raise bad_request("BUTTON_DATA_INVALID")
            if "url" in button and not re.match(r"^(https?|tg)://", str(button["url"])):
                raise bad_request("BUTTON_URL_INVALID")
    if not any(rows):
        return None
    return {"inline_keyboard": [[dict(b) for b in row] for row in rows if row]}


def scope_key(scope: Any) -> str:
    """A canonical key for a BotCommandScope (``default`` when absent)."""
    if not scope:
        scope = {"type": "default"}
    return json.dumps(
        {k: scope[k] for k in ("type", "chat_id", "user_id") if k in scope}, sort_keys=True
    )
