"""MkDocs hooks: every rules table of the site is generated here from the engine's own data.

A page asks for a table with a macro on its own line (or inline, for cards):

    {{ truco.vira_table() }}              paulista: manilhas and card order for every vira
    {{ truco.card_order("mineiro") }}      fixed-manilha variants: the deck, strongest first
    {{ truco.ladder("paulista") }}         truco ladder, accept and run values (every house ladder)
    {{ truco.ladders_summary() }}          every variant's standard ladder in one table (summary)
    {{ truco.cangou() }}                   tie outcomes, each played out by the engine
    {{ truco.special_hands() }}            mão de onze / mão de dez
    {{ truco.variants() }}                 the three variants side by side
    {{ truco.table_options() }}            the table options (house rules)
    {{ truco.timeout_example() }}          what the engine plays when time runs out
    {{ truco.robots() }}                   the robots' strength, from results/arena.json
    {{ truco.robots_verdict() }}           the same runs in words: whom each level beats
    {{ truco.sinais() }}                   the table of signals (R12) and what each names
    {{ truco.sinais_figures() }}           what signals are worth to the robots (results/sinais.json)
    {{ truco.catch_chance("each") }}       the default catch chance ("escape": nobody sees it)
    {{ truco.robots_dev() }}               the same runs' decision times and commands (developers)
    {{ truco.robots_gauderio() }}          the runs at a gaudério table, once there are any
    {{ truco.iron_hand() }}                the iron hand per variant
    {{ truco.worked_hand("comentada") }}    a whole hand from engine/data/, replayed and commented
    {{ truco.tutorial() }}                 the tutorial player with its replayed trace
                                           (TRUCO_TUTORIAL_SCRIPT replaces the script: tests)
    {{ truco.cards("4C 7H AS 7D") }}       cards drawn by the site
    {{ truco.label("4C") }}                a card's label in running text, in the chosen style
    {{ truco.suit("C") }}                  a suit's name and symbol, in the chosen style
    {{ truco.deck_toggle() }}              traditional / Spanish deck switch
    {{ truco.include("docs-dev/arena-protocol.md") }}   a developer document, if it exists
    {{ truco.gauderio_cards() }}           gaudério (R13): the deck by strength, with its names
    {{ truco.gauderio_ladder() }}          gaudério's truco ladder, quero and não quero values
    {{ truco.gauderio_envido() }}          every envido call sequence, worth accepted and declined
    {{ truco.gauderio_points() }}          envido points of example hands, by the engine
    {{ truco.gauderio_flor() }}            flor examples and their points
    {{ truco.gauderio_ties() }}            gaudério ties, played out (all tied: the mão's team)
    {{ truco.gauderio_falta("20 15", "24") }}   a falta envido's worth at a score, inline
    {{ truco.gauderio_value("target") }}   one gaudério number inline (target, target_1x1, ...)

Every generated table carries ``data-truco`` attributes so that tests can read the numbers
back from the built HTML and compare them with the engine (tests/test_site.py).
An unknown macro, or a tutorial step the engine refuses, stops the build.
"""

from __future__ import annotations

import html
import json
import os
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # the hook runs from mkdocs, maybe outside the venv's editable path
    sys.path.insert(0, str(ROOT))

from engine import (  # noqa: E402
    RULESETS,
    Card,
    Match,
    Rank,
    Ruleset,
    Suit,
    TableOptions,
    words,
)
from engine import actions as A  # noqa: E402
from engine.actions import Act  # noqa: E402
from engine.cards import SPANISH_RANKS, SPANISH_SUITS, DeckStyle, parse_cards  # noqa: E402
from engine.envido import (  # noqa: E402
    FLOR_WORTH,
    envido_cards,
    envido_points,
    flor_points,
    has_flor,
)
from engine.envido import falta_value as envido_falta_value  # noqa: E402
from engine.envido import worth_table as envido_worth_table  # noqa: E402
from engine.levels import ROBOT_LEVELS  # noqa: E402
from engine.rulesets import ALL_RULESETS, MAX_TARGET, MAX_TIMER, MIN_TARGET, MIN_TIMER  # noqa: E402
from engine.sinais import SINAIS, SinalInfo  # noqa: E402
from engine.tutorial import Words, build_trace, load_lessons, seat_name  # noqa: E402

ARENA_RESULTS = "results/arena.json"
"""Where ``truco arena`` leaves its results (``TRUCO_ARENA_RESULTS`` overrides it)."""
SINAIS_RESULTS = "results/sinais.json"
"""Arena runs with and without signals (``TRUCO_SINAIS_RESULTS`` overrides it)."""

MACRO = re.compile(r"\{\{\s*truco\.(\w+)\(([^)]*)\)\s*\}\}")

PT = words.get("pt")
"""The site is pt-BR: every name of a card, call or hand comes from the engine's words."""
TEAM_NAMES = (PT.team(0, 0).capitalize(), PT.team(1, 0).capitalize())

# ------------------------------------------------------------------ cards


def card_html(card: Card, extra_class: str = "") -> str:
    """One card drawn by the site, in both deck styles (CSS shows the chosen one)."""
    rank, suit = card.rank, card.suit
    esp_suit = SPANISH_SUITS[suit]
    trad_name = PT.card_name(card)
    esp_name = PT.card_name(card, DeckStyle.SPANISH)
    cls = f"carta carta--{suit.code.lower()}" + (f" {extra_class}" if extra_class else "")
    return (
        f'<span class="{cls}" data-card="{card.code}" role="img" '
        f'aria-label="{trad_name}" title="{trad_name} · {esp_name}">'
        f'<span class="carta__trad">{rank.code}<span class="carta__naipe">{suit.symbol}</span></span>'
        f'<span class="carta__esp">{SPANISH_RANKS[rank]}<span class="naipe-esp naipe-esp--{esp_suit}">'
        f"</span></span></span>"
    )


def rank_html(rank: Rank) -> str:
    """A rank as the chosen deck style writes it: ``K`` or ``12`` (CSS shows one)."""
    return (
        f'<span class="nome__trad">{rank.code}</span>'
        f'<span class="nome__esp">{SPANISH_RANKS[rank]}</span>'
    )


def label_html(card: Card) -> str:
    """A card's short label in running text, in both styles: ``K♥`` or ``12 de copas``."""
    return (
        f'<span class="nome__trad">{PT.card(card)}</span>'
        f'<span class="nome__esp">{html.escape(PT.card(card, DeckStyle.SPANISH))}</span>'
    )


def label(codes: str) -> str:
    """Inline card labels in running text: ``{{ truco.label("4C") }}`` → ``4♣`` / ``4 de bastos``."""
    return " ".join(label_html(c) for c in parse_cards(codes))


def suit_html(suit: Suit) -> str:
    """A suit in words with its symbol, in both styles: ``♣ paus`` or ``bastos``."""
    esp = SPANISH_SUITS[suit]
    return (
        f'<span class="nome__trad">{suit.symbol} {PT.suit(suit)}</span>'
        f'<span class="nome__esp"><span class="naipe-esp naipe-esp--{esp}"></span> '
        f"{PT.suit(suit, DeckStyle.SPANISH)}</span>"
    )


def suit(code: str) -> str:
    """A suit for running text or tables: ``{{ truco.suit("C") }}``."""
    return suit_html(next(s for s in Suit if s.code == code.strip().upper()))


def cards_html(cards: Iterable[Card]) -> str:
    """Several cards side by side."""
    return '<span class="cartas">' + "".join(card_html(c) for c in cards) + "</span>"


def cards(codes: str) -> str:
    """Inline cards from codes: ``{{ truco.cards("4C 7H AS 7D") }}``."""
    return cards_html(parse_cards(codes))


def deck_toggle() -> str:
    """The deck style switch (traditional / Spanish), remembered by the browser."""
    return (
        '<div class="baralho-escolha" data-baralho-escolha data-search-exclude role="group" '
        'aria-label="Estilo do baralho">'
        "<span>Baralho:</span>"
        '<button type="button" class="md-button" data-baralho="tradicional">Tradicional ♣♥♠♦</button>'
        '<button type="button" class="md-button" data-baralho="espanhol">Espanhol (bastos, copas, espadas, oros)</button>'
        "</div>"
    )


# ------------------------------------------------------------------ helpers


def _table(attrs: Mapping[str, str], head: list[str], rows: list[str], caption: str = "") -> str:
    attr = "".join(f' data-{k}="{html.escape(v)}"' for k, v in attrs.items())
    cap = f"<caption>{caption}</caption>" if caption else ""
    th = "".join(f"<th>{h}</th>" for h in head)
    return (
        f"\n<table{attr}>{cap}<thead><tr>{th}</tr></thead><tbody>{''.join(rows)}</tbody></table>\n"
    )


def _td(content: Any, field: str = "", value: Any = None) -> str:
    data = f' data-field="{field}"' if field else ""
    if value is not None:
        data += f' data-value="{html.escape(str(value))}"'
    return f"<td{data}>{content}</td>"


def _ruleset(name: str) -> Ruleset:
    try:
        return RULESETS[name]
    except KeyError:
        raise ValueError(f"variante desconhecida no site: {name!r}") from None


def _ladder_code(ladder: tuple[int, ...]) -> str:
    return "-".join(map(str, ladder))


# ------------------------------------------------------------------ card order


def vira_table() -> str:
    """Paulista: for every vira rank, the four manilhas and then the common cards, strongest first."""
    rs = _ruleset("paulista")
    rows = []
    for rank in Rank:
        vira = Card.of(rank, Suit.DIAMONDS)  # the vira's suit never matters
        groups = rs.card_order(vira)
        manilhas = rs.manilhas_for(vira)
        common = [g[0].rank for g in groups if g[0] not in manilhas]
        common_codes = " ".join(r.code for r in common)
        rows.append(
            f'<tr data-vira="{rank.code}">'
            + _td(f"<strong>{rank_html(rank)}</strong>", "vira", rank.code)
            + _td(cards_html(manilhas), "manilhas", " ".join(c.code for c in manilhas))
            + _td(
                '<span class="ordem">' + " › ".join(rank_html(r) for r in common) + "</span>",
                "comuns",
                common_codes,
            )
            + "</tr>"
        )
    head = [
        "Vira",
        "Manilhas, da mais forte (zap) à mais fraca",
        "Cartas comuns, da mais forte à mais fraca",
    ]
    return _table({"truco": "vira", "variant": rs.name}, head, rows)


def card_order(variant: str) -> str:
    """The whole deck of a fixed-manilha variant, strongest group first."""
    rs = _ruleset(variant)
    if rs.uses_vira:
        return vira_table()
    rows = []
    manilhas = set(rs.manilhas_for(None))
    for i, group in enumerate(rs.card_order(None), start=1):
        kind = PT.manilha(group[0].suit) if group[0] in manilhas else "comum"
        rows.append(
            f'<tr data-group="{i}">'
            + _td(str(i), "forca", i)
            + _td(cards_html(group), "cartas", " ".join(c.code for c in group))
            + _td(kind)
            + "</tr>"
        )
    head = ["Posição", "Cartas (empatam entre si)", "Tipo"]
    caption = f"{rs.title}: {len(rs.deck)} cartas, da mais forte para a mais fraca"
    return _table({"truco": "order", "variant": rs.name}, head, rows, caption)


# ------------------------------------------------------------------ truco ladder


def _ladder_rows(rs: Ruleset, lad: tuple[int, ...]) -> list[str]:
    """A ladder's rows: the hand with no call, then each call accepted and run from."""
    rows = [
        '<tr data-step="-1">'
        + _td("sem pedido")
        + _td(str(rs.hand_value), "accept", rs.hand_value)
        + _td("—", "run", "")
        + "</tr>"
    ]
    for step, value in enumerate(lad):
        run = rs.run_value(lad, step)
        rows.append(
            f'<tr data-step="{step}">'
            + _td(PT.call(step, rs).capitalize())
            + _td(str(value), "accept", value)
            + _td(str(run), "run", run)
            + "</tr>"
        )
    return rows


def ladder(variant: str) -> str:
    """The truco ladder of a variant: one table per ladder a table may choose."""
    rs = _ruleset(variant)
    out = []
    for n, lad in enumerate(rs.ladder_options):
        rows = _ladder_rows(rs, lad)
        label = "escada padrão" if n == 0 else "regra da casa"
        caption = f"{rs.title}: {'-'.join(map(str, lad))} ({label})"
        head = ["Pedido", "Aceito: a mão vale", "Correu: quem pediu marca"]
        attrs = {"truco": "ladder", "variant": rs.name, "ladder": _ladder_code(lad)}
        out.append(_table(attrs, head, rows, caption))
    return "\n".join(out)


def ladders_summary() -> str:
    """Every variant's standard ladder in one small table: accepted value and run value."""
    groups: dict[tuple[int, ...], list[Ruleset]] = {}
    for rs in RULESETS.values():
        groups.setdefault(rs.ladder, []).append(rs)
    heads = ["Pedido"]
    for members in groups.values():
        names = " e ".join(rs.title.replace("Truco ", "") for rs in members)
        names = names[:1].upper() + names[1:]
        heads += [f"{names}: aceito", "correu"]
    steps = max(len(lad) for lad in groups)
    rows = []
    for step in range(steps):
        first = next(iter(groups.values()))[0]
        cells = _td(PT.call(step, first).capitalize())
        for lad, members in groups.items():
            rs = members[0]
            cells += _td(str(lad[step]), f"accept-{rs.name}", lad[step])
            cells += _td(str(rs.run_value(lad, step)), f"run-{rs.name}", rs.run_value(lad, step))
        rows.append(f'<tr data-step="{step}">{cells}</tr>')
    return _table({"truco": "ladders"}, heads, rows)


# ------------------------------------------------------------------ cangou

# Each situation is only the cards each side plays per round; the engine decides the rest.
CANGOU_CASES: tuple[tuple[str, ...], ...] = (
    ("KH KS", "3H 2S"),
    ("KH KS", "2S 3H"),
    ("KH KS", "AH AS", "3H 2S"),
    ("3H 2S", "KH KS"),
    ("2S 3H", "KH KS"),
    ("3H 2S", "6H 7S", "KH KS"),
    ("2S 3H", "7S 6H", "KH KS"),
    ("KH KS", "AH AS", "3H 3S"),
)
CANGOU_VIRA = "4D"  # manilhas are the 5s: no card above is a manilha
CANGOU_FILLER = {1: "7C 7D", 2: "6C 6S"}
"""Cards for the rounds a situation never reaches (each seat holds three cards)."""


def play_rounds(
    variant: str,
    options: TableOptions,
    filler: dict[int, str],
    rounds: tuple[str, ...],
    vira: Card | None = None,
) -> Match:
    """Play the rounds of one 1×1 situation (``us them`` per round, Nós the mão) and return
    the match; ``filler`` gives the cards of the rounds the situation never reaches."""
    plays = [parse_cards(r) for r in rounds]
    ours = [p[0] for p in plays]
    theirs = [p[1] for p in plays]
    while len(ours) < 3:
        us, them = parse_cards(filler[len(ours)])
        ours.append(us)
        theirs.append(them)
    m = Match.from_hand(
        variant,
        options,
        score=(0, 0),
        dealer=1,
        hands=[tuple(ours), tuple(theirs)],
        vira=vira,
    )
    for i in range(len(plays)):
        for _ in range(2):
            seat = m.turn
            m.apply(seat, A.PLAY[(ours if seat == 0 else theirs)[i]])
    return m


def play_cangou_case(rounds: tuple[str, ...]) -> Match:
    """Play one situation in paulista 1×1 (``us them`` per round) and return the finished match."""
    options = TableOptions(players=2)
    return play_rounds("paulista", options, CANGOU_FILLER, rounds, Card.parse(CANGOU_VIRA))


def _tie_rows(
    cases: tuple[tuple[str, ...], ...], play: Callable[[tuple[str, ...]], Match], tie: str
) -> list[str]:
    """One row per case: each round's cards and who took it (``tie`` when it tied), then who
    takes the hand."""
    rows = []
    for case in cases:
        m = play(case)
        cells = ""
        for i in range(3):
            if i < len(m.rounds):
                us, them = parse_cards(case[i])
                who = tie if m.rounds[i] is None else TEAM_NAMES[m.rounds[i]]
                value = "tie" if m.rounds[i] is None else str(m.rounds[i])
                cells += _td(f"{cards_html((us, them))} {who}", f"r{i + 1}", value)
            else:
                cells += _td("não se joga", f"r{i + 1}", "-")
        winner = m.hand_winner
        shown = "ninguém marca" if winner is None else f"<strong>{TEAM_NAMES[winner]}</strong>"
        rows.append(
            "<tr>" + cells + _td(shown, "winner", "none" if winner is None else winner) + "</tr>"
        )
    return rows


def cangou() -> str:
    """Who takes the hand after tied rounds, each case played out by the engine."""
    rows = _tie_rows(CANGOU_CASES, play_cangou_case, PT.tie())
    head = ["1ª vaza", "2ª vaza", "3ª vaza", "A mão fica com"]
    vira = Card.parse(CANGOU_VIRA)
    manilha = PT.rank(RULESETS["paulista"].manilhas_for(vira)[0].rank)
    caption = (
        f"Paulista, um contra um, vira {label_html(vira)} (as manilhas são os {manilha}, que não "
        "aparecem aqui). Em cada vaza, a carta de Nós e depois a de Eles."
    )
    return _table({"truco": "cangou"}, head, rows, caption)


# ------------------------------------------------------------------ special hands


def _variant_rows(cells: Callable[[Ruleset, int], str]) -> list[str]:
    """One row per variant, its name first: ``cells`` gets the variant and the score of its
    special hand in a match to its default target."""
    return [
        f'<tr data-variant="{rs.name}">'
        + _td(rs.title)
        + cells(rs, rs.threshold(rs.default_target))
        + "</tr>"
        for rs in RULESETS.values()
    ]


def special_hands() -> str:
    """Mão de onze / mão de dez, per variant: when it happens and what playing or running pays."""
    rows = _variant_rows(
        lambda rs, threshold: (
            _td(PT.special_hand(rs), "name", rs.special_hand)
            + _td(f"{threshold} pontos", "threshold", threshold)
            + _td(str(rs.special_hand_value), "play", rs.special_hand_value)
            + _td(str(rs.hand_value), "run", rs.hand_value)
        )
    )
    head = ["Variante", "Mão", "Quando", "Jogou", "Correu"]
    caption = (
        "Partida a 12 pontos, com só um dos times no placar indicado. Jogou: quanto a mão vale "
        "para quem vencer. Correu: quanto o outro time marca."
    )
    return _table({"truco": "special"}, head, rows, caption)


def iron_hand() -> str:
    """The iron hand, per variant: the score that brings it and what it is worth."""
    rows = _variant_rows(
        lambda rs, threshold: (
            _td(f"{threshold} × {threshold}", "iron", threshold)
            + _td(str(rs.hand_value), "iron_value", rs.hand_value)
        )
    )
    head = ["Variante", "Placar", "A mão vale"]
    return _table({"truco": "iron"}, head, rows, "Partida a 12 pontos")


# ------------------------------------------------------------------ variants


def _manilhas_text(rs: Ruleset) -> str:
    if rs.uses_vira:
        return "mudam a cada mão: o valor seguinte ao da vira, nos quatro naipes"
    return "fixas: " + cards_html(rs.manilhas_for(None))


def variants() -> str:
    """The three variants side by side, straight from their rulesets."""
    all_rs = list(RULESETS.values())
    default = TableOptions()

    def row(label: str, field: str, values: list[tuple[str, Any]]) -> str:
        return (
            f'<tr data-row="{field}"><th scope="row">{label}</th>'
            + "".join(_td(shown, rs.name, v) for rs, (shown, v) in zip(all_rs, values, strict=True))
            + "</tr>"
        )

    rows = [
        row("Cartas no baralho", "deck", [(str(len(rs.deck)), len(rs.deck)) for rs in all_rs]),
        row(
            "Vira", "vira", [("sim" if rs.uses_vira else "não", int(rs.uses_vira)) for rs in all_rs]
        ),
        row("Manilhas", "manilhas", [(_manilhas_text(rs), "") for rs in all_rs]),
        row(
            "Mão sem truco vale",
            "hand_value",
            [(str(rs.hand_value), rs.hand_value) for rs in all_rs],
        ),
        row(
            "Escada do truco",
            "ladder",
            [(_ladder_code(rs.ladder), _ladder_code(rs.ladder)) for rs in all_rs],
        ),
        row(
            "Escadas da casa",
            "ladder_options",
            [
                (
                    " ou ".join(_ladder_code(lo) for lo in rs.ladder_options),
                    " ".join(_ladder_code(lo) for lo in rs.ladder_options),
                )
                for rs in all_rs
            ],
        ),
        row(
            "Mão especial",
            "special",
            [
                (
                    f"{PT.special_hand(rs)} (vale {rs.special_hand_value})",
                    rs.special_hand_value,
                )
                for rs in all_rs
            ],
        ),
        row(
            "Partida a",
            "target",
            [(f"{rs.default_target} pontos", rs.default_target) for rs in all_rs],
        ),
        row(
            "Tempo por decisão",
            "timer",
            [
                (f"{rs.fixed_timer} s, sempre", rs.fixed_timer)
                if rs.fixed_timer is not None
                else (f"opção da mesa (padrão {default.timer} s)", default.timer)
                for rs in all_rs
            ],
        ),
        row(
            "Trucado vê as cartas do parceiro",
            "partner",
            [
                (
                    "sim" if rs.partner_cards_when_answering else "não",
                    int(rs.partner_cards_when_answering),
                )
                for rs in all_rs
            ],
        ),
    ]
    head = ["Regra"] + [rs.title for rs in all_rs]
    return _table({"truco": "variants"}, head, rows)


def table_options() -> str:
    """The options chosen when a table is created, with the engine's defaults."""
    d = TableOptions()
    mineiro = _ruleset("mineiro")
    rows = [
        '<tr data-option="target">'
        + _td("Pontos da partida")
        + _td(f"de {MIN_TARGET} a {MAX_TARGET}", "range", f"{MIN_TARGET}-{MAX_TARGET}")
        + _td(str(d.target), "default", d.target)
        + "</tr>",
        '<tr data-option="players">'
        + _td("Jogadores")
        + _td("2 (um contra um) ou 4 (duplas)", "range", "2 4")
        + _td(str(d.players), "default", d.players)
        + "</tr>",
        '<tr data-option="covered_cards">'
        + _td("Carta coberta")
        + _td("ligada ou desligada", "range", "on off")
        + _td("ligada" if d.covered_cards else "desligada", "default", int(d.covered_cards))
        + "</tr>",
        '<tr data-option="timer">'
        + _td("Tempo por decisão (menos no Trem Bão)")
        + _td(f"de {MIN_TIMER} a {MAX_TIMER} segundos", "range", f"{MIN_TIMER}-{MAX_TIMER}")
        + _td(f"{d.timer} s", "default", d.timer)
        + "</tr>",
        '<tr data-option="sinais">'
        + _td('<a href="../sinais/">Sinais</a> entre parceiros (só no 2×2)')
        + _td("ligados ou desligados", "range", "on off")
        + _td("ligados" if d.sinais else "desligados", "default", int(d.sinais))
        + "</tr>",
        '<tr data-option="catch_percent">'
        + _td("Chance de cada adversário ver um sinal")
        + _td("de 0 a 100%", "range", "0-100")
        + _td(f"{d.catch_percent}%", "default", d.catch_percent)
        + "</tr>",
        '<tr data-option="ladder">'
        + _td("Escada do truco mineiro")
        + _td(
            " ou ".join(_ladder_code(lo) for lo in mineiro.ladder_options),
            "range",
            " ".join(_ladder_code(lo) for lo in mineiro.ladder_options),
        )
        + _td(_ladder_code(mineiro.ladder), "default", _ladder_code(mineiro.ladder))
        + "</tr>",
    ]
    return _table({"truco": "options"}, ["Opção", "Valores", "Padrão"], rows)


def timeout_example() -> str:
    """What the engine plays for a seat whose time ran out, in a Trem Bão hand."""
    hands = [parse_cards("QS 7H 3D"), parse_cards("KC 2H AH")]
    m = Match.from_hand("trem-bao", None, score=(0, 0), dealer=1, hands=hands)
    action = m.default_action(0)
    assert action is not None and action.card is not None
    return (
        f'<p data-truco="timeout" data-card="{action.card.code}">Com '
        f"{cards_html(hands[0])} na mão e o tempo esgotado, o jogo joga por você: "
        f"{card_html(action.card)} — a carta mais forte, aberta.</p>"
    )


# ------------------------------------------------------------------ robots


def _arena_path() -> Path:
    return Path(os.environ.get("TRUCO_ARENA_RESULTS") or ROOT / ARENA_RESULTS)


SIDE_NAMES = {
    # the levels' names are the engine's (engine.levels, worded by engine.words)
    **{f"robot:{lv}": f"robô {PT.level(lv)}" for lv in ROBOT_LEVELS},
    **{f"robot:{lv}:sem-sinais": f"robô {PT.level(lv)} sem sinais" for lv in ROBOT_LEVELS},
    "random": "aleatório",
    # the arena's sparring robots (engine/robots/sparring.py), one betting style each
    "robot:tight": "treino: fechado",
    "robot:loose": "treino: solto",
    "robot:bluffer": "treino: blefador",
    "robot:honest": "treino: sem blefe",
    "robot:accepter": "treino: aceita tudo",
    "robot:solid": "treino: sólido",
    "robot:valuer": "treino: só aumenta no certo",
    "robot:probe": "treino: sonda do médio",
    "robot:policy": "treino: médio com a política aprendida",
    "robot:policy-calls": "treino: médio com os pedidos da política aprendida",
    "robot:probe-policy": "treino: sonda da política aprendida",
    "robot:dificil-policy": "difícil a partir dos pedidos da política aprendida",
    "robot:dificil-busca": "difícil de antes (busca a partir dos pedidos do médio)",
}


BEST_RESPONSES = {"medio": "robot:probe", "dificil": "robot:probe-policy"}
"""The arena robot that answers each level best, when one was built: the probe asks médio's
own policy what it would do (médio); difícil calls from the learned policy, and the probe of
that policy is the nearest to a best response to it (its search is too costly to probe)."""


def _side(spec: str) -> str:
    return html.escape(SIDE_NAMES.get(spec, spec))


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%".replace(".", ",")


def _arena_row(n: int, run: Mapping[str, Any]) -> str:
    """One measured run of ``truco arena`` for learners (format: docs-dev/arena-protocol.md)."""
    a, b = run["results"]
    players = int(run["players"])
    table = "1×1" if players == 2 else "2×2"
    variant = _variant_title(run)
    low, high = a["wilson95"]
    game = f"{variant}, {table}<br>{run['matches']} partidas, em {html.escape(_day(run))}"
    cells = [
        _td(f"{_side(a['side'])} × {_side(b['side'])}", "sides", " ".join(run["sides"])),
        _td(game, "variant", run["variant"]),
        _td(
            f"<strong>{_pct(a['win_rate'])}</strong><br>({_pct(low)} a {_pct(high)})",
            "win_a",
            f"{a['win_rate']} {low} {high}",
        ),
    ]
    attrs = f' data-run="{n}" data-players="{players}" data-matches="{int(run["matches"])}"'
    return f"<tr{attrs}>" + "".join(cells) + "</tr>"


def _variant_title(run: Mapping[str, Any]) -> str:
    """The run's variant as the rulebook names it (its code when the engine has no such one)."""
    rs = ALL_RULESETS.get(str(run["variant"]))
    return rs.title if rs else html.escape(str(run["variant"]))


def _day(run: Mapping[str, Any]) -> str:
    """``2026-11-29`` as a reader writes it: ``29/11/2026``."""
    day = str(run.get("date", ""))[:10]
    parts = day.split("-")
    return "/".join(reversed(parts)) if len(parts) == 3 else day


def _runs(path: Path) -> list[Mapping[str, Any]] | None:
    """The arena runs saved at ``path`` (``None`` when nothing was measured yet)."""
    if not path.exists():
        return None
    try:
        runs = json.loads(path.read_text(encoding="utf-8"))
        for run in runs:  # every field the tables read, so a bad file fails here
            for side in run["results"]:
                side["side"], side["win_rate"], side["wilson95"], side["decision_ms"]["p95"]
            run["players"], run["variant"], run["matches"], run["sides"]
    except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"{path}: resultado da arena fora do formato esperado: {exc!r}") from None
    return list(runs)


def _runs_table(path: Path, kind: str, title: str, caption: str) -> str:
    """The arena runs saved at ``path`` as a learner's table: who played, how often, who won."""
    runs = _runs(path)
    if runs is None:
        return (
            f'\n<div class="admonition info" data-truco="{kind}" data-measured="0">'
            f'<p class="admonition-title">{title}: ainda sem medições</p>'
            "<p>Os resultados aparecem aqui assim que as partidas entre robôs forem medidas.</p>"
            "</div>\n"
        )
    try:
        rows = [_arena_row(n, run) for n, run in enumerate(runs)]
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"{path}: resultado da arena fora do formato esperado: {exc!r}") from None
    head = ["Quem joga (A × B)", "Jogo", "A vence (margem)"]
    return _table({"truco": kind, "measured": "1"}, head, rows, caption)


def robots() -> str:
    """The robots' measured strength, read from what ``truco arena --save`` wrote (if it did)."""
    caption = (
        "Cada distribuição de cartas foi jogada duas vezes, com os lados trocados. A margem é o "
        "intervalo de confiança de 95%."
    )
    return _runs_table(_arena_path(), "robots", "Força dos robôs", caption)


def robots_verdict() -> str:
    """Each level in a few words, from the same runs: whom it clearly beats (the whole 95%
    margin above half the matches), who clearly beats it, where the margin leaves it open,
    and how much its best response (``BEST_RESPONSES``) wins from it when that was measured;
    one sentence per table and variant, paulista first, the others in the runs' order."""
    runs = _runs(_arena_path())
    if runs is None:
        return ""
    # (level, table, variant) -> the opponents it beats, loses to, and has no clear result against
    found: dict[tuple[str, int, str], tuple[list[str], list[str], list[str]]] = {}
    # (level, table, variant) -> the best response's share of the matches and its margin
    answered: dict[tuple[str, int, str], tuple[float, float, float]] = {}
    variants = ["paulista"]
    for run in runs:
        players = int(run["players"])
        variant = str(run["variant"])
        if variant not in variants:
            variants.append(variant)
        for me, other in ((0, 1), (1, 0)):
            spec = str(run["results"][me]["side"]).split(":")
            if spec[0] != "robot" or spec[1] not in ROBOT_LEVELS:
                continue
            low, high = run["results"][me]["wilson95"]
            beats, loses, open_ = found.setdefault((spec[1], players, variant), ([], [], []))
            name = _side(run["results"][other]["side"])
            (beats if low > 0.5 else loses if high < 0.5 else open_).append(name)
            if run["results"][other]["side"] == BEST_RESPONSES.get(spec[1]):
                rate = run["results"][me]["win_rate"]
                answered[spec[1], players, variant] = (1 - rate, 1 - high, 1 - low)
    items = []
    for level in ROBOT_LEVELS:
        parts = []
        for players, table in ((2, "No mano a mano (1×1)"), (4, "Em dupla (2×2)")):
            for variant in variants:
                if (level, players, variant) not in found:
                    continue
                beats, loses, open_ = found[level, players, variant]
                said = [
                    f"ganha com folga de {', '.join(beats)}" if beats else "",
                    f"perde com folga de {', '.join(loses)}" if loses else "",
                    f"sem diferença clara contra {', '.join(open_)}" if open_ else "",
                ]
                if (level, players, variant) in answered:
                    share, low, high = answered[level, players, variant]
                    said.append(
                        f"a melhor resposta a ele ({_side(BEST_RESPONSES[level])}) ganha "
                        f"{_pct(share)} das partidas (margem de {_pct(low)} a {_pct(high)})"
                    )
                where = "" if variant == "paulista" else f", {_variant_title({'variant': variant})}"
                parts.append(
                    f'<span data-variant="{html.escape(variant)}" data-players="{players}">'
                    f"{table}{where}: " + "; ".join(x for x in said if x) + ".</span>"
                )
        if parts:
            items.append(
                f'<li data-level="{level}"><strong>{_side(f"robot:{level}").capitalize()}</strong>. '
                + " ".join(parts)
                + "</li>"
            )
    return '\n<ul data-truco="robots-verdict">' + "".join(items) + "</ul>\n"


def robots_gauderio() -> str:
    """A paragraph on the robots at a gaudério table, only once the arena has measured them
    there (nothing is said before: no figure is ever written by hand)."""
    runs = _runs(_arena_path()) or []
    measured = [r for r in runs if r["variant"] == _gauderio().name]
    if not measured:
        return ""
    items = "".join(
        f"<li>{_side(r['results'][0]['side'])} × {_side(r['results'][1]['side'])} "
        f"({'1×1' if int(r['players']) == 2 else '2×2'}, {int(r['matches'])} partidas): o "
        f"{_side(r['results'][0]['side'])} vence {_pct(r['results'][0]['win_rate'])} delas "
        f"(margem de {_pct(r['results'][0]['wilson95'][0])} a "
        f"{_pct(r['results'][0]['wilson95'][1])})</li>"
        for r in measured
    )
    return (
        f'\n<div data-truco="robots-gauderio" data-runs="{len(measured)}">'
        '<p>Os robôs também jogam o <a href="../gauderio/">truco gaudério</a>, com envido e '
        "flor: cantam e aceitam o envido pelos pontos que têm. As medições nessa mesa:</p>"
        f"<ul>{items}</ul></div>\n"
    )


def robots_dev() -> str:
    """For developers: each run's decision times, machine and the command that redoes it."""
    runs = _runs(_arena_path())
    if runs is None:
        return '\n<p data-truco="robots-dev">Ainda não há medições em <code>results/arena.json</code>.</p>\n'
    rows = []
    for n, run in enumerate(runs):
        a, b = run["results"]
        machine = run.get("machine") or {}
        where = f"{machine.get('cpus', '?')} CPUs, Python {machine.get('python', '?')}"
        load = run.get("load_average")
        if load and load.get("start") and load.get("end"):  # 1-minute load at start and end
            where += ", carga " + " → ".join(
                f"{load[k][0]:.1f}".replace(".", ",") for k in ("start", "end")
            )
        times = " / ".join(
            f"{s['decision_ms']['p50']:g} · {s['decision_ms']['p95']:g}".replace(".", ",")
            for s in (a, b)
        )
        # the decision's own CPU time, when the run recorded it: on a shared machine the
        # wall clock mostly measures the wait for a processor
        cpus = [s.get("decision_cpu_ms") for s in (a, b)]
        cpu = (
            " / ".join(f"{c['p50']:g} · {c['p95']:g}".replace(".", ",") for c in cpus if c)
            if all(cpus)
            else "—"
        )
        rows.append(
            f'<tr data-run="{n}">'
            + _td(f"{_side(a['side'])} × {_side(b['side'])}")
            + _td(
                times,
                "ms",
                " ".join(f"{s['decision_ms']['p50']} {s['decision_ms']['p95']}" for s in (a, b)),
            )
            + _td(
                cpu,
                "cpu_ms",
                " ".join(f"{c['p50']} {c['p95']}" for c in cpus if c) if all(cpus) else None,
            )
            + _td(f"{html.escape(_day(run))}, {html.escape(where)}")
            + _td(f"<code>{html.escape(str(run.get('command', '')))}</code>", "command")
            + "</tr>"
        )
    head = [
        "A × B",
        "Decisão em ms: mediana · p95 (A / B)",
        "CPU da decisão em ms: mediana · p95 (A / B)",
        "Medido em",
        "Comando",
    ]
    return _table({"truco": "robots-dev"}, head, rows)


# ------------------------------------------------------------------ sinais


def _sinal_cards(info: SinalInfo, rs: Ruleset) -> tuple[str, str]:
    """What a signal names in a variant, as HTML and as card codes (``data-value``)."""
    if info.manilha is not None:
        if rs.manilhas is None:
            return f"a manilha de {PT.suit(info.manilha)} (muda com a vira)", info.manilha.code
        card = next(c for c in rs.manilhas if c.suit == info.manilha)
        return card_html(card), card.code
    if info.rank is not None:
        label = f"um {PT.rank(info.rank)} que não seja manilha"
        if rs.manilhas is None:
            return label, info.rank.code
        commons = [c for c in rs.deck if c.rank == info.rank and c not in rs.manilhas]
        return label, " ".join(c.code for c in commons)
    return "nenhuma das cartas acima", ""


def sinais() -> str:
    """The table of signals (R12): emoji, name, face, and what each names per variant."""
    paulista, fixed = _ruleset("paulista"), _ruleset("mineiro")
    rows = []
    for info in SINAIS:
        p_html, p_codes = _sinal_cards(info, paulista)
        f_html, f_codes = _sinal_cards(info, fixed)
        rows.append(
            f'<tr data-sinal="{info.code}">'
            + _td(
                f'<span class="sinal-emoji" aria-hidden="true">{info.emoji}</span>',
                "emoji",
                info.emoji,
            )
            + _td(f"<strong>{html.escape(info.name)}</strong>", "name", info.name)
            + _td(html.escape(info.face), "face", info.face)
            + _td(p_html, "paulista", p_codes)
            + _td(f_html, "fixed", f_codes)
            + "</tr>"
        )
    head = ["Emoji", "Sinal", "A cara", "No paulista", "No mineiro e no Trem Bão"]
    caption = "Quem mostra a cara diz ter essa carta (ou mente)"
    return _table({"truco": "sinais"}, head, rows, caption)


def catch_chance(kind: str) -> str:
    """The table default chance of catching a signal, inline: ``each`` opponent's, or the
    chance that ``escape``s both opponents."""
    p = TableOptions().catch_percent
    if kind == "each":
        return f'<span data-truco="catch" data-value="{p}">{p}%</span>'
    if kind == "escape":
        miss = (100 - p) / 100
        return (
            f'<span data-truco="escape" data-value="{miss * miss:.4f}">{100 - p}% × {100 - p}% ≈ '
            f"{round(100 * miss * miss)}%</span>"
        )
    raise ValueError(f"catch_chance: use each ou escape, não {kind!r}")


def sinais_figures() -> str:
    """Arena runs of robots using signals against the same robots ignoring them."""
    path = Path(os.environ.get("TRUCO_SINAIS_RESULTS") or ROOT / SINAIS_RESULTS)
    caption = "Mesa com sinais; o lado B não faz nem lê sinais. Partidas espelhadas"
    return _runs_table(path, "sinais-figures", "Ganho dos sinais", caption)


# ------------------------------------------------------------------ tutorial


def tutorial() -> str:
    """The tutorial player: an empty frame plus every lesson replayed by the engine, as JSON."""
    trace = build_trace(os.environ.get("TRUCO_TUTORIAL_SCRIPT") or None)
    for lesson in trace["lessons"]:
        for hand in lesson["hands"]:
            hand["call_names"] = list(ALL_RULESETS[hand["variant"]].call_names)
    payload = html.escape(json.dumps(trace, ensure_ascii=False, separators=(",", ":")))
    # an attribute, not a <script type="application/json">: instant navigation re-runs scripts
    # of swapped pages as JavaScript, and the search index skips attributes
    return (
        f'\n<div class="tutorial" data-tutorial data-tutorial-trace="{payload}">'
        "<noscript><p>O tutorial interativo precisa de JavaScript.</p></noscript>"
        "</div>\n"
    )


# ------------------------------------------------------------------ a commented hand


def _words_html(text: Words) -> str:
    """A lesson text in both deck styles (CSS shows the chosen one)."""
    return "".join(
        f'<span class="nome__{"trad" if style == DeckStyle.TRADITIONAL else "esp"}">'
        f"{html.escape(text.in_style(style))}</span>"
        for style in (DeckStyle.TRADITIONAL, DeckStyle.SPANISH)
    )


def worked_hand(name: str) -> str:
    """A whole hand from ``engine/data/<name>.json``, replayed by the engine and commented.

    Every seat's cards are shown at the deal; then each move with its reason, round by round.
    """
    path = ROOT / "engine" / "data" / f"{name}.json"
    (hand,) = load_lessons(path).lessons[0].hands
    start = hand.start
    seats = "".join(
        f'<div class="comentada__lugar"><strong>{html.escape(seat_name(s, start.seat, start.players))}'
        f"</strong> {cards_html(tuple(Card.parse(c) for c in hand.scenario['hands'][s]))}</div>"
        for s in range(start.players)
    )
    if start.vira is not None:
        seats += (
            f'<div class="comentada__lugar"><strong>Vira</strong> {card_html(start.vira)} '
            f"<strong>Manilhas</strong> {cards_html(start.manilhas)}</div>"
        )
    out = [
        f'\n<div class="comentada" data-truco="comentada" data-points="{hand.result["points"][0]} '
        f'{hand.result["points"][1]}">',
        f'<p class="comentada__intro">{_words_html(hand.intro)}</p>',
        f'<div class="comentada__maos">{seats}</div>',
    ]
    rounds_seen = 0
    items: list[str] = []

    def close_round(title: str, summary: str) -> None:
        out.append(f'<p class="comentada__vaza"><strong>{title}</strong></p><ol>')
        out.extend(items)
        out.append(f'</ol><p class="comentada__resultado">{summary}</p>')
        items.clear()

    for step in hand.steps:
        thought = ""
        if step.prompt is not None:
            thought = f"<br><em>Você pensa:</em> {_words_html(step.prompt)}"
        items.append(
            f"<li><strong>{_words_html(step.narration)}</strong> {_words_html(step.explanation)}"
            f"{thought}</li>"
        )
        if len(step.view.rounds) > rounds_seen:
            rounds_seen = len(step.view.rounds)
            won = step.view.rounds[-1]
            who = PT.tie() if won is None else ("vaza nossa" if won == 0 else "vaza deles")
            close_round(f"{rounds_seen}ª vaza", f"→ {who.capitalize()}.")
    if items:
        close_round("Fim da mão", "")
    points = hand.result["points"]
    winner = hand.result["hand_winner"]
    score = hand.result["score"]
    scored = (
        "Ninguém marca ponto"
        if winner is None
        else ("Nós marcamos" if winner == 0 else "Eles marcam") + f" {points[winner]} pontos"
    )
    out.append(
        f'<p class="comentada__fim"><strong>{scored}: placar {score[0]} a {score[1]}.</strong>'
        "</p></div>\n"
    )
    return "".join(out)


# ------------------------------------------------------------------ gaudério (R13)

GAUDERIO_GROUP_NAMES: dict[str, str] = {
    "AS": "espadão",
    "AC": "bastião",
    "7S": "sete de espadas",
    "7D": "sete de ouros",
    "3": "os quatro três",
    "2": "os quatro dois",
    "A": "ases falsos",
    "K": "os reis (12)",
    "J": "os cavalos (11)",
    "Q": "as sotas (10)",
    "7": "setes falsos",
    "6": "os seis",
    "5": "os cincos",
    "4": "os quatros",
}
"""What a table in Rio Grande do Sul calls each strength group (the top four by card, the
rest by rank): the rulebook's words, keyed by the engine's card or rank codes."""

GAUDERIO_ENVIDO_HANDS = ("7S 6S 3D", "KC QC 5D", "7H 5D 3C", "AD 4D JD", "2C 3H KS", "6H 5H AC")
"""Hands whose envido points the page shows, each computed by the engine."""

GAUDERIO_FLOR_HANDS = ("7D 6D 5D", "KS QS JS", "AC 7C 3C")
"""Hands with flor whose points the page shows."""

GAUDERIO_TIE_CASES: tuple[tuple[str, ...], ...] = (
    ("3H 3S", "2C KD"),
    ("3H 3S", "KD 2C"),
    ("KC AS", "3H 3S"),
    ("3H 3S", "2C 2D", "6C 6H"),
    ("2C KD", "3H 3S"),
)
"""Tied rounds in gaudério 1×1 (``us them`` per round); the engine plays them out."""
GAUDERIO_TIE_FILLER = {1: "4H 5S", 2: "4S 5C"}


def _gauderio() -> Ruleset:
    return ALL_RULESETS["gauderio"]


def gauderio_cards() -> str:
    """Gaudério: the 40 cards grouped by strength, strongest first, with the table's names."""
    rs = _gauderio()
    manilhas = set(rs.manilhas_for(None))
    rows = []
    for i, group in enumerate(rs.card_order(None), start=1):
        top = group[0]
        key = top.code if top in manilhas else top.rank.code
        rows.append(
            f'<tr data-group="{i}">'
            + _td(str(i), "forca", i)
            + _td(cards_html(group), "cartas", " ".join(c.code for c in group))
            + _td(GAUDERIO_GROUP_NAMES[key], "nome", key)
            + "</tr>"
        )
    head = ["Posição", "Cartas (empatam entre si)", "Como se chamam"]
    caption = f"{rs.title}: {len(rs.deck)} cartas, da mais forte para a mais fraca"
    return _table({"truco": "gauderio-order", "variant": rs.name}, head, rows, caption)


def gauderio_ladder() -> str:
    """Gaudério's truco ladder (R13.2): what each call is worth accepted and run from."""
    rs = _gauderio()
    lad = rs.ladder
    rows = _ladder_rows(rs, lad)
    head = ["Pedido", "Quero: a mão vale", "Não quero: quem pediu marca"]
    caption = f"{rs.title}: escada {_ladder_code(lad)}"
    attrs = {"truco": "gauderio-ladder", "variant": rs.name, "ladder": _ladder_code(lad)}
    return _table(attrs, head, rows, caption)


def _envido_call(code: str) -> str:
    """An envido call in running text: ``real envido`` (the engine's shout, lower case)."""
    shout = PT.envido_shout(Act.from_code(code)).rstrip("!")
    return shout[:1].lower() + shout[1:]


def gauderio_envido() -> str:
    """R13.3's whole table: every call sequence with its worth accepted and declined."""
    rows = []
    for calls, accepted, declined in envido_worth_table():
        shown_accepted = "a falta" if isinstance(accepted, str) else str(accepted)
        rows.append(
            f'<tr data-calls="{" ".join(calls)}">'
            + _td(" › ".join(_envido_call(c) for c in calls), "calls", " ".join(calls))
            + _td(shown_accepted, "accepted", accepted)
            + _td(str(declined), "declined", declined)
            + "</tr>"
        )
    head = [
        "Cantos, em ordem",
        "Quero: quem tem mais pontos marca",
        "Não quero: quem cantou por último marca",
    ]
    caption = "A falta é o que ainda falta ao time que está na frente para chegar ao fim da partida"
    return _table({"truco": "gauderio-envido"}, head, rows, caption)


def gauderio_falta(score: str, target: str) -> str:
    """A falta envido's worth at a score, inline: ``{{ truco.gauderio_falta("20 15", "24") }}``."""
    us, them = (int(x) for x in score.split())
    value = envido_falta_value((us, them), int(target))
    return f'<span data-truco="gauderio-falta" data-value="{value}">{value}</span>'


def gauderio_points() -> str:
    """Envido points of example hands, computed by the engine, with the cards that make them."""
    rows = []
    for codes in GAUDERIO_ENVIDO_HANDS:
        hand = parse_cards(codes)
        points = envido_points(hand)
        proof = envido_cards(hand)
        rows.append(
            f'<tr data-hand="{codes}">'
            + _td(cards_html(hand), "hand", codes)
            + _td(cards_html(proof), "proof", " ".join(c.code for c in proof))
            + _td(f"<strong>{points}</strong>", "points", points)
            + "</tr>"
        )
    head = ["Mão", "Cartas que contam", "Pontos de envido"]
    return _table({"truco": "gauderio-points"}, head, rows)


def gauderio_flor() -> str:
    """Flor examples: three cards of one suit and the flor's points, computed by the engine."""
    rows = []
    for codes in GAUDERIO_FLOR_HANDS:
        hand = parse_cards(codes)
        assert has_flor(hand), codes
        points = flor_points(hand)
        rows.append(
            f'<tr data-hand="{codes}">'
            + _td(cards_html(hand), "hand", codes)
            + _td(f"<strong>{points}</strong>", "points", points)
            + _td(str(FLOR_WORTH), "worth", FLOR_WORTH)
            + "</tr>"
        )
    head = ["Mão", "Pontos da flor", "Vale ao time"]
    return _table({"truco": "gauderio-flor"}, head, rows)


def gauderio_value(name: str) -> str:
    """One number of gaudério inline, read from the ruleset or the points game:
    ``target`` (2×2), ``target_1x1``, ``min_target``, ``max_target``, ``flor``."""
    rs = _gauderio()
    values = {
        "target": rs.default_target_for(4),
        "target_1x1": rs.default_target_for(2),
        "min_target": rs.min_target,
        "max_target": MAX_TARGET,
        "flor": FLOR_WORTH,
    }
    if name not in values:
        raise ValueError(f"gauderio_value: {name!r} não existe")
    return f'<span data-truco="gauderio-{name}" data-value="{values[name]}">{values[name]}</span>'


def play_gauderio_ties(rounds: tuple[str, ...]) -> Match:
    """Play one tie case in gaudério 1×1 (``us them`` per round; Nós are the mão)."""
    options = TableOptions(players=2, target=_gauderio().default_target_for(2))
    return play_rounds("gauderio", options, GAUDERIO_TIE_FILLER, rounds)


def gauderio_ties() -> str:
    """Who takes a gaudério hand after tied rounds, each case played out by the engine."""
    # in the South a tied round "empardou" (the rulebook's word for the region)
    rows = _tie_rows(GAUDERIO_TIE_CASES, play_gauderio_ties, "empardou")
    head = ["1ª vaza", "2ª vaza", "3ª vaza", "A mão fica com"]
    caption = (
        "Gaudério, um contra um; Nós somos a mão (jogamos primeiro). Em cada vaza, a carta de Nós "
        "e depois a de Eles."
    )
    return _table({"truco": "gauderio-ties"}, head, rows, caption)


# ------------------------------------------------------------------ include


def include(relpath: str) -> str:
    """A developer document from the repository, folded, with its links made plain text."""
    path = ROOT / relpath
    if not path.exists():
        return f'\n!!! note "Ainda não escrito"\n    O documento `{relpath}` ainda não existe.\n'
    text = path.read_text(encoding="utf-8")
    # its links point inside the repository or off the site: keep the words only
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"<?https?://[^\s>)]+>?", lambda m: f"`{m.group(0).strip('<>')}`", text)
    text = re.sub(r"^(#+)", r"\1##", text, flags=re.M)
    body = "\n".join(f"    {line}" if line.strip() else "" for line in text.splitlines())
    return f'\n??? abstract "{relpath} (referência completa, em inglês)"\n\n{body}\n'


# ------------------------------------------------------------------ hook entry points

MACROS: dict[str, Callable[..., str]] = {
    f.__name__: f
    for f in (
        vira_table,
        card_order,
        ladder,
        cangou,
        special_hands,
        variants,
        table_options,
        timeout_example,
        robots,
        robots_verdict,
        robots_dev,
        robots_gauderio,
        ladders_summary,
        worked_hand,
        sinais,
        sinais_figures,
        catch_chance,
        iron_hand,
        tutorial,
        cards,
        label,
        suit,
        deck_toggle,
        include,
        gauderio_cards,
        gauderio_ladder,
        gauderio_envido,
        gauderio_falta,
        gauderio_points,
        gauderio_flor,
        gauderio_value,
        gauderio_ties,
    )
}


def _expand(match: re.Match[str]) -> str:
    name, raw_args = match.group(1), match.group(2).strip()
    func = MACROS.get(name)
    if func is None:
        raise ValueError(f"macro desconhecida: truco.{name}")
    args = [a.strip().strip("\"'") for a in raw_args.split(",")] if raw_args else []
    return func(*args)


def expand(markdown: str) -> str:
    """The page's markdown with every ``{{ truco.… }}`` macro replaced by its HTML."""
    return MACRO.sub(_expand, markdown)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """MkDocs hook: expand the macros of each page (an error stops the build)."""
    try:
        return expand(markdown)
    except Exception as exc:  # any failure must name the page and stop the build
        from mkdocs.exceptions import PluginError

        raise PluginError(f"{page.file.src_path}: {exc}") from exc
