"""Texts and keyboards, one module per screen; every sentence the bot writes is here.

``lobby``, ``table`` (the group's table and the lines said in it), ``hand`` (a player's
private hand, inline results), ``sinais``, ``results`` (a hand's and a match's end,
Revanche, cancelling, /ranking), ``config`` (/config, /baralho), ``help`` (/regras,
/ajuda), ``common`` (names, cards on the table, the countdown) and ``wording``
(sentences of no screen: refusals, replies, alerts).

Everything drawn here comes as plain values from the domain (``Table``, ``Occupant``,
``HandSummary``...), never a database row. All text goes through gettext (``t``) in
HTML parse mode.
"""
