"""Texts and keyboards, one module per screen: the bot's sentences live here.

``lobby``, ``table`` (the group's table and the lines said in it), ``hand`` (a player's
private hand, inline results), ``sinais``, ``results`` (a hand's and a match's end,
Revanche, cancelling, /ranking), ``config`` (/config, /baralho), ``help`` (/regras,
/ajuda), ``marcador`` (/marcador), ``lesson`` (/tutorial, drawn in Portuguese like the
lessons), ``common`` (names, cards on the table, the countdown) and ``wording`` (sentences
of no screen: refusals, greetings, one-line replies, toasts). Elsewhere only a command's
menu and /ajuda lines (``command_table``) and the Mini App page's words
(``bot.webapp.state``).

Everything drawn here comes as plain values from the domain (``Table``, ``Occupant``,
``HandSummary``...), never a database row. All text goes through gettext (``t``) in
HTML parse mode.
"""
