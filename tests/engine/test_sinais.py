"""R12 Sinais: the table of signals, when a seat may signal, who sees it, and replay."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import Act, Card, ErrorCode, HandKind, Match, Phase, TableOptions
from engine import actions as A
from engine.cards import parse_cards
from engine.match import catch_roll
from engine.scenario import replay as replay_scenario
from engine.sinais import (
    ALL_SINAIS,
    GAUDERIO_SINAIS,
    PAULISTA_SINAIS,
    SINAIS,
    Sinal,
    truthful,
)
from tests.engine.helpers import act, deal, refused

HANDS = "5C 5H 5S|3C 3H 6S|4D 4H 6D|2C 2H 7S"


def hidden(m: Match, seat: int) -> list[tuple[int, A.Action]]:
    """The signals in ``seat``'s history whose content it was not told."""
    return [(s, a) for s, a in m.view(seat).history if a == A.HIDDEN_SIGNAL]


class TestTable:
    def test_one_signal_per_card_that_matters_plus_nada(self) -> None:
        assert [s.code for s in PAULISTA_SINAIS] == [
            "zap", "copas", "espadilha", "pica-fumo", "tres", "dois", "as", "nada",
        ]  # fmt: skip
        assert [info.sinal for info in SINAIS] == list(PAULISTA_SINAIS)
        assert [info.sinal for info in ALL_SINAIS] == list(Sinal)
        faces = {info.face for info in SINAIS}
        emoji = {info.emoji for info in SINAIS}
        assert len(faces) == len(emoji) == len(SINAIS)  # no two signals look alike

    def test_codes_round_trip_in_actions(self) -> None:
        for s in Sinal:
            assert Sinal.parse(s.code) is s
            assert A.Action.parse(str(A.SIGNAL[s])) == A.SIGNAL[s]
        assert A.Action.parse("signal") == A.HIDDEN_SIGNAL
        with pytest.raises(ValueError):
            Sinal.parse("curinga")
        with pytest.raises(ValueError):
            A.Action.parse("signal zap copas")

    def test_what_each_signal_names_follows_the_hand(self) -> None:
        paulista = Match.from_hand(
            "paulista",
            TableOptions(players=4),
            score=(0, 0),
            dealer=3,
            hands=[parse_cards(h) for h in HANDS.split("|")],
            vira=Card.parse("4C"),
        )
        manilhas = paulista.manilhas()  # vira 4: the fives are manilhas
        assert truthful(parse_cards("5C 3H 6S"), manilhas) == Sinal.ZAP
        assert truthful(parse_cards("5H 2C 7S"), manilhas) == Sinal.COPAS
        assert truthful(parse_cards("3C 2H 6S"), manilhas) == Sinal.TRES
        assert truthful(parse_cards("AC KH 6S"), manilhas) == Sinal.AS
        assert truthful(parse_cards("KC QH 6S"), manilhas) == Sinal.NADA
        fixed = parse_cards("4C 7H AS 7D")  # mineiro and Trem Bão
        assert truthful(parse_cards("AS 3C 2C"), fixed) == Sinal.ESPADILHA
        assert truthful(parse_cards("7D KC QC"), fixed) == Sinal.PICA_FUMO
        assert not SINAIS[Sinal.AS].matches(Card.parse("AS"), fixed)  # a manilha, not an ás
        assert SINAIS[Sinal.AS].matches(Card.parse("AH"), fixed)


class TestR12Sinais:
    def test_on_by_default_in_2x2_only(self) -> None:
        assert TableOptions(players=4).sinais_on
        assert not TableOptions(players=2).sinais_on
        assert not TableOptions(players=4, sinais=False).sinais_on
        assert TableOptions().catch_percent == 25
        for bad in (-1, 101):
            with pytest.raises(ValueError):
                TableOptions(players=4, catch_percent=bad).validated(Match("paulista").ruleset)

    def test_none_in_1x1_with_the_option_off_or_in_the_iron_hand(self) -> None:
        one = deal("paulista", "5C 5H 5S|3C 3H 6S", vira="KD")
        assert one.legal_signals(0) == [] and one.view(0).legal_signals == ()
        assert refused(one, "0 signal zap") == ErrorCode.SIGNAL_NOT_ALLOWED
        off = deal("paulista", HANDS, vira="KD", sinais=False)
        assert off.legal_signals(0) == []
        assert refused(off, "0 signal zap") == ErrorCode.SIGNAL_NOT_ALLOWED
        iron = deal("paulista", HANDS, vira="KD", score=(11, 11))
        assert iron.kind == HandKind.IRON and iron.legal_signals(0) == []
        assert refused(iron, "0 signal nada") == ErrorCode.SIGNAL_NOT_ALLOWED

    def test_any_seat_right_after_the_deal_and_it_costs_no_turn(self) -> None:
        # amended R12: signs go round right after the deal, on or off the seat's turn
        m = deal("paulista", HANDS, vira="KD")
        assert m.turn == 0 and all(len(m.legal_signals(s)) == len(SINAIS) for s in range(4))
        legal = m.legal_actions(0)
        act(m, "1 signal zap", "0 signal copas")
        assert m.phase == Phase.PLAY and m.turn == 0 and m.to_act() == (0,)
        assert m.legal_actions(0) == legal and m.legal_actions(1) == []
        assert m.log[-1] == (0, A.SIGNAL[Sinal.COPAS])
        assert A.SIGNAL[Sinal.COPAS] not in legal  # a move is never a signal

    def test_one_per_player_per_round(self) -> None:
        m = deal("paulista", HANDS, vira="KD")
        act(m, "0 signal zap")
        assert m.legal_signals(0) == []
        assert refused(m, "0 signal nada") == ErrorCode.SIGNAL_NOT_ALLOWED
        act(m, "0 play 5C", "1 signal tres", "1 play 3C", "2 play 4D", "3 play 2C")
        assert m.round_index == 1 and m.turn == 1  # 3C won the round
        act(m, "1 play 3H")
        assert m.turn == 2
        act(m, "2 signal nada", "2 play 4H", "3 play 7S")
        assert m.turn == 0 and m.legal_signals(0)  # a new round: zap again
        act(m, "0 signal zap")

    def test_while_a_call_or_a_decision_waits_and_only_while_holding_a_card(self) -> None:
        m = deal("paulista", HANDS, vira="KD")
        act(m, "0 truco")
        assert all(m.legal_signals(s) for s in range(4))  # the caller's side too
        act(m, "3 signal dois", "1 signal zap", "2 signal nada")
        assert m.phase == Phase.ANSWER and m.to_act() == (1, 3)
        act(m, "1 accept")
        assert m.turn == 0 and m.legal_signals(0) and not m.legal_signals(2)
        onze = deal("paulista", HANDS, vira="KD", score=(0, 11))
        assert onze.phase == Phase.DECIDE
        assert all(onze.legal_signals(s) for s in range(4))
        act(onze, "0 signal nada", "3 play11")
        last = deal("paulista", "3C 4C 5C|4H 3H 5H|4D 6D 7D|4S 6S 7S", vira="KD")
        act(last, "0 play 3C", "1 play 4H", "2 play 4D", "3 play 4S")  # 3C takes the first
        act(last, "0 play 4C", "1 play 3H", "2 play 6D", "3 play 6S")  # 3H the second
        assert last.round_index == 2 and last.turn == 1
        act(last, "1 play 5H")
        assert last.phase == Phase.PLAY and last.turn == 2
        assert not last.legal_signals(1)  # no card left to play
        assert last.legal_signals(2) and last.legal_signals(0)

    def test_refused_after_the_hand(self) -> None:
        m = deal("paulista", HANDS, vira="KD")
        act(m, "0 truco", "1 run", "3 run")
        assert m.phase == Phase.HAND_OVER
        assert refused(m, "0 signal zap") == ErrorCode.HAND_OVER

    def test_partner_receives_it_and_opponents_see_only_that_one_was_made(self) -> None:
        m = deal("paulista", HANDS, vira="KD", catch_percent=0)
        act(m, "0 signal zap")
        assert m.view(2).signals == ((0, Sinal.ZAP),)
        assert (0, A.SIGNAL[Sinal.ZAP]) in m.view(0).history  # the signaller knows it
        assert m.view(0).signals == ()  # ...and it is not one it received
        for opponent in (1, 3):
            assert m.view(opponent).signals == ()
            assert hidden(m, opponent) == [(0, A.HIDDEN_SIGNAL)]
            seen = m.view(opponent).to_json()
            seen.pop("legal_signals")  # its own signals to send, off its turn too (R12)
            assert "zap" not in str(seen)

    def test_every_opponent_catches_at_100_percent(self) -> None:
        m = deal("paulista", HANDS, vira="KD", catch_percent=100)
        act(m, "0 signal espadilha")
        assert m.view(1).signals == m.view(3).signals == ((0, Sinal.ESPADILHA),)

    def test_the_signaller_never_learns_whether_it_was_caught(self) -> None:
        views = []
        for percent in (0, 100):
            m = deal("paulista", HANDS, vira="KD", catch_percent=percent)
            act(m, "0 signal pica-fumo", "0 play 5C", "1 play 3C", "2 signal nada")
            # the catch chance is a table option everyone knows; all else must be equal
            same = TableOptions(players=4)
            views.append(tuple(replace(m.view(s), options=same) for s in (0, 2)))
        assert views[0] == views[1]

    def test_the_catch_is_the_seeds_and_about_one_in_four(self) -> None:
        rolls = [catch_roll(seed, 0, i, s) for seed in range(500) for i in range(4) for s in (1, 3)]
        share = sum(r < 25 for r in rolls) / len(rolls)
        assert 0.22 < share < 0.28
        assert rolls == [
            catch_roll(seed, 0, i, s) for seed in range(500) for i in range(4) for s in (1, 3)
        ]
        # different seeds catch differently: the chance is the match's, not a fixed pattern
        caught = set()
        for seed in range(40):
            m = Match("paulista", TableOptions(players=4), seed)
            seat = m.to_act()[0]
            m.apply(seat, A.SIGNAL[Sinal.NADA])
            caught.add(tuple(m.caught(0, s) for s in range(4)))
        assert len(caught) > 2
        assert all(not c[seat] and not c[(seat + 2) % 4] for c in caught)

    def test_a_match_with_signals_replays_exactly(self) -> None:
        opts = TableOptions(players=4)
        m = Match("mineiro", opts, 99)
        while not m.is_terminal():
            if m.phase == Phase.HAND_OVER:
                m.deal()
                continue
            seat = m.to_act()[0]
            if m.legal_signals(seat):
                m.apply(seat, A.SIGNAL[truthful(m.hands[seat], m.manilhas())])
            m.apply(seat, m.default_action(seat) or m.legal_actions(seat)[0])
        assert any(a.act == Act.SIGNAL for _, a in m.log)
        again = Match.replay("mineiro", opts, 99, m.log)
        assert again.to_json() == m.to_json()

    def test_snapshots_keep_signals_and_old_snapshots_load(self) -> None:
        m = deal("trem-bao", "3C QC KC|KH 3H QH|2C JC AC|2D JD AD", catch_percent=40)
        act(m, "0 signal tres")
        snap = m.to_json()
        back = Match.from_json(snap)
        assert back.to_json() == snap
        assert [back.view(s) for s in range(4)] == [m.view(s) for s in range(4)]
        old = dict(snap, options=dict(snap["options"]))
        del old["signalled"], old["options"]["sinais"], old["options"]["catch_percent"]
        restored = Match.from_json(old)
        assert restored.options.sinais_on and restored.options.catch_percent == 25

    def test_scenarios_carry_no_signals(self) -> None:
        scenario = {
            "variant": "paulista",
            "players": 4,
            "dealer": 3,
            "hands": [h.split() for h in HANDS.split("|")],
            "vira": "KD",
            "actions": [{"seat": 0, "act": "signal", "sinal": "zap"}],
        }
        result = replay_scenario(scenario)
        assert result["error"]["code"] == "invalid_scenario" and result["error"]["index"] == 0


class TestR13Sinais:
    """R13.5: a gaudério table's own list of signals."""

    def test_the_list_of_r13_5(self) -> None:
        assert [s.code for s in GAUDERIO_SINAIS] == [
            "espadao", "bastiao", "sete-espadas", "sete-ouros", "tres", "dois", "pontos",
            "flor", "nada",
        ]  # fmt: skip
        m = deal("gauderio", "7S 6S 3D|4C 5H KD|AS 2C QH|4H 5C JD", dealer=3)
        assert [a.sinal for a in m.legal_signals(0)] == list(GAUDERIO_SINAIS)
        assert [a.sinal for a in m.view(1).legal_signals] == list(GAUDERIO_SINAIS)
        # the paulista faces are not signs at this table
        assert refused(m, "0 signal zap") == ErrorCode.SIGNAL_NOT_ALLOWED
        act(m, "2 signal espadao")
        assert m.view(0).signals == ((2, Sinal.ESPADAO),)

    def test_what_each_names(self) -> None:
        top = parse_cards("AS AC 7S 7D")
        sinais = GAUDERIO_SINAIS
        assert truthful(parse_cards("AS 4C 5D"), top, sinais) == Sinal.ESPADAO
        assert truthful(parse_cards("7D AC 5D"), top, sinais) == Sinal.BASTIAO
        assert truthful(parse_cards("7S 3C 5D"), top, sinais) == Sinal.SETE_ESPADAS
        assert truthful(parse_cards("7D 3C 5D"), top, sinais) == Sinal.SETE_OUROS
        assert truthful(parse_cards("3C 2C 5D"), top, sinais) == Sinal.TRES
        # a false seven is no sign; 7H 6H are 33 of envido: "tenho pontos"
        assert truthful(parse_cards("7H 6H 4D"), top, sinais, points=33) == Sinal.PONTOS
        assert truthful(parse_cards("KH QH JH"), top, sinais, points=20, flor=True) == Sinal.FLOR
        assert truthful(parse_cards("KH 5C 4D"), top, sinais, points=5) == Sinal.NADA
