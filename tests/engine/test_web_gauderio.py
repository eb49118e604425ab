"""Gaudério at the table of "Jogar agora" (engine/browser.py): the points game's buttons,
the flor and envido announcements, the 24/18 targets and the Spanish deck by default."""

from __future__ import annotations

import json

import pytest

from engine.browser import Setup, Table, choices
from engine.cards import parse_cards
from engine.match import Match

ENVIDO_ACTS = {"envido", "real-envido", "falta-envido"}


def state(text: str) -> dict:
    return json.loads(text)


def at_hand(hands: str, players: int = 2) -> Table:
    """A gaudério table positioned at a given deal (the person, seat 0, is the mão)."""
    setup = Setup.from_dict({"variant": "gauderio", "players": players, "level": "medio"})
    match = Match.from_hand(
        "gauderio",
        setup.options(),
        score=(0, 0),
        dealer=players - 1,
        hands=[parse_cards(h) for h in hands.split("|")],
    )
    return Table(setup, match, robot_seed=5)


@pytest.mark.parametrize("players, target", [(2, 18), (4, 24)])
def test_whole_match_with_the_southern_targets(players: int, target: int) -> None:
    table = Table.new({"variant": "gauderio", "players": players, "level": "medio"}, seed=4)
    st = state(table.state())
    assert st["target"] == target and st["deck_style"] == "espanhol" and st["vira"] is None
    for _ in range(4000):
        if st["waiting"] == "match_over":
            break
        if st["waiting"] == "hand_over":
            st = state(table.next_hand())
        elif st["waiting"] == "robot":
            st = state(table.robot())
        else:
            legal = st["legal"]
            # call the points game whenever it is offered, accept it, then play a card
            pick = next(
                (a for a in legal if a["act"] in ENVIDO_ACTS | {"quero"}),
                next(a for a in legal if a["act"] == "play")
                if any(a["act"] == "play" for a in legal)
                else legal[0],
            )
            st = state(table.act(pick["action"]))
            assert not st["error"]
    assert st["waiting"] == "match_over"
    assert st["score"][st["match_winner"]] == target


def test_envido_buttons_answer_and_the_showdown_line() -> None:
    table = at_hand("7S 6S 3D|KC QC 5D")
    st = state(table.state())
    labels = {a["act"]: a["label"] for a in st["legal"]}
    assert {"envido", "real-envido", "falta-envido", "truco"} <= set(labels)
    assert labels["envido"] == "Envido!" and labels["falta-envido"] == "Falta envido!"
    assert st["envido_points"] == 33
    st = state(table.act("envido"))
    assert st["envido"]["state"] == "pending" and st["waiting"] == "robot"
    assert st["speech"]["0"] == "Envido!"
    while st["waiting"] == "robot" and st["envido"]["state"] == "pending":
        st = state(table.robot())
    if st["envido"]["state"] == "pending":  # the robot raised: the person answers
        assert {"quero", "nao-quero"} <= {a["act"] for a in st["legal"]}
        assert "Quero ou não quero?" in st["status"]
        st = state(table.act("quero"))
    assert st["envido"]["state"] in ("accepted", "declined")
    assert st["envido_text"] and st["envido_text"].startswith("Envido (")
    if st["envido"]["state"] == "accepted":  # 33 beats 20: ours, and their points unsaid
        assert "33 pontos" in st["envido_text"] and "20" not in st["envido_text"]
    assert st["score"][0] >= 1


def test_the_person_answers_a_robots_envido_with_quero_or_nao_quero() -> None:
    table = at_hand("KH 4S 5D|7C 6C 3D")
    st = state(table.act("play KH"))
    while st["waiting"] == "robot":
        st = state(table.robot())
        if st["envido"] is not None:
            break
    if st["envido"] is None:
        pytest.skip("the robot did not call envido with 33 points")  # pragma: no cover
    while st["waiting"] == "robot":
        st = state(table.robot())
    acts = {a["act"] for a in st["legal"]}
    assert {"quero", "nao-quero"} <= acts
    assert all(
        a["label"] in ("Quero!", "Não quero", "Real envido!", "Falta envido!", "Envido!")
        for a in st["legal"]
        if a["act"] != "play"
    )
    st = state(table.act("nao-quero"))
    assert st["envido"]["state"] == "declined" and st["score"][1] == 1
    assert st["speech"]["0"] == "Não quero"


def test_a_flor_is_sung_and_announced() -> None:
    table = at_hand("7D 6D 5D|KC QC 4S")
    st = state(table.state())
    assert not ENVIDO_ACTS & {a["act"] for a in st["legal"]}
    st = state(table.act("play 7D"))
    assert st["flor_texts"] == ["Você: Flor!"]
    assert st["score"][0] == 3


def test_choices_offer_gauderio_with_its_own_table() -> None:
    (g,) = [v for v in choices()["variants"] if v["name"] == "gauderio"]
    assert g["targets"] == {"2": 18, "4": 24} and g["min_target"] == 12
    assert g["envido"] and not g["covered_cards"] and g["deck_style"] == "espanhol"
    assert g["ladders"] == [[2, 3, 4]]
    s = Setup.from_dict({"variant": "gaudério", "players": 4, "flor": False})
    assert (s.variant, s.target, s.flor, s.covered_cards) == ("gauderio", 24, False, False)
    with pytest.raises(ValueError):
        Setup.from_dict({"variant": "gauderio", "target": 8})
