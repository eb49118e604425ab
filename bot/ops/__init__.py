"""Running the bot in production: what an admin sees and what keeps a process well-behaved.

``logs`` (one set-up, the token redacted from every record), ``metrics`` (the
Prometheus instruments of ``GET /metrics``), ``webserver`` (the ``TRUCO_LISTEN`` port:
Telegram's webhook, ``/healthz``, ``/metrics``) and ``lifecycle`` (a clean stop: running
jobs finish, worker processes die with their parent). Nothing here knows the game:
``bot.telegram`` and ``bot.robot_workers`` use these modules, never the other way round.
"""
