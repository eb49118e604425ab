"""The Telegram bot: a thin adapter that seats people and robots at engine matches.

``bot.domain`` is the only code that touches the database (tables, seats, players,
chats, marcadores, what each message must show); ``bot.telegram`` turns updates
into domain commands and domain values into messages, and ``bot.webapp`` serves the
table as a Mini App page: two siblings that never import each other. Below both:
``bot.services`` (the process's services and its notifier), ``bot.acting`` (a person
acts), ``bot.wording`` (the sentences, plain) and ``bot.links``. ``bot.ops`` is what
running it in production needs (logs, metrics, the HTTP port, a clean stop).
``docs-dev/ARCHITECTURE.md`` draws the whole picture.
"""
