"""Tests of the Telegram bot, its fake Bot API and sandbox, and its deployment (``bot/``, ``deploy/``)."""
