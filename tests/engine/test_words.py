"""engine.words: one gettext catalog per language names every action, seat, card and call."""

from __future__ import annotations

import random
import re
import string

import pytest

from engine import Act, ErrorCode, IllegalAction, Match, Phase, TableOptions, get_ruleset, words
from engine import actions as A
from engine.cards import ALL_CARDS, Card, DeckStyle, parse_cards
from engine.sinais import Sinal
from engine.words import REFUSALS, extract
from engine.words.catalog import PoError, read_po, translations
from tests import ROOT
from tests.engine.helpers import act, deal

PT, EN, ES = words.get("pt"), words.get("en"), words.get("es")
FIELDS = string.Formatter()


def fields(text: str) -> set[str]:
    """The ``{field}`` names of a format string."""
    return {name for _, name, _, _ in FIELDS.parse(text) if name}


class TestCatalogs:
    def test_languages_are_the_locale_folders_source_first(self) -> None:
        folders = {p.parts[-3] for p in extract.LOCALE.glob("*/LC_MESSAGES/engine.po")}
        assert words.languages()[0] == "pt" and set(words.languages()) == folders | {"pt"}
        assert [words.get(lang).name for lang in ("pt", "en", "es")] == [
            "Português (Brasil)",
            "English",
            "Español",
        ]
        assert [words.get(lang).tag for lang in ("pt", "en", "es")] == ["pt-BR", "en", "es"]

    @pytest.mark.parametrize(
        ("tag", "default", "lang"),
        [
            ("pt-BR", "pt", "pt"),
            ("en_US.UTF-8", "pt", "en"),
            ("en-GB", "pt", "en"),
            ("en:pt", "pt", "en"),
            ("es-AR", "pt", "es"),
            ("es_UY.UTF-8", "en", "es"),
            ("de", "en", "en"),
            ("C.UTF-8", "pt", "pt"),
            (None, "pt", "pt"),
            ("", "en", "en"),
        ],
    )
    def test_language_for_a_tag(self, tag: str | None, default: str, lang: str) -> None:
        assert words.language_for(tag, default) == lang

    def test_every_text_is_translated_with_the_same_fields(self) -> None:
        wanted = extract.source_messages()
        for lang in words.languages()[1:]:
            path = extract.LOCALE / lang / "LC_MESSAGES" / "engine.po"
            entries = {
                extract.Message(e.msgctxt, e.msgid, e.msgid_plural): e
                for e in read_po(path.read_text(encoding="utf-8"))
                if e.msgid
            }
            assert set(entries) == set(wanted), f"{lang}: run python -m engine.words.extract"
            for message, entry in entries.items():
                assert entry.translated, (lang, message)
                for text in entry.msgstr:
                    assert fields(text) == fields(message.msgid), (lang, message)

    def test_catalogs_are_as_the_extractor_writes_them(self) -> None:
        for path in extract.LOCALE.glob("*/LC_MESSAGES/engine.po"):
            if path.parts[-3] != words.SOURCE:
                text = path.read_text(encoding="utf-8")
                assert extract.update(path, extract.source_messages()) == text, path

    def test_the_po_reader(self) -> None:
        po = r"""
# a comment
msgid ""
msgstr ""
"Content-Type: text/plain; charset=utf-8\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

msgctxt "rank"
msgid "seis"
msgstr "six"

msgid "uma "
"linha \"só\""
msgstr "one \"line\"\n"

msgid "{n} ponto"
msgid_plural "{n} pontos"
msgstr[0] "{n} point"
msgstr[1] "{n} points"

#, fuzzy
msgid "dúvida"
msgstr "doubt"

msgid "vazio"
msgstr ""
"""
        t = translations(po)
        assert t.pgettext("rank", "seis") == "six" and t.gettext("seis") == "seis"
        assert t.gettext('uma linha "só"') == 'one "line"\n'
        assert [t.ngettext("{n} ponto", "{n} pontos", n) for n in (1, 2)] == [
            "{n} point",
            "{n} points",
        ]
        assert t.gettext("dúvida") == "dúvida" and t.gettext("vazio") == "vazio"
        for bad in ('msgid "a"\nmsgstr "b" x', 'msgstr "b"', '"orphan"', 'msgid "a"\nfoo "b"'):
            with pytest.raises(PoError):
                read_po(bad)


class TestNames:
    def test_cards_in_both_deck_styles(self) -> None:
        kh, qc, ad = parse_cards("KH QC AD")
        assert [PT.card(kh), PT.card(kh, DeckStyle.SPANISH)] == ["K♥", "12 de copas"]
        assert [EN.card(qc), EN.card(ad, DeckStyle.SPANISH)] == ["Q♣", "1 of coins"]
        assert PT.card_name(qc, article=True, label=True) == "a dama de paus (Q♣)"
        assert PT.card_name(kh, DeckStyle.SPANISH) == "12 de copas (rey)"
        assert EN.card_name(kh, article=True) == "the king of hearts"
        for card in ALL_CARDS:  # the engine's own Spanish label reads the same in pt-BR
            assert PT.card(card, DeckStyle.SPANISH) == card.label_in(DeckStyle.SPANISH)
            # a rank alone (the manilha of a vira) reads as the card's label begins
            assert PT.card(card, DeckStyle.SPANISH).startswith(
                PT.rank_label(card.rank, DeckStyle.SPANISH) + " "
            )
            assert PT.card(card) == PT.rank_label(card.rank) + card.suit.symbol

    def test_calls_special_hands_levels_variants(self) -> None:
        mineiro = get_ruleset("mineiro")
        assert [PT.shout(s, mineiro) for s in range(4)] == ["Truco!", "Seis!", "Nove!", "Doze!"]
        assert [EN.shout(s) for s in range(4)] == ["Truco!", "Six!", "Nine!", "Twelve!"]
        assert PT.special_hand(mineiro) == "mão de dez"
        assert PT.special_hand(get_ruleset("trem-bao")) == "mão de onze"
        assert (PT.iron_hand(), EN.iron_hand()) == ("mão de ferro", "iron hand")
        assert [PT.level(x) for x in ("facil", "Médio", "difícil")] == ["fácil", "médio", "difícil"]
        assert EN.level("medio") == "medium" and EN.level("nenhum") == "nenhum"
        assert EN.variant(get_ruleset("paulista")) == "Paulista truco"
        assert PT.ladder((4, 6, 10, 12)) == "4-6-10-12"
        assert PT.manilha(Card.parse("4C").suit) == "zap"
        king = Card.parse("KC").rank
        assert (PT.ranks(king), EN.ranks(king), EN.ranks(Card.parse("3C").rank)) == (
            "reis",
            "kings",
            "threes",
        )
        assert (EN.sinal(Sinal.NADA), PT.sinal_seen(Sinal.ZAP)) == ("nothing", "piscou")

    def test_seats_from_a_chair(self) -> None:
        assert [PT.seat(s, 0, 2) for s in range(2)] == ["Você", "Adversário"]
        assert [EN.seat(s, 1, 4) for s in range(4)] == [
            "Left-hand opponent",
            "You",
            "Right-hand opponent",
            "Partner",
        ]
        assert (PT.team(1, 3), PT.team(0, 3), PT.tie()) == ("nós", "eles", "cangou")


class TestActions:
    def test_buttons_and_what_was_done(self) -> None:
        m = deal("paulista", "3C QC KC|KH 3H QH", vira="4D", dealer=1)
        v = m.view(0)
        kc = A.PLAY[Card.parse("KC")]
        assert [PT.button(a, v) for a in (kc, A.TRUCO)] == ["K♣", "Truco!"]
        assert PT.did(A.TRUCO, v) == "pediu Truco!" and EN.did(kc, v) == "played K♣"
        act(m, "0 truco")
        v = m.view(1)
        assert [PT.button(a, v) for a in v.legal] == ["Desce!", "Corro", "Seis!"]
        assert [EN.button(a, v) for a in v.legal] == ["Accept (Desce!)", "Run (Corro)", "Six!"]
        assert [PT.did(a, v) for a in v.legal] == ["aceitou", "correu", "pediu Seis!"]
        assert PT.narrate("Adversário", A.RAISE, v) == "Adversário: aceita e aumenta — Seis!"
        assert PT.narrate("Você", A.ACCEPT, v) == "Você: Desce! (truco aceito)"
        act(m, "1 accept", "0 play 3C", "1 play KH")
        v = m.view(0)
        cover = A.COVER[Card.parse("QC")]
        assert PT.button(cover, v) == "🂠 Q♣"
        assert PT.did(cover, v) == "cobriu Q♣" and PT.did(cover, v, public=True) == (
            "jogou uma carta coberta"
        )
        assert PT.narrate("Você", cover, v, own=True) == "Você: cobre a dama de paus (Q♣)."
        assert PT.narrate("Parceiro", cover, v) == "Parceiro: joga uma carta coberta."

    def test_the_special_and_iron_hands(self) -> None:
        m = deal("mineiro", "3C QC KC|KH 3H QH", dealer=1, score=(10, 4))
        v = m.view(0)
        assert [PT.button(a, v) for a in v.legal] == ["Vamos jogar", "Correr"]
        assert PT.did(A.PLAY11, v) == "aceitou jogar a mão de dez"
        assert PT.narrate("Você", A.RUN11, v) == "Você: corre da mão de dez."
        iron = deal("paulista", "3C QC KC|KH 3H QH", vira="4D", dealer=1, score=(11, 11))
        v = iron.view(0)
        assert [PT.button(a, v) for a in v.legal] == ["1ª carta", "2ª carta", "3ª carta"]
        assert EN.did(A.BLIND[2], v) == "played blind card #3"

    def test_the_words_never_leave_a_field_unfilled(self) -> None:
        rnd = random.Random(3)
        for variant in ("paulista", "mineiro", "trem-bao"):
            for n in (2, 4):
                m = Match(variant, TableOptions(players=n), 7)
                while not m.is_terminal():
                    if m.phase == Phase.HAND_OVER:
                        m.deal()
                        continue
                    seat = rnd.choice(m.to_act())
                    v = m.view(seat)
                    for w in (PT, EN, ES):
                        for a in (*v.legal, *m.legal_signals(seat)):
                            for text in (w.button(a, v), w.did(a, v), w.narrate("X", a, v)):
                                assert text and not re.search(r"[{}]", text), (a, text)
                    m.apply(seat, rnd.choice(v.legal))


class TestSpanish:
    """Spanish words the Portuguese grammar would break: "¡...!", the rank's own gender."""

    def test_shouts_open_with_the_inverted_mark(self) -> None:
        assert [ES.shout(s) for s in range(4)] == ["¡Truco!", "¡Seis!", "¡Nueve!", "¡Doce!"]
        assert ES.did(A.TRUCO, deal("paulista", "3C QC KC|KH 3H QH", vira="4D").view(0)) == (
            "cantó ¡Truco!"
        )

    def test_each_rank_carries_its_own_article(self) -> None:
        qs, js, ks, ad = parse_cards("QS JS KS AD")
        assert ES.card_name(qs, article=True, label=True) == "la reina de picas (Q♠)"
        assert ES.card_name(js, article=True) == "la jota de picas"  # feminine in Spanish
        assert ES.card_name(ks, article=True) == "el rey de picas"
        assert PT.card_name(js, article=True) == "o valete de espadas"
        assert ES.card_name(ad, DeckStyle.SPANISH, article=True) == "el 1 de oros"
        assert ES.card_name(js, DeckStyle.SPANISH, article=True) == "el 11 de espadas (caballo)"

    def test_the_answers_to_a_truco_are_the_river_plate_ones(self) -> None:
        m = deal("paulista", "3C QC KC|KH 3H QH", vira="4D", dealer=1)
        act(m, "0 truco")
        v = m.view(1)
        assert [ES.button(a, v) for a in v.legal] == ["¡Quiero!", "No quiero", "¡Seis!"]
        assert [ES.did(a, v) for a in v.legal] == ["quiso", "se fue al mazo", "cantó ¡Seis!"]
        assert ES.narrate("Vos", A.ACCEPT, v) == "Vos: ¡Quiero! (truco querido)"
        assert [ES.seat(s, 0, 4) for s in range(4)] == [
            "Vos",
            "Rival de la derecha",
            "Compañero",
            "Rival de la izquierda",
        ]
        assert (ES.tie(), ES.iron_hand()) == ("parda", "mano de hierro")
        assert ES.refusal(IllegalAction(ErrorCode.NOT_YOUR_TURN)) == "No es tu turno."


class TestRefusals:
    def test_every_refusal_the_match_raises_is_worded(self) -> None:
        m = deal("paulista", "3C QC KC|KH 3H QH", vira="4D", dealer=1)
        cases = ["1 play KH", "0 play KH", "0 accept", "0 run11", "5 play 3C"]
        act(m, "0 truco")
        cases += ["0 play 3C", "0 accept"]
        seen = []
        for step in cases:
            with pytest.raises(IllegalAction) as info:
                act(m.copy(), step)
            exc = info.value
            seen.append((exc.code, exc.reason))
            for w in (PT, EN, ES):
                text = w.refusal(exc)
                assert text and not re.search(r"[{}]", text)
        assert (ErrorCode.NO_CALL_PENDING, "own_call") in seen
        assert PT.refusal(IllegalAction(ErrorCode.NOT_YOUR_TURN, "no_such_seat", seat=5)) == (
            "Não há jogador 5 nesta mesa."
        )
        assert EN.refusal(IllegalAction(ErrorCode.NOT_YOUR_TURN)) == "It is not your turn."

    def test_unknown_reasons_and_missing_params_fall_back_to_the_code(self) -> None:
        assert PT.refusal(IllegalAction(ErrorCode.HAND_OVER, "new_reason")) == "A mão já acabou."
        bare = IllegalAction(ErrorCode.INVALID_SCENARIO, "duplicate")
        assert EN.refusal(bare) == "Invalid scenario."

    def test_variant_params_read_as_titles(self) -> None:
        exc = IllegalAction(ErrorCode.INVALID_SCENARIO, "no_vira_in_variant", variant="trem-bao")
        assert PT.refusal(exc) == "Trem Bão não tem vira."
        assert all(key[0] in ErrorCode for key in REFUSALS)
        assert all((code, None) in REFUSALS for code in ErrorCode)

    def test_refusals_carry_codes_not_words(self) -> None:
        with pytest.raises(IllegalAction) as info:
            act(deal("paulista", "3C QC KC|KH 3H QH", vira="4D", dealer=1), "0 truco", "0 raise")
        exc = info.value
        assert (exc.code, exc.reason, exc.params) == (ErrorCode.NO_CALL_PENDING, "own_call", {})
        assert not hasattr(exc, "message")


def test_unknown_values_read_pt_br_and_are_translated() -> None:
    from engine import InvalidValue
    from engine.robots import normalize_level

    attempts = [
        lambda: get_ruleset("buraco"),
        lambda: Card.parse("8C"),
        lambda: Sinal.parse("olho"),
        lambda: normalize_level("mestre"),
        lambda: TableOptions(players=3).validated(get_ruleset("paulista")),
        lambda: TableOptions(target=40).validated(get_ruleset("paulista")),
        lambda: TableOptions(timer=1).validated(get_ruleset("paulista")),
        lambda: TableOptions(catch_percent=101).validated(get_ruleset("paulista")),
        lambda: TableOptions(ladder=(3, 6, 9, 12)).validated(get_ruleset("mineiro")),
    ]
    texts = []
    for attempt in attempts:
        with pytest.raises(InvalidValue) as info:
            attempt()
        exc = info.value
        assert str(exc) == PT.refusal(exc)  # the exception reads as its pt-BR text
        assert EN.refusal(exc) != str(exc) and not re.search(r"[{}]", EN.refusal(exc))
        texts.append(EN.refusal(exc))
    assert texts[0] == "unknown variant: 'buraco' (known: paulista, mineiro, trem-bao, gauderio)"
    assert texts[-1] == "invalid truco ladder for Mineiro truco: use 4-8-10-12, 4-6-10-12"


def test_the_catalogs_ship_with_the_package() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert "words/locale/*/LC_MESSAGES/*.po" in pyproject
    assert Act.SIGNAL in set(Act)
