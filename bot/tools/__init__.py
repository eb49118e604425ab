"""The bot's measuring tools, run from a source checkout and left out of the wheel.

``bench`` is ``truco bot-bench`` (many tables against the fake Telegram, figures as
JSON), ``pages`` its Mini App pages without a browser. A production install has no use
for them; ``truco bot-bench`` says so there.
"""
