"""Tools around the rules core: the ``truco`` command line and what it runs.

``engine`` itself is the rules core (cards, actions, rulesets, match, views, errors);
nothing in it imports from here. The tools build on it:

- ``engine.tools.cli``: the engine's ``truco`` subcommands (the bot adds its own).
- ``engine.tools.scenario``: the JSON scenario format and ``truco replay``.
- ``engine.tools.terminal``: ``truco play``, a terminal game against robots.
- ``engine.tools.arena``: ``truco arena``, mirrored matches between two players.
- ``engine.tools.bench``: ``truco bench``, engine speed figures.
"""
