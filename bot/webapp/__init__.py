"""The table as a Telegram Mini App: a page served by the bot, signed for each person.

- ``initdata``: checking Telegram's signed launch data (and signing it, for the fake).
- ``state``: what the page draws, from the engine's per-seat view or the public table.
- ``live``: which open pages must hear of a change.
- ``server``: the app factory and its route tables, mounted on the bot's HTTP port.
- ``views``: one function per route; ``door``: the launch-data middleware and refusals;
  ``pages``: the open pages of this process and the tables they watch.
- ``static/``: the page (plain HTML, CSS and JavaScript; nothing from another host).
"""
