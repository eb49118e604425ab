"""The table of the "Jogar agora" page (engine/browser.py), in plain Python.

The page draws only what these JSON states say, so whole matches, refusals, the robot
partner's manners (R6) and snapshots are checked here; tests/test_jogo_browser.py clicks
through the same table in a real browser.
"""

from __future__ import annotations

import json

import pytest

from engine import Match, TableOptions
from engine.browser import PERSON, Setup, Table, choices


def state(text: str) -> dict:
    return json.loads(text)


def play_out(table: Table, pick=lambda legal: legal[0]) -> dict:
    """Play the match to its end, the person choosing with ``pick``; return the last state."""
    st = state(table.state())
    for _ in range(2000):
        if st["waiting"] == "match_over":
            return st
        if st["waiting"] == "hand_over":
            st = state(table.next_hand())
        elif st["waiting"] == "robot":
            st = state(table.robot())
        else:
            st = state(table.act(pick(st["legal"])["action"]))
            assert not st["error"]
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("variant", ["paulista", "mineiro", "trem-bao"])
@pytest.mark.parametrize("players", [2, 4])
def test_whole_match_against_medio(variant: str, players: int) -> None:
    table = Table.new({"variant": variant, "players": players, "level": "medio"}, seed=11)
    st = play_out(table)
    assert st["match_winner"] in (0, 1)
    assert st["score"][st["match_winner"]] == st["target"] == 12
    assert st["legal"] == []
    assert table.think_ms, "the robots decided"
    again = state(table.rematch())
    assert again["score"] == [0, 0] and again["waiting"] in ("you", "robot")


def test_the_person_leads_the_first_hand_and_sees_only_their_view() -> None:
    st = state(Table.new({"players": 4}, seed=3).state())
    assert st["turn"] == PERSON and st["waiting"] == "you"
    assert len(st["hand"]) == 3
    assert st["cards_left"] == [3, 3, 3, 3]
    assert "partner_hand" in st and st["partner_hand"] is None
    assert st["seats"][0]["name"] == "Você"
    assert st["vira"] is not None and len(st["manilhas"]) == 4
    assert all(c["manilha"] for c in st["manilhas"])
    legal = {a["action"] for a in st["legal"]}
    assert legal == {f"play {c['code']}" for c in st["hand"]} | {"truco"}


def test_a_refused_action_changes_nothing() -> None:
    table = Table.new({"players": 2}, seed=5)
    before = table.snapshot()
    for bad in ("play 3X", "accept", "", "blind 1", "truco truco", "play11"):
        st = state(table.act(bad))
        assert st["error"] == "Essa jogada não vale agora."
        assert table.snapshot() == before
    # a card that is not in the hand
    st = state(table.state())
    mine = {c["code"] for c in st["hand"]}
    other = next(
        c for c in ("4C", "5C", "6C", "7C", "QC") if c not in mine and c != st["vira"]["code"]
    )
    assert state(table.act(f"play {other}"))["error"]
    assert table.snapshot() == before
    # nor may the person act for a robot
    table.act(st["legal"][0]["action"])
    assert state(table.state())["waiting"] == "robot"
    frozen = table.snapshot()
    assert state(table.act("play " + st["hand"][1]["code"]))["error"]
    assert table.snapshot() == frozen


def test_robot_partner_waits_for_the_person_then_follows_their_run() -> None:
    # find a deal where an opponent calls truco on the person's team in 2×2
    for seed in range(200):
        table = Table.new({"players": 4, "level": "dificil"}, seed=seed)
        st = state(table.state())
        st = state(table.act(next(a for a in st["legal"] if a["act"] == "play")["action"]))
        while st["waiting"] == "robot" and st["phase"] != "answer":
            st = state(table.robot())
        if st["phase"] == "answer" and st["call_team"] == 1:
            break
    else:
        pytest.skip("no opponent truco in 200 deals")
    assert st["waiting"] == "you", "the robot partner must not answer before its person"
    assert table.robot_seat() is None
    st = state(table.act("run"))
    assert st["waiting"] == "robot" and table.robot_seat() == 2
    st = state(table.robot())
    assert st["speech"]["2"] == "Corro"
    assert st["waiting"] in ("hand_over", "match_over")
    assert st["result"]["winner"] == 1 and st["result"]["ran"]


def test_mao_de_onze_shows_the_partners_cards_and_asks_the_person() -> None:
    setup = Setup(players=4).validated()
    match = Match("paulista", setup.options(), 9, dealer=3, score=(11, 4))
    table = Table(setup, match, robot_seed=1)
    st = state(table.state())
    assert st["kind"] == "special" and "Mão de onze" in st["kind_text"]
    assert st["waiting"] == "you" and {a["act"] for a in st["legal"]} == {"play11", "run11"}
    assert st["partner_hand"] is not None and len(st["partner_hand"]) == 3
    assert table.robot_seat() is None  # the partner waits for the person (R7 follows R6)
    st = state(table.act("play11"))
    assert st["stake"] == 3
    assert st["partner_hand"] is not None  # seen once, known for the rest of the hand


def test_iron_hand_is_played_blind() -> None:
    setup = Setup(variant="mineiro").validated()
    match = Match("mineiro", setup.options(), 4, dealer=1, score=(10, 10))
    table = Table(setup, match, robot_seed=1)
    st = state(table.state())
    assert st["kind"] == "iron" and st["hand"] == []
    assert st["blind_slots"] == [0, 1, 2]
    assert {a["action"] for a in st["legal"]} == {"blind 0", "blind 1", "blind 2"}
    st = state(table.act("blind 1"))
    assert st["cards_left"][0] == 2 and st["table"][0]["card"] is not None  # shown once played
    while st["waiting"] == "robot":
        st = state(table.robot())
    if st["waiting"] == "you":
        assert st["blind_slots"] == [0, 2]


def test_snapshot_restores_the_same_hand_mid_play() -> None:
    table = Table.new({"variant": "trem-bao", "players": 4, "level": "facil"}, seed=21)
    st = state(table.act(state(table.state())["legal"][0]["action"]))
    st = state(table.robot())
    restored = Table.restore(table.snapshot())
    assert state(restored.state()) == {**st, "think_ms": None}
    # the robots decide the same after a restore (their seeds are in the snapshot)
    a, b = state(restored.robot()), state(table.robot())
    assert {**a, "think_ms": 0} == {**b, "think_ms": 0}


@pytest.mark.parametrize(
    "text",
    ["", "{}", "[]", '{"version": 1}', '{"version": 2, "setup": {}, "match": {}}', "nada"],
)
def test_a_broken_snapshot_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="partida salva inválida"):
        Table.restore(text)


def test_setup_uses_the_table_options() -> None:
    s = Setup.from_dict(
        {
            "variant": "Mineiro",
            "players": 4,
            "level": "Difícil",
            "target": 15,
            "ladder": [4, 6, 10, 12],
        }
    )
    assert (s.variant, s.level, s.target, s.ladder) == ("mineiro", "dificil", 15, (4, 6, 10, 12))
    assert s.options() == TableOptions(players=4, target=15, ladder=(4, 6, 10, 12))
    st = state(Table.new(s, seed=1).state())
    assert st["ladder"] == [4, 6, 10, 12] and st["target"] == 15 and st["level_name"] == "difícil"
    # the variant's own ladder is the default, not a house rule
    assert Setup.from_dict({"variant": "mineiro", "ladder": [4, 8, 10, 12]}).ladder is None
    for bad in (
        {"target": 40},
        {"players": 3},
        {"variant": "truco de amostra"},
        {"level": "mestre"},
    ):
        with pytest.raises(ValueError):
            Setup.from_dict(bad)
    with pytest.raises(ValueError):
        Setup.from_dict({"variant": "paulista", "ladder": [4, 6, 10, 12]})


def test_choices_list_every_variant_and_level() -> None:
    c = choices()
    assert [v["name"] for v in c["variants"]] == ["paulista", "mineiro", "trem-bao", "gauderio"]
    assert [lv["name"] for lv in c["levels"]] == ["facil", "medio", "dificil"]
    assert c["target"] == {"min": 6, "max": 30, "default": 12}


def test_the_clock_plays_the_default_and_frees_the_robot_partner() -> None:
    # Trem Bão: 30 s always, whatever the form said
    assert Setup.from_dict({"variant": "trem-bao"}).timer == 30
    assert Setup.from_dict({"variant": "paulista"}).timer is None
    assert Setup.from_dict({"variant": "paulista", "timer": 60}).timer == 60
    table = Table.new({"players": 2}, seed=4)
    before = table.snapshot()
    assert state(table.time_out()) == state(table.state())  # no clock: nothing happens
    assert table.snapshot() == before
    table = Table.new({"variant": "mineiro", "timer": 30}, seed=4)
    st = state(table.state())
    assert st["timer"] == 30 and st["waiting"] == "you"
    strongest = table.match.default_action(PERSON)
    st = state(table.time_out())
    assert st["error"].startswith("Seu tempo acabou: jogou")
    assert st["timer"] is None and st["table"][0]["card"]["code"] == strongest.card.code
    # answering a call: running is the default, and the robot partner then decides alone (R6)
    for seed in range(200):
        t = Table.new({"players": 4, "level": "dificil", "timer": 30}, seed=seed)
        st = state(
            t.act(next(a for a in state(t.state())["legal"] if a["act"] == "play")["action"])
        )
        while st["waiting"] == "robot" and st["phase"] != "answer":
            st = state(t.robot())
        if st["phase"] == "answer" and st["call_team"] == 1:
            break
    else:
        pytest.skip("no opponent truco in 200 deals")
    st = state(t.time_out())
    assert 0 in [s for s in range(4) if s not in st["to_act"]] and t.robot_seat() == 2
    assert t.timed_out and Table.restore(t.snapshot()).timed_out
    thought = len(t.think_ms)
    st = state(t.robot())
    assert len(t.think_ms) == thought + 1, "the partner thinks for itself, not following the run"


def test_the_special_hand_banner_and_the_value_while_deciding_at_a_match_to_6() -> None:
    setup = Setup(players=2, target=6).validated()
    match = Match("paulista", setup.options(), 9, dealer=1, score=(5, 2))
    st = state(Table(setup, match, robot_seed=1).state())
    assert st["kind"] == "special" and st["phase"] == "decide"
    assert "Mão de onze (nesta partida até 6, com 5 pontos): vale 3" in st["kind_text"]
    # the page shows what the hand is worth if played, not the plain stake
    assert (st["special_value"], st["hand_value"]) == (3, 1)
    at12 = state(
        Table(
            Setup().validated(),
            Match("paulista", Setup().validated().options(), 9, dealer=1, score=(11, 2)),
            robot_seed=1,
        ).state()
    )
    assert at12["kind_text"] == "Mão de onze: vale 3, sem truco."


@pytest.mark.parametrize(
    ("rounds", "winner", "why"),
    [
        ((0, 0), 0, "Ganhamos as duas primeiras vazas."),
        ((1, 1), 1, "Eles ganharam as duas primeiras vazas."),
        ((None, 0), 0, "A 1ª vaza cangou, e quem ganha a 2ª leva a mão: ganhamos a 2ª."),
        ((None, None, 1), 1, "A 1ª e a 2ª vaza cangaram; eles ganharam a 3ª, que decidiu."),
        ((1, None), 1, "Eles ganharam a 1ª vaza e a 2ª cangou: vale quem fez a primeira."),
        ((0, 1, None), 0, "Uma vaza para cada lado e a 3ª cangou: a 1ª foi nossa."),
        ((0, 1, 1), 1, "Eles ganharam duas das três vazas."),
    ],
)
def test_one_line_on_why_the_hand_was_won_or_lost(rounds, winner, why) -> None:
    from engine import words
    from engine.browser import hand_reason_text

    v = Match("paulista", TableOptions(), 1).view(PERSON)
    assert hand_reason_text(words.get("pt"), v, winner, rounds, False) == why
    assert hand_reason_text(words.get("pt"), v, winner, rounds, True) == ""


def test_every_finished_hand_says_why_and_trem_bao_counts_tentos() -> None:
    table = Table.new({"variant": "trem-bao", "players": 2, "level": "facil"}, seed=5)
    seen = 0
    st = state(table.state())
    for _ in range(500):
        if st["waiting"] == "match_over":
            break
        if st["waiting"] == "hand_over":
            r = st["result"]
            assert ("tento" in r["text"]) != (r["winner"] is None)
            assert "ponto" not in r["text"]
            assert bool(r["why"]) == (not r["ran"] and r["winner"] is not None)
            seen += 1
            st = state(table.next_hand())
        elif st["waiting"] == "robot":
            st = state(table.robot())
        else:
            st = state(table.act(st["legal"][-1]["action"]))
    assert seen >= 3
