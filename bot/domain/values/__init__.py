"""The domain's plain values, one module per concept: what the adapters send in and get back.

Nothing here touches the database or Telegram. ``errors`` (``Reason``, ``Refused``,
``Stale``), ``commands`` (the lobby's commands, ``TableRequest``, ``Source``), ``settings``
(``Rules`` and its clock, ``/config``'s ``Setting``, ``Noise``, ``ChatSettings``), ``game``
(``GameStatus``, ``RobotLevel``, ``Occupant``, ``Table``, ``Change``, what was said),
``people`` (``Person``, ``PlayerInfo``, ``RankingRow``), ``drawings`` (what a table's
messages must show). Import each value from its module; this package exports nothing.
"""
