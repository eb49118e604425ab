"""Request parameters as Telegram reads them: query string, JSON, urlencoded or multipart."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

JSON = dict[str, Any]

_JSON_PARAMS = frozenset(
    {
        "reply_markup",
        "entities",
        "caption_entities",
        "results",
        "commands",
        "scope",
        "allowed_updates",
        "menu_button",
        "link_preview_options",
        "reply_parameters",
        "button",
        "message_ids",
    }
)
_INT_PARAMS = frozenset(
    {
        "chat_id",
        "message_id",
        "user_id",
        "offset",
        "limit",
        "timeout",
        "cache_time",
        "message_thread_id",
        "from_chat_id",
        "reply_to_message_id",
        "max_connections",
    }
)
_BOOL_PARAMS = frozenset(
    {
        "show_alert",
        "is_personal",
        "disable_notification",
        "protect_content",
        "drop_pending_updates",
        "disable_web_page_preview",
        "allow_sending_without_reply",
        "allow_paid_broadcast",
    }
)


def coerce(name: str, value: Any) -> Any:
    """Form values are strings; give them the JSON types Telegram would read them as."""
    if not isinstance(value, str):
        return value
    if name in _JSON_PARAMS:
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            raise ValueError(f"can't parse {name} JSON object") from None
    if name in _INT_PARAMS:
        try:
            return int(value)
        except ValueError:
            return value
    if name in _BOOL_PARAMS and value.lower() in ("true", "false"):
        return value.lower() == "true"
    return value


async def read_params(request: web.Request) -> JSON:
    """Parameters from the query string and a JSON, urlencoded or multipart body."""
    params: JSON = dict(request.query)
    if request.method == "POST" and request.can_read_body:
        ctype = request.content_type
        if ctype == "application/json":
            try:
                body = await request.json()
            except json.JSONDecodeError:
                raise ValueError("can't parse JSON body") from None
            if not isinstance(body, dict):
                raise ValueError("JSON body must be an object")
            params.update(body)
        else:
            form = await request.post()
            params.update({k: v for k, v in form.items() if isinstance(v, str)})
    return {k: coerce(k, v) for k, v in params.items()}
