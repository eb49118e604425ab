"""Update handlers: small async functions that parse, call the domain, answer, then redraw.

A button is answered only after its change is committed; every piece of
callback_data is parsed strictly (``bot.telegram.callbacks``) and checked by the
domain against the database.

- ``commands``: /start, /ajuda, /regras, /placar, /ranking.
- ``tables``: /truco, the lobby buttons, Revanche, /cancelar.
- ``moves``: hand buttons and inline mode.
- ``settings``: /config and /baralho.
- ``tutorial``: /tutorial and its buttons.
- ``turns``: the deadline and robot jobs.
- ``errors``: unknown buttons and the error handler.
"""
