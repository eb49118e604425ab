"""The ``truco`` commands of the engine: nothing outside the command line imports them.

The library parts they use live in ``engine`` itself (``engine.scenario`` for
``truco replay``, ``engine.turns`` for the robots' turns); nothing in ``engine``
imports from here.

- ``engine.tools.cli``: the engine's ``truco`` subcommands (the bot adds its own).
- ``engine.tools.terminal``: ``truco play``, a terminal game against robots.
- ``engine.tools.arena``: ``truco arena``, mirrored matches between two players.
- ``engine.tools.bench``: ``truco bench``, engine speed figures.
"""
