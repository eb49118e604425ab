"""What every screen shares: seat and team names, cards on the table, rounds taken, the
countdown and its warning, in HTML (``HTML``): the sentences are ``bot.wording.table``'s,
with names escaped and stressed words in bold."""

from __future__ import annotations

from functools import partial
from html import escape

from bot.wording import Style
from bot.wording import table as table_words

HTML = Style(name=escape, strong=lambda text: f"<b>{text}</b>")
"""How Telegram's messages (``parse_mode=HTML``) mark names and stressed words."""

WARNING_SECONDS = 10
"""A person still to act this close to their deadline is warned once (a new message)."""


def warning_due(deadline_at: float | None, decision_seconds: float, now: float) -> bool:
    """Whether the last warning is due: the time is nearly out, and it was long enough to
    be worth a warning at all."""
    if deadline_at is None or decision_seconds < 2 * WARNING_SECONDS:
        return False
    return deadline_at - now <= WARNING_SECONDS


seat_name = partial(table_words.seat_name, style=HTML)
team_name = partial(table_words.team_name, style=HTML)
plays_line = partial(table_words.plays_line, marks=HTML)
rounds_line = partial(table_words.rounds_line, style=HTML)
