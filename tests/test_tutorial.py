"""The tutorial script: replayed by the engine, covers every lesson of issue 5, breaks when illegal."""

from __future__ import annotations

import copy
import json

import pytest

from engine import Act, Action, HandKind, Phase, words
from engine.tools.scenario import replay
from engine.tutorial import (
    TutorialError,
    build_trace,
    from_data,
    load_script,
    read_script,
)


@pytest.fixture(scope="module")
def script() -> dict:
    return read_script()


def test_every_hand_is_a_scenario_that_truco_replay_accepts(script: dict) -> None:
    for hand in script["hands"]:
        result = replay(hand)
        assert result["error"] is None, result
        assert result["finished"] is True
        for key, value in hand["expect"].items():
            assert result[key] == value, (hand["name"], key)


def test_load_script_replays_each_step_and_gives_the_learner_view() -> None:
    tutorial = load_script()
    assert tutorial.seat == 0
    steps = list(tutorial.steps())
    assert len(steps) >= 20
    for _, step in steps:
        assert step.view.seat == tutorial.seat
        assert step.explanation
        assert step.yours == (step.seat == tutorial.seat)
        assert step.expects(step.action)
        assert not step.expects(Action(Act.RUN11))
    # the view after a card is played no longer holds it
    first = tutorial.hands[0]
    assert set(first.start.hand) - set(first.steps[0].view.hand) == {first.steps[0].action.card}


def test_the_lesson_covers_every_topic_of_the_issue() -> None:
    tutorial = load_script()
    acts_by_learner = {s.action.act for _, s in tutorial.steps() if s.yours}
    all_acts = {s.action.act for _, s in tutorial.steps()}
    # calling truco, accepting, raising, covering, the mão de onze decision: the learner does them
    assert {Act.PLAY, Act.TRUCO, Act.ACCEPT, Act.RAISE, Act.COVER, Act.PLAY11} <= acts_by_learner
    assert Act.RUN in all_acts  # and sees someone run
    views = [s.view for _, s in tutorial.steps()]
    assert any(None in v.rounds for v in views), "a cangou"
    assert any(v.rounds and v.rounds[0] == 0 for v in views), "a round won"
    assert all(h.start.vira is not None and len(h.start.manilhas) == 4 for h in tutorial.hands)
    assert any(h.start.kind == HandKind.SPECIAL for h in tutorial.hands), "a mão de onze"
    assert tutorial.hands[-1].steps[-1].view.phase == Phase.MATCH_OVER


def test_learner_steps_are_legal_choices_in_the_view_before_them() -> None:
    tutorial = load_script()
    for hand in tutorial.hands:
        before = hand.start
        for step in hand.steps:
            if step.yours:
                assert step.action in before.legal
            before = step.view


def test_covered_card_is_hidden_from_the_opponent_but_not_the_learner() -> None:
    tutorial = load_script()
    cover = next(s for _, s in tutorial.steps() if s.action.act == Act.COVER)
    assert cover.view.table[-1] == (0, cover.action.card, True)
    assert "coberta" not in cover.narration or cover.action.card is not None


def test_build_trace_is_json_with_views_and_texts() -> None:
    trace = build_trace()
    text = json.dumps(trace, ensure_ascii=False)
    again = json.loads(text)
    assert again["version"] == 1
    step = again["hands"][0]["steps"][0]
    assert step["action"] == "play KH"
    assert step["prompt"] and step["explanation"] and step["narration"]
    assert step["view"]["hand"] == ["6C", "4S"]
    assert again["hands"][0]["start"]["vira"] == "5D"
    assert again["hands"][-1]["result"]["match_winner"] == 0


def test_narration_names_the_call_of_each_step() -> None:
    lines = [s.narration for _, s in load_script().steps()]
    assert "Você: Truco!" in lines
    assert "Adversário: Seis!" in lines
    assert "Você: aceita e aumenta — Nove!" in lines
    assert "Adversário: Corro!" in lines
    assert "Você: joga o rei de copas (K♥)." in lines


def test_card_name_in_portuguese() -> None:
    from engine import Card

    pt = words.get("pt")  # the lesson names cards through the engine's words
    assert pt.card_name(Card.parse("QS"), article=True, label=True) == "a dama de espadas (Q♠)"
    assert pt.card_name(Card.parse("AD"), label=True) == "ás de ouros (A♦)"


def test_a_step_that_stops_being_legal_raises(script: dict) -> None:
    broken = copy.deepcopy(script)
    # round 1 cannot be covered (R5): the lesson must refuse to build
    broken["hands"][0]["actions"][0]["act"] = "cover"
    with pytest.raises(TutorialError, match="cover_not_allowed"):
        from_data(broken)


def test_a_card_not_in_hand_raises(script: dict) -> None:
    broken = copy.deepcopy(script)
    broken["hands"][1]["actions"][2]["card"] = "KH"
    with pytest.raises(TutorialError, match="card_not_in_hand"):
        from_data(broken)


def test_a_changed_outcome_raises(script: dict) -> None:
    broken = copy.deepcopy(script)
    broken["hands"][0]["expect"]["points"] = [3, 0]
    with pytest.raises(TutorialError, match="difere do esperado"):
        from_data(broken)


def test_learner_step_without_prompt_raises(script: dict) -> None:
    broken = copy.deepcopy(script)
    del broken["hands"][0]["actions"][0]["prompt"]
    with pytest.raises(TutorialError, match="prompt"):
        from_data(broken)


def test_unreadable_script_is_a_one_line_error(tmp_path) -> None:
    bad = tmp_path / "t.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(TutorialError, match="não consegui ler"):
        load_script(bad)
