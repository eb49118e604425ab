"""The Telegram adapter: the Application, handlers, pictures, jobs and publishing.

It turns updates into domain commands and domain values into messages; it never
opens a database session (``bot.domain`` does).
"""
