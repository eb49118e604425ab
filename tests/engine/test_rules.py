"""One test class per section of docs-dev/RULES.md (R1–R11; R12 in test_sinais.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import (
    Act,
    Card,
    ErrorCode,
    HandKind,
    IllegalAction,
    Match,
    Phase,
    Rank,
    Suit,
    TableOptions,
    get_ruleset,
)
from engine import actions as A
from engine.cards import ALL_CARDS, DeckStyle, parse_cards
from engine.rulesets import DEFAULT_VARIANT, HOUSE_LADDERS, house_ladder
from tests.engine.helpers import act, deal, refused


class TestR1Cards:
    def test_codes_round_trip(self) -> None:
        for card in ALL_CARDS:
            assert Card.parse(card.code) is card
            assert Card.parse(card.code.lower()) is card
        assert Card.parse("4C").rank is Rank.FOUR and Card.parse("4C").suit is Suit.CLUBS

    def test_unknown_codes_are_refused(self) -> None:
        for bad in ("8C", "10H", "", "XX", "4X"):
            with pytest.raises(ValueError):
                Card.parse(bad)

    def test_common_order_ignores_suit(self) -> None:
        strength = get_ruleset("mineiro").strength_table(None)
        order = parse_cards("4H 5C 6C 7C QC JC KC AC 2C 3C")
        assert [strength[c] for c in order] == sorted(strength[c] for c in order)
        assert len({strength[c] for c in order}) == 10
        assert strength[Card.parse("KC")] == strength[Card.parse("KD")]

    def test_manilhas_beat_everything_and_never_tie(self) -> None:
        rs = get_ruleset("paulista")
        strength = rs.strength_table(Card.parse("7D"))
        zap, copas, espadilha, ouros = parse_cards("QC QH QS QD")
        assert strength[zap] > strength[copas] > strength[espadilha] > strength[ouros]
        assert strength[ouros] > strength[Card.parse("3C")]


class TestR2Variants:
    def test_decks(self) -> None:
        assert len(get_ruleset("paulista").deck) == 40
        assert len(get_ruleset("mineiro").deck) == 40
        trem = get_ruleset("trem-bao").deck
        assert len(trem) == 27
        assert set(parse_cards("4C 7H 7D")) <= set(trem)
        assert not set(parse_cards("4H 5C 6D 7S 7C")) & set(trem)

    def test_registry_aliases(self) -> None:
        for alias in ("trem-bao", "trembao", "Trem Bão", "TREM BAO"):
            assert get_ruleset(alias).name == "trem-bao"
        assert get_ruleset("Paulista").name == "paulista"
        for alias in ("gauderio", "gaúcho", "cego", "Truco Gaudério"):
            assert get_ruleset(alias).name == "gauderio"  # R13
        with pytest.raises(ValueError, match="variante desconhecida"):
            get_ruleset("buraco")

    def test_paulista_manilha_follows_vira_and_wraps(self) -> None:
        rs = get_ruleset("paulista")
        assert rs.manilhas_for(Card.parse("7D")) == parse_cards("QC QH QS QD")
        assert rs.manilhas_for(Card.parse("3S")) == parse_cards("4C 4H 4S 4D")

    def test_fixed_manilhas(self) -> None:
        for name in ("mineiro", "trem-bao"):
            assert get_ruleset(name).manilhas_for(None) == parse_cards("4C 7H AS 7D")

    def test_other_fixed_manilhas_rank_by_their_listed_order(self) -> None:
        # a gaudério-like variant (A♠ A♣ 7♠ 7♦) under a reused name: its order is its own
        mineiro = get_ruleset("mineiro")
        before = mineiro.strength_table(None)
        gauderio = replace(mineiro, manilhas=parse_cards("AS AC 7S 7D"))
        strength = gauderio.strength_table(None)
        ranked = [strength[c] for c in parse_cards("AS AC 7S 7D")]
        assert ranked == sorted(ranked, reverse=True) and len(set(ranked)) == 4
        assert min(ranked) > max(strength[c] for c in parse_cards("3C 3H 2S AH"))
        assert [c.code for c in gauderio.card_order()[0]] == ["AS"]
        assert mineiro.strength_table(None) == before
        assert [before[c] for c in parse_cards("4C 7H AS 7D")] == [13, 12, 11, 10]

    def test_values(self) -> None:
        assert get_ruleset("paulista").hand_value == 1
        assert get_ruleset("mineiro").hand_value == 2
        assert get_ruleset("mineiro").ladder == (4, 8, 10, 12)
        assert get_ruleset("trem-bao").ladder == (3, 6, 9, 12)
        assert get_ruleset("trem-bao").fixed_timer == 30

    def test_table_options_are_checked(self) -> None:
        rs = get_ruleset("mineiro")
        assert TableOptions(ladder=(4, 6, 10, 12)).validated(rs).ladder == (4, 6, 10, 12)
        for bad in (
            TableOptions(target=5),
            TableOptions(target=31),
            TableOptions(players=3),
            TableOptions(ladder=(3, 6, 9, 12)),
        ):
            with pytest.raises(ValueError):
                bad.validated(rs)
        with pytest.raises(ValueError):
            TableOptions(ladder=(4, 6, 10, 12)).validated(get_ruleset("paulista"))


class TestR3Dealing:
    @pytest.mark.parametrize("variant", ["paulista", "mineiro", "trem-bao"])
    @pytest.mark.parametrize("players", [2, 4])
    def test_deal(self, variant: str, players: int) -> None:
        m = Match(variant, TableOptions(players=players), seed=7, dealer=1)
        cards = [c for h in m.hands for c in h]
        assert all(len(h) == 3 for h in m.hands) and len(m.hands) == players
        assert len(set(cards)) == 3 * players
        assert set(cards) <= set(m.ruleset.deck)
        assert (m.vira is not None) == (variant == "paulista")
        assert m.vira not in cards
        assert m.to_act() == (2 % players,)  # the seat after the dealer leads

    def test_deal_is_seeded(self) -> None:
        a, b, c = (Match("paulista", TableOptions(players=4), s) for s in (1, 1, 2))
        assert a.hands == b.hands and a.vira == b.vira
        assert a.hands != c.hands

    def test_dealer_rotates(self) -> None:
        m = act(deal("paulista", "3C 3H 3S|4C 4H 5S", vira="7D", dealer=0), "1 truco", "0 run")
        assert m.phase == Phase.HAND_OVER
        m.deal()
        assert m.dealer == 1 and m.to_act() == (0,) and m.hand_number == 1

    def test_teams(self) -> None:
        m = Match("paulista", TableOptions(players=4))
        assert [m.team_of(s) for s in range(4)] == [0, 1, 0, 1]


class TestR4Rounds:
    # vira 4D makes the 5s manilhas, so these hands hold only common cards
    @pytest.mark.parametrize(
        ("hands", "steps", "rounds", "winner"),
        [
            (
                "KC 7C 4C|KH 3H 6H",
                ["0 play KC", "1 play KH", "0 play 7C", "1 play 3H"],
                [None, 1],
                1,
            ),
            (
                "KC QC 3C|KH QH 2H",
                ["0 play KC", "1 play KH", "0 play QC", "1 play QH", "0 play 3C", "1 play 2H"],
                [None, None, 0],
                0,
            ),
            (
                "3C KC 4C|2H KH 6H",
                ["0 play 3C", "1 play 2H", "0 play KC", "1 play KH"],
                [0, None],
                0,
            ),
            (
                "3C 4C KC|2H 3H KH",
                ["0 play 3C", "1 play 2H", "0 play 4C", "1 play 3H", "1 play KH", "0 play KC"],
                [0, 1, None],
                0,
            ),
            (
                "KC QC 7C|KH QH 7H",
                ["0 play KC", "1 play KH", "0 play QC", "1 play QH", "0 play 7C", "1 play 7H"],
                [None, None, None],
                None,
            ),
        ],
        ids=["tie-then-win", "two-ties", "win-then-tie", "one-each-then-tie", "three-ties"],
    )
    def test_cangou_table(
        self, hands: str, steps: list[str], rounds: list[int | None], winner: int | None
    ) -> None:
        m = act(deal("paulista", hands, vira="4D", dealer=1), *steps)
        assert list(m.rounds) == rounds
        assert m.phase == Phase.HAND_OVER and m.hand_winner == winner
        assert m.points == ((0, 0) if winner is None else ((1, 0) if winner == 0 else (0, 1)))

    def test_two_wins_end_the_hand(self) -> None:
        m = act(
            deal("paulista", "3C 3H 4C|2C 2H 6H", vira="4D", dealer=1),
            *["0 play 3C", "1 play 2C", "0 play 3H", "1 play 2H"],
        )
        assert m.rounds == (0, 0) and m.hand_winner == 0 and m.hands[0] == parse_cards("4C")
        assert refused(m, "0 play 4C") == ErrorCode.HAND_OVER

    def test_partners_sharing_the_best_card_win_and_the_first_leads(self) -> None:
        m = deal("paulista", "KC 4C 4H|QC 6C 6H|KH 7C 7H|QH 6S 6D", vira="4D", dealer=3)
        act(m, "0 play KC", "1 play QC", "2 play KH", "3 play QH")
        assert m.rounds == (0,) and m.to_act() == (0,)

    def test_tied_round_is_led_again_by_its_leader(self) -> None:
        m = act(
            deal("paulista", "KC 7C 4C|KH 3H 6H", vira="4D", dealer=0), "1 play KH", "0 play KC"
        )
        assert m.rounds == (None,) and m.to_act() == (1,)
        assert refused(m, "0 play 7C") == ErrorCode.NOT_YOUR_TURN

    def test_winner_leads_next_round(self) -> None:
        m = act(
            deal("paulista", "3C 7C 4C|KH 3H 6H", vira="4D", dealer=0), "1 play KH", "0 play 3C"
        )
        assert m.to_act() == (0,)

    def test_play_order_and_hand_ownership(self) -> None:
        m = deal("paulista", "3C 7C 4C|KH 3H 6H", vira="4D", dealer=0)
        assert refused(m, "0 play 3C") == ErrorCode.NOT_YOUR_TURN
        assert refused(m, "1 play 3C") == ErrorCode.CARD_NOT_IN_HAND


class TestR5CartaCoberta:
    def test_not_in_round_one_or_when_off(self) -> None:
        m = deal("paulista", "3C 7C 4C|KH 3H 6H", vira="4D", dealer=1)
        assert refused(m, "0 cover 3C") == ErrorCode.COVER_NOT_ALLOWED
        assert A.COVER[Card.parse("3C")] not in m.legal_actions(0)
        off = deal("paulista", "3C 7C 4C|KH 3H 6H", vira="4D", dealer=1, covered_cards=False)
        act(off, "0 play 3C", "1 play KH")
        assert refused(off, "0 cover 7C") == ErrorCode.COVER_NOT_ALLOWED

    def test_covered_card_loses_to_any_open_card_and_stays_hidden(self) -> None:
        m = deal("paulista", "3C 5C 4C|KH 3H 6H", vira="4D", dealer=1)  # 5C is the zap
        act(m, "0 play 3C", "1 play KH", "0 cover 5C", "1 play 6H")
        assert m.rounds == (0, 1)
        other = m.view(1)
        assert all(c is None for s, c, cov in other.past[1] if cov)
        assert (0, A.COVER[Card.parse("5C")]) not in other.history
        assert (0, A.Action(Act.COVER)) in other.history
        assert m.view(0).past[1][0] == (0, Card.parse("5C"), True)
        act(m, "1 play 3H", "0 play 4C")
        assert m.hand_winner == 1
        seen = m.view(1).to_json()
        assert "5C" not in str([seen["past"], seen["table"], seen["history"], seen["hand"]])

    def test_all_covered_round_is_a_tie_led_again(self) -> None:
        m = deal("paulista", "3C 7C 4C|KH 3H 6H", vira="4D", dealer=1)
        act(m, "0 play 3C", "1 play KH", "0 cover 7C", "1 cover 3H")
        assert m.rounds == (0, None) and m.hand_winner == 0  # won round 1, round 2 tied


class TestR6Truco:
    def test_accept_raises_the_stake_and_play_goes_on(self) -> None:
        m = act(deal("paulista", "3C 7C 4C|KH 3H 6H", vira="4D", dealer=1), "0 truco", "1 accept")
        assert m.stake == 3 and m.phase == Phase.PLAY and m.to_act() == (0,)
        assert refused(m, "0 truco") == ErrorCode.RAISE_NOT_ALLOWED
        act(m, "0 play 3C")
        assert refused(m, "1 accept") == ErrorCode.NO_CALL_PENDING

    def test_nothing_is_played_while_a_call_waits(self) -> None:
        m = act(deal("paulista", "3C 7C 4C|KH 3H 6H", vira="4D", dealer=1), "0 truco")
        assert refused(m, "0 play 3C") == ErrorCode.CALL_PENDING
        assert refused(m, "0 truco") == ErrorCode.CALL_PENDING
        assert refused(m, "0 accept") == ErrorCode.NO_CALL_PENDING

    @pytest.mark.parametrize(
        ("variant", "ladder", "runs"),
        [
            ("paulista", None, [1, 3, 6, 9]),
            ("trem-bao", None, [1, 3, 6, 9]),
            ("mineiro", None, [2, 4, 8, 10]),
            ("mineiro", (4, 6, 10, 12), [2, 4, 6, 10]),
        ],
    )
    def test_running_pays_the_value_before_the_call(
        self, variant: str, ladder: tuple[int, ...] | None, runs: list[int]
    ) -> None:
        hands = "3C QC KC|KH 3H QH"
        vira = "4D" if variant == "paulista" else None
        for step, value in enumerate(runs):
            m = deal(variant, hands, vira=vira, dealer=1, ladder=ladder)
            act(m, "0 truco")
            for i in range(step):  # raise alternately up the ladder
                act(m, f"{(i + 1) % 2} raise")
            caller = step % 2
            act(m, f"{1 - caller} run")
            assert m.hand_winner == caller and m.stake == value and m.points[caller] == value

    def test_raise_ladder_and_doze(self) -> None:
        m = act(deal("paulista", "3C QC KC|KH 3H QH", vira="4D", dealer=1), "0 truco", "1 raise")
        assert m.stake == 3 and m.pending_value == 6 and m.to_act() == (0,)
        act(m, "0 raise", "1 raise")
        assert m.pending_value == 12
        assert refused(m, "0 raise") == ErrorCode.RAISE_NOT_ALLOWED
        act(m, "0 accept", "0 play 3C")
        assert m.stake == 12 and A.TRUCO not in m.legal_actions(1)
        assert refused(m, "1 truco") == ErrorCode.RAISE_NOT_ALLOWED

    def test_other_team_calls_next_step_on_its_turn(self) -> None:
        m = act(
            deal("paulista", "3C QC KC|KH 3H QH", vira="4D", dealer=1),
            *["0 truco", "1 accept", "0 play 3C"],
        )
        assert A.TRUCO in m.legal_actions(1)
        act(m, "1 truco")
        assert m.pending_value == 6 and m.to_act() == (0,)

    def test_2x2_partner_run_waits_and_accept_overrides(self) -> None:
        m = deal("paulista", "5C 5H 5S|3C 3H 6S|4D 4H 6D|2C 2H 7S", vira="KD", dealer=3)
        act(m, "0 truco")
        assert m.to_act() == (1, 3)
        act(m, "1 run")
        assert m.phase == Phase.ANSWER and m.to_act() == (3,)
        assert refused(m, "1 accept") == ErrorCode.NOT_YOUR_TURN
        assert refused(m, "2 accept") == ErrorCode.NO_CALL_PENDING
        act(m, "3 accept")
        assert m.stake == 3 and m.phase == Phase.PLAY

    def test_2x2_team_runs_only_when_both_run(self) -> None:
        m = deal("paulista", "5C 5H 5S|3C 3H 6S|4D 4H 6D|2C 2H 7S", vira="KD", dealer=3)
        act(m, "0 truco", "3 run", "1 run")
        assert m.hand_winner == 0 and m.points == (1, 0)
        result = m.hand_result()
        assert result is not None and result.ran and result.winner == 0 and result.rounds == ()

    def test_trem_bao_called_team_sees_partner_cards(self) -> None:
        m = deal("trem-bao", "3C QC KC|KH 3H QH|2C JC AC|2D JD AD", dealer=3)
        assert m.view(1).partner_hand is None
        act(m, "0 truco")
        assert m.view(1).partner_hand == parse_cards("2D JD AD")
        assert m.view(3).partner_hand == parse_cards("KH 3H QH")
        assert m.view(0).partner_hand is None and m.view(2).partner_hand is None
        act(m, "1 accept", "0 play 3C", "1 play KH")
        assert m.view(3).partner_hand == parse_cards("3H QH")  # remembered after answering
        assert m.view(0).partner_hand is None
        paulista = act(
            deal("paulista", "3C QC KC|KH 3H QH|2C JC AC|2D JD AD", vira="4D", dealer=3), "0 truco"
        )
        assert paulista.view(1).partner_hand is None


class TestR7MaoDeOnze:
    def test_decision_comes_first_and_play_is_worth_three(self) -> None:
        m = deal("paulista", "3C QC KC|KH 3H 2H", vira="4D", score=(11, 5), dealer=1)
        assert m.kind == HandKind.SPECIAL and m.phase == Phase.DECIDE and m.to_act() == (0,)
        assert refused(m, "0 play 3C") == ErrorCode.DECISION_PENDING
        assert refused(m, "1 play11") == ErrorCode.NOT_YOUR_TURN
        act(m, "0 play11")
        assert m.stake == 3
        assert refused(m, "0 truco") == ErrorCode.TRUCO_NOT_ALLOWED
        assert refused(m, "0 play11") == ErrorCode.NO_DECISION_PENDING
        act(m, "0 play 3C", "1 play KH", "0 play KC", "1 play 3H", "1 play 2H", "0 play QC")
        assert m.hand_winner == 1 and m.points == (0, 3)  # the other team can win the 3 too

    @pytest.mark.parametrize(("variant", "score", "run"), [("paulista", 11, 1), ("mineiro", 10, 2)])
    def test_running_gives_the_other_team_a_hand(self, variant: str, score: int, run: int) -> None:
        vira = "4D" if variant == "paulista" else None
        m = deal(variant, "3C QC KC|KH 3H QH", vira=vira, score=(2, score), dealer=1)
        assert m.phase == Phase.DECIDE and m.to_act() == (1,)
        act(m, "1 run11")
        assert m.hand_winner == 0 and m.points == (run, 0)

    def test_mao_de_dez_is_worth_four(self) -> None:
        m = act(deal("mineiro", "3C QC KC|KH 3H QH", score=(10, 0), dealer=1), "0 play11")
        assert m.stake == 4

    def test_2x2_partners_see_each_other_and_one_play_settles(self) -> None:
        m = deal("paulista", "3C QC KC|KH 3H QH|2C JC AC|2D JD AD", vira="4D", score=(3, 11))
        assert m.to_act() == (1, 3)
        assert m.view(1).partner_hand == parse_cards("2D JD AD")
        assert m.view(0).partner_hand is None
        act(m, "1 run11")
        assert m.phase == Phase.DECIDE and m.to_act() == (3,)
        act(m, "3 play11")
        assert m.phase == Phase.PLAY and m.stake == 3
        # what a player was shown, they remember: the partner's cards left stay visible
        act(m, "0 play 3C", "1 play KH")
        assert m.view(3).partner_hand == parse_cards("3H QH")
        assert m.view(0).partner_hand is None and m.view(2).partner_hand is None

    def test_2x2_both_must_run(self) -> None:
        m = deal("paulista", "3C QC KC|KH 3H QH|2C JC AC|2D JD AD", vira="4D", score=(3, 11))
        act(m, "3 run11", "1 run11")
        assert m.points == (1, 0)


class TestR8MaoDeFerro:
    def test_blind_play_no_truco_no_cover_winner_takes_match(self) -> None:
        m = deal("paulista", "3C QC KC|KH 3H QH", vira="4D", score=(11, 11), dealer=1)
        assert m.kind == HandKind.IRON and m.phase == Phase.PLAY
        view = m.view(0)
        assert view.hand == () and view.blind_slots == (0, 1, 2)
        assert m.legal_actions(0) == [A.BLIND[0], A.BLIND[1], A.BLIND[2]]
        assert refused(m, "0 truco") == ErrorCode.TRUCO_NOT_ALLOWED
        act(m, "0 blind 0", "1 blind 2")  # 3C vs QH
        assert m.rounds == (0,) and m.view(0).blind_slots == (1, 2)
        assert refused(m, "0 cover KC") == ErrorCode.COVER_NOT_ALLOWED
        assert refused(m, "0 blind 0") == ErrorCode.CARD_NOT_IN_HAND
        act(m, "0 play KC", "1 blind 0")  # KC vs KH: tie, round 1 decides
        assert m.hand_winner == 0 and m.score == (12, 11) and m.match_winner == 0
        assert m.is_terminal() and m.points == (1, 0)

    def test_three_ties_deal_another_iron_hand(self) -> None:
        m = deal("mineiro", "KC QC 5C|KH QH 5H", score=(10, 10), dealer=1)
        act(m, "0 play KC", "1 play KH", "0 play QC", "1 play QH", "0 play 5C", "1 play 5H")
        assert m.phase == Phase.HAND_OVER and m.hand_winner is None and m.score == (10, 10)
        m.deal()
        assert m.kind == HandKind.IRON


class TestR9Match:
    def test_score_never_passes_target_and_match_ends(self) -> None:
        m = deal("paulista", "3C 3H 4C|2C 2H 6H", vira="4D", score=(10, 4), dealer=1)
        act(m, "0 truco", "1 accept", "0 play 3C", "1 play 2C", "0 play 3H", "1 play 2H")
        assert m.score == (12, 4) and m.points == (3, 0) and m.match_winner == 0
        assert m.phase == Phase.MATCH_OVER and m.to_act() == ()
        result = m.hand_result()
        assert result is not None and result.match_winner == 0 and not result.ran
        with pytest.raises(IllegalAction):
            m.deal()

    def test_rematch_starts_over_with_the_same_table(self) -> None:
        m = Match("mineiro", TableOptions(players=4, target=15), seed=3)
        r = m.rematch()
        assert r.score == (0, 0) and r.options == m.options and r.ruleset is m.ruleset
        assert r.hands != m.hands

    def test_target_option(self) -> None:
        m = deal("paulista", "3C 3H 4C|2C 2H 6H", vira="4D", score=(5, 0), dealer=1, target=6)
        assert m.kind == HandKind.SPECIAL


class TestR10Defaults:
    def test_defaults(self) -> None:
        m = deal("paulista", "3C 5C 4C|KH 3H 6H", vira="4D", dealer=1)  # 5C: zap
        assert m.default_action(0) == A.PLAY[Card.parse("5C")]
        assert m.default_action(1) is None
        act(m, "0 truco")
        assert m.default_action(1) == A.RUN
        onze = deal("paulista", "3C 5C 4C|KH 3H 6H", vira="4D", score=(11, 0), dealer=1)
        assert onze.default_action(0) == A.RUN11
        iron = deal("paulista", "3C 5C 4C|KH 3H 6H", vira="4D", score=(11, 11), dealer=1)
        assert iron.default_action(0) == A.BLIND[0]

    def test_timer(self) -> None:
        opts = TableOptions(timer=90)
        assert opts.timer_for(get_ruleset("trem-bao")) == 30
        assert opts.timer_for(get_ruleset("paulista")) == 90


class TestR11DeckStyle:
    def test_labels(self) -> None:
        assert Card.parse("QC").label_in(DeckStyle.TRADITIONAL) == "Q♣"
        assert Card.parse("QC").label_in(DeckStyle.SPANISH) == "10 de bastos"
        assert Card.parse("KD").label_in(DeckStyle.SPANISH) == "12 de oros"
        assert Card.parse("JH").label_in(DeckStyle.SPANISH) == "11 de copas"
        assert Card.parse("AS").label_in(DeckStyle.SPANISH) == "1 de espadas"


def test_the_house_ladder_belongs_to_the_variant_that_offers_it() -> None:
    assert DEFAULT_VARIANT == "paulista"
    assert {k: r.name for k, r in HOUSE_LADDERS.items()} == {"4-6-10-12": "mineiro"}
    assert house_ladder(get_ruleset("mineiro"), "4-6-10-12") == (4, 6, 10, 12)
    assert house_ladder(get_ruleset("paulista"), "4-6-10-12") is None  # not its own
    assert house_ladder(get_ruleset("mineiro"), None) is None
    assert house_ladder(get_ruleset("mineiro"), "5-7-9-11") == (5, 7, 9, 11)  # validated later
