"""The arguments people type after a command, read into the domain's typed requests.

``/truco [variant] [1x1|2x2] [pontos] [sem-sinais|com-sinais]`` becomes a ``TableRequest``,
``/marcador [variante] [pontos] [Time A x Time B]`` a ``Marcador``; the domain never sees the
words. As with ``callbacks``, nothing read here is trusted: a word that is none of these is
refused with its reason (``Refused``), answered in one line.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.domain import ChatSettings, Reason, Refused, TableRequest
from bot.numbers import NumberRefused, is_digits, parse_number
from engine import TableOptions, get_ruleset
from engine.marcador import DEFAULT_NAMES, Marcador
from engine.rulesets import MAX_TARGET, MIN_TARGET, house_ladder
from engine.words import Words

SEM_SINAIS = ("sem-sinais", "semsinais", "sem_sinais", "nosignals")
"""Words of ``/truco`` for a 2×2 table without sinais (R12 house rule)."""
COM_SINAIS = ("com-sinais", "comsinais", "com_sinais", "signals")
"""Words of ``/truco`` for sinais in a chat whose ``/config`` plays without them."""
SEM_FLOR = ("sem-flor", "semflor", "sem_flor", "noflor", "sin-flor")
"""Words of ``/truco`` for a gaudério table without flor (R13.4)."""
COM_FLOR = ("com-flor", "comflor", "com_flor", "flor", "con-flor")
"""Words of ``/truco`` for flor in a chat whose ``/config`` plays without it."""


def truco_request(
    args: Sequence[str], chat: ChatSettings, people: int | None = None
) -> TableRequest:
    """``/truco [variant] [1x1|2x2] [pontos] [sem-sinais|com-sinais] [sem-flor|com-flor]``
    on the chat's defaults.

    ``people``: how many people the group has, for a chat whose size is automatic (2×2
    from four people on). A target neither typed nor chosen in /config is the
    variant's for the table's size (gaudério: 24 in 2×2, 18 in 1×1)."""
    variant = chat.variant
    players = chat.players or (4 if people is not None and people >= 4 else 2)
    asked = ""
    sinais = chat.sinais
    flor = chat.flor
    for raw in args:
        word = raw.strip().lower()
        if word in SEM_SINAIS:
            sinais = False
        elif word in COM_SINAIS:
            sinais = True
        elif word in SEM_FLOR:
            flor = False
        elif word in COM_FLOR:
            flor = True
        elif word in ("1x1", "1×1", "2", "1v1"):
            players = 2
        elif word in ("2x2", "2×2", "4", "2v2"):
            players = 4
        elif is_digits(word):
            asked = word  # read once the variant is known: its own lowest target
        elif word.isnumeric():  # ², ٣, ５: a number, but not written with 0-9
            raise Refused(Reason.BAD_NUMBER, arg=raw)
        else:
            try:
                variant = get_ruleset(word).name
            except ValueError:
                raise Refused(Reason.BAD_ARG, arg=raw) from None
    rs = get_ruleset(variant)
    target = _target(asked, rs.min_target) if asked else chat.target_for(rs, players)
    if not rs.min_target <= target <= MAX_TARGET:
        raise Refused(Reason.BAD_TARGET, low=rs.min_target, high=MAX_TARGET)
    ladder = house_ladder(rs, chat.ladder)
    try:
        opts = TableOptions(
            players, target, chat.covered_cards, ladder, chat.timer, sinais=sinais, flor=flor
        ).validated(rs)
    except ValueError:  # the engine's reason is Portuguese prose: the code goes up instead
        raise Refused(Reason.BAD_OPTIONS) from None
    return TableRequest(rs.name, opts)


def marcador_request(args: list[str], chat: ChatSettings, w: Words | None = None) -> Marcador:
    """``/marcador [variante] [pontos] [Time A x Time B]`` on top of the chat's defaults.

    ``w``: the chat's words, which name the teams nobody named (``Nós`` / ``Eles``).

    ``Refused(Reason.MARCADOR_ARG, arg=word)`` for a word that is none of these,
    ``Reason.BAD_TARGET`` for a target outside 6–30.
    """
    variant, target = chat.variant, 0
    names = [w.gettext(n) for n in DEFAULT_NAMES] if w is not None else list(DEFAULT_NAMES)
    words_left = list(args)
    if any(w.lower() in ("x", "×", "vs") for w in words_left):
        i = next(i for i, w in enumerate(words_left) if w.lower() in ("x", "×", "vs"))
        first, second = words_left[:i], words_left[i + 1 :]
        # the first team's name is whatever follows the options
        options = []
        while first and (is_digits(first[0]) or _variant(first[0]) is not None):
            options.append(first.pop(0))
        names = [" ".join(first) or names[0], " ".join(second) or names[1]]
        words_left = options
    for raw in words_left:
        word = raw.strip().lower()
        if is_digits(word):
            target = _target(word)
        elif (found := _variant(word)) is not None:
            variant = found
        else:
            raise Refused(Reason.MARCADOR_ARG, arg=raw)
    rs = get_ruleset(variant)
    ladder = house_ladder(rs, chat.ladder)
    try:
        return Marcador(variant, target or chat.target_for(rs, 4), ladder, (names[0], names[1]))
    except ValueError:
        raise Refused(Reason.BAD_TARGET, low=MIN_TARGET, high=MAX_TARGET) from None


def _target(word: str, low: int = MIN_TARGET) -> int:
    """The points a match goes to, written in digits (``BAD_TARGET`` outside ``low``–30:
    the variant's lowest)."""
    try:
        return parse_number(word, low, MAX_TARGET)
    except NumberRefused:
        raise Refused(Reason.BAD_TARGET, low=low, high=MAX_TARGET) from None


def _variant(word: str) -> str | None:
    try:
        return get_ruleset(word).name
    except ValueError:
        return None
