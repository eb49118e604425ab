"""The local sandbox: a fake Telegram Bot API server and a web page that plays the real bot."""
