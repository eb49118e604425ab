"""Update handlers: small async functions that parse, call the domain, answer, then redraw.

A button is answered only after its change is committed; every piece of
callback_data is parsed strictly (``bot.telegram.callbacks``) and checked by the
domain against the database.

- ``commands``: /start, /ajuda, /regras, /placar, /ranking, a group's chatter, an unknown
  private message.
- ``lobby``: /truco, the lobby buttons, Revanche, /cancelar, 🙋 Voltei, the robot vote.
- ``moves``: hand buttons, the signals' list and inline mode.
- ``settings``: /config and /baralho.
- ``tutorial``: /tutorial and its buttons.
- ``marcador``: /marcador and its buttons.
- ``membership``: the bot removed from a group or added back.
- ``turns``: the deadline and robot jobs.
- ``errors``: unknown buttons and the error handler.
- ``buttons``: the decorator every button handler is written with; ``common``: replying,
  admin checks, greetings.
"""
