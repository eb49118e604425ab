"""Every word a player reads about the game: actions, seats, cards, calls, special hands, levels.

One gettext catalog per language, ``engine/words/locale/<lang>/LC_MESSAGES/engine.po``.
pt-BR (``pt``) is the source language: its texts are written here, in the code, and
its catalog only names it; every other folder there is one more language, found at
run time (``languages()``). Standard library only, so the bot, the terminal, the
MkDocs hooks and the browser (Pyodide) word the game the same way::

    from engine import words

    w = words.get("en")                      # or words.get(words.language_for("pt-BR"))
    w.card(Card.parse("KH"), DeckStyle.SPANISH)   # '12 of cups'
    w.shout(0)                               # 'Truco!'
    w.button(action, view)                   # a button's text for one of view.legal
    w.did(action, view)                      # 'played K♥' (view: the one it was legal in)
    w.refusal(exc)                           # an IllegalAction in words

Texts use ``str.format`` fields (``{card}``); a translation keeps the same fields
(a test checks it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from gettext import NullTranslations
from importlib import resources
from importlib.resources.abc import Traversable

from engine.actions import Act, Action
from engine.cards import SPANISH_RANKS, Card, DeckStyle, Rank, Suit
from engine.errors import ErrorCode, IllegalAction, InvalidValue
from engine.levels import ROBOT_LEVELS, normalize_level
from engine.rulesets import ALL_RULESETS, PAULISTA, Ruleset
from engine.sinais import ALL_SINAIS, Sinal
from engine.view import View
from engine.words.catalog import translations

SOURCE = "pt"
"""The source language (pt-BR): texts in the code are its words."""
DOMAIN = "engine"
"""The catalogs' file name: ``locale/<lang>/LC_MESSAGES/engine.po``."""
COVERED = "🂠"
"""How a face-down card is drawn."""


RANK_NAMES: Mapping[Rank, str] = {
    Rank.FOUR: "quatro",
    Rank.FIVE: "cinco",
    Rank.SIX: "seis",
    Rank.SEVEN: "sete",
    Rank.QUEEN: "dama",
    Rank.JACK: "valete",
    Rank.KING: "rei",
    Rank.ACE: "ás",
    Rank.TWO: "dois",
    Rank.THREE: "três",
}
"""Ranks in words (context ``rank``)."""
RANK_PLURALS: Mapping[Rank, str] = {
    Rank.FOUR: "quatros",
    Rank.FIVE: "cincos",
    Rank.SIX: "seis",
    Rank.SEVEN: "setes",
    Rank.QUEEN: "damas",
    Rank.JACK: "valetes",
    Rank.KING: "reis",
    Rank.ACE: "ases",
    Rank.TWO: "dois",
    Rank.THREE: "três",
}
"""Ranks in the plural, ``os reis`` (context ``ranks``)."""
RANKS_WITH_ARTICLE: Mapping[Rank, str] = {
    Rank.FOUR: "o quatro",
    Rank.FIVE: "o cinco",
    Rank.SIX: "o seis",
    Rank.SEVEN: "o sete",
    Rank.QUEEN: "a dama",
    Rank.JACK: "o valete",
    Rank.KING: "o rei",
    Rank.ACE: "o ás",
    Rank.TWO: "o dois",
    Rank.THREE: "o três",
}
"""Ranks with their definite article (context ``the rank``): each language genders its
own rank names (pt-BR ``a dama``, Spanish ``la jota``), so the article is translated
with the name, never chosen by a Portuguese rule."""
SUIT_NAMES: Mapping[Suit, str] = {
    Suit.CLUBS: "paus",
    Suit.HEARTS: "copas",
    Suit.SPADES: "espadas",
    Suit.DIAMONDS: "ouros",
}
"""Suits of the traditional deck (context ``suit``)."""
SPANISH_SUIT_NAMES: Mapping[Suit, str] = {
    Suit.CLUBS: "bastos",
    Suit.HEARTS: "copas",
    Suit.SPADES: "espadas",
    Suit.DIAMONDS: "oros",
}
"""Suits of the Spanish deck, R11 (context ``spanish suit``)."""
SPANISH_FACES: Mapping[Rank, str] = {
    Rank.QUEEN: "sota",
    Rank.JACK: "caballo",
    Rank.KING: "rey",
}
"""The Spanish deck's figures, R11 (context ``spanish face``)."""
MANILHA_NAMES: Mapping[Suit, str] = {
    Suit.CLUBS: "zap",
    Suit.HEARTS: "copas",
    Suit.SPADES: "espadilha",
    Suit.DIAMONDS: "pica-fumo",
}
"""What players call each manilha, by suit (context ``manilha``)."""
SPECIAL_HANDS: Mapping[str, str] = {
    "mao_de_onze": "mão de onze",
    "mao_de_dez": "mão de dez",
}
"""``Ruleset.special_hand`` in words (R7)."""
LEVELS: Mapping[str, str] = {name: lv.title for name, lv in ROBOT_LEVELS.items()}
"""Robot levels in words (context ``level``), by their ASCII names (``engine.levels``)."""
VARIANTS: Mapping[str, str] = {name: rs.title for name, rs in ALL_RULESETS.items()}
"""Variant titles (context ``variant``): the rulesets' pt-BR ``title``."""

ENVIDO_ACTS: Mapping[Act, str] = {
    Act.ENVIDO: "Envido!",
    Act.REAL_ENVIDO: "Real envido!",
    Act.FALTA_ENVIDO: "Falta envido!",
    Act.QUERO: "Quero!",
    Act.NAO_QUERO: "Não quero",
    Act.FLOR: "Flor!",
}
"""The points game's calls, answers and flor as said at the table (context ``envido``)."""

REFUSALS: Mapping[tuple[ErrorCode, str | None], str] = {
    (ErrorCode.NOT_YOUR_TURN, None): "Não é a sua vez.",
    (ErrorCode.NOT_YOUR_TURN, "no_such_seat"): "Não há jogador {seat} nesta mesa.",
    (ErrorCode.NOT_YOUR_TURN, "already_ran"): "Você já correu; falta o parceiro.",
    (ErrorCode.NOT_YOUR_TURN, "unknown_action"): "Ação desconhecida: {act}.",
    (ErrorCode.CARD_NOT_IN_HAND, None): "Essa carta não está na sua mão.",
    (ErrorCode.CARD_NOT_IN_HAND, "blind_only_in_iron"): "Só se joga às cegas na mão de ferro.",
    (ErrorCode.CARD_NOT_IN_HAND, "slot_played"): "Essa posição já foi jogada.",
    (ErrorCode.CALL_PENDING, None): "Tem um pedido de truco esperando resposta.",
    (ErrorCode.NO_CALL_PENDING, None): "Não há pedido para você responder.",
    (ErrorCode.NO_CALL_PENDING, "own_call"): "O pedido é do seu time.",
    (ErrorCode.RAISE_NOT_ALLOWED, None): "Não dá para aumentar agora.",
    (ErrorCode.RAISE_NOT_ALLOWED, "ladder_spent"): "Depois do doze não há aumento.",
    (ErrorCode.RAISE_NOT_ALLOWED, "called_last"): "Seu time pediu por último: agora só o outro.",
    (ErrorCode.TRUCO_NOT_ALLOWED, None): "Não tem truco nesta mão.",
    (ErrorCode.COVER_NOT_ALLOWED, None): "Não dá para jogar coberta agora.",
    (ErrorCode.DECISION_PENDING, None): "Primeiro decidam se jogam a mão.",
    (ErrorCode.NO_DECISION_PENDING, None): "Não há decisão de mão de onze agora.",
    (ErrorCode.HAND_OVER, None): "A mão já acabou.",
    (ErrorCode.HAND_OVER, "hand_not_over"): "A mão ainda não acabou.",
    (ErrorCode.SIGNAL_NOT_ALLOWED, None): "Não dá para fazer sinal agora.",
    (ErrorCode.SIGNAL_NOT_ALLOWED, "no_sinal"): "Escolha qual sinal fazer.",
    (ErrorCode.SIGNAL_NOT_ALLOWED, "sinais_off"): "Esta mesa joga sem sinais.",
    (ErrorCode.SIGNAL_NOT_ALLOWED, "iron_hand"): "Na mão de ferro ninguém sabe as cartas.",
    (ErrorCode.SIGNAL_NOT_ALLOWED, "one_per_round"): "Um sinal por vaza.",
    (ErrorCode.SIGNAL_NOT_ALLOWED, "not_now"): "Sinal só na sua vez ou quando seu time responde.",
    (ErrorCode.NOT_YOUR_TURN, "already_declined"): "Você já disse não quero; falta o parceiro.",
    (ErrorCode.CALL_PENDING, "envido_pending"): "Tem um envido esperando resposta.",
    (ErrorCode.RAISE_NOT_ALLOWED, "envido_spent"): "Esse envido não aceita esse aumento.",
    (ErrorCode.ENVIDO_NOT_ALLOWED, None): "Não dá para pedir envido agora.",
    (ErrorCode.ENVIDO_NOT_ALLOWED, "variant"): "Esta variante não tem envido.",
    (ErrorCode.ENVIDO_NOT_ALLOWED, "round_1_only"): "Envido só se pede na primeira vaza.",
    (ErrorCode.ENVIDO_NOT_ALLOWED, "card_played"): "Quem já jogou sua carta não pede envido.",
    (ErrorCode.ENVIDO_NOT_ALLOWED, "one_sequence"): "O envido já foi jogado nesta mão.",
    (ErrorCode.ENVIDO_NOT_ALLOWED, "flor"): "Com flor na mesa não tem envido.",
    (ErrorCode.ENVIDO_NOT_ALLOWED, "truco_accepted"): "Depois de truco aceito não tem envido.",
    (ErrorCode.NO_ENVIDO_PENDING, None): "Não há envido para você responder.",
    (ErrorCode.NO_ENVIDO_PENDING, "own_call"): "O envido é do seu time.",
    (ErrorCode.INVALID_SCENARIO, None): "Cenário inválido.",
    (ErrorCode.INVALID_SCENARIO, "hands_count"): "São {players} mãos, uma por jogador.",
    (ErrorCode.INVALID_SCENARIO, "three_cards"): "O jogador {seat} precisa de 3 cartas.",
    (ErrorCode.INVALID_SCENARIO, "not_in_deck"): "{card} não faz parte do baralho {variant}.",
    (ErrorCode.INVALID_SCENARIO, "duplicate"): "{card} aparece duas vezes.",
    (ErrorCode.INVALID_SCENARIO, "no_vira"): "Falta a vira.",
    (ErrorCode.INVALID_SCENARIO, "vira_in_hand"): "A vira {card} também está numa mão.",
    (ErrorCode.INVALID_SCENARIO, "no_vira_in_variant"): "{variant} não tem vira.",
    (ErrorCode.INVALID_SCENARIO, "score_out"): "Placar fora da partida.",
    (ErrorCode.INVALID_SCENARIO, "not_object"): "O cenário deve ser um objeto JSON.",
    (ErrorCode.INVALID_SCENARIO, "options_not_object"): "options deve ser um objeto.",
    (ErrorCode.INVALID_SCENARIO, "unknown_option"): "Opção desconhecida: {option}.",
    (ErrorCode.INVALID_SCENARIO, "score_pair"): "score deve ter dois inteiros.",
    (ErrorCode.INVALID_SCENARIO, "dealer_out"): "dealer fora da mesa.",
    (ErrorCode.INVALID_SCENARIO, "missing_field"): "Falta o campo {field}.",
    (ErrorCode.INVALID_SCENARIO, "bad_value"): "Valor inválido: {text}.",
    (ErrorCode.INVALID_SCENARIO, "action_fields"): "Cada ação precisa de seat e act.",
    (ErrorCode.INVALID_SCENARIO, "unknown_action"): "Ação desconhecida: {act}.",
    (ErrorCode.INVALID_SCENARIO, "needs_card"): "{act} precisa de uma carta válida.",
    (
        ErrorCode.INVALID_SCENARIO,
        "blind_in_scenario",
    ): "No cenário, a mão de ferro usa play com a carta.",
    (ErrorCode.INVALID_SCENARIO, "actions_not_list"): "actions deve ser uma lista.",
}
"""Each refusal's text by (code, reason); an unknown reason falls back to its code's text."""


def messages() -> set[tuple[str | None, str]]:
    """(context, text) of every table above; with the texts written in calls, the catalog."""
    found: set[tuple[str | None, str]] = set()
    tables: tuple[tuple[str | None, Iterable[str]], ...] = (
        ("rank", RANK_NAMES.values()),
        ("ranks", RANK_PLURALS.values()),
        ("the rank", RANKS_WITH_ARTICLE.values()),
        ("suit", SUIT_NAMES.values()),
        ("spanish suit", SPANISH_SUIT_NAMES.values()),
        ("spanish face", SPANISH_FACES.values()),
        ("manilha", MANILHA_NAMES.values()),
        ("call", (c for rs in ALL_RULESETS.values() for c in rs.call_names)),
        ("level", LEVELS.values()),
        ("variant", VARIANTS.values()),
        ("sinal", (s.name for s in ALL_SINAIS)),
        ("envido", ENVIDO_ACTS.values()),
        ("sinal face", (s.face for s in ALL_SINAIS)),
        ("sinal seen", (s.seen for s in ALL_SINAIS)),
        (None, SPECIAL_HANDS.values()),
        (None, REFUSALS.values()),
    )
    for context, texts in tables:
        found.update((context, t) for t in texts)
    return found


def _locale() -> Traversable:
    return resources.files("engine.words").joinpath("locale")


def _catalog_text(lang: str) -> str | None:
    path = _locale().joinpath(lang, "LC_MESSAGES", f"{DOMAIN}.po")
    return path.read_text(encoding="utf-8") if path.is_file() else None


@cache
def languages() -> tuple[str, ...]:
    """Every language with a catalog, the source language (``pt``) first."""
    found = sorted(
        d.name
        for d in _locale().iterdir()
        if d.is_dir() and d.joinpath("LC_MESSAGES", f"{DOMAIN}.po").is_file()
    )
    return (SOURCE, *(lang for lang in found if lang != SOURCE))


def language_for(tag: str | None, default: str = SOURCE) -> str:
    """The language for a tag such as ``pt-BR``, ``en_US.UTF-8`` or Telegram's ``en``.

    Its primary subtag decides (``pt-PT`` reads pt-BR: the only Portuguese here);
    ``default`` when there is no tag or no catalog for it (the bot passes ``"en"``).
    """
    if tag:
        first = tag.split(":")[0]  # LANGUAGE lists several: the first one wins
        primary = first.replace("_", "-").split("-")[0].split(".")[0].lower()
        if primary in languages():
            return primary
    return default


@cache
def get(lang: str = SOURCE) -> Words:
    """The words of ``lang`` (any tag ``language_for`` reads); unknown ones read pt-BR."""
    lang = language_for(lang)
    text = _catalog_text(lang) if lang != SOURCE else None
    catalog = translations(text, f"{lang}/{DOMAIN}.po") if text else NullTranslations()
    return Words(lang, catalog)


class Words:
    """The game's words in one language. Get one with ``words.get(lang)``."""

    __slots__ = ("lang", "translations")

    def __init__(self, lang: str, catalog: NullTranslations) -> None:
        """Words of ``lang`` read from ``catalog`` (``words.get`` builds and caches them)."""
        self.lang = lang
        self.translations = catalog

    def __repr__(self) -> str:
        return f"Words({self.lang!r})"

    # ------------------------------------------------------------- gettext

    def gettext(self, message: str) -> str:
        """``message`` (a pt-BR source text) in this language."""
        return self.translations.gettext(message)

    def pgettext(self, context: str, message: str) -> str:
        """``message`` in this language, as used in ``context`` (``seis``: a rank or a call)."""
        return self.translations.pgettext(context, message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The singular or plural text for ``n``, by this language's plural rule."""
        return self.translations.ngettext(singular, plural, n)

    @property
    def name(self) -> str:
        """This language's name in itself: ``Português (Brasil)``, ``English``."""
        return self.pgettext("language", "Português (Brasil)")

    @property
    def tag(self) -> str:
        """This language's BCP 47 tag, for a page's ``lang``: ``pt-BR``, ``en``, ``es``."""
        return "pt-BR" if self.lang == SOURCE else self.lang

    # --------------------------------------------------------------- cards

    def rank(self, rank: Rank) -> str:
        """A rank in words: ``rei``, ``ás``."""
        return self.pgettext("rank", RANK_NAMES[rank])

    def ranks(self, rank: Rank) -> str:
        """A rank in the plural: ``reis``, ``ases``, ``três``."""
        return self.pgettext("ranks", RANK_PLURALS[rank])

    def suit(self, suit: Suit, style: DeckStyle = DeckStyle.TRADITIONAL) -> str:
        """A suit in words in a deck style: ``copas``; Spanish ``bastos``, ``oros`` (R11)."""
        if style == DeckStyle.SPANISH:
            return self.pgettext("spanish suit", SPANISH_SUIT_NAMES[suit])
        return self.pgettext("suit", SUIT_NAMES[suit])

    def card(self, card: Card, style: DeckStyle = DeckStyle.TRADITIONAL) -> str:
        """A card's short label: ``K♥``, or in the Spanish deck ``12 de copas`` (R11)."""
        if style == DeckStyle.SPANISH:
            return self.pgettext("spanish card", "{rank} de {suit}").format(
                rank=SPANISH_RANKS[card.rank], suit=self.suit(card.suit, style)
            )
        return card.rank.code + card.suit.symbol

    def rank_label(self, rank: Rank, style: DeckStyle = DeckStyle.TRADITIONAL) -> str:
        """A rank as a card's label shows it: ``J``; in the Spanish deck ``11`` (R11)."""
        return SPANISH_RANKS[rank] if style == DeckStyle.SPANISH else rank.code

    def cards(self, cards: tuple[Card, ...], style: DeckStyle = DeckStyle.TRADITIONAL) -> str:
        """Cards' labels side by side, or ``—`` for none."""
        return self.card_row((self.card(c, style) for c in cards), style) or "—"

    @staticmethod
    def card_row(labels: Iterable[str], style: DeckStyle = DeckStyle.TRADITIONAL) -> str:
        """Cards' labels (each maybe marked) side by side: ``3♣ 6♦``; the Spanish deck's
        labels are words, and a comma keeps them apart: ``10 de oros, 1 de copas``."""
        return (", " if style == DeckStyle.SPANISH else " ").join(labels)

    def card_name(
        self,
        card: Card,
        style: DeckStyle = DeckStyle.TRADITIONAL,
        *,
        article: bool = False,
        label: bool = False,
    ) -> str:
        """A card in words: ``rei de copas``, Spanish ``12 de copas (rey)``.

        ``article`` puts the definite article in front (``o rei de copas``) and
        ``label`` the traditional label after it (``rei de copas (K♥)``; traditional style only).
        """
        if style == DeckStyle.SPANISH:
            name = self.card(card, style)
            if card.rank in SPANISH_FACES:
                name += f" ({self.pgettext('spanish face', SPANISH_FACES[card.rank])})"
            if article:  # a Spanish card is named by its number: "o 12 de copas"
                name = self.pgettext("article", "o") + " " + name
        else:
            rank = (
                self.pgettext("the rank", RANKS_WITH_ARTICLE[card.rank])
                if article
                else self.rank(card.rank)
            )
            name = self.pgettext("card", "{rank} de {suit}").format(
                rank=rank, suit=self.suit(card.suit)
            )
        if label and style == DeckStyle.TRADITIONAL:
            # a Spanish-deck player never sees the traditional label (R11)
            name += f" ({self.card(card)})"
        return name

    def manilha(self, suit: Suit) -> str:
        """What players call the manilha of a suit: ``zap``, ``copas``, ``espadilha``, ``pica-fumo``."""
        return self.pgettext("manilha", MANILHA_NAMES[suit])

    # ------------------------------------------------------ calls and hands

    def call(self, step: int, ruleset: Ruleset = PAULISTA) -> str:
        """The call of ladder step ``step`` in words: ``truco``, ``seis``, ``nove``, ``doze``.

        The names are the ruleset's ``call_names`` (every variant calls the same words;
        mineiro's seis is worth 8, or 6 under the 4-6-10-12 house ladder).
        """
        names = ruleset.call_names
        return self.pgettext("call", names[min(max(step, 0), len(names) - 1)])

    def shout(self, step: int | None, ruleset: Ruleset = PAULISTA) -> str:
        """The call as shouted at the table: ``Truco!``, ``Seis!`` (``None`` reads truco)."""
        word = self.call(step or 0, ruleset)
        # the exclamation marks are the language's: Spanish opens with "¡"
        return self.pgettext("shout", "{call}!").format(call=word[:1].upper() + word[1:])

    def ladder(self, ladder: tuple[int, ...]) -> str:
        """A ladder as players write it: ``4-8-10-12``."""
        return "-".join(str(v) for v in ladder)

    def special_hand(self, ruleset: Ruleset) -> str:
        """The variant's special hand (R7): ``mão de onze`` or ``mão de dez``."""
        return self.gettext(SPECIAL_HANDS[ruleset.special_hand])

    def iron_hand(self) -> str:
        """The iron hand's name (R8): ``mão de ferro``."""
        return self.gettext("mão de ferro")

    def variant(self, ruleset: Ruleset) -> str:
        """The variant's title: ``Truco paulista``, ``Trem Bão``."""
        return self.pgettext("variant", VARIANTS.get(ruleset.name, ruleset.title))

    def level(self, level: str) -> str:
        """A robot level in words (``medio``, ``médio`` or ``Médio``): ``médio``, ``medium``."""
        try:
            name = normalize_level(level)
        except ValueError:
            return level
        return self.pgettext("level", LEVELS[name])

    def sinal(self, sinal: Sinal) -> str:
        """A signal's name (R12): ``zap``, ``três``, ``nada``."""
        return self.pgettext("sinal", ALL_SINAIS[sinal].name)

    def sinal_face(self, sinal: Sinal) -> str:
        """The face that sends a signal, as an infinitive: ``piscar um olho``."""
        return self.pgettext("sinal face", ALL_SINAIS[sinal].face)

    def sinal_seen(self, sinal: Sinal) -> str:
        """How a watcher tells a signal, past tense: ``piscou``."""
        return self.pgettext("sinal seen", ALL_SINAIS[sinal].seen)

    # --------------------------------------------------------------- seats

    def seat(self, seat: int, me: int, players: int) -> str:
        """A seat named from ``me``'s chair: ``Você``, ``Parceiro``, ``Adversário da direita``.

        The next seat plays after you, on your right (play goes to the right).
        """
        if seat == me:
            return self.gettext("Você")
        if players == 4 and seat == (me + 2) % 4:
            return self.gettext("Parceiro")
        if players == 4:
            if seat == (me + 1) % 4:
                return self.gettext("Adversário da direita")
            return self.gettext("Adversário da esquerda")
        return self.gettext("Adversário")

    def team(self, team: int, me: int) -> str:
        """A team named from seat ``me``'s side: ``nós`` or ``eles``."""
        return self.gettext("nós") if team == me & 1 else self.gettext("eles")

    def tie(self) -> str:
        """A tied round (R4): ``cangou``."""
        return self.gettext("cangou")

    # ------------------------------------------------------------- actions

    def button(self, action: Action, view: View, style: DeckStyle = DeckStyle.TRADITIONAL) -> str:
        """The label of a choice, one of ``view.legal``: ``K♥``, ``Truco!``, ``Desce!``, ``Corro``."""
        act = action.act
        if act is Act.PLAY and action.card is not None:
            return self.card(action.card, style)
        if act is Act.COVER and action.card is not None:
            return f"{COVERED} {self.card(action.card, style)}"
        if act is Act.BLIND:
            return self.gettext("{n}ª carta").format(n=(action.slot or 0) + 1)
        if act is Act.TRUCO or act is Act.RAISE:
            return self.shout(view.next_step, view.ruleset)
        if act is Act.ACCEPT:
            return self.gettext("Desce!")
        if act is Act.RUN:
            return self.gettext("Corro")
        if act is Act.PLAY11:
            return self.gettext("Vamos jogar")
        if act is Act.RUN11:
            return self.gettext("Correr")
        if act is Act.SIGNAL and action.sinal is not None:
            return f"{ALL_SINAIS[action.sinal].emoji} {self.sinal(action.sinal)}"
        if act in ENVIDO_ACTS:
            return self.envido_shout(act)
        return str(action)

    def did(
        self,
        action: Action,
        view: View,
        style: DeckStyle = DeckStyle.TRADITIONAL,
        *,
        public: bool = False,
    ) -> str:
        """What a seat did, after its name: ``jogou K♥``, ``pediu Seis!``, ``correu``.

        ``view`` is one in which the action was legal (it tells which call a truco
        made); ``public`` keeps a covered card hidden even from its owner's words.
        """
        act = action.act
        if act is Act.PLAY and action.card is not None:
            return self.gettext("jogou {card}").format(card=self.card(action.card, style))
        if act is Act.COVER:
            if public or action.card is None:
                return self.gettext("jogou uma carta coberta")
            return self.gettext("cobriu {card}").format(card=self.card(action.card, style))
        if act is Act.BLIND:
            return self.gettext("jogou a {n}ª carta às cegas").format(n=(action.slot or 0) + 1)
        if act is Act.RUN or act is Act.RUN11:
            return self.gettext("correu")
        if act is Act.ACCEPT:
            return self.gettext("aceitou")
        if act is Act.PLAY11:
            return self.gettext("aceitou jogar a {hand}").format(
                hand=self.special_hand(view.ruleset)
            )
        if act is Act.SIGNAL:
            if action.sinal is None:
                return self.gettext("fez um sinal")
            return self.sinal_seen(action.sinal)
        if act is Act.ENVIDO or act is Act.REAL_ENVIDO or act is Act.FALTA_ENVIDO:
            return self.gettext("pediu {call}").format(call=self.envido_shout(act))
        if act is Act.QUERO or act is Act.NAO_QUERO or act is Act.FLOR:
            return self.gettext("disse {answer}").format(answer=self.envido_shout(act))
        return self.gettext("pediu {call}").format(call=self.shout(view.next_step, view.ruleset))

    def narrate(
        self,
        who: str,
        action: Action,
        view: View,
        style: DeckStyle = DeckStyle.TRADITIONAL,
        *,
        own: bool = False,
    ) -> str:
        """A lesson's line for what ``who`` did: ``Adversário: Seis!``, ``Você: joga o rei…``.

        ``view`` is one in which the action was legal; ``own`` is whether the reader
        made it (their own covered card is named).
        """
        act = action.act
        if act is Act.PLAY and action.card is not None:
            card = self.card_name(action.card, style, article=True, label=True)
            return self.gettext("{who}: joga {card}.").format(who=who, card=card)
        if act is Act.COVER:
            if own and action.card is not None:
                card = self.card_name(action.card, style, article=True, label=True)
                return self.gettext("{who}: cobre {card}.").format(who=who, card=card)
            return self.gettext("{who}: joga uma carta coberta.").format(who=who)
        if act is Act.BLIND:
            n = (action.slot or 0) + 1
            return self.gettext("{who}: joga a {n}ª carta às cegas.").format(who=who, n=n)
        if act is Act.TRUCO:
            return f"{who}: {self.shout(view.next_step, view.ruleset)}"
        if act is Act.RAISE:
            call = self.shout(view.next_step, view.ruleset)
            return self.gettext("{who}: aceita e aumenta — {call}").format(who=who, call=call)
        if act is Act.ACCEPT:
            call = self.call(view.pending_step or 0, view.ruleset)
            return self.gettext("{who}: Desce! ({call} aceito)").format(who=who, call=call)
        if act is Act.RUN:
            return self.gettext("{who}: Corro!").format(who=who)
        if act is Act.PLAY11:
            hand = self.special_hand(view.ruleset)
            return self.gettext("{who}: vamos jogar a {hand}.").format(who=who, hand=hand)
        if act is Act.RUN11:
            hand = self.special_hand(view.ruleset)
            return self.gettext("{who}: corre da {hand}.").format(who=who, hand=hand)
        if act is Act.SIGNAL and action.sinal is not None:
            info = ALL_SINAIS[action.sinal]
            if own:
                return self.gettext("{who}: {emoji} sinal de {sinal} para o parceiro.").format(
                    who=who, emoji=info.emoji, sinal=self.sinal(action.sinal)
                )
            return self.gettext("{who}: {emoji} {seen} — {sinal}!").format(
                who=who,
                emoji=info.emoji,
                seen=self.sinal_seen(action.sinal),
                sinal=self.sinal(action.sinal),
            )
        if act in ENVIDO_ACTS:
            return f"{who}: {self.envido_shout(act)}"
        return f"{who}: {self.did(action, view, style, public=not own)}."

    # ---------------------------------------------------------- points game

    def envido_shout(self, act: Act) -> str:
        """An envido call, answer or flor as said at the table: ``Envido!``, ``Quero!``,
        ``Não quero``, ``Flor!`` (R13.3, R13.4)."""
        return self.pgettext("envido", ENVIDO_ACTS[act])

    def envido_result(self, view: View) -> str | None:
        """How the envido ended, from ``view``'s seat: ``Envido (5): nós, 31 pontos do
        Parceiro.``; ``None`` while none was settled. The losing points are never said."""
        e = view.envido
        if e is None or e.winner is None:
            return None
        team = self.team(e.winner, view.seat)
        if e.winner_points is None or e.winner_seat is None:  # declined
            return self.gettext("Envido ({worth}): {team}, sem mostrar os pontos.").format(
                worth=e.worth, team=team
            )
        return self.gettext("Envido ({worth}): {team}, {points} pontos de {who}.").format(
            worth=e.worth,
            team=team,
            points=e.winner_points,
            who=self.seat(e.winner_seat, view.seat, view.players),
        )

    def flor_result(self, view: View, seat: int) -> str:
        """A flor sung for ``seat``, from ``view``'s seat: ``Adversário: Flor!`` (R13.4)."""
        return f"{self.seat(seat, view.seat, view.players)}: {self.envido_shout(Act.FLOR)}"

    # ------------------------------------------------------------ refusals

    def refusal(self, exc: IllegalAction | InvalidValue) -> str:
        """An engine refusal in words: an illegal action (code, reason, parameters) or an
        unknown value (its pt-BR text and parameters)."""
        params = dict(exc.params)
        variant = params.get("variant")
        for rs in ALL_RULESETS.values():
            if variant in (rs.name, rs.title):
                params["variant"] = self.variant(rs)
        if isinstance(exc, InvalidValue):
            return self.gettext(exc.text).format(**params)
        text = REFUSALS.get((exc.code, exc.reason)) or REFUSALS[(exc.code, None)]
        try:
            return self.gettext(text).format(**params)
        except (KeyError, IndexError):  # a reason raised without its parameters
            return self.gettext(REFUSALS[(exc.code, None)])


__all__ = [
    "COVERED",
    "SOURCE",
    "Words",
    "get",
    "language_for",
    "languages",
    "messages",
]
