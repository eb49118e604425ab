"""Links to a table, below both adapters: the reference ``g<id>`` that ``/start`` links and
the Mini App share, and where a table opens in the Mini App."""

from __future__ import annotations


def start_parameter(game_id: int) -> str:
    """The reference of a table in links: the ``/start`` parameter that leads a person back
    to it, and the Mini App's ``startapp`` and ``table``."""
    return f"g{game_id}"


def app_link(bot_username: str, name: str, game_id: int) -> str:
    """The direct link that opens the Mini App at a table (``startapp`` is ``g<id>``, the
    same reference as the bot's ``/start`` links: it names the table and grants nothing)."""
    return f"https://t.me/{bot_username}/{name}?startapp={start_parameter(game_id)}"


def button_url(webapp_url: str, game_id: int) -> str:
    """The page's address for a ``web_app`` button, which carries no start parameter: the
    table goes in the query string."""
    sep = "&" if "?" in webapp_url else "?"
    return f"{webapp_url}{sep}table={start_parameter(game_id)}"
