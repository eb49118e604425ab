"""The Telegram bot: a thin adapter that seats people and robots at engine matches.

Everything a table is lives in the database (``bot.models``); handlers in
``bot.handlers`` turn updates into engine actions through ``bot.service`` and
``bot.publish`` turns the stored state into Telegram messages.
"""
