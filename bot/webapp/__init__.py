"""The table as a Telegram Mini App: a page served by the bot, signed for each person.

- ``initdata``: checking Telegram's signed launch data (and signing it, for the fake).
- ``state``: what the page draws, from the engine's per-seat view or the public table.
- ``live``: which open pages must hear of a change.
- ``server``: the routes on the bot's HTTP port and the live connections.
- ``static/``: the page (plain HTML, CSS and JavaScript; nothing from another host).
"""
