"""Rulesets as data (R2): one frozen value per variant, found by name or alias.

Nothing about a variant is written anywhere else: the match, the robots, the bot
and the rulebook site all read these objects.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace

from engine.cards import ALL_CARDS, Card, DeckStyle, Rank, Suit, parse_cards
from engine.errors import InvalidValue
from engine.sinais import DEFAULT_CATCH_PERCENT, GAUDERIO_SINAIS, PAULISTA_SINAIS, Sinal

MIN_TARGET = 6
MAX_TARGET = 30
MIN_TIMER = 10
MAX_TIMER = 600
DEFAULT_TIMER = 60


@dataclass(frozen=True)
class Ruleset:
    """Everything that makes a variant what it is."""

    name: str
    """Registry name, also the scenario ``variant``: ``paulista``, ``mineiro``, ``trem-bao``."""
    title: str
    """Display name in pt-BR."""
    aliases: tuple[str, ...]
    deck: tuple[Card, ...]
    manilhas: tuple[Card, ...] | None
    """Fixed manilhas, strongest first; ``None`` when a vira decides them (paulista)."""
    hand_value: int
    """What a hand is worth with no truco accepted."""
    ladder: tuple[int, ...]
    """Accepted values of truco, seis, nove, doze."""
    ladder_options: tuple[tuple[int, ...], ...]
    """Ladders a table may choose (house rules); the first is the default."""
    special_hand: str
    """``mao_de_onze`` or ``mao_de_dez`` (R7)."""
    special_hand_value: int
    """What the mão de onze/dez is worth when the team plays it."""
    fixed_timer: int | None
    """Seconds per decision when the variant imposes it (Trem Bão: 30); else the table's."""
    partner_cards_when_answering: bool
    """The called team sees its partner's cards while answering a call (Trem Bão)."""
    default_target: int = 12
    """The target of a 2×2 table when nobody chooses one (``default_target_for``)."""
    call_names: tuple[str, ...] = ("truco", "seis", "nove", "doze")
    default_target_1x1: int | None = None
    """The target of a 1×1 table when nobody chooses one; ``None``: ``default_target``."""
    min_target: int = MIN_TARGET
    """The lowest target a table may choose (gaudério: 12)."""
    special_hands: bool = True
    """Whether the mão de onze/dez and the iron hand exist (R7, R8; not in gaudério)."""
    covered_cards: bool = True
    """Whether the carta coberta option exists (R5; not in gaudério)."""
    envido: bool = False
    """Whether the points game is played: envido and flor (gaudério, R13.3, R13.4)."""
    all_tied_to_mao: bool = False
    """Whether a hand of three tied rounds goes to the mão's team (gaudério) rather than
    to nobody (R4)."""
    sinais: tuple[Sinal, ...] = PAULISTA_SINAIS
    """The signals partners may make at a 2×2 table of this variant (R12, R13.5)."""
    deck_style: DeckStyle = DeckStyle.TRADITIONAL
    """The look of the cards for a player who never chose one (R11; gaudério: Spanish,
    R13.1)."""

    @property
    def uses_vira(self) -> bool:
        """Whether a vira is turned and decides the manilhas."""
        return self.manilhas is None

    def manilhas_for(self, vira: Card | None) -> tuple[Card, ...]:
        """The four manilhas of a hand, strongest first (zap, copas, espadilha, ouros)."""
        if self.manilhas is not None:
            return self.manilhas
        if vira is None:
            raise ValueError(f"{self.name} precisa de vira")
        return _manilhas_after(vira)

    def strength_table(self, vira: Card | None) -> tuple[int, ...]:
        """Strength of every card in a hand: rank 0-9 for common cards, 10-13 for manilhas.

        Manilhas rank by their place in ``manilhas_for`` (strongest first), so a variant
        with other fixed manilhas (gaudério: A♠ A♣ 7♠ 7♦) gets its own order, never
        the suit order of R1.
        """
        if self.manilhas is None and vira is not None:
            return _STRENGTH_BY_VIRA[vira]
        return _strength_table(self.manilhas_for(vira))

    def card_order(self, vira: Card | None = None) -> list[list[Card]]:
        """The deck grouped by strength, strongest group first (equal cards share a group)."""
        strength = self.strength_table(vira)
        groups: dict[int, list[Card]] = {}
        for c in sorted(self.deck, key=lambda c: (-strength[c], -c.suit)):
            groups.setdefault(strength[c], []).append(c)
        return list(groups.values())

    def run_value(self, ladder: tuple[int, ...], step: int) -> int:
        """Points the caller scores when the other team runs from ladder ``step`` (R6)."""
        return self.hand_value if step == 0 else ladder[step - 1]

    def threshold(self, target: int) -> int:
        """Score from which a team plays the mão de onze/dez: one plain hand short (R7).

        Above the target in a variant without those hands, so no score reaches it.
        """
        return target - self.hand_value if self.special_hands else target + 1

    def default_target_for(self, players: int) -> int:
        """The target a table of ``players`` plays when nobody chooses one (R2, R13.1)."""
        if players == 2 and self.default_target_1x1 is not None:
            return self.default_target_1x1
        return self.default_target


_STRENGTH_CACHE: dict[tuple[Card, ...], tuple[int, ...]] = {}
_MANILHAS_CACHE: dict[Card, tuple[Card, ...]] = {}


def _manilhas_after(vira: Card) -> tuple[Card, ...]:
    """The manilhas a vira turns (the next rank, strongest suit first), cached by vira:
    the robots' play-outs ask for them on every view they read."""
    cached = _MANILHAS_CACHE.get(vira)
    if cached is None:
        rank = vira.rank.next()
        cached = _MANILHAS_CACHE[vira] = tuple(Card.of(rank, s) for s in reversed(Suit))
    return cached


def _strength_table(manilhas: tuple[Card, ...]) -> tuple[int, ...]:
    """The strength table for these manilhas (strongest first), cached by their value.

    The table depends on nothing else, so two rulesets share an entry exactly when
    their manilhas agree (a name says nothing: a variant may reuse one).
    """
    cached = _STRENGTH_CACHE.get(manilhas)
    if cached is None:
        table = [int(c.rank) for c in ALL_CARDS]
        top = 9 + len(manilhas)
        for i, m in enumerate(manilhas):
            table[m] = top - i
        cached = _STRENGTH_CACHE[manilhas] = tuple(table)
    return cached


_STRENGTH_BY_VIRA = tuple(_strength_table(_manilhas_after(v)) for v in ALL_CARDS)
"""The strength table of a hand by its vira: one index, asked at every deal."""


def _deck40() -> tuple[Card, ...]:
    return ALL_CARDS


def _deck27() -> tuple[Card, ...]:
    high = (Rank.QUEEN, Rank.JACK, Rank.KING, Rank.ACE, Rank.TWO, Rank.THREE)
    common = tuple(c for c in ALL_CARDS if c.rank in high)
    return tuple(sorted(common + parse_cards("4C 7H 7D")))


FIXED_MANILHAS = parse_cards("4C 7H AS 7D")

PAULISTA = Ruleset(
    name="paulista",
    title="Truco paulista",
    aliases=("paulista", "truco paulista", "sp", "limpo"),
    deck=_deck40(),
    manilhas=None,
    hand_value=1,
    ladder=(3, 6, 9, 12),
    ladder_options=((3, 6, 9, 12),),
    special_hand="mao_de_onze",
    special_hand_value=3,
    fixed_timer=None,
    partner_cards_when_answering=False,
)
MINEIRO = Ruleset(
    name="mineiro",
    title="Truco mineiro",
    aliases=("mineiro", "truco mineiro", "mg", "minas"),
    deck=_deck40(),
    manilhas=FIXED_MANILHAS,
    hand_value=2,
    ladder=(4, 8, 10, 12),
    ladder_options=((4, 8, 10, 12), (4, 6, 10, 12)),
    special_hand="mao_de_dez",
    special_hand_value=4,
    fixed_timer=None,
    partner_cards_when_answering=False,
)
TREM_BAO = Ruleset(
    name="trem-bao",
    title="Trem Bão",
    aliases=("trem-bao", "trembao", "trem bao", "tb", "27"),
    deck=_deck27(),
    manilhas=FIXED_MANILHAS,
    hand_value=1,
    ladder=(3, 6, 9, 12),
    ladder_options=((3, 6, 9, 12),),
    special_hand="mao_de_onze",
    special_hand_value=3,
    fixed_timer=30,
    partner_cards_when_answering=True,
)

GAUDERIO = Ruleset(
    name="gauderio",
    title="Truco gaudério",
    aliases=(
        "gauderio",
        "gaudério",
        "truco gaudério",
        "gaucho",
        "gaúcho",
        "truco gaúcho",
        "cego",
        "truco cego",
        "rs",
        "sul",
    ),
    deck=_deck40(),
    # espadão, bastião, sete de espadas, sete de ouros: above the common cards, whose
    # natural order (3 2 A K J Q 7 6 5 4) already puts the false aces and sevens in place
    manilhas=parse_cards("AS AC 7S 7D"),
    hand_value=1,
    ladder=(2, 3, 4),
    ladder_options=((2, 3, 4),),
    special_hand="",
    special_hand_value=1,
    fixed_timer=None,
    partner_cards_when_answering=False,
    default_target=24,
    call_names=("truco", "retruco", "vale-quatro"),
    default_target_1x1=18,
    min_target=12,
    special_hands=False,
    covered_cards=False,
    envido=True,
    all_tied_to_mao=True,
    deck_style=DeckStyle.SPANISH,
    sinais=GAUDERIO_SINAIS,
)

ALL_RULESETS: dict[str, Ruleset] = {r.name: r for r in (PAULISTA, MINEIRO, TREM_BAO, GAUDERIO)}
"""Every variant the engine plays (``get_ruleset`` finds each by name or alias)."""
RULESETS: dict[str, Ruleset] = {r.name: r for r in (PAULISTA, MINEIRO, TREM_BAO)}
"""The variants with a vira-family ladder (paulista, mineiro, Trem Bão), which the rulebook
compares side by side and whose house ladders it lists. Everything offered to players (the
bot's menus, /config, "Jogar agora", the marcador) reads ``ALL_RULESETS``; gaudério has its
own page, since envido and flor have no column in those tables."""
DEFAULT_VARIANT = PAULISTA.name
"""The variant a table plays when nobody asks for another."""


def spell_ladder(ladder: tuple[int, ...]) -> str:
    """A ladder as settings store it: ``4-6-10-12``."""
    return "-".join(map(str, ladder))


HOUSE_LADDERS: dict[str, Ruleset] = {
    spell_ladder(lad): r for r in RULESETS.values() for lad in r.ladder_options if lad != r.ladder
}
"""The house-rule ladders (spelled as settings store them) and the variant offering each."""


def house_ladder(ruleset: Ruleset, spelled: str | None) -> tuple[int, ...] | None:
    """The house-rule ladder ``spelled`` (``4-6-10-12``) for a variant that has house ladders.

    ``None``, the variant's own ladder, for the others: a chat's house ladder applies
    only to the variant that offers one. A ladder the variant does not offer is still
    returned, for ``TableOptions.validated`` to refuse.
    """
    if not spelled or ruleset not in HOUSE_LADDERS.values():
        return None
    return tuple(int(x) for x in spelled.split("-"))


def _normalize(name: str) -> str:
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return "".join(ch for ch in plain.lower() if ch.isalnum())


_ALIASES = {_normalize(a): r for r in ALL_RULESETS.values() for a in (r.name, r.title, *r.aliases)}


def get_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name`` or one of its aliases (``Trem Bão``, ``trembao``...)."""
    try:
        return ALL_RULESETS[name] if name in ALL_RULESETS else _ALIASES[_normalize(name)]
    except KeyError:
        known = ", ".join(ALL_RULESETS)
        raise InvalidValue(
            "variante desconhecida: {name!r} (conhecidas: {known})", name=name, known=known
        ) from None


@dataclass(frozen=True)
class TableOptions:
    """The table options of R2, chosen when a table is created."""

    players: int = 2
    target: int = 12
    covered_cards: bool = True
    ladder: tuple[int, ...] | None = None
    """A house-rule ladder from ``Ruleset.ladder_options``; ``None`` = the variant's."""
    timer: int = DEFAULT_TIMER
    """Seconds per decision, unless the variant fixes it."""
    sinais: bool = True
    """Partners may signal their cards (R12); only 2×2 tables ever use it."""
    catch_percent: int = DEFAULT_CATCH_PERCENT
    """The chance, in percent, that each opponent catches a signal (R12)."""
    flor: bool = True
    """Gaudério: flor is played (R13.4); the other variants ignore it."""

    def validated(self, ruleset: Ruleset) -> TableOptions:
        """These options if they suit ``ruleset``; ``InvalidValue`` (a ``ValueError``) if not."""
        if self.players not in (2, 4):
            raise InvalidValue("a mesa tem 2 ou 4 jogadores")
        if not ruleset.min_target <= self.target <= MAX_TARGET:
            raise InvalidValue(
                "a partida vai de {low} a {high} pontos", low=ruleset.min_target, high=MAX_TARGET
            )
        if self.ladder is not None and tuple(self.ladder) not in ruleset.ladder_options:
            allowed = ", ".join("-".join(map(str, lad)) for lad in ruleset.ladder_options)
            raise InvalidValue(
                "escada do truco inválida para {variant}: use {allowed}",
                variant=ruleset.title,
                allowed=allowed,
            )
        if not MIN_TIMER <= self.timer <= MAX_TIMER:
            raise InvalidValue(
                "o tempo de jogada vai de {low} a {high} segundos", low=MIN_TIMER, high=MAX_TIMER
            )
        if not 0 <= self.catch_percent <= 100:
            raise InvalidValue("a chance de ver um sinal vai de 0 a 100%")
        fixed = self
        if self.ladder is not None:
            fixed = replace(fixed, ladder=tuple(self.ladder))
        if self.covered_cards and not ruleset.covered_cards:
            fixed = replace(fixed, covered_cards=False)  # the option does not exist there
        return fixed

    @property
    def flor_on(self) -> bool:
        """Whether flor is played, in a variant with envido (R13.4)."""
        return self.flor

    def ladder_for(self, ruleset: Ruleset) -> tuple[int, ...]:
        """The truco ladder this table plays."""
        return self.ladder if self.ladder is not None else ruleset.ladder

    @property
    def sinais_on(self) -> bool:
        """Whether this table plays with sinais: the option is on and it is a 2×2 table."""
        return self.sinais and self.players == 4

    def timer_for(self, ruleset: Ruleset) -> int:
        """Seconds per decision at this table (R10)."""
        return ruleset.fixed_timer if ruleset.fixed_timer is not None else self.timer
