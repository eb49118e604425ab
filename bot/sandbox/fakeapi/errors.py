"""Bot API error answers and the exact wordings Telegram uses for them."""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]

NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
POLLING_CONFLICT = (
    "Conflict: terminated by other getUpdates request; make sure that only one bot "
    "instance is running"
)
WEBHOOK_CONFLICT = (
    "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete "
    "the webhook first"
)


class ApiError(Exception):
    """A Bot API error answer (``{"ok": false, ...}``)."""

    def __init__(self, code: int, description: str, retry_after: int | None = None) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.retry_after = retry_after

    def to_json(self) -> JSON:
        """The error as Telegram serialises it."""
        body: JSON = {"ok": False, "error_code": self.code, "description": self.description}
        if self.retry_after is not None:
            body["parameters"] = {"retry_after": self.retry_after}
        return body


def bad_request(description: str) -> ApiError:
    """A 400 error with Telegram's "Bad Request: " prefix."""
    return ApiError(400, f"Bad Request: {description}")
